"""The kit's README steps, verbatim, on a fresh Debian (tests/starter_kit/debian_root.py makes it): inside it,
with chroot, make the virtual environment, pip install from PyPI, start the server, run the connection test at
endpoint.json's concurrency. The server's first line names trixie's Python, which must be one the kit says it is
tested on. It needs root (debootstrap and chroot) and Debian's mirror; it runs last in `make test`, which starts
making the root in the background before anything else."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.kit_servers import KIT, free_port, unpack_kit
from tests.starter_kit.debian_root import ROOT, RootError, make_root
from tests.starter_kit.test_kit_runs import python_that_passed, readme_script

pytestmark = [pytest.mark.fresh_debian, pytest.mark.xdist_group("fresh-debian")]


@pytest.fixture
def kit_in_root() -> Iterator[tuple[Path, str]]:
    """The kit unpacked into the root's /tmp: its path outside the root, and inside."""
    try:
        root = make_root()
    except RootError as exc:
        pytest.fail(str(exc))
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
