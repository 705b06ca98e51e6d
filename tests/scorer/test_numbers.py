"""Numbers read as said: the cases of issue 8 as a golden table of what each pair costs, and the worked examples
of how much a number weighs that the methodology page shows (scored here, so the page's figures are the
code's)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from cvb_scorer.metrics import score_clip
from cvb_scorer.normalise import normalise_hypothesis, normalise_reference
from cvb_scorer.normalise.weights import NUMBER_EXAMPLES, charges, number_weight_rows
from hypothesis import given, settings
from hypothesis import strategies as st

# (reference, hypothesis, CER errors, MER errors)
PAIRS = [
    # a number never spans punctuation or a space between spoken items
    ("一百，二百，三百", "100，200，300", 0, 0),
    # a list comma between two numbers stays (an enumeration), as numbers said one after another are written;
    # an ASCII comma before three digits is a thousands separator and spaces group digits: one number, not a list
    ("一百，二百，三百", "100,200,300", 2, 5),
    ("佢今年三十，五百蚊", "佢今年30，500蚊", 0, 0),
    ("一百二百三百", "100，200，300", 0, 0),
    ("一百二百三百", "100 200 300", 2, 5),
    # a range or an approximation is never a value
    ("三四個", "三十四個", 2, 2),
    ("六,七歲", "六十七歲", 2, 2),
    ("六、七歲", "六十七歲", 2, 2),
    ("四五日", "四十五日", 2, 2),
    ("七八成", "七十八成", 2, 2),
    ("三四個", "三四個", 0, 0),
    ("六,七歲", "六七歲", 0, 0),
    # decimals fold on both sides, before 萬/億 too
    ("要三點五萬", "要3.5萬", 0, 0),
    ("三點五萬", "35000", 0, 0),
    ("3.5萬", "35000", 0, 0),
    ("三點五", "3點5", 0, 0),
    ("1.5億", "一點五億", 0, 0),
    # ... a dot written for 點 too, and a scale after the digits; the minutes of a clock time keep their digits
    ("三.5萬", "35000", 0, 0),
    ("三點五百萬", "3.5百萬", 0, 0),
    ("三點五千", "3500", 0, 0),
    ("三點十五分", "3點15分", 0, 0),
    ("三點五十分", "3點50分", 0, 0),
    ("三點五十分", "三點五分", 1, 1),
    # a clock time reads as it is said: a colon is its 點, 點半 is half past, on the hour is the hour and 點
    ("十一點半", "11:30", 0, 0),
    ("十一點三十分", "11:30", 1, 1),  # 分 is said, and missing
    ("兩點半", "2:30", 0, 0),
    ("十一點", "11:00", 0, 0),
    ("下晝三點半開會", "下晝3:30開會", 0, 0),
    ("九點零五分", "09:05分", 0, 0),
    ("十一點半", "11:45", 2, 1),  # a wrong time costs its digits, or one token
    ("一點半點", "一點半點", 0, 0),  # a little: not a time
    # a currency named before or after a number goes, as HK$ and US$ do
    ("保費每個月港幣三百蚊", "保費每個月HK$300", 0, 0),
    ("三百港元", "HK$300", 0, 0),
    ("五百美金", "US$500", 0, 0),
    ("港元兌美元", "港元兌美元", 0, 0),
    # whitespace between numbers counts the same whatever the script
    ("九八七六 五四三二", "9876 5432", 0, 0),
    # how much a number weighs: the digits of its value in CER, one token in MER
    ("一億", "一萬", 4, 1),
    ("三萬五", "三万五", 1, 1),  # one Simplified numeral: one error, the number still read
    ("兩萬", "两万", 2, 2),
]


@pytest.mark.parametrize(("ref", "hyp", "cer_errors", "mer_errors"), PAIRS)
def test_what_each_numeric_pair_costs(ref: str, hyp: str, cer_errors: int, mer_errors: int) -> None:
    clip = score_clip("a", ref, hyp)
    assert (clip.cer_counts.errors, clip.mer_counts.errors) == (cer_errors, mer_errors)


@pytest.mark.parametrize("text", ["3點5", "三點五", "要三點五萬", "3點5個", "佢3點5"])
@pytest.mark.parametrize("elsewhere", ["", "一", "十個", "3", "，五百蚊"])
def test_a_decimal_reads_the_same_whatever_else_the_clip_holds(text: str, elsewhere: str) -> None:
    alone = normalise_hypothesis(text).text
    assert normalise_hypothesis(f"{text}。嘅{elsewhere}").text.startswith(alone + "嘅")
    assert normalise_reference(f"{elsewhere}嘅。{text}").text.endswith("嘅" + alone)


# What the methodology page shows: per example, the charge (errors, reference size) of each way of weighing a
# number: digits of its value (CER), one token (MER), spoken characters.
WEIGHTS = {
    ("一億", "一萬"): ((4, 9), (1, 1), (1, 2)),
    ("三萬五", "三萬五千"): ((0, 5), (0, 1), (1, 3)),
    ("二零二六", "二千零二十六"): ((0, 4), (0, 1), (2, 4)),
    ("三四個", "三十四個"): ((2, 3), (2, 3), (1, 3)),
    ("三點五萬", "三萬五千"): ((0, 5), (0, 1), (2, 4)),
    ("三點十五分", "3點15分"): ((0, 5), (0, 2), (3, 5)),
    ("十一點半", "十一點三十"): ((0, 5), (0, 1), (2, 4)),
    ("一百，二百，三百", "一百二百三百"): ((0, 11), (0, 5), (0, 6)),
}


def test_the_published_number_weights_are_what_the_scorer_charges() -> None:
    assert {(e.reference, e.hypothesis) for e in NUMBER_EXAMPLES} == set(WEIGHTS)
    for example in NUMBER_EXAMPLES:
        c = charges(example)
        got = tuple((x.errors, x.N) for x in (c.digits, c.token, c.spoken))
        assert got == WEIGHTS[example.reference, example.hypothesis], example
    rows = number_weight_rows()
    assert [r["reference"] for r in rows] == [e.reference for e in NUMBER_EXAMPLES]
    assert rows[0]["digits"] == "4 of 9" and rows[0]["token"] == "1 of 1" and rows[0]["spoken"] == "1 of 2"


# A decimal, however it is written: the integer in digits or spelled (by the pages' own speller, an
# independent implementation), the point as 點 or a dot, the digits after it as digits or digit words, and a
# scale after them. Every spelling folds to the exact value written in digits.
_DIGIT_WORDS = "零一二三四五六七八九"
_SCALES = {
    "": 1,
    "百": 100,
    "千": 1000,
    "萬": 10**4,
    "十萬": 10**5,
    "百萬": 10**6,
    "千萬": 10**7,
    "億": 10**8,
}


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=99_999),
    st.text(alphabet="0123456789", min_size=1, max_size=4),
    st.sampled_from(sorted(_SCALES)),
)
def test_a_decimal_folds_to_its_value_however_it_is_written(whole: int, after: str, scale: str) -> None:
    from generator.pages.words_zh import spell

    value = (Fraction(whole) + Fraction(int(after), 10 ** len(after))) * _SCALES[scale]
    said = "".join(_DIGIT_WORDS[int(d)] for d in after)
    expected = f"{whole}.{after}" if not scale else _plain(value)
    for integer in (str(whole), spell(whole)):
        for point in ("點", "."):
            for fraction in (after, said):
                text = f"佢話{integer}{point}{fraction}{scale}個"
                assert normalise_hypothesis(text).text == f"佢話{expected}個", text


def _plain(value: Fraction) -> str:
    digits = f"{value.numerator * 10**12 // value.denominator:013d}"
    whole, fraction = digits[:-12], digits[-12:].rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


@pytest.mark.parametrize(
    ("minutes", "spoken"),
    [(10, "十"), (15, "十五"), (20, "二十"), (45, "四十五"), (50, "五十"), (59, "五十九")],
)
def test_the_minutes_of_a_clock_time_read_the_same_in_numerals_and_digits(minutes: int, spoken: str) -> None:
    for hour, hour_said in ((3, "三"), (12, "十二")):
        in_numerals = normalise_reference(f"{hour_said}點{spoken}分").text
        assert in_numerals == normalise_hypothesis(f"{hour}點{minutes}分").text == f"{hour}.{minutes}分"


@pytest.mark.parametrize("hour", range(25))
def test_a_clock_time_reads_the_same_written_with_a_colon_with_half_past_or_in_numerals(hour: int) -> None:
    from generator.pages.words_zh import spell  # the pages' own speller, an independent implementation

    # The hour as the numeral rule reads it: 11點 → 11.
    said = normalise_reference(f"{hour}點").text.removesuffix("點")
    numerals = normalise_reference(f"{spell(hour)}點半").text
    assert numerals == normalise_hypothesis(f"{hour}:30").text == normalise_hypothesis(f"{hour:02d}:30").text
    assert numerals == normalise_hypothesis(f"{spell(hour)}點三十").text == f"{said}.30"
    assert normalise_reference(f"{spell(hour)}點").text == normalise_hypothesis(f"{hour}:00").text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25:30", "2530"),  # no such hour
        ("11:60", "1160"),  # no such minute
        ("11:30:15", "113015"),  # a chain of colons is not a time we read
        ("1:2", "12"),  # minutes have two digits
        ("3.11:30", "3.1130"),  # the hour would continue a decimal
        ("123:45", "12345"),
        ("二十五點半", "25點半"),
        ("三點半點", "3點半點"),  # 一點半點 and the like: a little
        ("百分之三點半", "3%點半"),  # the number before 點 is a percentage
    ],
)
def test_what_is_not_a_clock_time_is_not_read_as_one(text: str, expected: str) -> None:
    assert normalise_hypothesis(text).text == expected
