"""The fresh Debian the kit's README steps run in: a minimal Debian trixie made by debootstrap from Debian's own
packages (python3, python3-venv and ca-certificates, nothing else) and kept in build/debian-trixie/.

Making it from nothing takes minutes of downloading and unpacking, so `make test` starts it in the background
(`python -m tests.starter_kit.debian_root --background`) before the linters run, and the test that needs it
waits for it. One lock serialises every maker; a root that exists is whole (made beside, then renamed)."""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

from generator.paths import Layout
from tests.background import start_module

SUITE = "trixie"
MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")
PACKAGES = ("python3", "python3-venv", "ca-certificates")
ROOT = Layout().root / "build" / f"debian-{SUITE}"
LOCK = ROOT.with_name(f".debian-{SUITE}.lock")
LOG = ROOT.with_name(f"debian-{SUITE}.log")
LOCAL_AUTHORITIES = Path("/usr/local/share/ca-certificates")


class RootError(RuntimeError):
    """The root cannot be made here; the message says why and what to run."""


def make_root() -> Path:
    """build/debian-trixie/, made once (waiting for a maker already at work)."""
    ROOT.parent.mkdir(parents=True, exist_ok=True)
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ROOT.is_dir():
            return ROOT
        if os.geteuid() != 0 or shutil.which("debootstrap") is None:
            raise RootError("a fresh Debian root needs root and debootstrap: run `make test-fresh-debian`")
        partial = ROOT.with_name(f"{ROOT.name}.partial")
        shutil.rmtree(partial, ignore_errors=True)
        made = subprocess.run(
            [
                "debootstrap",
                "--variant=minbase",
                f"--include={','.join(PACKAGES)}",
                SUITE,
                str(partial),
                MIRROR,
            ],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        if made.returncode != 0:
            raise RootError(f"debootstrap {SUITE} from {MIRROR} failed:\n{made.stdout[-3000:]}")
        # A machine that trusts a local certificate authority (a TLS-inspecting proxy) gives the root the same
        # trust, as a fresh install on that network would be given.
        authorities = sorted(LOCAL_AUTHORITIES.glob("*.crt")) if LOCAL_AUTHORITIES.is_dir() else []
        for authority in authorities:
            shutil.copy(authority, partial / "usr/local/share/ca-certificates" / authority.name)
        if authorities:
            subprocess.run(
                ["chroot", str(partial), "update-ca-certificates"],
                capture_output=True,
                check=True,
                timeout=300,
            )
        partial.rename(ROOT)
    return ROOT


def start_in_background() -> None:
    """Start a maker that outlives this process, unless the root exists; what it says goes to the log."""
    if ROOT.is_dir():
        return
    ROOT.parent.mkdir(parents=True, exist_ok=True)
    start_module("tests.starter_kit.debian_root", LOG)
    print(f"Making a fresh Debian {SUITE} root in the background (log: {LOG.relative_to(Layout().root)}).")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--background", action="store_true", help="start the maker and return at once")
    if parser.parse_args().background:
        start_in_background()
        return 0
    try:
        make_root()
    except RootError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
