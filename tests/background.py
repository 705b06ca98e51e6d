"""Start a module of the tests as a process that outlives the one starting it (`make test` does, before the
linters), its output going to a log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from generator.paths import Layout


def start_module(module: str, log: Path) -> None:
    """Run ``python -m module`` from the repository in a session of its own, writing what it says to `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        subprocess.Popen(
            [sys.executable, "-m", module],
            cwd=Layout().root,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
