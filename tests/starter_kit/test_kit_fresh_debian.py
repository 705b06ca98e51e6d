"""The kit's README steps, verbatim, on a fresh Debian: a minimal Debian trixie root made by debootstrap from
Debian's own packages (its python3, python3-venv and ca-certificates, nothing else), kept in build/debian-trixie/.
Inside it, with chroot: make the virtual environment, pip install from PyPI, start the server, run the connection
test at endpoint.json's concurrency. The server's first line names trixie's Python, which must be one the kit says
it is tested on.

Making the root from nothing takes minutes, so this runs as its own make target (`make test-fresh-debian`, which
.ci/run runs after `make test`), not inside `make test`. It needs root (debootstrap and chroot) and Debian's
mirror; a machine that trusts a local certificate authority (a TLS-inspecting proxy) gets the same trust in the
root, as a fresh install on that network would be given."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.kit_servers import KIT, LAYOUT, free_port, unpack_kit
from tests.starter_kit.test_kit_runs import python_that_passed, readme_script

pytestmark = [pytest.mark.fresh_debian, pytest.mark.xdist_group("kit-servers")]

SUITE = "trixie"
MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")
PACKAGES = ("python3", "python3-venv", "ca-certificates")
ROOT = LAYOUT.root / "build" / f"debian-{SUITE}"
LOCAL_AUTHORITIES = Path("/usr/local/share/ca-certificates")


def make_root() -> Path:
    """build/debian-trixie/, made once: debootstrap into a folder beside it, then renamed, so a root that exists
    is whole."""
    ROOT.parent.mkdir(parents=True, exist_ok=True)
    with (ROOT.parent / f".debian-{SUITE}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ROOT.is_dir():
            return ROOT
        if os.geteuid() != 0 or shutil.which("debootstrap") is None:
            pytest.fail("a fresh Debian root needs root and debootstrap: run `make test-fresh-debian`")
        partial = ROOT.with_name(f"{ROOT.name}.partial")
        shutil.rmtree(partial, ignore_errors=True)
        include = ",".join(PACKAGES)
        made = subprocess.run(
            ["debootstrap", "--variant=minbase", f"--include={include}", SUITE, str(partial), MIRROR],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        assert made.returncode == 0, f"debootstrap {SUITE} from {MIRROR} failed:\n{made.stdout[-3000:]}"
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


@pytest.fixture
def kit_in_root() -> Iterator[tuple[Path, str]]:
    """The kit unpacked into the root's /tmp: its path outside the root, and inside."""
    root = make_root()
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")  # this machine's name servers, as on install
    inside = f"/tmp/kit-{uuid.uuid4().hex}"
    folder = root / inside.lstrip("/")
    folder.mkdir(parents=True)
    try:
        unpack_kit(folder)
        (folder / "node_modules").unlink()  # the project's Node packages, which the Python steps never use
        yield folder, inside
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_readme_steps_run_verbatim_on_a_fresh_debian(kit_in_root: tuple[Path, str]) -> None:
    folder, inside = kit_in_root
    port = free_port()
    environment = {"PATH": "/usr/bin:/bin", "HOME": inside, "PORT": str(port), "HOST": "127.0.0.1"}
    script = f"cd {inside} && {{\n{readme_script(port)}\n}}"
    variables = [f"{k}={v}" for k, v in environment.items()]
    done = subprocess.run(
        ["chroot", str(ROOT), "/usr/bin/env", "-i", *variables, "/bin/bash", "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    log = folder / "server.log"
    server_log = log.read_text(encoding="utf-8") if log.exists() else ""
    python = python_that_passed(done, server_log)
    assert python in KIT.versions.python_tested
    version = (ROOT / "usr/bin/python3").resolve().name.removeprefix("python")
    assert python == version  # trixie's own Python, not the project's
