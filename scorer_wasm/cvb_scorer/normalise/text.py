"""Character-level rules applied to both sides: Unicode cleanup, NFKC, glyph variants, currency symbols, Latin
case, punctuation and whitespace."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from cvb_scorer._charclass import class_body, ranges_of, without
from cvb_scorer._unicode import ud
from cvb_scorer.normalise.charsets import charsets
from cvb_scorer.tokens import HAN_CLASS, HAN_RANGES, class_code

SPACE = " "
_WHITESPACE_CONTROLS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85")


class _CleanupTable(dict[int, "str | None"]):
    """A ``str.translate`` table filled on first sight of each character (the loop then runs in C)."""

    def __missing__(self, cp: int) -> str | None:
        ch = chr(cp)
        result: str | None
        if ch in _WHITESPACE_CONTROLS:
            result = SPACE
        else:
            cat = ud.category(ch)
            if cat in ("Zs", "Zl", "Zp"):
                result = SPACE
            # Controls, format characters (bidi marks, zero-width joiners) and lone surrogates carry no
            # speech.
            elif cat in ("Cc", "Cf", "Cs"):
                result = None
            else:
                result = ch
        if len(self) < 65536:
            self[cp] = result
        return result


_CLEANUP = _CleanupTable()


# Every character the cleanup changes: the code points of categories Cc, Cf, Cs, Zs, Zl and Zp in Unicode
# 16.0.0 but the space (tests/scorer/test_normalise.py checks them against the pinned tables). A text without
# any (nearly every one) needs no cleanup pass; a text with a symbol such as ○ needs none either.
CLEANUP_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F), (0x007F, 0x00A0), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x1680, 0x1680),
    (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x2064), (0x2066, 0x206F),
    (0x3000, 0x3000), (0xD800, 0xDFFF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)  # fmt: skip
_NEEDS_CLEANUP = re.compile(f"[{class_body(CLEANUP_RANGES)}]")


def clean_unicode(text: str) -> str:
    """Drop control and format characters and lone surrogates; every kind of whitespace becomes a space."""
    if _NEEDS_CLEANUP.search(text) is None:
        return text
    return text.translate(_CLEANUP)


# Printable ASCII and the Han blocks other than the compatibility ideographs: NFKC leaves these characters
# alone, so a text made only of them is its own NFKC (and needs no cleanup after it): most texts. (Normalising
# a long text run by run instead of in one call bought about one per cent of a keystroke at 1,500 characters:
# not worth a route of its own.)
_STABLE_HAN = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in HAN_RANGES if lo not in (0xF900, 0x2F800))
_UNSTABLE = re.compile(f"[^\x20-\x7e{_STABLE_HAN}]")


def is_stable(text: str) -> bool:
    """Whether ``text`` is made only of printable ASCII and Han other than the compatibility ideographs, which
    the cleanup, the list commas and NFKC all leave alone."""
    return _UNSTABLE.search(text) is None


def nfkc(text: str) -> str:
    """NFKC on the pinned Unicode tables: full-width forms to half-width, compatibility ideographs to unified."""
    if text.isascii() or _UNSTABLE.search(text) is None:
        return text
    # NFKC can expose new whitespace or format characters (e.g. U+00A8 → space + combining diaeresis).
    return clean_unicode(ud.normalize("NFKC", text))


@cache
def _variant_chars() -> re.Pattern[str]:
    return re.compile("[" + "".join(map(re.escape, charsets().variants)) + "]")


def fold_variants(text: str) -> str:
    """Fold HK/TW glyph variants (說/説, 溫/温, 戶/户 ...) to one form on both sides."""
    # Variants are rare in a text: replacing the matches beats translating every character.
    return _variant_chars().sub(_fold_variant, text)


def _fold_variant(match: re.Match[str]) -> str:
    return charsets().variants[match.group()]


# HK$ and US$; then the currency codes as whole words (HKD, USD, RMB, CNY, in any case), once the $ forms have
# gone (usdHK$1 is usd and 1).
_CURRENCY_PREFIXES = re.compile(r"(?:HK|US)\$", re.IGNORECASE)
_CURRENCY_CODES = re.compile("HKD|USD|RMB|CNY", re.IGNORECASE)
# What each becomes: nothing for the local currency, the name the currency-words rule writes after the number
# for any other.
_WRITTEN = {"hk$": "", "hkd": "", "us$": "美元", "usd": "美元", "rmb": "人民幣", "cny": "人民幣"}
# What every currency prefix or code has (a $, or a code's last letter), for a cheap test first.
_PREFIX_TRIGGER = re.compile("[$DBYdby]")


def drop_currency_prefixes(text: str) -> str:
    """Remove HK$ and HKD, and write US$ and USD as 美元 and RMB and CNY as 人民幣 (the currency-words rule
    puts them after the number); bare currency symbols go with the other symbols."""
    if _PREFIX_TRIGGER.search(text) is None:
        return text
    if "$" in text:
        text = _CURRENCY_PREFIXES.sub(_prefix, text)
    return _CURRENCY_CODES.sub(_code, text)


def _prefix(match: re.Match[str]) -> str:
    return _WRITTEN[match.group().lower()]


def _code(match: re.Match[str]) -> str:
    # A code is a whole word: no letter (of any alphabet) right before or after it (usde, xrmb are words).
    start, end = match.span()
    text = match.string
    if (start and class_code(text[start - 1]) == "L") or (end < len(text) and class_code(text[end]) == "L"):
        return match.group()
    return _WRITTEN[match.group().lower()]


@cache
def _lower_table() -> dict[int, str]:
    # Latin letters up to Latin Extended-B, whose case mappings have not changed in decades, so every runtime
    # lowercases them alike; mappings that would produce two characters (İ) are left alone.
    table: dict[int, str] = {}
    for cp in range(0x41, 0x250):
        ch = chr(cp)
        low = ch.lower()
        if low != ch and len(low) == 1:
            table[cp] = low
    return table


UPPER_CANDIDATES = re.compile("[A-Z\u00c0-\u024f]+")
# Every byte but the UTF-8 lead bytes of U+00C0 to U+027F (0xC3 to 0xC9), which covers Latin-1's letters and
# Latin Extended-A and -B: deleting them leaves nothing when a text has none of those letters.
_NOT_LATIN_LEAD = bytes(b for b in range(256) if not 0xC3 <= b <= 0xC9)


def lowercase_latin(text: str) -> str:
    if text.isascii():
        return text.lower()
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (the cleanup removes them before this rule)
        data = b"\xc3"
    if not data.translate(None, _NOT_LATIN_LEAD):
        # Only ASCII letters to lowercase (most code-switched text): in UTF-8 every byte below 0x80 is an ASCII
        # character and every other character is bytes of 0x80 and above, which ``bytes.lower`` leaves alone,
        # so lowercasing the bytes lowercases exactly A-Z, in C.
        lowered = data.lower()
        return text if lowered == data else lowered.decode("utf-8")
    # Only the runs of candidates are translated, not every character of a mostly Han text.
    return UPPER_CANDIDATES.sub(_lower_run, text)


def _lower_run(match: re.Match[str]) -> str:
    return match.group().translate(_lower_table())


# The Simplified forms of numeral characters, read as their Hong Kong forms; each is still charged as the
# Simplified character it is (the numerals rule writes it before the number it is part of).
SIMPLIFIED_NUMERALS = {"万": "萬", "两": "兩", "亿": "億", "点": "點"}
NUMERAL_CHARS = frozenset("零〇一二三四五六七八九十百千萬億兩廿卅卌万两亿")
DECIMAL_WORD = "點"
DECIMAL_WORDS = frozenset("點点")
# Half (past the hour): 三點半 is half past three (the clock-times rule).
CLOCK_HALF = "半"


class _GapTable(dict[int, str]):
    """Maps punctuation, symbols and spaces to a space and every other character to itself (filled lazily)."""

    def __missing__(self, cp: int) -> str:
        ch = chr(cp)
        result = SPACE if ch == SPACE or ud.category(ch)[0] in "PS" else ch
        if len(self) < 65536:
            self[cp] = result
        return result


GAPS = _GapTable()


def is_gap(ch: str) -> bool:
    """Punctuation, a symbol or a space: what the punctuation rule removes."""
    return GAPS[ord(ch)] == SPACE


# Full-width and small commas are list separators (一百，二百), never thousands separators: they become the
# ideographic enumeration comma before NFKC, which would otherwise make them the ASCII comma of 1,200.
LIST_COMMAS = {0xFF0C: "、", 0xFE50: "、"}


def width(text: str) -> str:
    """The width rule: list commas, then NFKC on the pinned tables."""
    if "，" in text or "﹐" in text:
        text = text.translate(LIST_COMMAS)
    return nfkc(text)


# A hyphen or a dot with something on both sides that may be a letter: Han characters and ASCII other than
# letters never are, and most of a transcript's dots sit between Han characters (the loop below still asks
# ``class_code``; the look-behind sits after the mark so that the engine scans for marks first).
_NEVER_LETTER = f"{HAN_CLASS}\x00-\x40\x5b-\x60\x7b-\x7f"
LATIN_JOINERS = re.compile(f"[-.](?<=[^{_NEVER_LETTER}][-.])(?=[^{_NEVER_LETTER}])")


def join_latin_words(text: str) -> str:
    """A hyphen or a dot between two letters joins them into one word (Wi-Fi → WiFi, e-mail → email)."""
    out = []
    pos = 0
    for match in LATIN_JOINERS.finditer(text):
        k = match.start()  # 0 < k < len(text) - 1: the look-around needs a character on each side
        if class_code(text[k - 1]) == "L" and class_code(text[k + 1]) == "L":
            out.append(text[pos:k])
            pos = k + 1
    if not pos:
        return text
    out.append(text[pos:])
    return "".join(out)


_GAP_CANDIDATE = re.compile(f"[^0-9A-Za-z{HAN_CLASS}]")
_NUMBERISH = NUMERAL_CHARS | DECIMAL_WORDS | {CLOCK_HALF}
# What may still be part of a number or a time on either side of a removed gap: a digit, a numeral or 點 before
# it, and a digit, a numeral, 點 or 半 after it.
_NUMBER_LEFT = NUMERAL_CHARS | DECIMAL_WORDS | set("0123456789")
_NUMBER_RIGHT = _NUMBER_LEFT | {CLOCK_HALF}
# What a removed gap leaves between two parts of numbers that joined would read as another number (3，百 is not
# 300; 百，萬一 is not 1001000; 3點，半 is not half past three). Never whitespace, which is not there the next
# time round: this mark is, and it keeps them apart again.
NUMBER_BREAK = "、"


_DIGITS = frozenset("0123456789")
_NUMBER_WORDS = _NUMBER_RIGHT - _DIGITS


# The commas that separate items (what the width rule leaves of a full-width or small comma, and an ASCII comma
# that is not a thousands separator): between two numbers they are an enumeration (三、四 is 3 and 4, never 34).
LIST_SEPARATORS = frozenset(",、")


def separator(before: Sequence[str], end: int, after: Sequence[str], start: int, *, gap: str = "") -> str:
    """What a removed ``gap`` (punctuation, symbols, whitespace) leaves between what is kept before it,
    ``before[:end]`` (``before[end - 1]`` is the last character kept), and ``after[start]``: one space between
    two letters, so that Latin words stay apart for the Mix Error Rate; ``NUMBER_BREAK`` between parts of
    numbers that would otherwise join into another number; nothing elsewhere. Two numbers in digits join (their
    digits stay the digits, and a number is one Mix Error Rate token) unless a comma of ``LIST_SEPARATORS``
    stands between them (an enumeration: 3、4) or one of them touches a numeral left as written (0億, 00百)."""
    left, right = before[end - 1], after[start]
    if left in _NUMBER_LEFT and right in _NUMBER_RIGHT:
        if left in _DIGITS and right in _DIGITS:
            if not LIST_SEPARATORS.isdisjoint(gap):
                return NUMBER_BREAK
            return NUMBER_BREAK if _touches_number_word(before, end, after, start) else ""
        return NUMBER_BREAK
    if class_code(left) == "L" and class_code(right) == "L":
        return SPACE
    return ""


def _touches_number_word(before: Sequence[str], end: int, after: Sequence[str], start: int) -> bool:
    """Whether the number in digits that ``before[:end]`` ends with, or the one ``after[start:]`` starts with (a dot
    between two digits is part of it), touches a numeral or a decimal word."""
    k = end - 1
    while k >= 0 and (before[k] in _DIGITS or (before[k] == "." and k > 0 and before[k - 1] in _DIGITS)):
        k -= 1
    if k >= 0 and before[k] in _NUMBER_WORDS:
        return True
    n = len(after)
    k = start
    while k < n and (after[k] in _DIGITS or (after[k] == "." and k + 1 < n and after[k + 1] in _DIGITS)):
        k += 1
    return k < n and after[k] in _NUMBER_WORDS


_SPACES = re.compile(" +")


def drop_whitespace(text: str) -> str:
    """Whitespace is removed before anything is read, except one space between two letters (two Latin words
    stay two words): 總 共 三 千 reads as 總共三千, 9876 5432 as 98765432, 50 % as 50%."""
    if SPACE not in text:
        return text
    return _SPACES.sub(_space_left, text).strip(SPACE)


def _space_left(match: re.Match[str]) -> str:
    start, end = match.span()
    text = match.string
    if start > 0 and end < len(text) and class_code(text[start - 1]) == "L" and class_code(text[end]) == "L":
        return SPACE
    return ""


# A run of the usual marks (ASCII, CJK and full-width punctuation and symbols, spaces) between two Han
# characters that cannot be part of a number: what a removed gap leaves depends only on the characters on
# either side of it, and between two such characters it leaves nothing (no space, no ``.`` or ``%``). Most of
# a transcript's punctuation is this; removing it in one C-level pass leaves the loop below the few others.
_USUAL_GAPS = class_body(
    ranges_of(
        cp
        for cp in (*range(0x20, 0x7F), *range(0x2010, 0x2028), *range(0x3000, 0x3040), *range(0xFF01, 0xFF66))
        if is_gap(chr(cp))
    )
)
# Han that cannot be part of a number, as one class (the Han ranges with holes at the numerals and 點).
_PLAIN_HAN = f"[{class_body(without(HAN_RANGES, map(ord, _NUMBERISH)))}]"
# The look-behind sits after the first mark, so the engine scans for a mark before it tries one (twice as fast).
_GAP_BETWEEN_PLAIN_HAN = re.compile(
    f"[{_USUAL_GAPS}](?<={_PLAIN_HAN}[{_USUAL_GAPS}])[{_USUAL_GAPS}]*(?={_PLAIN_HAN})"
)


_USUAL_GAP_RUN = re.compile(f"[{_USUAL_GAPS}]+")


def strip_punctuation(text: str) -> str:
    """Remove punctuation, symbols and whitespace, keeping one space between two word-like characters.

    Two marks survive because they carry number meaning: ``.`` between two ASCII digits is a decimal point and
    ``%`` right after a digit or a numeral is a percent sign.
    """
    if _GAP_CANDIDATE.search(text) is None:
        return text
    text = _GAP_BETWEEN_PLAIN_HAN.sub("", text)
    # The one run of marks left at the end of a text (a sentence's full stop): nothing comes after it, so it
    # leaves nothing, unless it starts with a percent sign (which may follow a number).
    first = _GAP_CANDIDATE.search(text)
    if first is None:
        return text
    if text[first.start()] != "%" and _USUAL_GAP_RUN.fullmatch(text, first.start()) is not None:
        return text[: first.start()]
    gaps = GAPS
    spans: list[list[int]] = []
    for cand in _GAP_CANDIDATE.finditer(text):
        k = cand.start()
        if gaps[ord(text[k])] == SPACE:
            if spans and spans[-1][1] == k:
                spans[-1][1] = k + 1
            else:
                spans.append([k, k + 1])
    if not spans:
        return text
    out: list[str] = []
    n = len(text)
    pos = 0
    last = ""  # last character written
    for i, j in spans:
        if i > pos:
            out.append(text[pos:i])
            last = text[i - 1]
        pos = j
        gap = text[i:j]
        nxt = text[j] if j < n else ""
        prev_digit = "0" <= last <= "9"
        if gap == "." and prev_digit and "0" <= nxt <= "9":
            out.append(".")
            last = "."
            continue
        if gap[0] == "%" and last and (prev_digit or last in NUMERAL_CHARS):
            out.append("%")
            last = "%"
            gap = gap[1:]
            if not gap:
                continue
        if last and nxt:
            # ``last`` is text[i - 1] unless a percent sign was kept from this gap.
            kept = separator(text, i, text, j, gap=gap) if last != "%" else ""
            if kept:
                out.append(kept)
                last = kept
    out.append(text[pos:])
    return "".join(out)
