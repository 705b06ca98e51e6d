"""The editor's pure state function (scorer_wasm/web/editor_state.js), replayed on tables of event sequences
by Node's built-in test runner: tests/web/editor_state.test.mjs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).with_name("editor_state.test.mjs")


def test_editor_state_function_passes_its_event_tables() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: run `make node` (or install Node 20)")
    result = subprocess.run(
        [node, "--test", "--test-reporter=dot", str(TESTS)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    # The dot reporter prints one dot per passing test: an emptied table would otherwise pass unnoticed.
    assert result.stdout.count(".") >= 10, result.stdout
