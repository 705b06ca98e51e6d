"""Sets of code points as merged inclusive ranges, and ranges as the inside of a regular-expression class.

The scorer's rules find characters with character classes that several modules compile at import, which is
part of every ``cvb-score`` run: written as ranges rather than one character after another, a class is parsed
and compiled much faster.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["class_body", "ranges_of", "without"]


def ranges_of(code_points: Iterable[int]) -> list[tuple[int, int]]:
    """Code points as sorted, merged inclusive ranges."""
    out: list[tuple[int, int]] = []
    for cp in sorted(set(code_points)):
        if out and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp)
        else:
            out.append((cp, cp))
    return out


def without(ranges: Iterable[tuple[int, int]], code_points: Iterable[int]) -> list[tuple[int, int]]:
    """``ranges`` minus ``code_points``."""
    holes = sorted(set(code_points))
    out: list[tuple[int, int]] = []
    for lo, hi in ranges:
        for cp in holes:
            if lo <= cp <= hi:
                if lo < cp:
                    out.append((lo, cp - 1))
                lo = cp + 1
        if lo <= hi:
            out.append((lo, hi))
    return out


def class_body(ranges: Iterable[tuple[int, int]]) -> str:
    """Inclusive code-point ranges as the inside of a regular-expression character class. Written as ranges
    rather than one character after another, a class is parsed and compiled much faster (the module's import
    is part of every ``cvb-score`` run)."""
    return "".join(
        re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges
    )
