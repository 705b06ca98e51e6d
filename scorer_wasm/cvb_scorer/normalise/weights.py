"""How much a number weighs: the published decision and the worked examples the methodology page shows.

The decision: the character error rate counts a number by the digits of its value (一億 is nine reference
characters, as 100000000 would be), and the Mix Error Rate counts each number as a single token. Digits are
the one form both ways of writing a number share without guessing how an Arabic number was said (2026 may
have been said digit by digit or as a value), so an entrant who writes digits and one who writes numerals are
charged alike; the Mix Error Rate, published beside it, charges a wrong number once however long it is.

The examples are scored here by the scorer itself (and the tests check the figures), so the page never shows
a figure the code does not produce. The third column, what counting spoken characters would charge, is the
edit distance between the two texts as written (both sides are written in numerals in these examples, so
those are the spoken characters).
"""

from __future__ import annotations

from dataclasses import dataclass

from cvb_scorer.align import Counts, edit_counts
from cvb_scorer.metrics import score_clip
from cvb_scorer.normalise.text import is_gap
from cvb_scorer.reference.normalise import cleanup, width


@dataclass(frozen=True)
class NumberExample:
    reference: str
    hypothesis: str
    shows: str
    shows_zh: str  # the same, in Traditional Chinese (Hong Kong), for the Chinese edition


NUMBER_EXAMPLES: tuple[NumberExample, ...] = (
    NumberExample("一億", "一萬", "a wrong unit on a large number", "大數字的單位錯了"),
    NumberExample("三萬五", "三萬五千", "the same value said two ways", "同一數值的兩種說法"),
    NumberExample(
        "二零二六", "二千零二十六", "digits read one by one against the value", "逐個數字讀出對數值讀法"
    ),
    NumberExample("三四個", "三十四個", "a range against a value", "範圍對數值"),
    NumberExample("三點五萬", "三萬五千", "a decimal before 萬 against the value", "萬之前的小數對數值"),
    NumberExample(
        "三點十五分", "3點15分", "a clock time in numerals against digits", "鐘點時間：中文數字對阿拉伯數字"
    ),
    NumberExample("十一點半", "十一點三十", "half past against the minutes said", "「點半」對說出分鐘"),
    NumberExample(
        "一百，二百，三百",
        "一百二百三百",
        "separate numbers, with and without commas",
        "分開的數字，有逗號對沒有逗號",
    ),
)


@dataclass(frozen=True)
class NumberCharges:
    """What each way of weighing a number charges for one example: errors and reference size."""

    digits: Counts
    token: Counts
    spoken: Counts


def _as_written(text: str) -> str:
    # Punctuation, symbols and spaces are not characters anyone says.
    return "".join(ch for ch in width(cleanup(text)) if not is_gap(ch))


def charges(example: NumberExample) -> NumberCharges:
    clip = score_clip("example", example.reference, example.hypothesis)
    spoken = edit_counts(_as_written(example.reference), _as_written(example.hypothesis))
    return NumberCharges(digits=clip.cer_counts, token=clip.mer_counts, spoken=spoken)


def _of(counts: Counts) -> str:
    return f"{counts.errors} of {counts.N}"


def number_weight_rows() -> list[dict[str, str]]:
    """``NUMBER_EXAMPLES`` with what each choice charges, as rows of strings for the methodology page."""
    rows = []
    for example in NUMBER_EXAMPLES:
        c = charges(example)
        rows.append(
            {
                "reference": example.reference,
                "hypothesis": example.hypothesis,
                "shows": example.shows,
                "shows_zh": example.shows_zh,
                "digits": _of(c.digits),
                "token": _of(c.token),
                "spoken": _of(c.spoken),
            }
        )
    return rows
