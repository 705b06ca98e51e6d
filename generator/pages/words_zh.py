"""Numbers as the Chinese words a sentence needs (三、五分之二、大部分), computed so they follow the config."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from generator.provenance import Num, Text

_DIGITS = "零一二三四五六七八九"
_UNITS = ((1000, "千"), (100, "百"), (10, "十"))


def _below_ten_thousand(value: int) -> str:
    out = ""
    zero_pending = False
    for size, unit in _UNITS:
        digit, value = divmod(value, size)
        if digit:
            if zero_pending:
                out += "零"
            out += _DIGITS[digit] + unit
            zero_pending = False
        elif out:
            zero_pending = True
    if value:
        if zero_pending:
            out += "零"
        out += _DIGITS[value]
    return out


def spell(value: int) -> str:
    """3250 → 三千二百五十, 105 → 一百零五, 12 → 十二, 20000 → 二萬. Whole numbers below a hundred million."""
    if value < 0 or value >= 100_000_000:
        raise ValueError(f"{value} is outside what the pages spell in Chinese")
    if value == 0:
        return "零"
    high, low = divmod(value, 10_000)
    out = (_below_ten_thousand(high) + "萬") if high else ""
    if low:
        out += ("零" if high and low < 1000 else "") + _below_ten_thousand(low)
    # 一十二 is read 十二 when it leads.
    return out[1:] if out.startswith("一十") else out


def reference_spell(value: int) -> str:
    """The plain reading, for tests against spell(): every place named, then zeros collapsed as speech does."""
    if value == 0:
        return "零"
    names = ["", "十", "百", "千", "萬", "十", "百", "千"]
    text = ""
    for i, ch in enumerate(str(value)):
        place = len(str(value)) - 1 - i
        text += _DIGITS[int(ch)] + names[place] if ch != "0" else "零"
        if place == 4 and ch == "0":
            text += "萬"
    text = re.sub("零+", "零", text).replace("零萬", "萬").rstrip("零")
    return text[1:] if text.startswith("一十") else text


def zh_words(n: Num) -> Text:
    """A count as Chinese: 二 is 兩 before a measure word (兩個), as written Chinese has it."""
    value = int(n.value)
    if value != n.value:
        return Text(str(n), n.sources)
    return Text("兩" if value == 2 else spell(value), n.sources)


def zh_spell(n: Num) -> Text:
    """The number itself spelled out (二 stays 二), as a quoted example reads it."""
    value = int(n.value)
    return Text(spell(value) if value == n.value else str(n), n.sources)


def zh_fraction(n: Num) -> Text:
    """0.2 → 五分之一, 0.4 → 五分之二, 0.5 → 一半; anything else as a percentage."""
    frac = Fraction(n.value).limit_denominator(10)
    if abs(float(frac) - n.value) > 1e-9 or frac.numerator <= 0 or frac.numerator >= frac.denominator:
        return Text(f"{n.value * 100:g}%", n.sources)
    if frac == Fraction(1, 2):
        return Text("一半", n.sources)
    return Text(f"{spell(frac.denominator)}分之{spell(frac.numerator)}", n.sources)


def zh_channels(n: Num) -> Text:
    """1 → 單聲道, 2 → 雙聲道, as audio is described; more channels by their number."""
    value = int(n.value)
    word = {1: "單聲道", 2: "雙聲道"}.get(value, f"{spell(value)}聲道" if value == n.value else f"{n}聲道")
    return Text(word, n.sources)


# Thresholds as in words.share_words; the words are editorial, the fraction is not.
_EXPOSURE_WORDS = (
    (0.95, "差不多全部"),
    (0.6, "大部分"),
    (0.4, "約一半"),
    (0.2, "相當一部分"),
    (0.0, "一小部分"),
)


def zh_share(n: Num) -> Text:
    for threshold, word in _EXPOSURE_WORDS:
        if n.value >= threshold:
            return Text(word, n.sources)
    return Text(_EXPOSURE_WORDS[-1][1], n.sources)


def _and(before: str, after: str) -> str:
    # 及 between Chinese words stands alone; beside a Latin name (a codename) it takes a space on that side, as
    # the pages set Latin words apart from the Chinese around them.
    left = " " if before[-1:].isascii() else ""
    right = " " if after[:1].isascii() else ""
    return f"{left}及{right}"


def zh_list(items: list[Text]) -> Text:
    """["甲", "乙", "丙"] → "甲、乙及丙" ("Code B 及 Code C" for Latin names), tracked by every item's sources
    (names may carry digits)."""
    names = [str(i) for i in items]
    if len(names) > 1:
        head = "、".join(names[:-1])
        joined = head + _and(head, names[-1]) + names[-1]
    else:
        joined = "".join(names)
    sources: frozenset[str] = frozenset().union(*(i.sources for i in items)) if items else frozenset()
    return Text(joined, sources)


_OF = re.compile(r"^\s*(\d+) of (\d+)\s*$")


def zh_of(count: object) -> Text:
    """The scorer's "4 of 9" (errors of units) as the Chinese table writes it: "錯 4 個（共 9 個）", the numbers
    in the English order (the publication check reads them in order). Anything else passes through unchanged."""
    text = str(count)
    sources = count.sources if isinstance(count, Text | Num) else frozenset()
    match = _OF.match(text)
    return Text(f"錯 {match.group(1)} 個（共 {match.group(2)} 個）" if match else text, sources)


ZH_FILTERS: dict[str, Callable[..., Text]] = {
    "zh_of": zh_of,
    "zh_channels": zh_channels,
    "zh_words": zh_words,
    "zh_spell": zh_spell,
    "zh_fraction": zh_fraction,
    "zh_share": zh_share,
    "zh_list": zh_list,
}
