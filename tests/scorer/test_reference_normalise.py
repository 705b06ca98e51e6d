"""The fast normalisation equals the plain reference pipeline (``cvb_scorer.reference.normalise``) on generated
text covering every rule's characters, rule by rule and whole; and the properties every rule promises:
idempotence and locality."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cvb_scorer.normalise import (
    _STEPS,
    RULES,
    Side,
    normalise_hypothesis,
    normalise_reference,
    prepare,
)
from cvb_scorer.normalise.text import nfkc
from cvb_scorer.reference import normalise as reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Every rule's characters: Han, Simplified-only characters and the ambiguous ones the fold must leave alone,
# glyph variants, numerals, 點, 萬/億, 百分之, 蚊/元, HK$ and US$, punctuation of both widths, spaces, Latin
# letters (with a hyphen and a dot), digits of both widths, controls and format characters, compatibility
# ideographs, a combining mark, a lone surrogate, and the pieces of exception words and of what a range counts.
PIECES = [
    *"好嘅佢你我個歲日成齊啲龍達通文治",
    *"毫子米第半合和彩家",
    *"个脚黄这说头发净们万后几只系",
    *"余于郁范涌干擾仆咸斗晒吓搵",
    *"説温户戶衞爲",
    *"零〇一二三四五六七八九十百千萬億兩廿卅卌點万两亿点",
    "百分之",
    *"蚊元",
    "HK$",
    "us$",
    "$",
    *",.!?-%'\"，。！？、：「」％＄．﹐",
    *" \u3000\t\n",
    *"aZeEWiFmÉ",
    "Wi-Fi",
    "e-mail",
    *"0123456789０５",
    "1,200",
    "3.5",
    *"\x00\u200b\u202e\ufeff",
    "\uf900",
    "\U0002f800",
    "\U00020000",
    "\u0301",
    "¨",
    "\ud800",
    # ... and every published example, so a new rule's characters are generated as soon as it has examples.
    *(before for rule in RULES for before, _ in rule.examples),
]
texts = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


def _ref_hyp(text: str) -> str:
    return reference.normalise_text(text, side=Side.BOTH)


def _ref_ref(text: str) -> str:
    return reference.normalise_text(text, side=Side.REFERENCE)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_fast_normalisation_equals_the_reference_pipeline(text: str) -> None:
    hyp = normalise_hypothesis(text)
    assert hyp.text == _ref_hyp(text)
    assert hyp.cer == hyp.text.replace(" ", "")
    normalise_reference.cache_clear()
    ref = normalise_reference(text)
    assert ref.text == _ref_ref(text)
    _, changes = reference.fold_positions(reference.width(reference.cleanup(text)))
    assert [(c.index, c.before, c.after) for c in ref.fold_changes] == changes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(texts, min_size=8, max_size=8).map("".join))
def test_fast_normalisation_equals_the_reference_on_long_text(text: str) -> None:
    # Long enough for the fast paths that only start above a length (piecewise NFKC).
    assert normalise_hypothesis(text).text == _ref_hyp(text)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=st.sampled_from([*PIECES[:60], "\U00020000", "\u0301", "¨", "\x85"]), max_size=700))
def test_nfkc_fast_path_equals_one_full_pass(text: str) -> None:
    assert nfkc(text) == reference.cleanup(reference.ud.normalize("NFKC", text))


@settings(max_examples=800, deadline=None)
@given(texts)
def test_each_rule_only_acts_on_a_text_its_trigger_finds(text: str) -> None:
    # The fast path skips a rule when its trigger finds nothing: then the rule must leave the text alone.
    text = prepare(text)
    for trigger, step in _STEPS:
        if trigger is not None and trigger.search(text) is None:
            assert step(text) == text, step.__name__
        text = step(text)


# The spoken forms' pieces, and what sits around them: digits, numerals, 點, currency words and names, 第 and
# the units of 毫, Han and punctuation.
_SPOKEN_PIECES = [
    *"0123456789",
    *"巴仙點正個半毫子蚊元第米升好三百",
    "港元",
    "美金",
    "巴仙",
    "點正",
    "個半",
    "毫子",
    "%",
    "、",
    ".",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_SPOKEN_PIECES), max_size=16).map("".join))
def test_spoken_forms_settle_as_the_reference_and_only_where_the_exact_trigger_finds(text: str) -> None:
    # The fast rule rewrites spoken forms only where SPOKEN_FORM_AT finds one: every match has one. It runs
    # after the currency words rule (a text without 仙正半毫 is then left as it is).
    from cvb_scorer.normalise import numerals

    text = numerals.drop_currency_words(text)
    if numerals._SPOKEN_FORMS.search(text) is not None:
        assert numerals.SPOKEN_FORM_AT.search(text) is not None
    assert numerals.spoken_forms_settled(text) == reference.spoken_forms_settled(text)


def test_every_character_of_every_rule_example_is_generated() -> None:
    alphabet = set("".join(PIECES))
    for rule in RULES:
        for before, _ in rule.examples:
            assert set(before) <= alphabet, rule.name


def test_the_fast_steps_are_the_reference_rules_in_order() -> None:
    names = [rule.name for rule in RULES if rule.apply is not None and rule.side is Side.BOTH]
    assert names[:2] == ["unicode-cleanup", "width"]
    # One fast step per both-sides rule after the width rule, in the same order.
    assert len(_STEPS) == len(names) - 2


def test_a_dot_between_a_numeral_word_and_a_digit_is_a_decimal_point() -> None:
    # Found by the idempotence property under NORM_VERSION 3, which joined a dot only between ASCII digits.
    assert normalise_hypothesis("三.5萬").text == normalise_hypothesis("三點5萬").text == "35000"


# Shapes that folded differently the second time while the rule for a dot was changed, each found by a fuzzer
# over numerals, points, punctuation and exception words: a dot that was kept between pieces folded to digits,
# an exception word or a range that punctuation had kept from 百分之, and pieces that skipped the exceptions.
FOUND_BY_FUZZING = [
    "百二.０百分之五十",
    "，七4.０億．百分之零百",
    "分百分之,，，萬一分37零%",
    "元百分之.兩三元9個．．",
    "2%五八.萬一二42",
    " 七8千百.萬一兩二3十",
    "3.53.5",
]


@pytest.mark.parametrize("text", FOUND_BY_FUZZING)
def test_shapes_found_by_fuzzing_fold_the_same_twice_and_as_the_reference(text: str) -> None:
    for normalise, side in ((normalise_hypothesis, Side.BOTH), (normalise_reference, Side.REFERENCE)):
        once = normalise(text).text
        assert normalise(once).text == once
        assert reference.normalise_text(text, side=side) == once


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_normalisation_is_idempotent(text: str) -> None:
    hyp = normalise_hypothesis(text).text
    assert normalise_hypothesis(hyp).text == hyp
    ref = normalise_reference(text).text
    assert normalise_reference(ref).text == ref


SEPARATOR = "。嘅。"


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, texts)
def test_every_rule_is_local(a: str, b: str) -> None:
    # What a span becomes never depends on text elsewhere in the clip: with a word and punctuation between
    # them, two texts normalise as they do alone (3點5 reads the same whether or not a numeral is elsewhere).
    for normalise in (normalise_hypothesis, normalise_reference):
        whole = normalise(a + SEPARATOR + b).text
        assert whole == normalise(a + SEPARATOR).text + normalise(SEPARATOR + b).text.removeprefix("嘅")


@pytest.mark.parametrize("rule", [r for r in RULES if r.apply is not None], ids=lambda r: r.name)
def test_every_rule_has_examples_and_its_examples_hold_in_both_implementations(rule: reference.Rule) -> None:
    assert rule.examples
    for before, after in rule.examples:
        fast = (normalise_reference if rule.side is Side.REFERENCE else normalise_hypothesis)(before).text
        plain = (_ref_ref if rule.side is Side.REFERENCE else _ref_hyp)(before)
        assert (fast, plain) == (after, after), (rule.name, before)


def test_the_reference_module_has_no_caches() -> None:
    source = reference.__file__
    assert source is not None
    text = Path(source).read_text(encoding="utf-8")
    assert re.search(r"\b(lru_cache|cache|cached_property)\b", text) is None
