"""Chinese numerals to Arabic, context-free, with Cantonese forms; and 蚊/元 after a number.

Each maximal run of numeral characters is read on its own; a run never crosses punctuation or a space, and only
a range looks past its run, at the character right after it (three or four of what?):

- 廿, 卅, 卌 are 二十, 三十, 四十; 兩 is 2 inside a run;
- a run with no digit character stays as written (百, 千萬), except one starting with 十 (十 → 10, 十萬 → 100000);
- digits only are read digit by digit (二零二六 → 2026);
- with units, the positional value, including the Cantonese shorthand after a unit (百二 → 120, 千五 → 1500,
  三萬五 → 35000) and Arabic numbers before a unit (100萬 → 1000000, 3千 → 3000);
- 點, or a dot, between numerals or digits is a decimal point on both sides alike: the digits after it are said
  one by one (三點一四 → 3.14) and a 百, 千, 萬 or 億 after them scales the whole (三點五萬 = 3.5萬 = 35000), while
  a number below a hundred after it is the minutes of a clock time (三點十五 → 3.15, as 3點15 is);
- 百分之 before a number is a percent sign after it (百分之五十 → 50%);
- a run that is not one well-formed number is read as the fewest numbers said one after another, written as a
  list (一百二百三百 → 100、200、300, as 一百，二百，三百 is), or stays exactly as written when it cannot be (so
  folding twice changes nothing);
- two adjacent digit words one apart before what they count (三四個), or inside a run with a unit (三四十), are a
  range and stay as written;
- words that only look numeric (the exception list) are never folded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from cvb_scorer import _data
from cvb_scorer.normalise.text import (
    CLOCK_HALF,
    DECIMAL_WORD,
    DECIMAL_WORDS,
    NUMBER_BREAK,
    NUMERAL_CHARS,
    SIMPLIFIED_NUMERALS,
    SPACE,
)
from cvb_scorer.tokens import HAN_CLASS, class_code

# Words that contain numeral characters but are not numbers; never folded, on either side. The scorer's own
# list; the words folded as written are these and the idioms and fixed words of ``data/fixed_words.json``
# (``scorer_wasm/tools/freeze_fixed_words.py`` writes it from its sources, each named beside its words).
SCORER_EXCEPTION_WORDS: tuple[str, ...] = (
    "一齊", "一啲", "一定", "一樣", "一直", "一般", "一切", "一起", "一路", "一陣", "一下", "一吓", "一於",
    "一係", "一向", "一早", "一味", "一心", "一手", "一生", "一世", "一致", "一律", "一就", "一嚟", "一個人",
    "萬一", "九龍", "八達通", "三文治", "三文魚", "七彩", "五金", "四圍", "四正", "十足", "千祈",
    "千其", "萬歲", "萬事", "萬能", "百貨", "百厭", "一於少",
)  # fmt: skip


def _fixed_words() -> dict[str, str]:
    raw = json.loads(_data.read_text("data/fixed_words.json"))
    return {str(word): str(source) for word, source in raw["words"].items()}


# Every word kept as written, and the source it comes from.
FIXED_WORDS: dict[str, str] = _fixed_words()
EXCEPTION_WORDS: tuple[str, ...] = tuple(FIXED_WORDS)
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
_DECIMAL = DECIMAL_WORD
# The decimal points inside a run: the word, or a dot written in its place (三.5萬 = 三點5萬 = 3.5萬).
_POINTS = "".join(sorted(DECIMAL_WORDS)) + "."
_PERCENT_PREFIX = "百分之"
CURRENCY_WORDS = frozenset("蚊元")


def _is_ascii_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


# A parsed item of a run: ("d", value) for a digit or an Arabic number, ("u", size) for a unit.
_Item = tuple[str, Fraction]


# The most digits a number is taken to have as a value: far more than anyone says, and what keeps reading a
# value bounded (Python refuses to convert strings of more than 4,300 digits to an int). A longer run of digits
# is read digit by digit where digits alone are read, and is no value anywhere else.
_LONGEST_VALUE = 40


def _items(run: str) -> list[_Item] | None:
    items: list[_Item] = []
    i = 0
    n = len(run)
    while i < n:
        ch = run[i]
        if _is_ascii_digit(ch):
            j = i
            while j < n and _is_ascii_digit(run[j]):
                j += 1
            if j - i > _LONGEST_VALUE:
                return None
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
                if last_unit is None:
                    return None
                coef = None  # 一千零十: a unit right after the gap counts one of it (1010)
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
        elif _is_ascii_digit(ch):
            out.append(ch)
        else:
            return None
    return "".join(out)


def _decimal(value: Fraction) -> str | None:
    """``value`` written in decimal digits, without trailing zeros; None if it has no finite expansion."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    places = 0
    while value.denominator != 1:
        if places > _LONGEST_VALUE:
            return None
        value *= 10
        places += 1
    digits = str(value.numerator)
    if not places:
        return sign + digits
    digits = digits.rjust(places + 1, "0")
    return sign + digits[:-places] + "." + digits[-places:]


def _value(integer: str) -> Fraction | None:
    items = _items(integer)
    if items is None:
        return None
    return _big(items, Fraction(10**8), Fraction(10**4))


# Two adjacent digit words one apart (三四, 六七, 一兩) are a range or an approximation, "three or four", never
# the value thirty-four.
_RANGE_VALUES = {
    "一": 1,
    "二": 2,
    "兩": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}


def is_range(run: str) -> bool:
    """Whether a numeral run is two digit words one apart (三四, 一兩): a range, kept as written."""
    return (
        len(run) == 2
        and run[0] in _RANGE_VALUES
        and run[1] in _RANGE_VALUES
        and _RANGE_VALUES[run[1]] == _RANGE_VALUES[run[0]] + 1
    )


def read_number(run: str) -> str | None:
    """The Arabic form of one numeral run, or None when it stays as written. Plain, with no cache: the
    grammar of the published rule (``convert_run`` is the same function, cached)."""
    work = "".join(_TENS.get(ch, ch) for ch in run)
    # 十 on its own is a number (十個, 十蚊); 百, 千, 萬 on their own are words as often as numbers (百貨).
    if not work.startswith("十") and not any(ch in _DIGITS or _is_ascii_digit(ch) for ch in work):
        return None
    points = [k for k, ch in enumerate(work) if ch in _POINTS]
    if not points:
        plain = _digit_string(work)
        return plain if plain is not None else _decimal_or_none(_value(work))
    if len(points) > 1:
        return None
    return _read_decimal(work[: points[0]], work[points[0] + 1 :])


# What may scale a decimal number as a whole (三點五萬 = 3.5萬 = 35000, 3.5百萬 = 3500000): 百, 千, or 萬/億 with
# at most one of 十, 百, 千 before it. 十 alone never does: 三點五十 is a clock time, never 35.
_SCALE = re.compile("(?:[十百千]?[萬億]|[百千])$")


def _read_decimal(integer: str, after: str) -> str | None:
    """A number with a decimal point (點 or ``.``) between ``integer`` and ``after``. After the point come
    digits said one by one (三點一四 → 3.14), then at most one scale that multiplies the whole (三點五萬 →
    35000); or a number below a hundred, as the minutes of a clock time are said (三點十五 → 3.15, the same
    as 3點15)."""
    if not integer or not after:
        return None
    plain = _digit_string(integer)
    whole = plain if plain is not None else _decimal_or_none(_value(integer))
    if whole is None:
        return None
    scale = _SCALE.search(after)
    said = after[: scale.start()] if scale else after
    digits = _digit_string(said) if said else None
    if digits is not None:
        if scale is None:
            return f"{whole}.{digits}"
        if len(whole) + len(digits) > _LONGEST_VALUE:
            return None
        multiplier = _value("一" + scale.group())
        assert multiplier is not None  # every match of ``_SCALE`` is one well-formed unit
        return _decimal(Fraction(f"{whole}.{digits}") * multiplier)
    minutes = _value(after) if "十" in after else None
    if minutes is not None and minutes.denominator == 1 and 10 <= minutes < 100:
        return f"{whole}.{minutes}"
    return None


def _decimal_or_none(value: Fraction | None) -> str | None:
    return None if value is None else _decimal(value)


# Runs are short and few distinct ones recur (一, 兩, 三 ...), and reading one with fractions is slow.
convert_run = lru_cache(maxsize=4096)(read_number)


_NUMERAL_CLASS = "".join(sorted(NUMERAL_CHARS))

# A numeral run: numerals and ASCII digits, with 點 or ``.`` between two of them as a decimal point. Whether a
# point joins depends only on its neighbours being numerals or digits, which folding never changes, so folding
# twice changes nothing (三點 alone stays a time word). A run never crosses other punctuation or a space:
# separate spoken numbers stay separate (一百，二百).
RUN = re.compile(
    f"[{_NUMERAL_CLASS}0-9](?:[{_NUMERAL_CLASS}0-9]|[{re.escape(_POINTS)}](?=[{_NUMERAL_CLASS}0-9]))*"
)
# What a range counts (三四個, 六七歲): a Han character that cannot continue a number.
_COUNTED = f"(?![{_NUMERAL_CLASS}{_POINTS}])[{HAN_CLASS}]"
_NUMBERISH = NUMERAL_CHARS | DECIMAL_WORDS


def _counted(ch: str) -> bool:
    """Whether ``ch`` matches ``_COUNTED`` (tested without a regular expression of its own: each class of the
    Han blocks costs a millisecond or two to compile at every start of ``cvb-score``)."""
    return class_code(ch) in ("H", "C") and ch not in _NUMBERISH


_RANGE_WORD = "[" + "".join(_RANGE_VALUES) + "]"
# A range written with a comma between its words (六,七歲, 六、七歲): the comma goes, the words stay; but not
# the end of a longer list (一、二、三號 is three items).
_COMMA_RANGE = re.compile(
    f"(?<![{_NUMERAL_CLASS}0-9{_POINTS}])(?<![{_NUMERAL_CLASS}0-9][,、])({_RANGE_WORD})[,、]({_RANGE_WORD})"
    f"(?={_COUNTED})"
)


# What every match of ``_COMMA_RANGE`` has, a comma between two range words: the fast path's trigger (found by
# scanning for the words, fewer in a transcript than its commas).
COMMA_BETWEEN_RANGE_WORDS = re.compile(f"{_RANGE_WORD}[,、](?={_RANGE_WORD})")


def join_comma_ranges(text: str) -> str:
    """六,七歲 → 六七歲: a comma between the two words of a range before what they count is not a list."""
    return _COMMA_RANGE.sub(_join_range, text)


def _join_range(match: re.Match[str]) -> str:
    words = match.group(1) + match.group(2)
    return words if is_range(words) else match.group()


# Clock times, read after the numerals (so that 十一點半 has become 11點半). The hour is one or two digits, at
# most 24, that do not continue a number: no digit or numeral before it, nor a dot or 點 after one (for a colon
# time, nor a colon after one: 11:30:15 and 1:2 are not times we read). Then either a colon and two digits of
# minutes from 00 to 59, which no digit or numeral (the numeral rule read those as one run with them), no dot or
# colon and digit, and no 點 follows; or 點半 that 點 does not follow (一點半點, a little, is not a time).
# Nothing after a time may join it the next time round: a 點 after one could start a decimal, so no such time is
# read, and a digit or a numeral gets a space (``spoken_time``). A colon between digits becomes a space (the
# punctuation rule), so it cannot bar a half past: the next time round it would not be there.
# The hour's first digit comes before the look-behinds, so that the engine scans for digits instead of trying
# the look-behinds at every position: on a 500-character transcript about 3 µs each against 14-17 µs spelt
# with the look-behinds first, the same matches (a test holds them to that plain spelling).
_NUMBERISH_BEFORE = f"[0-9{_NUMERAL_CLASS}]"


def _hour(joiners: str) -> str:
    """An hour (a group) that continues no number: no digit or numeral before it, nor one of ``joiners``
    after one."""
    return f"([0-9](?<!{_NUMBERISH_BEFORE}[0-9])(?<!{_NUMBERISH_BEFORE}[{joiners}][0-9])[0-9]?)"


_CLOCK_COLON = re.compile(
    f"{_hour('.:' + _DECIMAL)}:([0-5][0-9])(?!{_NUMBERISH_BEFORE}|[:.][0-9]|{_DECIMAL})"
)
_CLOCK_HALF = re.compile(f"{_hour('.' + _DECIMAL)}{_DECIMAL}{CLOCK_HALF}(?!{_DECIMAL})")
# What every match of either has: the fast path's trigger.
CLOCK_TRIGGER = re.compile(f"[:{CLOCK_HALF}]")


_AFTER_A_TIME = NUMERAL_CHARS | DECIMAL_WORDS | {".", ":"}


def spoken_time(hour: str, minutes: str, following: str) -> str | None:
    """A clock time as the numeral rule reads it said (十一點三十 → 11.30, 十一點 → 11點), or None when
    ``hour`` is past 24. A digit, a numeral, a dot or a colon ``following`` it (the 一 of 一齊, another time
    after 點半) is not part of it: a space keeps it from joining the time the next time round."""
    if int(hour) > 24:
        return None
    spoken = f"{int(hour)}{_DECIMAL}" if minutes == "00" else f"{int(hour)}.{minutes}"
    return spoken + SPACE if following in _AFTER_A_TIME or "0" <= following <= "9" else spoken


def clock_times(text: str) -> str:
    """11:30 → 11.30, 11點半 → 11.30, 11:00 → 11點: a clock time reads as it is said."""
    if ":" in text:
        text = _CLOCK_COLON.sub(lambda m: _spoken(m, m[2]), text)
    if CLOCK_HALF in text:
        text = _CLOCK_HALF.sub(lambda m: _spoken(m, "30"), text)
    return text


def _spoken(match: re.Match[str], minutes: str) -> str:
    end = match.end()
    return spoken_time(match[1], minutes, match.string[end : end + 1]) or match[0]


# Signs between and before numbers in digits, read once the numerals are. A dash or a tilde between two numbers
# of at most three digits, the first below the second, is a range (3-5 is 3至5, as 三至五 is); a longer group
# (2345-6789), a chain of groups (2026-12-03, 1-2-3), a decimal beside it or a first number not below the second
# keeps the dash, which the punctuation rule removes as before. A minus sign right before a number that nothing
# number-like or letter-like precedes is a minus (-3度 is 負3度, as 負三度 is): it is written 負, which no rule
# removes, so a sign is never lost and never joins a number.
RANGE_DASHES = "-–~〜"
MINUS_SIGNS = "-−"
_DASH_RANGE = re.compile(
    f"(?<![0-9A-Za-z.{re.escape(RANGE_DASHES + MINUS_SIGNS)}])([0-9]{{1,3}})[{re.escape(RANGE_DASHES)}]([0-9]{{1,3}})"
    f"(?![0-9.]|[{re.escape(RANGE_DASHES)}][0-9])"
)
_MINUS = re.compile(f"[{re.escape(MINUS_SIGNS)}](?=[0-9])")
_NOT_BEFORE_A_MINUS = frozenset(
    "0123456789.%" + RANGE_DASHES + MINUS_SIGNS + "".join(NUMERAL_CHARS) + "".join(DECIMAL_WORDS)
)
SIGNS_TRIGGER = re.compile(f"[{re.escape(RANGE_DASHES + MINUS_SIGNS)}](?=[0-9])")
RANGE_WORD = "至"
MINUS_WORD = "負"


def _range(match: re.Match[str]) -> str:
    low, high = match.group(1), match.group(2)
    return f"{low}{RANGE_WORD}{high}" if int(low) < int(high) else match.group()


def _minus(match: re.Match[str]) -> str:
    k = match.start()
    before = match.string[k - 1] if k else ""
    if before and (before in _NOT_BEFORE_A_MINUS or class_code(before) == "L"):
        return match.group()
    return MINUS_WORD


def signs(text: str) -> str:
    """3-5 → 3至5 (a range), -3 → 負3 (a minus): the signs rule."""
    if SIGNS_TRIGGER.search(text) is None:
        return text
    return _MINUS.sub(_minus, _DASH_RANGE.sub(_range, text))


# Hong Kong ways of saying a percentage, an hour, a half or an amount in 毫, read once the numbers and the
# currency words are (the spoken-forms rule): 巴仙 after a number is a percent sign (五十巴仙 = 50%); 正 after an
# hour's 點 says nothing more (三點正 = 三點 = 3:00); 個半 after a whole number is a half more (兩個半鐘 =
# 2.5個鐘); a digit of 毫 (毫子) is tenths of a dollar (五毫子 = 0.5, 三蚊五毫 = 3.5), but never a 毫 of a
# unit (毫米, 毫升, 毫克, 毫秒). (百分百, 100%, is read with the numerals.)
# Nothing rewritten makes a new number: a rewritten form is never before a numeral, a digit or the decimal
# word, and its number never continues one (no digit, dot or numeral before it).
_JOINS = f"[{_NUMERAL_CLASS}{''.join(sorted(DECIMAL_WORDS))}0-9]"
_NOT_AFTER_A_NUMBER = f"(?<![0-9.{_NUMERAL_CLASS}{''.join(sorted(DECIMAL_WORDS))}])"
HALF_MORE = "個半"
TENTHS_WORDS = ("毫子", "毫")
# What 毫 is the thousandth of, not a tenth of a dollar.
MILLI_UNITS = "米升克秒"
# An ordinal (第二個半場) is neither a half more nor an amount.
_ORDINAL = "第"
_SPOKEN_FORMS = re.compile(
    f"巴(?<=[0-9]巴)仙|正(?<=[0-9]{DECIMAL_WORD}正)(?!{_JOINS})"
    f"|{_NOT_AFTER_A_NUMBER}(?<!{_ORDINAL})([0-9]+){HALF_MORE}"
    f"|{_NOT_AFTER_A_NUMBER}(?<!{_ORDINAL})(?:([0-9]+)蚊)?([1-9])毫(?:子|(?![子{MILLI_UNITS}]))(?!{_JOINS})"
)
_SPOKEN_AS = {"巴仙": "%", "正": ""}
SPOKEN_FORMS_TRIGGER = re.compile("[仙正半毫]")
# What every match of ``_SPOKEN_FORMS`` holds: a digit right before 巴仙, 點正, 個半 or 毫 (正 is common in any
# Cantonese text, a spoken form rare, and the forms' look-behinds make the engine try them at every character).
SPOKEN_FORM_AT = re.compile(f"[0-9](?:巴仙|{DECIMAL_WORD}正|{HALF_MORE}|毫)")
_HUNDRED_PERCENT = "百分百"


def _spoken_as(match: re.Match[str]) -> str:
    if match.group(1) is not None:
        return f"{match.group(1)}.5個"
    if match.group(3) is not None:
        return f"{match.group(2) or 0}.{match.group(3)}"
    return _SPOKEN_AS[match.group()]


def spoken_forms(text: str) -> str:
    """50巴仙 → 50%, 3點正 → 3點, 2個半鐘 → 2.5個鐘, 5毫子 → 0.5, 3蚊5毫 → 3.5."""
    return _SPOKEN_FORMS.sub(_spoken_as, text)


def is_range_at(text: str, start: int, end: int) -> bool:
    """Whether the run ``text[start:end]`` is a range: two digit words one apart before what they count."""
    return is_range(text[start:end]) and end < len(text) and _counted(text[end])


def fold_run(text: str, match: re.Match[str], convert: Callable[[str], str | None]) -> tuple[str, int]:
    """What the run ``match`` of ``text`` folds to, and where the next run may start (one rule for the plain
    reference and the fast path, which differ only in ``convert``'s cache)."""
    start, end = match.span()
    hit = _EXCEPTION.match(text, start)
    # A word kept as written never breaks a longer number it starts with units after it (萬一千 is 11000,
    # 萬一三個 is 萬一 3個); digits after it are read on their own (三三兩兩20 is not 332220).
    if hit is not None and not (
        end > hit.end()
        and any(ch in _UNITS for ch in text[hit.end() : end])
        and convert(match.group()) is not None
    ):
        return hit.group(), hit.end()
    # 百分百 is 100% (before 百分之, which it is not).
    if text.startswith(_HUNDRED_PERCENT, start):
        return "100%", start + len(_HUNDRED_PERCENT)
    if text.startswith(_PERCENT_PREFIX, start):
        k = start + len(_PERCENT_PREFIX)
        after = RUN.match(text, k)
        # Only a number in numerals: the 百分之 before a number in digits is left (it may be what an earlier
        # pass left before the percentage it made, 百分之百分之兩 → 百分之2%); and an exception word or a range
        # after 百分之 stays as written, as it does when punctuation stands between them (百分之，萬一 must not
        # become 11000% next time).
        if (
            after is not None
            and not any("0" <= ch <= "9" for ch in after.group())
            and _EXCEPTION.match(text, k) is None
            and not is_range_at(text, k, after.end())
        ):
            converted = convert(after.group())
            if converted is not None:
                percent = "" if text.startswith("%", after.end()) else "%"
                return converted + percent, after.end()
    run = match.group()
    if is_range_at(text, start, end) or _ANY_NUMERAL.search(run) is None:
        # A range stays as written; so does a run in digits alone, which is Arabic already (1.2.3, 3.53.5 are
        # never read as numbers said one after another).
        return run, end
    converted = convert(run)
    if converted is None and not has_range_inside(run):
        converted = read_as_said(run, convert)
    if converted is not None or "." not in run:
        return (run if converted is None else converted), end
    # A run with dots that is neither one number nor numbers said one after another, each dot read as 點
    # (三.五.六, 萬一.二): its dots are punctuation, and the pieces between them fold as text of their own, with
    # the character after the run as their context (no numeral, so folding leaves it as it is). When every
    # piece is a number in digits the dots stay (3.5.6, as it is when written in digits); otherwise each dot
    # separates, as a comma would: a dot kept between two pieces that fold to digits would join them into a
    # decimal the next time round (七4.0億.百 must not give 74.0億 百, then 7400000000 百).
    context = text[end : end + 1]
    folded = fold_each_run(run.replace(".", SPACE) + context, convert)
    folded = folded[: len(folded) - len(context)]
    if _DIGITS_BETWEEN_DOTS.fullmatch(folded) and folded.count(SPACE) == run.count("."):
        return folded.replace(SPACE, "."), end
    return folded, end


_DIGITS_BETWEEN_DOTS = re.compile("[0-9]+(?: [0-9]+)+")


# A word kept as written of at least this many characters (the idioms) is kept as written also when one of its
# characters is misheard: replaced by a Han character that is not a numeral or a decimal word (十萬伙急 for
# 十萬火急), so that the mishearing costs one error, not the digits of a number read out of the rest. Shorter
# words, but for the three-character ones below, are too close to ordinary counting (一個人, 一個月) to be
# recognised with a character wrong.
MISHEARD_FROM = 4
# A word of three characters whose first character is its only numeral (六合彩, 八達通, 三文治) is kept as written
# with one character misheard too, unless what follows its numeral, in the word or in the text, is a measure
# word or a word that counts: then it is ordinary counting (一個人 against 一個月, 一家人 against 一家店).
MISHEARD_SHORT = 3
MEASURE_WORDS = frozenset(
    "個隻次件條張本位名家間架部對雙套種樣份班群堆排杯碗碟包盒支枝粒啲些陣下日天年月週周星號點分秒歲元蚊毫仙角"
    "成倍層樓座幢項筆頁封首場輪餐口句段格頂把匹頭尾只度折手期款區級字宗輛棵朵片塊滴方呎尺寸米斤磅安趟轉晚朝季"
    "代世回遍類節章行列線科門打"
)


def misheard_candidate(word: str) -> bool:
    """Whether ``word``, kept as written, is also kept with one character misheard."""
    if len(word) >= MISHEARD_FROM:
        return True
    return (
        len(word) == MISHEARD_SHORT
        and word[0] in NUMERAL_CHARS
        and word[1] not in NUMERAL_CHARS
        and word[2] not in NUMERAL_CHARS
        and word[1] not in MEASURE_WORDS
    )


_Entries = tuple[tuple[int, str], ...]


def _misheard_tables() -> tuple[dict[tuple[str, str], _Entries], ...]:
    """Four indexes of (where the numeral stands, word) over every word kept as written that is also kept
    misheard (``misheard_candidate``), keyed by the
    numeral and a character of the word next to it: the one after it, the one before it, and, for a numeral
    first or last in the word, the one two after or two before it. A word with one character misheard that
    covers a run has, at the run's first numeral, at least one of these pairs as written (only one character
    differs, and a word has at least four, or three starting with its only numeral), so looking the run up in
    the four finds every candidate."""
    after: dict[tuple[str, str], list[tuple[int, str]]] = {}
    before: dict[tuple[str, str], list[tuple[int, str]]] = {}
    two_after: dict[tuple[str, str], list[tuple[int, str]]] = {}
    two_before: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for word in EXCEPTION_WORDS:
        if not misheard_candidate(word):
            continue
        last = len(word) - 1
        for where, ch in enumerate(word):
            if ch not in NUMERAL_CHARS:
                continue
            entry = (where, word)
            if where < last:
                after.setdefault((ch, word[where + 1]), []).append(entry)
            if where > 0:
                before.setdefault((word[where - 1], ch), []).append(entry)
            if where == 0:
                two_after.setdefault((ch, word[2]), []).append(entry)
            if where == last:
                two_before.setdefault((word[where - 2], ch), []).append(entry)
    return tuple(
        {key: tuple(entries) for key, entries in index.items()}
        for index in (after, before, two_after, two_before)
    )


_AFTER, _BEFORE, _TWO_AFTER, _TWO_BEFORE = _misheard_tables()


def misheard_word_end(text: str, start: int, pos: int) -> int | None:
    """Where a long word kept as written, with one character misheard, ends, when it covers the numeral run
    starting at ``start`` and starts at or after ``pos``; the furthest such end, or None. The numeral at
    ``start`` is one of the word's own (a misheard character is never a numeral)."""
    ch = text[start]
    candidates = (
        _AFTER.get((ch, text[start + 1 : start + 2]), ())
        + _BEFORE.get((text[start - 1 : start] if start else "", ch), ())
        + _TWO_AFTER.get((ch, text[start + 2 : start + 3]), ())
        + _TWO_BEFORE.get((text[start - 2 : start - 1] if start > 1 else "", ch), ())
    )
    best: int | None = None
    for where, word in candidates:
        begin = start - where
        end = begin + len(word)
        if begin < pos or end > len(text) or (best is not None and end <= best):
            continue
        window = text[begin:end]
        wrong = [k for k in range(len(word)) if window[k] != word[k]]
        if (
            len(wrong) == 1
            and _misheard(window[wrong[0]])
            and (len(word) >= MISHEARD_FROM or window[1] not in MEASURE_WORDS)
        ):
            best = end
    return best


def _misheard(ch: str) -> bool:
    return class_code(ch) in ("H", "C") and ch not in _NUMBERISH


_TO_HONG_KONG = str.maketrans(SIMPLIFIED_NUMERALS)
_SIMPLIFIED_NUMERAL = re.compile(f"[{''.join(SIMPLIFIED_NUMERALS)}]")
# Simplified numerals written before a number in digits: what reading a number with Simplified numerals leaves
# (三万五 → 万35000), never read again.
_SIMPLIFIED_MARK = re.compile(f"[{''.join(SIMPLIFIED_NUMERALS)}]+(?=[0-9])")
# What a run still holds when it was not read through: numerals or the decimal word.
_UNREAD = re.compile(f"[{''.join(sorted(NUMERAL_CHARS | DECIMAL_WORDS))}]")


# What a run of one character folds to, which depends on nothing around it (no range has one character, and
# ``read_as_said`` needs two numbers), except 百, which may start 百分之, and the Simplified numerals, which
# keep their mark.
_ONE_CHARACTER_RUNS = {
    ch: read_number(ch) or ch
    for ch in (*NUMERAL_CHARS, *"0123456789")
    if not _PERCENT_PREFIX.startswith(ch) and ch not in SIMPLIFIED_NUMERALS
}


def fold_each_run(text: str, convert: Callable[[str], str | None]) -> str:
    """``fold_run`` on every run of ``text`` from the left: the numerals rule, plainly.

    Simplified numerals (万 两 亿 点) are read as their Hong Kong forms; a number read through keeps its
    Simplified characters before its digits (三万五 → 万35000), so each costs one error, as any other Simplified
    character does, and the number is still read. A run not read at all stays exactly as written."""
    simplified = _SIMPLIFIED_NUMERAL.search(text) is not None
    read = text.translate(_TO_HONG_KONG) if simplified else text
    # The words kept as written, from the left; a run that starts inside one (進退兩難) is part of it.
    words = [m.span() for m in _EXCEPTION.finditer(read)]
    k = 0
    out = []
    pos = 0
    match = RUN.search(text, 0)
    while match is not None:
        start = match.start()
        out.append(text[pos:start])
        while k < len(words) and words[k][1] <= start:
            k += 1
        mark = _SIMPLIFIED_MARK.match(text, start) if simplified else None
        at_word = k < len(words) and words[k][0] == start
        if k < len(words) and words[k][0] < start:
            out.append(text[start : words[k][1]])
            pos = words[k][1]
        elif not at_word and (misheard := misheard_word_end(read, start, pos)) is not None:
            out.append(text[start:misheard])
            pos = misheard
        elif match.end() - start == 1 and text[start] in _ONE_CHARACTER_RUNS and not at_word:
            # Most runs are one character (一個, 兩次), and what one folds to depends on nothing around it.
            out.append(_ONE_CHARACTER_RUNS[text[start]])
            pos = match.end()
        elif mark is not None:
            out.append(mark.group())
            pos = mark.end()
        else:
            folded, pos = fold_run(read, RUN.match(read, start) or match, convert)
            said = text[start:pos]
            if simplified and _SIMPLIFIED_NUMERAL.search(said) is not None:
                if folded == read[start:pos]:  # nothing read: the run stays exactly as written
                    folded = said
                elif _UNREAD.search(folded) is None:  # read through: the Simplified numerals, then the number
                    folded = "".join(_SIMPLIFIED_NUMERAL.findall(said)) + folded
                # else read in part (万零.兩): what was read, in Hong Kong forms
            out.append(folded)
        match = RUN.search(text, pos)
    out.append(text[pos:])
    return "".join(out)


_UNITS = frozenset("十百千萬億廿卅卌")


def has_range_inside(run: str) -> bool:
    """A run with a unit and two adjacent digit words one apart (三四十, 十三四, 三四百) is a range: no well-formed
    number has two adjacent digit words other than 零, so it is never read as numbers said one after another."""
    return any(ch in _UNITS for ch in run) and any(is_range(run[k : k + 2]) for k in range(len(run) - 1))


# The longest piece ``read_as_said`` tries: longer than any number anyone says, and it bounds the work on a
# pathological run to a constant per character.
_LONGEST_PIECE = 16


def read_as_said(run: str, convert: Callable[[str], str | None]) -> str | None:
    """A run that is not one number, read as the fewest numbers said one after another, written as a list
    (一百二百三百 → 100、200、300, as 一百，二百，三百 is); among equally few, the first number is the longest.
    None when no such reading exists (the run then stays as written)."""
    n = len(run)
    # fewest[i]: the fewest numbers that ``run[i:]`` reads as (None: unreadable); first[i]: where the first ends.
    fewest: list[int | None] = [None] * n + [0]
    first = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        for j in range(min(n, i + _LONGEST_PIECE), i, -1):
            rest = fewest[j]
            if rest is None or convert(run[i:j]) is None:
                continue
            best = fewest[i]
            if best is None or rest + 1 < best:
                fewest[i], first[i] = rest + 1, j
    if fewest[0] is None or fewest[0] < 2:
        return None
    pieces = []
    i = 0
    while i < n:
        piece = convert(run[i : first[i]])
        assert piece is not None
        pieces.append(piece)
        i = first[i]
    return NUMBER_BREAK.join(pieces)


# A text without these has no run that folds (a run of ASCII digits alone folds to itself).
_ANY_NUMERAL = re.compile(f"[{_NUMERAL_CLASS}{_POINTS[:-1]}]")


def fold_numerals(text: str) -> str:
    """Fold every numeral run in ``text`` to Arabic; see the module docstring (``fold_each_run`` with the
    cached reader)."""
    if _ANY_NUMERAL.search(text) is None:
        return text
    return fold_each_run(text, convert_run)


# A comma between a digit and exactly three digits is a thousands separator (1,200). Only the ASCII comma: the
# full-width one is a list separator (the width rule makes it 、 before NFKC could make it ASCII). The comma comes
# first and the digit before it is a look-behind, so the engine scans for commas (a transcript has many, few
# after a digit) instead of trying the look-behind at every position: the same matches, several times faster.
THOUSANDS = re.compile(",(?<=[0-9],)(?=[0-9]{3}(?![0-9]))")


def join_thousands(text: str) -> str:
    return THOUSANDS.sub("", text) if "," in text else text


# Currencies named before or after a number. The local currency (Hong Kong dollars: 蚊 and 元 after a number,
# 港幣, 港元, 港紙, HKD; HK$ and $ go with the symbols) is what an amount in a Hong Kong call is in unless said
# otherwise: it goes. Any other currency matters (US$20,000 is not HK$20,000): it stays, written one way after
# the number, so that naming the wrong currency costs an error and naming the right one another way costs none.
LOCAL_CURRENCY_NAMES = ("港幣", "港元", "港紙")
FOREIGN_CURRENCIES = {
    "美元": ("美元", "美金", "美紙"),
    "人民幣": ("人民幣", "人仔"),
}
_CANONICAL = {name: canonical for canonical, names in FOREIGN_CURRENCIES.items() for name in names}
CURRENCY_NAMES: tuple[str, ...] = (*LOCAL_CURRENCY_NAMES, *_CANONICAL)


def _name(word: str, *, after: str = "") -> str:
    """``word`` as a pattern that starts with its first character (so that the engine scans for the first
    characters of all the words instead of trying each at every position), with ``after``, a class, right
    before it; a Latin code is a whole word: never the end or the start of a longer one (xrmb, hkdx)."""
    first, rest = re.escape(word[0]), re.escape(word[1:])
    before = f"(?<={after}{first})" if after else (f"(?<![a-z]{first})" if word.isascii() else "")
    return f"{first}{before}{rest}" + ("(?![a-z])" if word.isascii() else "")


_LONGEST_FIRST = sorted(CURRENCY_NAMES, key=len, reverse=True)
_NAMES = "|".join(_name(n) for n in _LONGEST_FIRST)
_WORDS = "".join(sorted(CURRENCY_WORDS))
_FIRST_AFTER_A_NUMBER = "|".join(_name(n, after="[0-9%]") for n in (*_LONGEST_FIRST, *sorted(CURRENCY_WORDS)))
# A run of currency words right after a number (a name goes whole: 港元, not 港 and 元).
CURRENCY_RUN = re.compile(f"(?:{_FIRST_AFTER_A_NUMBER})(?:{_NAMES}|[{_WORDS}])*")
_NAME_IN_RUN = re.compile(_NAMES)
# What every match of either has, for a cheap test first.
_CURRENCY_TRIGGER = re.compile(f"[{_WORDS}幣紙金仔]")


def _foreign(words: str) -> str:
    """The one way of writing the last foreign currency named in ``words``, or nothing for the local one."""
    found = [_CANONICAL[m.group()] for m in _NAME_IN_RUN.finditer(words) if m.group() in _CANONICAL]
    return found[-1] if found else ""


def _left_for(match: re.Match[str], neighbour: str) -> str:
    """What removing a run of currency words leaves: ``neighbour`` is the character beside the run on the side
    away from its number."""
    # The words stay beside a digit, a numeral or 點 (三蚊三, 1元萬, 0蚊點5, 三點港幣三百), which would otherwise
    # read as 33, 1萬, 0點5 or 3點300 the next time round: removing words never makes a new number.
    # A percent sign is part of the number before it (50%美元50: the name is between two numbers).
    if (
        class_code(neighbour) == "D"
        or neighbour in NUMERAL_CHARS
        or neighbour in DECIMAL_WORDS
        or neighbour == "%"
    ):
        return match.group()
    return ""


def drop_currency(match: re.Match[str]) -> str:
    """A run of currency words after a number: the foreign currency it names, written one way, or nothing."""
    end = match.end()
    if end < len(match.string):
        kept = _left_for(match, match.string[end])
        if kept:
            return kept
    return _foreign(match.group())


# A run of currency names right before a number, the number, and a break after it if one is there (what the
# punctuation rule leaves between it and a numeral: a name written after the number keeps them apart instead).
CURRENCY_BEFORE = re.compile(f"((?:{_NAMES})+)([0-9][0-9.%]*)({NUMBER_BREAK}?)")


def drop_currency_before(match: re.Match[str]) -> str:
    """A run of currency names before a number (a match of ``CURRENCY_BEFORE``): removed, and the foreign
    currency it names written after the number (美金三百 → 300美元, as 三百美金 is)."""
    start = match.start()
    if start and _left_for(match, match.string[start - 1]):
        return match.group()
    return match.group(2) + (_foreign(match.group(1)) or match.group(3))


def drop_currency_words(text: str) -> str:
    """Remove 蚊 and 元 right after a number (一百蚊 → 100) and the local currency's names right before or after
    one (港幣三百 → 300, 三百港元 → 300); write any other currency named there one way, after the number
    (US$300, 美金三百, 三百美元 → 300美元); never elsewhere (元朗, 有蚊, 美金匯率 survive)."""
    if _CURRENCY_TRIGGER.search(text) is None:
        return text
    # Before a number first, so that a name written after the number joins a run of names there (美元20000美元).
    return CURRENCY_RUN.sub(drop_currency, CURRENCY_BEFORE.sub(drop_currency_before, text))


def spoken_forms_settled(text: str) -> str:
    """``spoken_forms``, then the currency words again, until neither changes anything: a currency word between
    a number and 巴仙 goes, and 巴仙 read as % lets one after it go (300港元巴仙 → 300%, 50巴仙港元 → 50%)."""
    if SPOKEN_FORMS_TRIGGER.search(text) is None:
        return text
    while True:
        spoken = spoken_forms(text) if SPOKEN_FORM_AT.search(text) is not None else text
        once = drop_currency_words(spoken)
        if once == text:
            return text
        text = once
