"""Published, versioned normalisation.

Both sides go through the same rules, in the order of ``RULES``; only the reference is script-folded. The
hypothesis is never folded to Traditional: Simplified output is charged, and the diagnostics say how much of
the error it was. Every rule is a small function here and a row of ``RULES``, which the methodology page
renders (with examples that the tests check against the code).

Normalisation never raises on any string and is idempotent: normalising a normalised text changes nothing.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from cvb_scorer.normalise.charsets import has_simplified_only
from cvb_scorer.normalise.fold import FoldChange, fold_reference
from cvb_scorer.normalise.numerals import (
    EXCEPTION_WORDS,
    currency_removal_can_join_numerals,
    drop_currency_words,
    fold_numerals,
)
from cvb_scorer.normalise.text import (
    SPACE,
    clean_unicode,
    drop_currency_prefixes,
    fold_variants,
    lowercase_latin,
    nfkc,
    plain_han,
    strip_plain,
    strip_punctuation,
)

# Bump whenever any rule changes what it produces; it is part of the scoring signature.
NORM_VERSION = 2

__all__ = [
    "EXCEPTION_WORDS",
    "NORM_VERSION",
    "RULES",
    "FoldChange",
    "Normalised",
    "Rule",
    "Side",
    "normalise_hypothesis",
    "normalise_reference",
    "rules_table",
]


class Side(enum.Enum):
    REFERENCE = "reference"
    BOTH = "both"


@dataclass(frozen=True)
class Rule:
    """One row of the published normalisation table; ``examples`` are (input, normalised) pairs on ``side``."""

    name: str
    side: Side
    description: str
    examples: tuple[tuple[str, str], ...]


RULES: tuple[Rule, ...] = (
    Rule(
        "unicode-cleanup",
        Side.BOTH,
        "Control and format characters and lone surrogates are dropped; every kind of whitespace is a space.",
        (("你\u200b好\x00", "你好"),),
    ),
    Rule(
        "width",
        Side.BOTH,
        "NFKC on Unicode 16.0.0: full-width letters and digits become half-width, compatibility ideographs "
        "become their unified form.",
        (("ＡＢＣ１２３", "abc123"),),
    ),
    Rule(
        "reference-fold",
        Side.REFERENCE,
        "A reference containing a Simplified-only character is folded to Hong Kong Traditional with OpenCC "
        "s2hk, but only at Simplified-only or ambiguous positions; correct Cantonese "
        "(晒, 吓, 搵, 戶) is never "
        "rewritten, and a reference without Simplified-only characters is left as it is.",
        (("个人", "個人"), ("干净", "乾淨"), ("头发", "頭髮"), ("食晒飯睇吓", "食晒飯睇吓")),
    ),
    Rule(
        "glyph-variants",
        Side.BOTH,
        "Hong Kong and Taiwan glyph variants of one character fold to one form (from OpenCC's HK and TW "
        "variant tables), so neither side is charged for the other's glyph standard.",
        (("説話", "說話"), ("温度", "溫度"), ("户口", "戶口")),
    ),
    Rule(
        "currency-symbols",
        Side.BOTH,
        "HK$ and US$ are removed as a whole; other currency symbols go with the symbols.",
        (("HK$1,200", "1200"), ("$50", "50")),
    ),
    Rule(
        "case",
        Side.BOTH,
        "Latin letters (Basic Latin to Latin Extended-B) are lowercased.",
        (("OK WiFi", "ok wifi"),),
    ),
    Rule(
        "punctuation",
        Side.BOTH,
        "Punctuation and symbols (CJK and Latin) and whitespace are removed, except a space kept between two "
        "Latin or digit characters so words stay apart for MER; a thousands comma joins, a decimal point "
        "between digits and a percent sign after a number stay.",
        (("你好，世界！", "你好世界"), ("iPhone  Pro", "iphone pro"), ("3.5%", "3.5%")),
    ),
    Rule(
        "numerals",
        Side.BOTH,
        "Chinese numerals become Arabic, each run read on its own, with Cantonese forms (廿 卅 兩 百二 千五 "
        "三萬五); digit-only runs read digit by digit; 點 between numerals is a decimal point; a run with no "
        "digit (百, 千萬) or that is not a well-formed number stays as written, except 十 alone, which is 10.",
        (
            ("百二", "120"),
            ("一百二十", "120"),
            ("千五", "1500"),
            ("三萬五", "35000"),
            ("廿", "20"),
            ("兩個", "2個"),
            ("二零二六", "2026"),
            ("一百萬", "1000000"),
            ("100萬", "1000000"),
            ("三點五", "3.5"),
            ("百分之五十", "50%"),
        ),
    ),
    Rule(
        "numeral-exceptions",
        Side.BOTH,
        "Words that only look numeric are never folded: " + " ".join(EXCEPTION_WORDS) + ".",
        (("一齊", "一齊"), ("一啲", "一啲"), ("九龍", "九龍"), ("八達通", "八達通"), ("萬一", "萬一")),
    ),
    Rule(
        "currency-words",
        Side.BOTH,
        "蚊 and 元 right after a number are removed; elsewhere (元朗, 有蚊) they stay.",
        (("百二蚊", "120"), ("一千二百蚊", "1200"), ("元朗", "元朗"), ("有蚊", "有蚊")),
    ),
    Rule(
        "fillers",
        Side.BOTH,
        "Fillers and sentence-final particles are kept: they are speech.",
        (("呢個呀嘛", "呢個呀嘛"),),
    ),
)


@dataclass(frozen=True, init=False)
class Normalised:
    """A normalised text. ``text`` keeps a space between Latin/digit runs (for MER); ``cer`` is the same text
    without those spaces (what CER counts). ``fold_changes`` lists what the reference fold changed."""

    source: str
    text: str
    cer: str
    fold_changes: tuple[FoldChange, ...] = ()

    def __init__(self, source: str, text: str, cer: str, fold_changes: tuple[FoldChange, ...] = ()) -> None:
        # Two per clip: filling the instance dict directly is half the cost of the generated frozen
        # ``__init__`` (a call of ``object.__setattr__`` per field). Assignment still raises afterwards.
        fields = self.__dict__
        fields["source"] = source
        fields["text"] = text
        fields["cer"] = cer
        fields["fold_changes"] = fold_changes


def _both_sides(text: str) -> str:
    stripped = strip_plain(text)
    if stripped is None:
        text = fold_variants(text)
        text = drop_currency_prefixes(text)
        text = lowercase_latin(text)
        text = strip_punctuation(text)
    else:
        text = stripped
    return _numerals_onwards(text)


def _numerals_onwards(text: str) -> str:
    text = fold_numerals(text)
    # Dropping 蚊/元 after a number can bring two numeral runs together (0蚊點0 → 0點0, where 點 is now a decimal
    # point), so the two rules run to a fixed point; each round removes characters, so it ends. Numerals are
    # folded again only when the removal can have joined something (another pass over a long call otherwise).
    while (dropped := drop_currency_words(text)) != text:
        text = fold_numerals(dropped) if currency_removal_can_join_numerals(text) else dropped
    # Removing punctuation can bring a combining mark next to a new base character; composing again here keeps
    # normalisation idempotent.
    return nfkc(text)


def _prepare(text: str) -> str:
    # A str may hold lone surrogates (e.g. decoded with surrogateescape); they are dropped before NFKC.
    return nfkc(clean_unicode(text))


def normalise_hypothesis(text: str) -> Normalised:
    """Normalise a system's output: every both-sides rule, never the script fold."""
    plain = plain_han(text)
    if plain is None:
        out = _both_sides(_prepare(text))
    else:
        out = _numerals_onwards(plain[0]) if plain[1] else plain[0]
    return Normalised(text, out, out.replace(SPACE, ""))


@lru_cache(maxsize=512)
def normalise_reference(text: str) -> Normalised:
    """Normalise a reference: the gated Hong Kong Traditional fold, then every both-sides rule.

    Cached by the reference string: the editor redraws on every keystroke but the reference does not change.
    """
    plain = plain_han(text)
    # Without a Simplified-only character the fold leaves a text alone (and punctuation is never one).
    if plain is not None and not has_simplified_only(text):
        out = _numerals_onwards(plain[0]) if plain[1] else plain[0]
        return Normalised(text, out, out.replace(SPACE, ""))
    folded, changes = fold_reference(_prepare(text))
    out = _both_sides(folded)
    return Normalised(text, out, out.replace(SPACE, ""), changes)


def rules_table() -> list[dict[str, str]]:
    """``RULES`` as rows of strings for the methodology page: name, side, description, examples."""
    return [
        {
            "name": rule.name,
            "applies_to": rule.side.value,
            "description": rule.description,
            "examples": "; ".join(f"{before} → {after}" for before, after in rule.examples),
        }
        for rule in RULES
    ]
