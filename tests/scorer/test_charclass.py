"""Code-point ranges and the regular-expression classes written from them (``cvb_scorer._charclass``)."""

from __future__ import annotations

import re
from itertools import pairwise

from cvb_scorer._charclass import class_body, ranges_of, without
from hypothesis import given
from hypothesis import strategies as st

# Code points near the characters a class treats specially ("]", "-", "^", "\\") and in the Han blocks.
CODE_POINTS = st.one_of(st.integers(0x20, 0x7E), st.integers(0x4E00, 0x4E40), st.integers(0x20000, 0x20010))


def expand(ranges: list[tuple[int, int]]) -> set[int]:
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


@given(st.sets(CODE_POINTS))
def test_ranges_of_are_sorted_disjoint_merged_and_hold_exactly_the_code_points(points: set[int]) -> None:
    ranges = ranges_of(points)
    assert expand(ranges) == points
    assert all(lo <= hi for lo, hi in ranges)
    assert all(a_hi + 1 < b_lo for (_, a_hi), (b_lo, _) in pairwise(ranges))


@given(st.sets(CODE_POINTS), st.sets(CODE_POINTS))
def test_without_removes_exactly_the_holes(points: set[int], holes: set[int]) -> None:
    assert expand(without(ranges_of(points), holes)) == points - holes


@given(st.sets(CODE_POINTS, min_size=1), st.sets(CODE_POINTS))
def test_a_class_matches_exactly_its_code_points(points: set[int], probes: set[int]) -> None:
    pattern = re.compile(f"[{class_body(ranges_of(points))}]")
    for cp in points | probes:
        assert (pattern.fullmatch(chr(cp)) is not None) == (cp in points), hex(cp)
