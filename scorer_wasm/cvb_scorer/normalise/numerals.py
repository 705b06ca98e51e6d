"""Chinese numerals to Arabic, context-free, with Cantonese forms; and 蚊/元 after a number.

Each maximal run of numeral characters is read on its own, never looking at its neighbours, so a misrecognised
classifier next to a number cannot change how the number folds:

- 廿, 卅, 卌 are 二十, 三十, 四十; 兩 is 2 inside a run;
- a run with no digit character stays as written (百, 千萬), except one starting with 十 (十 → 10, 十萬 → 100000);
- digits only are read digit by digit (二零二六 → 2026);
- with units, the positional value, including the Cantonese shorthand after a unit (百二 → 120, 千五 → 1500,
  三萬五 → 35000) and Arabic numbers before a unit (100萬 → 1000000, 3千 → 3000);
- 點 between numerals is a decimal point (三點五 → 3.5) on both sides alike;
- 百分之 before a number is a percent sign after it (百分之五十 → 50%);
- a run that is not a well-formed number stays exactly as written (so folding twice changes nothing);
- words that only look numeric (the exception list) are never folded.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from cvb_scorer.normalise.text import NUMERAL_CHARS, SPACE
from cvb_scorer.tokens import class_code

# Words that contain numeral characters but are not numbers; never folded, on either side.
EXCEPTION_WORDS: tuple[str, ...] = (
    "一齊", "一啲", "一定", "一樣", "一直", "一般", "一切", "一起", "一路", "一陣", "一下", "一吓", "一於",
    "一係", "一向", "一早", "一味", "一心", "一手", "一生", "一世", "一致", "一律", "一就", "一嚟", "一個人",
    "萬一", "九龍", "八達通", "三文治", "三文魚", "七彩", "五金", "四圍", "四正", "十足", "千祈",
    "千其", "萬歲", "萬事", "萬能", "百貨", "百厭", "一於少", "百分百",
)  # fmt: skip
# Longest first, so an alternation match at a position is the longest exception word there.
_EXCEPTION = re.compile("|".join(map(re.escape, sorted(EXCEPTION_WORDS, key=len, reverse=True))))

_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
_TENS = {"廿": "二十", "卅": "三十", "卌": "四十"}
_DECIMAL = "點"
_PERCENT_PREFIX = "百分之"
CURRENCY_WORDS = frozenset("蚊元")
_CURRENCY_CLASS = "".join(sorted(CURRENCY_WORDS))


def _is_ascii_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


# A parsed item of a run: ("d", value) for a digit or an Arabic number, ("u", size) for a unit.
_Item = tuple[str, Fraction]


def _items(run: str) -> list[_Item] | None:
    items: list[_Item] = []
    i = 0
    n = len(run)
    while i < n:
        ch = run[i]
        if _is_ascii_digit(ch):
            j = i
            while j < n and (_is_ascii_digit(run[j]) or run[j] == "."):
                j += 1
            items.append(("a", Fraction(run[i:j])))
            i = j
            continue
        if ch in _DIGITS:
            items.append(("d", Fraction(_DIGITS[ch])))
        elif ch in _SMALL_UNITS:
            items.append(("u", Fraction(_SMALL_UNITS[ch])))
        elif ch == "萬":
            items.append(("U", Fraction(10**4)))
        elif ch == "億":
            items.append(("U", Fraction(10**8)))
        else:
            return None
        i += 1
    return items


def _small(items: list[_Item]) -> Fraction | None:
    """Value of a section below 萬: coefficient-unit pairs with falling units, 零 as a gap, a last digit."""
    total = Fraction(0)
    coef: Fraction | None = None
    last_unit: Fraction | None = None
    zero_gap = False
    for kind, value in items:
        if kind in ("d", "a"):
            if coef is not None:
                if kind == "d" and value == 0 and coef == 0:
                    continue
                if coef == 0:  # 一百零五: the zero only marks a gap
                    coef = None
                    zero_gap = True
                else:
                    return None
            coef = value
        else:  # a small unit
            if last_unit is not None and value >= last_unit:
                return None
            if coef is not None and coef == 0:
                return None
            total += (coef if coef is not None else 1) * value
            last_unit = value
            coef = None
            zero_gap = False
    if coef is not None:
        if last_unit is None:
            if len(items) != 1:
                return None
            return coef
        if coef.denominator != 1 or coef >= 10:
            return None
        # Cantonese shorthand: a bare digit right after 百 or 千 is the next place down (百二 = 120).
        if not zero_gap and last_unit >= 100:
            total += coef * last_unit / 10
        else:
            total += coef
    return total


def _big(items: list[_Item], unit: Fraction, lower: Fraction) -> Fraction | None:
    """Split on one big unit (億, then 萬); a lone digit after the unit is the next place down (三萬五)."""
    split = [k for k, (kind, value) in enumerate(items) if kind == "U" and value == unit]
    if len(split) > 1:
        return None
    parse_lower = _small if lower == 1 else (lambda xs: _big(xs, Fraction(10**4), Fraction(1)))
    if not split:
        return parse_lower(items) if items else None
    k = split[0]
    head, tail = items[:k], items[k + 1 :]
    high = parse_lower(head) if head else Fraction(1)
    if high is None or high == 0:
        return None
    if not tail:
        return high * unit
    if len(tail) == 1 and tail[0][0] == "d" and tail[0][1] != 0:
        return high * unit + tail[0][1] * unit / 10
    if tail[0][0] == "d" and tail[0][1] == 0:
        tail = tail[1:]
        if not tail:
            return None
    low = parse_lower(tail)
    if low is None or low >= unit:
        return None
    return high * unit + low


def _digit_string(run: str) -> str | None:
    out = []
    for ch in run:
        if ch in _DIGITS:
            out.append(str(_DIGITS[ch]))
        elif _is_ascii_digit(ch) or ch == ".":
            out.append(ch)
        else:
            return None
    return "".join(out)


# Runs are short and few distinct ones recur (一, 兩, 三 ...), and reading one with fractions is slow.
@lru_cache(maxsize=4096)
def convert_run(run: str) -> str | None:
    """The Arabic form of one numeral run, or None when it stays as written."""
    work = "".join(_TENS.get(ch, ch) for ch in run)
    # 十 on its own is a number (十個, 十蚊); 百, 千, 萬 on their own are words as often as numbers (百貨).
    if not work.startswith("十") and not any(ch in _DIGITS or _is_ascii_digit(ch) for ch in work):
        return None
    integer, dot, fraction = work.partition(_DECIMAL)
    frac_digits = ""
    if dot:
        frac = _digit_string(fraction)
        if not frac or "." in frac or not integer:
            return None
        frac_digits = "." + frac
    plain = _digit_string(integer)
    if plain is not None:
        if frac_digits and "." in plain:
            return None
        return plain + frac_digits
    items = _items(integer)
    if items is None:
        return None
    value = _big(items, Fraction(10**8), Fraction(10**4))
    if value is None or value.denominator != 1:
        return None
    return str(value.numerator) + frac_digits


_NUMERAL_CLASS = "".join(sorted(NUMERAL_CHARS))

# A numeral run: numerals and ASCII digits, ``.`` between ASCII digits, 點 between numerals (so whether 點 joins
# never depends on how its neighbours fold, which keeps folding idempotent; 三點 alone stays a time word).
_RUN = re.compile(
    f"[{_NUMERAL_CLASS}0-9](?:[{_NUMERAL_CLASS}0-9]|(?<=[0-9])\\.(?=[0-9])|{_DECIMAL}(?=[{_NUMERAL_CLASS}0-9]))*"
)
# Scans in C (testing ``NUMERAL_CHARS`` would build a string object per character).
_ANY_NUMERAL = re.compile(f"[{_NUMERAL_CLASS}]")


def fold_numerals(text: str) -> str:
    """Fold every numeral run in ``text`` (already free of punctuation) to Arabic; see the module docstring."""
    if _ANY_NUMERAL.search(text) is None:
        return text
    out: list[str] = []
    pos = 0
    search = _RUN.search
    match = search(text, 0)
    while match is not None:
        start, end = match.span()
        out.append(text[pos:start])
        hit = _EXCEPTION.match(text, start)
        if hit is not None:
            out.append(hit.group())
            pos = hit.end()
            match = search(text, pos)
            continue
        if text.startswith(_PERCENT_PREFIX, start):
            k = start + len(_PERCENT_PREFIX)
            after = _RUN.match(text, k)
            converted = convert_run(after.group()) if after is not None else None
            if after is not None and converted is not None:
                out.append(converted)
                if not text.startswith("%", after.end()):
                    out.append("%")
                pos = after.end()
                match = search(text, pos)
                continue
        run = match.group()
        converted = convert_run(run)
        out.append(run if converted is None else converted)
        pos = end
        match = search(text, pos)
    out.append(text[pos:])
    return "".join(out)


_CURRENCY_RUN = re.compile(f"(?<=[0-9%])[{_CURRENCY_CLASS}]+")


def _drop_currency(match: re.Match[str]) -> str:
    text = match.string
    end = match.end()
    if end < len(text):
        nxt = text[end]
        # Keep two numbers apart if the removal would join them (三蚊三 → 3 3, not 33) ...
        if class_code(nxt) in ("D", "L"):
            return SPACE
        # ... and keep the word before a numeral left unfolded (1元萬), which would otherwise read as 1萬 = 10000
        # the next time round.
        if nxt in NUMERAL_CHARS:
            return match.group()
    return ""


# The one way removing 蚊/元 can make a new numeral run: the word sat between a number and 點, which then reads
# as a decimal point (0蚊點5 → 0點5). Every other removal leaves its number next to a character no run can
# continue with (a space is put between it and a following digit or letter).
_CURRENCY_BEFORE_POINT = re.compile(f"(?<=[0-9%])[{_CURRENCY_CLASS}]+{_DECIMAL}")


def currency_removal_can_join_numerals(text: str) -> bool:
    """Whether ``fold_numerals`` could change ``drop_currency_words(text)`` when it left ``text`` unchanged."""
    return _CURRENCY_BEFORE_POINT.search(text) is not None


def drop_currency_words(text: str) -> str:
    """Remove 蚊 and 元 right after a number (一百蚊 → 100), never elsewhere (元朗, 有蚊 survive)."""
    if _CURRENCY_RUN.search(text) is None:
        return text
    return _CURRENCY_RUN.sub(_drop_currency, text)
