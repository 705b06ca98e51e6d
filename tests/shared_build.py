"""What the test processes share of the build: one lock for the work that fills the build's caches, and builds
made once per test run for every process of it.

A cold build prints every PDF (build/pdf-cache/), compresses Pyodide's WebAssembly and the editor's start-up
snapshot with Brotli (build/cache/precompressed/) and runs mkdocs per edition (build/cache/mkdocs/): minutes of
CPU, the same whichever process does it, and wasted when two xdist workers do it at once. Under the lock the
second waits and then reads the first's copies, so each is made once. The lock file lives in the caches' own
folder, so it serialises exactly the processes that share those caches (every test process of one checkout).

`make test` starts a default build under the same lock in the background (`python -m tests.shared_build
--background`) before the linters run, so that a clean clone's caches fill while the CPU would otherwise wait on
the type checker; a test that builds first waits for it, then finds every copy made.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from generator.paths import Layout
from tests.background import start_module

LOCK = Layout().root / "build" / "cache" / ".tests-build.lock"
LOG = Layout().root / "build" / "warm-caches.log"

_held = threading.local()


@contextmanager
def _flock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def cache_filling() -> Iterator[None]:
    """Held around a build or a print that may fill the build's caches; re-entrant within one thread (a second
    flock on the same file from the same process would wait for itself)."""
    depth = getattr(_held, "depth", 0)
    if depth:
        _held.depth = depth + 1
        try:
            yield
        finally:
            _held.depth = depth
        return
    with _flock(LOCK):
        _held.depth = 1
        try:
            yield
        finally:
            _held.depth = 0


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """A folder every process of this test run sees: the parent of the workers' own temporary folders under
    xdist, this process's own otherwise (never one another run could share)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> Path:
    """`run_folder/name`, made by `make(path)` in the first process that asks, under the cache lock; the others
    wait for it and use it. A failed make leaves nothing behind, so the next process that asks tries again (and
    reports its own failure)."""
    folder = run_folder(factory)
    target = folder / name
    done = folder / f"{name}.done"
    with _flock(folder / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(target, ignore_errors=True)
            with cache_filling():
                make(target)
            done.touch()
    return target


def warm_caches() -> None:
    """A default build into a folder thrown away after, under the lock: it fills every cache a build reads."""
    from generator.build import build_site

    with cache_filling(), tempfile.TemporaryDirectory(prefix="cvb-warm-") as folder:
        build_site(Layout(), out=Path(folder) / "site")
    print("The build's caches are filled.", flush=True)


def start_in_background() -> None:
    """Start warm_caches in a process that outlives this one; what it says goes to the log."""
    start_module("tests.shared_build", LOG)
    print(f"Filling the build's caches in the background (log: {LOG.relative_to(Layout().root)}).")


def main() -> int:
    parser = argparse.ArgumentParser(description="Fill the build's caches (a default build, under the lock).")
    parser.add_argument("--background", action="store_true", help="start the build and return at once")
    if parser.parse_args().background:
        start_in_background()
    else:
        warm_caches()
    return 0


if __name__ == "__main__":
    sys.exit(main())
