"""A second reader of Chinese numerals, written from the published rule (the numerals row of the methodology
table) and sharing no code with the scorer: it imports nothing from ``cvb_scorer`` (a test reads its imports).

Table-driven: each character's meaning is a row of ``_TABLE``; a number is read by splitting on 億, then 萬, then
reading each section below 萬 from the left. Only well-formed numbers: it answers None for anything else, and
the tests compare it with the scorer where it answers.

Also ``write``: an integer in standard Chinese numerals (零 for a gap, 一十 never written), for generating cases.
"""

from __future__ import annotations

# kind, value: a digit word, a tens word (廿 = 20), a small unit, a big unit.
_TABLE: dict[str, tuple[str, int]] = {
    **{ch: ("digit", v) for v, ch in enumerate("零一二三四五六七八九")},
    "〇": ("digit", 0),
    "兩": ("digit", 2),
    "廿": ("tens", 20),
    "卅": ("tens", 30),
    "卌": ("tens", 40),
    "十": ("unit", 10),
    "百": ("unit", 100),
    "千": ("unit", 1000),
    "萬": ("big", 10_000),
    "億": ("big", 100_000_000),
}


def read(text: str) -> str | None:
    """``text`` in digits as the published rule reads it, or None when it is not one well-formed number."""
    if not text or any(ch not in _TABLE for ch in text):
        return None
    kinds = [_TABLE[ch][0] for ch in text]
    # A run with no digit word stays as written (百, 千萬), except one that starts with 十 (十萬 = 100000).
    if "digit" not in kinds and "tens" not in kinds and text[0] != "十":
        return None
    if all(kind == "digit" for kind in kinds):
        # Digit words alone are read one by one (二零二六 = 2026); a lone one is its value.
        return "".join(str(_TABLE[ch][1]) for ch in text)
    value = _read_big(text, ("億", "萬"))
    return None if value is None else str(value)


def _read_big(text: str, bigs: tuple[str, ...]) -> int | None:
    if not bigs:
        return _read_section(text)
    big, rest = bigs[0], bigs[1:]
    if text.count(big) > 1:
        return None
    if big not in text:
        return _read_big(text, rest) if text else None
    head, tail = text.split(big)
    size = _TABLE[big][1]
    high = _read_big(head, rest) if head else 1
    if not high:
        return None
    if not tail:
        return high * size
    # Cantonese shorthand: one digit word after the big unit is the next place down (三萬五 = 35000).
    if len(tail) == 1 and _TABLE[tail][0] == "digit" and _TABLE[tail][1]:
        return high * size + _TABLE[tail][1] * size // 10
    if tail[0] in "零〇":
        tail = tail[1:]
        if not tail:
            return None
    low = _read_big(tail, rest)
    if low is None or low >= size:
        return None
    return high * size + low


def _read_section(text: str) -> int | None:
    """A number below 萬: digit-unit pairs with falling units, 零 for a gap, a last digit."""
    total = 0
    pending: int | None = None  # a digit word waiting for its unit
    last_unit: int | None = None
    after_gap = False
    for ch in text:
        kind, value = _TABLE[ch]
        if kind == "tens":
            if pending is not None or (last_unit is not None and last_unit <= 10):
                return None
            total += value
            last_unit = 10
            continue
        if kind == "digit":
            if value == 0:
                # 零 marks a gap after a unit (一百零五), never the start of a section.
                if pending is not None or last_unit is None:
                    return None
                after_gap = True
                continue
            if pending is not None:
                return None
            pending = value
            continue
        # a small unit
        if last_unit is not None and value >= last_unit:
            return None
        total += (1 if pending is None else pending) * value
        pending = None
        last_unit = value
        after_gap = False
    if pending is not None:
        if last_unit is None:
            return pending if len(text) == 1 else None
        # Cantonese shorthand: a digit right after 百 or 千 is the next place down (百二 = 120, 千五 = 1500).
        total += pending * last_unit // 10 if last_unit >= 100 and not after_gap else pending
    return total


def write(n: int) -> str:
    """``n`` (0 to 10**12 - 1) in standard Chinese numerals: 10 is 十, 110 is 一百一十, 1005 is 一千零五."""
    if n == 0:
        return "零"
    out = ""
    need_zero = False
    for size, name in ((10**8, "億"), (10**4, "萬"), (1, "")):
        part = n // size % (10**4)
        if part == 0:
            need_zero = bool(out)
            continue
        if out and (need_zero or part < 1000):
            out += "零"
        out += _write_section(part, leading=not out) + name
        need_zero = False
    return out


def _write_section(n: int, *, leading: bool) -> str:
    digits = "零一二三四五六七八九"
    out = ""
    gap = False
    for size, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = n // size % 10
        if d == 0:
            gap = bool(out)
            continue
        if gap:
            out += "零"
            gap = False
        out += ("" if (leading and not out and size == 10 and d == 1) else digits[d]) + name
    return out
