"""strict_json: the scanner fast path reads exactly what ``json.loads`` reads, and refuses what it refuses (plus
repeated keys), with a phrase instead of an exception the caller must know about."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cvb_scorer import strict_json
from hypothesis import given, settings
from hypothesis import strategies as st

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)
DECORATION = st.sampled_from(["", " ", "\t", "\r", "\n", "x", ",", "]", "}", "\u2028", "\ufeff"])


def _outcome(read: Any, text: str) -> tuple[str, Any]:
    try:
        return "ok", read(text)
    except (ValueError, strict_json.JsonProblem):
        return "refused", None


@settings(max_examples=300, deadline=None)
@given(value=VALUES, before=DECORATION, after=DECORATION)
def test_the_fast_path_reads_what_json_loads_reads(value: Any, before: str, after: str) -> None:
    text = before + json.dumps(value, ensure_ascii=False) + after
    assert _outcome(strict_json.loads, text) == _outcome(json.loads, text)


@settings(max_examples=200, deadline=None)
@given(value=VALUES, cut=st.integers(min_value=0, max_value=40))
def test_a_truncated_text_is_refused_by_both_or_read_by_both(value: Any, cut: int) -> None:
    text = json.dumps(value)[:cut]
    assert _outcome(strict_json.loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ('{"a": 1, "a": 2}', 'the key "a" appears twice in one object'),
        ('[{"b": {"c": 1, "c": 1}}]', 'the key "c" appears twice in one object'),
        ("[" * 100_000, "its brackets nest too deeply to read"),
        ("9" * 5000, "it holds a number with too many digits to read"),
        ('{"a": }', "Expecting value at column 7"),
        ('{"a": 1}\n{"b": 2}', "Extra data at line 2, column 1"),
    ],
)
def test_refusals_are_phrases(text: str, phrase: str) -> None:
    with pytest.raises(strict_json.JsonProblem) as refused:
        strict_json.loads(text)
    assert str(refused.value).startswith(phrase)


def test_a_repeated_key_names_the_key() -> None:
    with pytest.raises(strict_json.RepeatedKey) as refused:
        strict_json.loads('{"id": "a", "text": "x", "id": "b"}')
    assert refused.value.key == "id"
