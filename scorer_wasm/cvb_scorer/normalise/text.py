"""Character-level rules applied to both sides: Unicode cleanup, NFKC, glyph variants, currency symbols, Latin
case, punctuation and whitespace."""

from __future__ import annotations

import re
from functools import cache

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


# Printable ASCII, CJK punctuation, full-width forms and the Han blocks: none is a control, format or space
# character other than the ASCII space, so a text made only of them needs no cleanup pass.
_NEEDS_CLEANUP = re.compile(f"[^\x20-\x7e\u3001-\u303f\uff01-\uff5e{HAN_CLASS}]")


def clean_unicode(text: str) -> str:
    """Drop control and format characters and lone surrogates; every kind of whitespace becomes a space."""
    if _NEEDS_CLEANUP.search(text) is None:
        return text
    return text.translate(_CLEANUP)


# Printable ASCII and the Han blocks other than the compatibility ideographs: NFKC leaves these characters
# alone and never composes them with the character before, so a text can be normalised piece by piece, split
# before any of them. Each run of other characters is normalised with the character before it (which the run
# may compose with).
_STABLE_HAN = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in HAN_RANGES if lo not in (0xF900, 0x2F800))
_UNSTABLE_RUNS = re.compile(f".?[^\x20-\x7e{_STABLE_HAN}]+", re.DOTALL)
# Above this length a text is normalised run by run (one full pass over a long text that has any character
# to change is slow); below it in one call (cheaper than a call per run).
_PIECEWISE_FROM = 256
# A text with none of the other characters is its own NFKC (and needs no cleanup after it): most texts.
_UNSTABLE = re.compile(f"[^\x20-\x7e{_STABLE_HAN}]")


def nfkc(text: str) -> str:
    """NFKC on the pinned Unicode tables: full-width forms to half-width, compatibility ideographs to unified."""
    if text.isascii() or _UNSTABLE.search(text) is None:
        return text
    if len(text) >= _PIECEWISE_FROM:
        normalised = _UNSTABLE_RUNS.sub(_nfkc_run, text)
    else:
        normalised = ud.normalize("NFKC", text)
    # NFKC can expose new whitespace or format characters (e.g. U+00A8 → space + combining diaeresis).
    return clean_unicode(normalised)


def _nfkc_run(match: re.Match[str]) -> str:
    return str(ud.normalize("NFKC", match.group()))


@cache
def _variant_chars() -> re.Pattern[str]:
    return re.compile("[" + "".join(map(re.escape, charsets().variants)) + "]")


def fold_variants(text: str) -> str:
    """Fold HK/TW glyph variants (說/説, 溫/温, 戶/户 ...) to one form on both sides."""
    # Variants are rare in a text: replacing the matches beats translating every character.
    return _variant_chars().sub(_fold_variant, text)


def _fold_variant(match: re.Match[str]) -> str:
    return charsets().variants[match.group()]


_CURRENCY_PREFIXES = re.compile(r"(?:HK|US|hk|us|Hk|hK|Us|uS)\$")


def drop_currency_prefixes(text: str) -> str:
    """Remove HK$ and US$ as a whole; bare currency symbols go with the other symbols."""
    if "$" not in text:
        return text
    return _CURRENCY_PREFIXES.sub("", text)


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


_UPPER_CANDIDATES = re.compile("[A-Z\u00c0-\u024f]+")


def lowercase_latin(text: str) -> str:
    if text.isascii():
        return text.lower()
    # Only the runs of candidates are translated, not every character of a mostly Han text.
    return _UPPER_CANDIDATES.sub(_lower_run, text)


def _lower_run(match: re.Match[str]) -> str:
    return match.group().translate(_lower_table())


NUMERAL_CHARS = frozenset("零〇一二三四五六七八九十百千萬億兩廿卅卌")


class _GapTable(dict[int, str]):
    """Maps punctuation, symbols and spaces to a space and every other character to itself (filled lazily)."""

    def __missing__(self, cp: int) -> str:
        ch = chr(cp)
        result = SPACE if ch == SPACE or ud.category(ch)[0] in "PS" else ch
        if len(self) < 65536:
            self[cp] = result
        return result


_GAPS = _GapTable()
_GAP_CANDIDATE = re.compile(f"[^0-9A-Za-z{HAN_CLASS}]")


# The gaps met in practice (the ASCII and Latin-1 ones, General Punctuation, CJK Symbols and Punctuation, CJK
# compatibility and small forms, full-width forms), read from the pinned tables, for regular expressions.
_COMMON_GAP_BLOCKS = ((0x20, 0xBF), (0x2000, 0x206F), (0x3000, 0x303F), (0xFE30, 0xFE6F), (0xFF00, 0xFF65))
_COMMON_GAP_CHARS = [
    chr(cp) for lo, hi in _COMMON_GAP_BLOCKS for cp in range(lo, hi + 1) if _GAPS[cp] == SPACE
]
_COMMON_GAPS = re.compile("[" + "".join(map(re.escape, _COMMON_GAP_CHARS)) + "]+")
_NOT_HAN = re.compile(f"[^{HAN_CLASS}]")
_ASCII_ALNUM = re.compile("[0-9A-Za-z]")
# A whole run of common gaps (``%`` aside) with Han on both sides: no rule keeps anything of it.
_GAPS_BETWEEN_HAN = re.compile(
    f"(?<=[{HAN_CLASS}])["
    + "".join(re.escape(ch) for ch in _COMMON_GAP_CHARS if ch != "%")
    + f"]+(?=[{HAN_CLASS}])"
)
_NOT_PLAIN = re.compile(
    f"[^{HAN_CLASS}" + "".join(re.escape(ch) for ch in _COMMON_GAP_CHARS if ch != "%") + "]"
)


def _han_class_without(chars: set[str]) -> str:
    """The Han blocks NFKC leaves alone (not the compatibility ideographs), less ``chars``, as the inside of a
    regular-expression character class."""
    parts = []
    for lo, hi in HAN_RANGES:
        if lo in (0xF900, 0x2F800):
            continue
        start = lo
        for cp in sorted(ord(ch) for ch in chars if lo <= ord(ch) <= hi):
            if start < cp:
                parts.append(f"{chr(start)}-{chr(cp - 1)}")
            start = cp + 1
        if start <= hi:
            parts.append(f"{chr(start)}-{chr(hi)}")
    return "".join(parts)


@cache
def _raw_plain() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    gaps = {ch for ch in _COMMON_GAP_CHARS if ch != "%"}
    # Punctuation that cleanup and NFKC leave punctuation (full-width forms become their ASCII form).
    raw_gaps = "".join(re.escape(ch) for ch in sorted(gaps) if ud.normalize("NFKC", ch) in gaps)
    variants = set(charsets().variants)
    return (
        re.compile(f"[^{_han_class_without(variants | NUMERAL_CHARS)}{raw_gaps}]"),
        re.compile(f"[^{_han_class_without(variants)}{raw_gaps}]"),
        re.compile(f"[{raw_gaps}]+"),
    )


def plain_han(text: str) -> tuple[str, bool] | None:
    """What the rules before ``numerals`` make of a raw text of Han characters and common punctuation (no
    glyph variant, no compatibility ideograph, no ``%``): the Han characters alone, and whether any is a
    numeral (without one, no later rule changes the text either); None for any other text.

    Cleanup and NFKC leave such a text's Han alone and its punctuation punctuation, and ``strip_plain`` then
    drops the punctuation, so one pass does it: most texts, which the full rules would scan a dozen times.
    """
    no_numeral, no_variant, gaps = _raw_plain()
    if no_numeral.search(text) is None:
        return gaps.sub("", text), False
    if no_variant.search(text) is None:
        return gaps.sub("", text), True
    return None


def strip_plain(text: str) -> str | None:
    """``strip_punctuation(lowercase_latin(drop_currency_prefixes(fold_variants(text))))`` in one step for the
    commonest text, or None for any other text.

    A text of Han characters and common punctuation (``%`` aside) with no glyph variant has no Latin letters,
    digits or currency prefixes, so the first three leave it alone, and between Han characters punctuation is
    simply dropped (see ``strip_punctuation``).
    """
    if _NOT_PLAIN.search(text) is not None or _variant_chars().search(text) is not None:
        return None
    return _COMMON_GAPS.sub("", text)


def strip_punctuation(text: str) -> str:
    """Remove punctuation, symbols and whitespace, keeping one space between two Latin or digit characters.

    Three marks survive because they carry number meaning: ``,`` between a digit and exactly three digits is a
    thousands separator and is joined (``1,200`` → ``1200``); ``.`` between two ASCII digits is a decimal
    point; ``%`` right after a numeral is a percent sign.
    """
    if _GAP_CANDIDATE.search(text) is None:
        return text
    # Between Han characters no rule keeps a mark or a space (the marks need a digit or a numeral before them,
    # the space a letter or digit on both sides), so when only Han is left the gaps are simply dropped, in C.
    # (An ASCII letter or digit would be left: no need to try.)
    if "%" not in text and _ASCII_ALNUM.search(text) is None:
        dropped = _COMMON_GAPS.sub("", text)
        if _NOT_HAN.search(dropped) is None:
            return dropped
    # Each gap run is decided by the characters around it, never by other gap runs, so the runs between Han
    # characters go first, in C, and only the rest are looked at one by one.
    text = _GAPS_BETWEEN_HAN.sub("", text)
    # Gap runs: only characters outside ASCII letters, digits and Han can be gaps, so only they are looked up.
    gaps = _GAPS
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
        if gap == "," and prev_digit:
            three = text[j : j + 3]
            if (
                len(three) == 3
                and three.isdigit()
                and three.isascii()
                and not ("0" <= text[j + 3 : j + 4] <= "9")
            ):
                continue
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
        if last and nxt and last != SPACE and _boundary(last, nxt):
            out.append(SPACE)
            last = SPACE
    out.append(text[pos:])
    return "".join(out)


_ALNUM_CODES = frozenset("LD")


def _boundary(left: str, right: str) -> bool:
    if left in ".%":
        return class_code(right) in _ALNUM_CODES
    return class_code(left) in _ALNUM_CODES and class_code(right) in _ALNUM_CODES
