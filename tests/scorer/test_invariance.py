"""Invariance as the specification (issue 35): meaning-preserving rewrites cost nothing. Whitespace inserted or
removed anywhere but between two Latin letters; a number written in Chinese numerals or Arabic digits, with or
without thousands separators; a clock time, a percentage or an amount of money in its common Hong Kong forms.
Over generated text, HKCanCor utterances (pycantonese) and the call corpus (tests/scorer/call_corpus.py).
Bounded examples: the whole folder must stay fast."""

from __future__ import annotations

import pytest
from cvb_scorer.metrics import score_clip
from cvb_scorer.tokens import class_code
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scorer import numeral_oracle
from tests.scorer.call_corpus import CALL_CORPUS
from tests.scorer.conftest import hkcancor_utterances


def _costs(ref: str, hyp: str) -> tuple[int, int]:
    clip = score_clip("a", ref, hyp)
    return clip.cer_counts.errors, clip.mer_counts.errors


def _respace(text: str, spaces: list[int]) -> str:
    """``text`` with its spaces removed but between two Latin letters, and a space put at each of the
    positions ``spaces`` picks where it does not fall between two Latin letters."""
    out: list[str] = []
    for k, ch in enumerate(text):
        if ch == " ":
            before, after = text[k - 1 : k], text[k + 1 : k + 2]
            if before and after and class_code(before) == "L" and class_code(after) == "L":
                out.append(ch)
            continue
        if k in spaces and out and not (class_code(out[-1]) == "L" and class_code(ch) == "L"):
            out.append(" " * (1 + k % 2))
        out.append(ch)
    return "".join(out)


def _hkcancor_sample() -> list[str]:
    return list(hkcancor_utterances()[::97])


_TEXTS = st.one_of(
    st.sampled_from(CALL_CORPUS),
    st.sampled_from(_hkcancor_sample()),
    st.text(alphabet="我你佢好嘅一二三四五六七八九十百千萬兩點半蚊%0123456789,.:，。abcAB$ ", max_size=30),
)


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.lists(st.integers(min_value=0, max_value=60), max_size=12))
def test_whitespace_anywhere_but_between_two_latin_letters_costs_nothing(
    text: str, spaces: list[int]
) -> None:
    assert _costs(text, _respace(text, spaces)) == (0, 0), _respace(text, spaces)


@pytest.mark.parametrize("utterance", CALL_CORPUS)
def test_every_call_utterance_spaced_character_by_character_costs_nothing(utterance: str) -> None:
    assert _costs(utterance, _respace(utterance, list(range(len(utterance))))) == (0, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**12 - 1), st.sampled_from(["共{}蚊", "保額{}", "{}個客", "係{}"])
)
def test_a_number_in_numerals_or_digits_with_or_without_separators_costs_nothing(n: int, frame: str) -> None:
    forms = {numeral_oracle.write(n), str(n), f"{n:,}"}
    texts = [frame.format(form) for form in forms]
    for hyp in texts:
        assert _costs(texts[0], hyp) == (0, 0), (texts[0], hyp)


# The common Hong Kong forms of one meaning: each costs nothing against any other of its group.
FORMS = [
    ["三點半", "3點半", "3:30", "三點三十"],
    ["十一點", "11點", "11:00"],
    ["九點零五分", "9:05分", "九點零五分"],
    ["百分之五", "5%", "5 %", "五%"],
    ["百分之三點五", "3.5%", "三點五%"],
    ["一千二百蚊", "1200蚊", "HK$1,200", "$1200", "港幣一千二百", "一千二百港元", "千二蚊", "1,200元"],
    ["五十萬", "500000", "500,000", "50萬"],
    ["三萬五", "35000", "三萬五千", "3.5萬", "三點五萬"],
    ["US$500", "五百美金", "美金五百", "500美元", "500 USD"],
    ["兩萬人民幣", "RMB20,000", "人民幣兩萬", "20000 RMB"],
    ["五十巴仙", "50%", "百分之五十", "五十%"],
    ["百分百", "100%", "百分之一百"],
    ["三點正", "3:00", "三點", "3點"],
    ["三至五", "3-5", "3~5", "3至5", "三-五", "3 - 5", "３－５"],
    ["三至五個", "3-5個", "3至5個", "三至五個"],
    ["負三度", "-3度", "−3度", "負3度", "- 3度"],
    ["兩個半鐘", "2個半鐘", "2.5個鐘", "二個半鐘", "兩 個 半 鐘"],
    ["兩個半月", "2.5個月", "2個半月"],
    ["五毫子", "五毫", "5毫", "$0.5", "0.5蚊", "HK$0.5", "港幣五毫"],
    ["三蚊五毫", "三蚊五毫子", "3.5蚊", "$3.5", "三點五蚊", "3蚊5毫"],
    ["三、四", "3、4", "3,4", "三，四", "3，4", "三, 四"],
]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=998),
    st.integers(min_value=1, max_value=999),
    st.sampled_from(["-", "~", "至", " - ", "～", "－"]),
    st.sampled_from(["{}", "{}歲", "相差{}個", "{}日內"]),
)
def test_a_range_in_numerals_or_digits_with_any_dash_costs_nothing(
    low: int, step: int, dash: str, frame: str
) -> None:
    high = min(low + step, 999)
    if high <= low:
        return
    said = frame.format(f"{numeral_oracle.write(low)}至{numeral_oracle.write(high)}")
    written = frame.format(f"{low}{dash}{high}")
    assert _costs(said, written) == (0, 0), (said, written)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=10**6),
    st.sampled_from(["-", "−", "負", "- "]),
    st.sampled_from(["{}度", "溫度{}", "{}%"]),
)
def test_a_negative_number_with_any_minus_costs_nothing(n: int, minus: str, frame: str) -> None:
    said = frame.format(f"負{numeral_oracle.write(n)}")
    written = frame.format(f"{minus}{n}")
    assert _costs(said, written) == (0, 0), (said, written)
    assert _costs(said, frame.format(str(n)))[0] > 0  # the sign is never lost


@pytest.mark.parametrize("group", FORMS)
def test_the_common_hong_kong_forms_of_one_meaning_cost_nothing(group: list[str]) -> None:
    for a in group:
        for b in group:
            assert _costs(a, b) == (0, 0), (a, b)
