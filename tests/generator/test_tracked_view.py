"""The tracked config view is typed: its Protocols are generated from the models and current, and mypy
refuses a misspelt key while the right one passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.config.view_gen import OUTPUT, view_source
from generator.paths import Layout


def test_the_typed_view_is_generated_from_the_current_models() -> None:
    assert OUTPUT.read_text(encoding="utf-8") == view_source(), (
        "generator/config/tracked_view.py is stale; run `python -m generator.config.view_gen`"
    )


@pytest.mark.slow
def test_mypy_refuses_a_misspelt_key_and_accepts_the_right_one(tmp_path: Path) -> None:
    from mypy import api

    probe = tmp_path / "probe.py"
    probe.write_text(
        "from generator.config import Config\n"
        "from generator.pages.derive import tracked\n"
        "from generator.provenance import Num\n\n"
        "def right(config: Config) -> Num:\n"
        "    return tracked(config).protocol.deadline.floor_ms\n\n"
        "def wrong(config: Config) -> Num:\n"
        "    return tracked(config).protocol.deadlin.floor_ms\n",
        encoding="utf-8",
    )
    root = Layout().root
    out, _, status = api.run(
        ["--strict", "--no-incremental", "--config-file", str(root / "pyproject.toml"), str(probe)]
    )
    assert status == 1
    errors = [line for line in out.splitlines() if ": error:" in line]
    # Every error is on the misspelt line (the right one, line 6, passes), and it names the key.
    assert errors and all("probe.py:9: error:" in line for line in errors), out
    assert any('"VProtocolFile" has no attribute "deadlin"' in line for line in errors), out
