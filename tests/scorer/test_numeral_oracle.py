"""The numerals rule against two readers that share no code with it: the table-driven oracle written from the
published rule (tests/scorer/numeral_oracle.py), and cn2an (a maintained Chinese-numeral library) on the
standard forms both read. A mutation of the scorer's reader (百二 read as 102) fails these tests on its own."""

from __future__ import annotations

import ast
from pathlib import Path

import cn2an  # type: ignore[import-untyped]
import pytest
from cvb_scorer.normalise import normalise_hypothesis
from cvb_scorer.normalise.numerals import read_number
from cvb_scorer.reference.numerals import read_number as plain_read_number
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scorer import numeral_oracle as oracle

_ORACLE = Path(oracle.__file__)


def test_the_oracle_imports_nothing_of_the_scorer() -> None:
    tree = ast.parse(_ORACLE.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assert imported <= {"__future__"}, imported


# The Cantonese forms and the digit-by-digit reading the published rule names, and what it says they are.
PUBLISHED = [
    ("百二", 120), ("千五", 1500), ("三萬五", 35000), ("兩萬", 20000), ("廿三", 23), ("卅", 30), ("廿", 20),
    ("二零二六", 2026), ("一億二", 120000000), ("一百零五", 105), ("一千零五十", 1050), ("十", 10), ("十萬", 100000),
    ("三百五", 350), ("兩千", 2000), ("萬二", 12000), ("一百二十", 120), ("九九九", 999), ("兩", 2),
]  # fmt: skip


@pytest.mark.parametrize(("text", "value"), PUBLISHED)
def test_the_published_forms_read_alike_by_the_oracle_and_the_scorer(text: str, value: int) -> None:
    assert oracle.read(text) == str(value)
    assert plain_read_number(text) == str(value)
    assert read_number(text) == str(value)
    assert normalise_hypothesis(text).text == str(value)


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=10**12 - 1))
def test_any_number_written_in_standard_numerals_reads_as_its_value(n: int) -> None:
    text = oracle.write(n)
    assert oracle.read(text) == str(n), text
    assert read_number(text) == str(n), text
    assert cn2an.cn2an(text, "strict") == n, text


_SHORTHAND_HEADS = ["一", "兩", "三", "九", "一百", "三千", "兩萬", "五億"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", *_SHORTHAND_HEADS]),
    st.sampled_from(["百", "千", "萬", "億"]),
    st.sampled_from("一二三四五六七八九兩"),
)
def test_the_cantonese_shorthand_reads_as_the_oracle_reads_it(head: str, unit: str, digit: str) -> None:
    text = f"{head}{unit}{digit}"
    expected = oracle.read(text)
    got = read_number(text)
    assert got == expected, text


_PIECES = [*"零一二三四五六七八九兩十百千萬億廿卅"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8).map("".join))
def test_where_the_oracle_reads_a_number_the_scorer_reads_the_same(text: str) -> None:
    expected = oracle.read(text)
    if expected is not None:
        assert read_number(text) == expected, text
