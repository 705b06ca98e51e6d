"""The published normalisation as an ordered pipeline: one row of the methodology's table per rule, each with
its own small function and its examples. Plain code, no caches and no shortcuts: ``cvb_scorer.normalise`` is
the fast path, and the tests check on generated text that it equals ``normalise_text`` here.

Both sides go through every rule in order; the reference fold applies to the reference only. A rule with no
function states a condition that the rule before it applies (the numeral exceptions) or says what is kept.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass

from cvb_scorer._unicode import ud
from cvb_scorer.normalise.charsets import charsets
from cvb_scorer.normalise.numerals import (
    CURRENCY_RUN,
    EXCEPTION_WORDS,
    THOUSANDS,
    drop_currency,
    fold_each_run,
    join_comma_ranges,
    read_number,
)
from cvb_scorer.normalise.text import (
    LIST_COMMAS,
    NUMERAL_CHARS,
    SPACE,
    is_gap,
    join_latin_words,
    keeps_space,
)

__all__ = ["RULES", "Rule", "Side", "normalise_text"]


class Side(enum.Enum):
    REFERENCE = "reference"
    BOTH = "both"


# Whitespace characters that are controls (category Cc), which the cleanup makes a space like any other.
_WHITESPACE_CONTROLS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85")


def cleanup(text: str) -> str:
    out = []
    for ch in text:
        cat = ud.category(ch)
        if ch in _WHITESPACE_CONTROLS or cat in ("Zs", "Zl", "Zp"):
            out.append(SPACE)
        elif cat not in ("Cc", "Cf", "Cs"):
            out.append(ch)
    return "".join(out)


def width(text: str) -> str:
    # NFKC can expose whitespace or format characters (U+00A8 is a space and a combining mark): clean again.
    return cleanup(ud.normalize("NFKC", text.translate(LIST_COMMAS)))


def reference_fold(text: str) -> str:
    return fold_positions(text)[0]


def fold_positions(text: str) -> tuple[str, list[tuple[int, str, str]]]:
    """s2hk over the whole text (its phrases choose each replacement), kept only where the character is
    Simplified-only: every other character stays exactly as written. Also returns what changed."""
    from cvb_scorer.normalise.fold import converter

    simplified = charsets().simplified_only
    converted = converter().convert(text)
    out = []
    changes = []
    for k, (before, after) in enumerate(zip(text, converted, strict=True)):
        if before in simplified and after != before:
            out.append(after)
            changes.append((k, before, after))
        else:
            out.append(before)
    return "".join(out), changes


def glyph_variants(text: str) -> str:
    variants = charsets().variants
    return "".join(variants.get(ch, ch) for ch in text)


def currency_symbols(text: str) -> str:
    return re.sub(r"[Hh][Kk]\$|[Uu][Ss]\$", "", text)


def case(text: str) -> str:
    # Latin letters up to Latin Extended-B, whose case mappings have not changed in decades, so every runtime
    # lowercases them alike; a mapping to two characters (İ) is left alone.
    out = []
    for ch in text:
        low = ch.lower()
        out.append(low if 0x41 <= ord(ch) < 0x250 and len(low) == 1 else ch)
    return "".join(out)


def thousands(text: str) -> str:
    return THOUSANDS.sub("", text)


def latin_words(text: str) -> str:
    return join_latin_words(text)


def ranges(text: str) -> str:
    return join_comma_ranges(text)


def numerals(text: str) -> str:
    return fold_each_run(text, read_number)


def punctuation(text: str) -> str:
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        if not is_gap(text[i]):
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < n and is_gap(text[j]):
            j += 1
        gap, last, nxt = text[i:j], (out[-1] if out else ""), (text[j] if j < n else "")
        i = j
        if gap == "." and "0" <= last <= "9" and "0" <= nxt <= "9":
            out.append(".")
            continue
        if gap[0] == "%" and last and ("0" <= last <= "9" or last in NUMERAL_CHARS):
            out.append("%")
            last, gap = "%", gap[1:]
        if gap and last and nxt and keeps_space(last, nxt):
            out.append(SPACE)
    return "".join(out)


def currency_words(text: str) -> str:
    return CURRENCY_RUN.sub(drop_currency, text)


def compose(text: str) -> str:
    # Removing punctuation can bring a combining mark next to a new base character.
    return cleanup(ud.normalize("NFKC", text))


@dataclass(frozen=True)
class Rule:
    """One row of the published normalisation table; ``examples`` are (input, normalised) pairs on ``side``.
    ``apply`` is the rule's function (None: a condition the rule before it applies)."""

    name: str
    side: Side
    description: str
    examples: tuple[tuple[str, str], ...]
    apply: Callable[[str], str] | None


RULES: tuple[Rule, ...] = (
    Rule(
        "unicode-cleanup",
        Side.BOTH,
        "Control and format characters and lone surrogates are dropped; every kind of whitespace is a space.",
        (("你\u200b好\x00", "你好"),),
        cleanup,
    ),
    Rule(
        "width",
        Side.BOTH,
        "NFKC on Unicode 16.0.0: full-width letters and digits become half-width, compatibility ideographs "
        "become their unified form. A full-width comma becomes 、 first: it separates items, never thousands.",
        (("ＡＢＣ１２３", "abc123"), ("１００，２００", "100 200")),
        width,
    ),
    Rule(
        "reference-fold",
        Side.REFERENCE,
        "Only characters that never occur in Hong Kong Traditional writing (Simplified-only) are replaced, "
        "each by OpenCC s2hk's choice for its phrase; every other character stays exactly as written, so a "
        "Simplified character elsewhere never changes correct Cantonese (余, 于, 郁, 范, 涌, 干, 晒, 吓).",
        (
            ("个人", "個人"),
            ("头发", "頭髮"),
            ("隻脚東涌", "隻腳東涌"),
            ("干净", "干淨"),
            ("食晒饭", "食晒飯"),
        ),
        reference_fold,
    ),
    Rule(
        "glyph-variants",
        Side.BOTH,
        "Hong Kong and Taiwan glyph variants of one character fold to one form (from OpenCC's HK and TW "
        "variant tables), so neither side is charged for the other's glyph standard.",
        (("説話", "說話"), ("温度", "溫度"), ("户口", "戶口")),
        glyph_variants,
    ),
    Rule(
        "currency-symbols",
        Side.BOTH,
        "HK$ and US$ are removed as a whole; other currency symbols go with the symbols.",
        (("HK$1,200", "1200"), ("$50", "50")),
        currency_symbols,
    ),
    Rule(
        "case",
        Side.BOTH,
        "Latin letters (Basic Latin to Latin Extended-B) are lowercased.",
        (("OK WiFi", "ok wifi"),),
        case,
    ),
    Rule(
        "thousands-separator",
        Side.BOTH,
        "An ASCII comma between a digit and exactly three digits joins them; any other comma separates.",
        (("1,200", "1200"), ("1,234,567", "1234567"), ("100，200", "100 200"), ("3,5", "3 5")),
        thousands,
    ),
    Rule(
        "latin-words",
        Side.BOTH,
        "A hyphen or a dot between two letters joins them into one word (one Mix Error Rate token); between "
        "two digits a dot is a decimal point and a hyphen separates.",
        (("Wi-Fi", "wifi"), ("e-mail", "email"), ("a.m.", "am"), ("3.5", "3.5"), ("3-5", "3 5")),
        latin_words,
    ),
    Rule(
        "ranges",
        Side.BOTH,
        "Two adjacent digit words one apart before what they count (三四個, 六七歲, 四五日, 七八成, also "
        "written 六,七歲) are a range or an approximation, never a value: they stay as written.",
        (("三四個", "三四個"), ("六,七歲", "六七歲"), ("兩三日", "兩三日"), ("三十四個", "34個")),
        ranges,
    ),
    Rule(
        "numerals",
        Side.BOTH,
        "Chinese numerals become Arabic, each run read on its own; a run never crosses punctuation or a space, "
        "so separate spoken numbers stay separate. Cantonese forms are read (廿 卅 兩 百二 千五 三萬五); "
        "digit-only runs read digit by digit; 點, or a dot, between numerals or digits is a decimal point on "
        "either side: the digits after it are said one by one and a 百, 千, 萬 or 億 after them scales the "
        "whole, while a number below a hundred after it is the minutes of a clock time and keeps its digits "
        "(三點十五 = 3點15); a run with no punctuation that is not one well-formed number is read as the "
        "fewest numbers said one after another (一百二百三百), and stays as written when it cannot be; a run "
        "with no digit (百, 千萬) stays as written, except 十 alone, which is 10.",
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
            ("3點5", "3.5"),
            ("三點五萬", "35000"),
            ("3.5萬", "35000"),
            ("三.5萬", "35000"),
            ("三點五百萬", "3500000"),
            ("三點十五分", "3.15分"),
            ("3點15分", "3.15分"),
            ("三點五十分", "3.50分"),
            ("百分之五十", "50%"),
            ("一百，二百", "100 200"),
            ("一百二百", "100 200"),
            ("九八七六 五四三二", "9876 5432"),
        ),
        numerals,
    ),
    Rule(
        "numeral-exceptions",
        Side.BOTH,
        "Words that only look numeric are never folded: " + " ".join(EXCEPTION_WORDS) + ".",
        (("一齊", "一齊"), ("一啲", "一啲"), ("九龍", "九龍"), ("八達通", "八達通"), ("萬一", "萬一")),
        None,
    ),
    Rule(
        "punctuation",
        Side.BOTH,
        "Punctuation and symbols (CJK and Latin) and whitespace are removed, except one space kept between two "
        "letters, digits or numerals so words and numbers stay apart (Mix Error Rate counts them; the "
        "character error rate ignores the space); a decimal point between digits and a percent sign after a "
        "number stay.",
        (("你好，世界！", "你好世界"), ("iPhone  Pro", "iphone pro"), ("3.5%", "3.5%")),
        punctuation,
    ),
    Rule(
        "currency-words",
        Side.BOTH,
        "蚊 and 元 right after a number are removed; elsewhere (元朗, 有蚊) they stay.",
        (("百二蚊", "120"), ("一千二百蚊", "1200"), ("元朗", "元朗"), ("有蚊", "有蚊")),
        currency_words,
    ),
    Rule(
        "compose",
        Side.BOTH,
        "NFKC once more, so a combining mark that removing punctuation put next to a new letter is composed "
        "and normalising twice changes nothing.",
        (("e,\u0301", "é"),),
        compose,
    ),
    Rule(
        "fillers",
        Side.BOTH,
        "Fillers and sentence-final particles are kept: they are speech.",
        (("呢個呀嘛", "呢個呀嘛"),),
        None,
    ),
)


def normalise_text(text: str, *, side: Side) -> str:
    """``text`` through every rule of ``RULES`` in order (the reference fold only when ``side`` is the
    reference)."""
    for rule in RULES:
        if rule.apply is not None and (rule.side is Side.BOTH or side is Side.REFERENCE):
            text = rule.apply(text)
    return text
