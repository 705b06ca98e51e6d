"""The numeral, range, currency and clock readers of the published rules, written plainly from the
methodology's table and the tables of ``cvb_scorer.reference.data``: character loops, no regular expressions and
no caches. They share no code with the fast path (``cvb_scorer.normalise.numerals``), which is checked against
them on generated text; a test reads this package's imports to keep it so.

A number is read table by table: a run of numerals splits on 億, then on 萬, and each section below 萬 is read
from the left as digit-unit pairs with falling units, 零 for a gap and the Cantonese shorthand (百二 = 120).
"""

from __future__ import annotations

from cvb_scorer.reference.data import (
    ASCII_DIGITS,
    ASCII_LETTERS,
    BIG_UNITS,
    DECIMAL,
    DIGIT_WORDS,
    FOREIGN,
    HUNDRED_PERCENT,
    LIST_MARK,
    LOCAL_NAMES,
    LOCAL_WORDS,
    LONGEST_PIECE,
    LONGEST_VALUE,
    MEASURE_WORDS,
    MINUS_SIGNS,
    MINUS_WORD,
    MISHEARD_FROM,
    MISHEARD_SHORT,
    NUMERALS,
    PERCENT_PREFIX,
    POINTS,
    RANGE_DASHES,
    RANGE_WORD,
    RANGE_WORDS,
    SIMPLIFIED,
    SMALL_UNITS,
    TENS_WORDS,
    fixed_words,
)
from cvb_scorer.tokens import class_code

SPACE = " "
FIXED_WORDS: tuple[str, ...] = fixed_words()
_LONGEST_FIXED = max(map(len, FIXED_WORDS))
_FIXED = frozenset(FIXED_WORDS)
# What a word of the thousands rule, a range or a clock time may not follow or precede: part of a number.
_NUMBERISH = NUMERALS | {"點", "点"}


def _digit(ch: str) -> bool:
    return ch != "" and ch in ASCII_DIGITS


# -- One run, read as a number ---------------------------------------------------------------------------------


def _section(items: list[tuple[str, int]]) -> int | None:
    """A section below 萬: digit-unit pairs with falling units, 零 for a gap, a last digit."""
    total = 0
    waiting: int | None = None  # a number waiting for its unit
    unit_before: int | None = None
    after_zero = False
    for kind, value in items:
        if kind in ("d", "a"):
            if waiting is not None:
                if kind == "d" and value == 0 and waiting == 0:
                    continue
                if waiting != 0:
                    return None
                # 一百零五: a zero only marks a gap.
                after_zero = True
            waiting = value
            continue
        if unit_before is not None and value >= unit_before:
            return None
        if waiting == 0:
            if unit_before is None:
                return None
            waiting = None  # 一千零十 = 1010: a unit right after the gap counts one of it
        total += (1 if waiting is None else waiting) * value
        unit_before = value
        waiting = None
        after_zero = False
    if waiting is None:
        return total
    if unit_before is None:
        return waiting if len(items) == 1 else None
    if waiting >= 10:
        return None
    # A bare digit right after 百 or 千 is the next place down (百二 = 120, 千五 = 1500).
    if unit_before >= 100 and not after_zero:
        return total + waiting * unit_before // 10
    return total + waiting


def _items(run: str) -> list[tuple[str, int]] | None:
    """The run as items: ("d", v) a digit word, ("a", v) an Arabic number, ("u", size) 十 百 千, ("U", size)
    萬 億; None when a character is none of these or an Arabic number is longer than any value."""
    items: list[tuple[str, int]] = []
    k = 0
    while k < len(run):
        ch = run[k]
        if _digit(ch):
            end = k
            while end < len(run) and _digit(run[end]):
                end += 1
            if end - k > LONGEST_VALUE:
                return None
            items.append(("a", int(run[k:end])))
            k = end
            continue
        if ch in DIGIT_WORDS:
            items.append(("d", DIGIT_WORDS[ch]))
        elif ch in SMALL_UNITS:
            items.append(("u", SMALL_UNITS[ch]))
        elif ch in BIG_UNITS:
            items.append(("U", BIG_UNITS[ch]))
        else:
            return None
        k += 1
    return items


def value_of(run: str) -> int | None:
    """The value of a run with no decimal point, or None when it is not one well-formed number."""
    items = _items(run)
    if items is None:
        return None
    return _big(items, (10**8, 10**4))


def _big(items: list[tuple[str, int]], units: tuple[int, ...]) -> int | None:
    """``items`` split on the first of ``units`` (億, then 萬), each side read with the rest; one digit word
    after the unit is the next place down (三萬五 = 35000)."""
    if not units:
        return _section(items)
    size, smaller = units[0], units[1:]
    at = [k for k, (kind, value) in enumerate(items) if kind == "U" and value == size]
    if len(at) > 1:
        return None
    if not at:
        return _big(items, smaller) if items else None
    head, tail = items[: at[0]], items[at[0] + 1 :]
    high = _big(head, smaller) if head else 1
    if not high:
        return None
    if not tail:
        return high * size
    if len(tail) == 1 and tail[0][0] == "d" and tail[0][1] != 0:
        return high * size + tail[0][1] * size // 10
    if tail[0] == ("d", 0):  # 一萬零五: the zero marks a gap
        tail = tail[1:]
        if not tail:
            return None
    low = _big(tail, smaller)
    if low is None or low >= size:
        return None
    return high * size + low


def _said_digits(run: str) -> str | None:
    """Digit words and digits read one by one (二零二六 → 2026), or None."""
    out = []
    for ch in run:
        if ch in DIGIT_WORDS:
            out.append(str(DIGIT_WORDS[ch]))
        elif _digit(ch):
            out.append(ch)
        else:
            return None
    return "".join(out)


def _whole(run: str) -> str | None:
    said = _said_digits(run)
    if said is not None:
        return said
    value = value_of(run)
    return None if value is None else str(value)


def _scale_at(after: str) -> int:
    """Where a scale that multiplies a decimal number as a whole starts at the end of ``after``: 百 or 千, or
    萬 or 億 with at most one of 十 百 千 before it (十 alone never scales: 三點五十 is a clock time); or the
    length of ``after`` when there is none."""
    if after[-1:] in ("萬", "億"):
        return len(after) - 2 if after[-2:-1] in ("十", "百", "千") else len(after) - 1
    if after[-1:] in ("百", "千"):
        return len(after) - 1
    return len(after)


def _scaled(whole: str, digits: str, multiplier: int) -> str:
    """``whole``.``digits`` times ``multiplier``, in digits without trailing zeros after a point."""
    product = str(int(whole + digits) * multiplier).rjust(len(digits) + 1, "0")
    head, tail = product[: -len(digits)], product[-len(digits) :].rstrip("0")
    return f"{head}.{tail}" if tail else head


def _decimal(integer: str, after: str) -> str | None:
    if not integer or not after:
        return None
    whole = _whole(integer)
    if whole is None:
        return None
    at = _scale_at(after)
    said, scale = after[:at], after[at:]
    digits = _said_digits(said) if said else None
    if digits is not None:
        if not scale:
            return f"{whole}.{digits}"
        if len(whole) + len(digits) > LONGEST_VALUE:
            return None
        multiplier = value_of("一" + scale)
        if multiplier is None:
            return None
        return _scaled(whole, digits, multiplier)
    # A number from ten to ninety-nine after the point: the minutes of a clock time (三點十五 = 3點15).
    minutes = value_of(after) if "十" in after else None
    if minutes is not None and 10 <= minutes < 100:
        return f"{whole}.{minutes}"
    return None


def read_number(run: str) -> str | None:
    """One run of numerals (in Hong Kong forms) and digits in Arabic digits, or None when it stays as written.

    >>> read_number("百二"), read_number("三萬五"), read_number("三點五萬"), read_number("百")
    ('120', '35000', '35000', None)
    """
    work = "".join(TENS_WORDS.get(ch, ch) for ch in run)
    # 十 alone is a number (十個); 百, 千, 萬 alone are words as often as numbers (百貨).
    if not work.startswith("十") and not any(ch in DIGIT_WORDS or _digit(ch) for ch in work):
        return None
    points = [k for k, ch in enumerate(work) if ch in POINTS]
    if not points:
        return _whole(work)
    if len(points) > 1:
        return None
    return _decimal(work[: points[0]], work[points[0] + 1 :])


# -- Runs in a text ----------------------------------------------------------------------------------------------


def _in_run(ch: str) -> bool:
    return ch != "" and (ch in NUMERALS or _digit(ch))


def run_end(text: str, start: int) -> int:
    """Where the numeral run starting at ``start`` ends: numerals and digits, with a decimal point between two
    of them; ``start`` itself when none starts there."""
    if not _in_run(text[start : start + 1]):
        return start
    end = start + 1
    while end < len(text):
        if _in_run(text[end]) or (text[end] in POINTS and _in_run(text[end + 1 : end + 2])):
            end += 1
        else:
            break
    return end


def next_run(text: str, pos: int) -> int | None:
    """Where the first numeral run at or after ``pos`` starts."""
    for start in range(pos, len(text)):
        if _in_run(text[start]):
            return start
    return None


def fixed_word_at(text: str, start: int) -> str | None:
    """The longest word kept as written that starts at ``start``."""
    for size in range(min(_LONGEST_FIXED, len(text) - start), 0, -1):
        if text[start : start + size] in _FIXED:
            return text[start : start + size]
    return None


def fixed_word_spans(text: str) -> list[tuple[int, int]]:
    """The words kept as written, found from the left, each the longest there."""
    spans = []
    k = 0
    while k < len(text):
        word = fixed_word_at(text, k)
        if word is None:
            k += 1
        else:
            spans.append((k, k + len(word)))
            k += len(word)
    return spans


def is_range(words: str) -> bool:
    """Two digit words one apart (三四, 一兩): "three or four", never thirty-four."""
    return (
        len(words) == 2
        and words[0] in RANGE_WORDS
        and words[1] in RANGE_WORDS
        and RANGE_WORDS[words[1]] == RANGE_WORDS[words[0]] + 1
    )


def counted(ch: str) -> bool:
    """What a range counts: a Han character that cannot continue a number."""
    return ch != "" and class_code(ch) in ("H", "C") and ch not in _NUMBERISH


def _range_at(text: str, start: int, end: int) -> bool:
    return is_range(text[start:end]) and counted(text[end : end + 1])


def _range_inside(run: str) -> bool:
    units = set(SMALL_UNITS) | set(BIG_UNITS) | set(TENS_WORDS)
    return any(ch in units for ch in run) and any(is_range(run[k : k + 2]) for k in range(len(run) - 1))


def as_said(run: str) -> str | None:
    """A run that is not one number, as the fewest numbers said one after another (the first the longest
    among equally few), written as a list (with ``LIST_MARK``); None when there is no such reading of two or
    more."""
    n = len(run)
    fewest: list[int | None] = [None] * n + [0]
    first = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        for j in range(min(n, i + LONGEST_PIECE), i, -1):
            rest = fewest[j]
            if rest is None or read_number(run[i:j]) is None:
                continue
            best = fewest[i]
            if best is None or rest + 1 < best:
                fewest[i], first[i] = rest + 1, j
    if fewest[0] is None or fewest[0] < 2:
        return None
    pieces = []
    i = 0
    while i < n:
        pieces.append(read_number(run[i : first[i]]) or "")
        i = first[i]
    return LIST_MARK.join(pieces)


def _spaced_digits(text: str) -> bool:
    groups = text.split(SPACE)
    return len(groups) > 1 and all(group != "" and all(_digit(ch) for ch in group) for group in groups)


def _fold_one(text: str, start: int, end: int) -> tuple[str, int]:
    """What the run ``text[start:end]`` (Hong Kong forms) folds to, and where the next may start."""
    word = fixed_word_at(text, start)
    if word is not None:
        after_word = start + len(word)
        units = set(SMALL_UNITS) | set(BIG_UNITS) | set(TENS_WORDS)
        # A word kept as written never breaks a longer number it starts with units after it (萬一千 = 11000).
        breaks_a_number = (
            end > after_word
            and any(ch in units for ch in text[after_word:end])
            and read_number(text[start:end]) is not None
        )
        if not breaks_a_number:
            return word, after_word
    if text.startswith(HUNDRED_PERCENT, start):
        return "100%", start + len(HUNDRED_PERCENT)
    if text.startswith(PERCENT_PREFIX, start):
        k = start + len(PERCENT_PREFIX)
        k_end = run_end(text, k)
        if (
            k_end > k
            and not any(_digit(ch) for ch in text[k:k_end])
            and fixed_word_at(text, k) is None
            and not _range_at(text, k, k_end)
        ):
            number = read_number(text[k:k_end])
            if number is not None:
                return number + ("" if text[k_end : k_end + 1] == "%" else "%"), k_end
    run = text[start:end]
    if _range_at(text, start, end) or not any(ch in _NUMBERISH for ch in run):
        return run, end
    number = read_number(run)
    if number is None and not _range_inside(run):
        number = as_said(run)
    if number is not None:
        return number, end
    if "." not in run:
        return run, end
    # Dots in a run that reads neither way are punctuation: the pieces between them fold as text of their own.
    context = text[end : end + 1]
    folded = fold_numerals(run.replace(".", SPACE) + context)
    folded = folded[: len(folded) - len(context)]
    if _spaced_digits(folded) and folded.count(SPACE) == run.count("."):
        return folded.replace(SPACE, "."), end
    return folded, end


def misheard_word_end(text: str, start: int, pos: int) -> int | None:
    """The furthest end of a window of ``text`` that starts at or after ``pos``, covers ``start`` and is a word
    kept as written of at least ``MISHEARD_FROM`` characters (or of ``MISHEARD_SHORT`` that starts with its
    only numeral, with no measure word after the numeral in the word or in the window: 六和彩 for 六合彩) with
    exactly one character replaced by a Han character that is not a numeral or a decimal word (十萬伙急 for
    十萬火急); None when there is none."""
    ends = []
    for word in FIXED_WORDS:
        short = len(word) == MISHEARD_SHORT and word[0] in NUMERALS and not (set(word[1:]) & NUMERALS)
        if len(word) < MISHEARD_FROM and not (short and word[1] not in MEASURE_WORDS):
            continue
        for begin in range(max(pos, start - len(word) + 1), start + 1):
            window = text[begin : begin + len(word)]
            if len(window) < len(word):
                continue
            if len(word) < MISHEARD_FROM and window[1] in MEASURE_WORDS:
                continue
            wrong = [k for k in range(len(word)) if window[k] != word[k]]
            if len(wrong) == 1 and counted(window[wrong[0]]) and begin + wrong[0] != start:
                ends.append(begin + len(word))
    return max(ends) if ends else None


def fold_numerals(text: str) -> str:
    """Every numeral run of ``text`` from the left in Arabic digits, as the numerals rule says; a Simplified
    numeral is read as its Hong Kong form and written before the number it is part of (三万五 → 万35000)."""
    hong_kong = "".join(SIMPLIFIED.get(ch, ch) for ch in text)
    words = fixed_word_spans(hong_kong)
    out = []
    pos = 0
    start = next_run(text, 0)
    while start is not None:
        out.append(text[pos:start])
        inside = [span for span in words if span[0] < start < span[1]]
        at_word = any(span[0] == start for span in words)
        misheard = None if inside or at_word else misheard_word_end(hong_kong, start, pos)
        if inside:  # a run that starts inside a word kept as written (進退兩難) is part of it
            out.append(text[start : inside[0][1]])
            pos = inside[0][1]
        elif misheard is not None:  # or inside one with a character misheard (十萬伙急)
            out.append(text[start:misheard])
            pos = misheard
        elif text[start] in SIMPLIFIED and _simplified_mark_end(text, start) is not None:
            # Simplified numerals before digits: what an earlier reading left, never read again.
            pos = _simplified_mark_end(text, start) or start
            out.append(text[start:pos])
        else:
            folded, pos = _fold_one(hong_kong, start, run_end(hong_kong, start))
            said = text[start:pos]
            marks = "".join(ch for ch in said if ch in SIMPLIFIED)
            if marks:
                if folded == hong_kong[start:pos]:
                    folded = said
                elif not any(ch in _NUMBERISH for ch in folded):
                    folded = marks + folded
            out.append(folded)
        start = next_run(text, pos)
    out.append(text[pos:])
    return "".join(out)


def _simplified_mark_end(text: str, start: int) -> int | None:
    end = start
    while end < len(text) and text[end] in SIMPLIFIED:
        end += 1
    return end if end > start and _digit(text[end : end + 1]) else None


# -- The other readers of the rules -------------------------------------------------------------------------------


def join_thousands(text: str) -> str:
    """An ASCII comma between a digit and exactly three digits joins them (1,200)."""
    out = []
    for k, ch in enumerate(text):
        joins = (
            ch == ","
            and _digit(text[k - 1 : k])
            and all(_digit(d) for d in text[k + 1 : k + 4])
            and len(text[k + 1 : k + 4]) == 3
            and not _digit(text[k + 4 : k + 5])
        )
        if not joins:
            out.append(ch)
    return "".join(out)


def join_comma_ranges(text: str) -> str:
    """六,七歲 → 六七歲: a comma between the words of a range before what they count is not a list, unless the
    range's first word ends a list (一、二、三號)."""
    out = []
    k = 0
    while k < len(text):
        before = text[k - 1 : k]
        listed = before in (",", "、") and k >= 2 and (text[k - 2] in NUMERALS or _digit(text[k - 2]))
        if (
            not listed
            and not (before and (before in NUMERALS or _digit(before) or before in POINTS))
            and text[k] in RANGE_WORDS
            and text[k + 1 : k + 2] in (",", "、")
            and text[k + 2 : k + 3] in RANGE_WORDS
            and text[k + 2 : k + 3] != ""
            and counted(text[k + 3 : k + 4])
        ):
            words = text[k] + text[k + 2]
            out.append(words if is_range(words) else text[k : k + 3])
            k += 3
        else:
            out.append(text[k])
            k += 1
    return "".join(out)


def spoken_time(hour: str, minutes: str, following: str) -> str | None:
    """A clock time as it is said (11.30; on the hour 11點), or None past 24; a space after it when what
    follows could join it."""
    if int(hour) > 24:
        return None
    said = f"{int(hour)}{DECIMAL}" if minutes == "00" else f"{int(hour)}.{minutes}"
    joins = following != "" and (following in _NUMBERISH or following in (".", ":") or _digit(following))
    return said + SPACE if joins else said


# Every currency name, and the one form of each foreign one.
_ONE_FORM = {name: form for form, names in FOREIGN.items() for name in names}
_NAMES = (*LOCAL_NAMES, *_ONE_FORM)


def _name_at(text: str, k: int) -> str | None:
    for name in _NAMES:
        if text.startswith(name, k):
            return name
    return None


def _keeps(neighbour: str) -> bool:
    """Whether currency words beside ``neighbour`` stay: removing them would join two numbers (三蚊三)."""
    return neighbour != "" and (
        class_code(neighbour) == "D" or neighbour in NUMERALS or neighbour in ("點", "点") or neighbour == "%"
    )


def _foreign_named(words: str) -> str:
    """The one form of the last foreign currency named in ``words``; nothing for the local one."""
    found = []
    k = 0
    while k < len(words):
        name = _name_at(words, k)
        if name is None:
            k += 1
        else:
            if name in _ONE_FORM:
                found.append(_ONE_FORM[name])
            k += len(name)
    return found[-1] if found else ""


def _names_before_numbers(text: str) -> str:
    out = []
    k = 0
    while k < len(text):
        end = k
        while (name := _name_at(text, end)) is not None:
            end += len(name)
        if end > k and _digit(text[end : end + 1]):
            number_end = end + 1
            while number_end < len(text) and (_digit(text[number_end]) or text[number_end] in ".%"):
                number_end += 1
            mark = "、" if text[number_end : number_end + 1] == "、" else ""
            whole_end = number_end + len(mark)
            if _keeps(text[k - 1 : k]):
                out.append(text[k:whole_end])
            else:
                out.append(text[end:number_end] + (_foreign_named(text[k:end]) or mark))
            k = whole_end
        else:
            out.append(text[k])
            k += 1
    return "".join(out)


def _words_after_numbers(text: str) -> str:
    out = []
    k = 0
    while k < len(text):
        before = text[k - 1 : k]
        first = _name_at(text, k) or (text[k] if text[k] in LOCAL_WORDS else None)
        if first is None or not (_digit(before) or before == "%"):
            out.append(text[k])
            k += 1
            continue
        end = k + len(first)
        while True:
            more = _name_at(text, end) or (text[end] if text[end : end + 1] in LOCAL_WORDS else None)
            if more is None:
                break
            end += len(more)
        out.append(text[k:end] if _keeps(text[end : end + 1]) else _foreign_named(text[k:end]))
        k = end
    return "".join(out)


def currency_words(text: str) -> str:
    """The local currency's words before or after a number removed, any other written once after it."""
    return _words_after_numbers(_names_before_numbers(text))


def _digits_from(text: str, start: int) -> int:
    end = start
    while end < len(text) and _digit(text[end]):
        end += 1
    return end


def _range_ends(text: str, start: int) -> int | None:
    """Where a range written with a dash that starts at ``start`` ends (3-5), or None."""
    before = text[start - 1 : start]
    if before and (_digit(before) or before in ASCII_LETTERS or before in "." + RANGE_DASHES + MINUS_SIGNS):
        return None
    dash = _digits_from(text, start)
    if not 1 <= dash - start <= 3 or text[dash : dash + 1] == "" or text[dash] not in RANGE_DASHES:
        return None
    end = _digits_from(text, dash + 1)
    if not 1 <= end - dash - 1 <= 3:
        return None
    after = text[end : end + 1]
    if after == "." or (after != "" and after in RANGE_DASHES and _digit(text[end + 1 : end + 2])):
        return None
    return end


def _minus_at(text: str, k: int) -> bool:
    before = text[k - 1 : k]
    return (
        text[k] in MINUS_SIGNS
        and _digit(text[k + 1 : k + 2])
        and not (
            before
            and (
                _digit(before)
                or before in ".%" + RANGE_DASHES + MINUS_SIGNS
                or before in _NUMBERISH
                or class_code(before) == "L"
            )
        )
    )


def signs(text: str) -> str:
    """A dash between two numbers of at most three digits, the first the lower, is 至 (3-5 → 3至5); then a
    minus sign before a number that nothing number-like or letter-like precedes is 負 (-3 → 負3)."""
    out = []
    k = 0
    while k < len(text):
        end = _range_ends(text, k) if _digit(text[k]) else None
        if end is None:
            out.append(text[k])
            k += 1
            continue
        dash = _digits_from(text, k)
        low, high = text[k:dash], text[dash + 1 : end]
        out.append(f"{low}{RANGE_WORD}{high}" if int(low) < int(high) else text[k:end])
        k = end
    ranged = "".join(out)
    return "".join(MINUS_WORD if _minus_at(ranged, k) else ch for k, ch in enumerate(ranged))
