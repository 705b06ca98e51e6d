"""Corpus CER and MER, per-clip values, coverage, per-class breakdown, Simplified-cost diagnostic."""

from __future__ import annotations

import random

import pytest
from cvb_scorer.align import Counts
from cvb_scorer.metrics import rate, score_clip, score_corpus
from cvb_scorer.normalise import normalise_hypothesis, normalise_reference
from cvb_scorer.tokens import TokenClass
from hypothesis import example, given, settings
from hypothesis import strategies as st


def test_corpus_rate_is_weighted_by_reference_length_not_a_mean_of_clips() -> None:
    corpus = score_corpus([("a", "好", "壞"), ("b", "我哋今日去九龍塘食飯", "我哋今日去九龍塘食飯")])
    assert corpus.cer == 1 / 11
    mean_of_clips = (1.0 + 0.0) / 2
    assert corpus.cer != mean_of_clips


def test_missing_hypothesis_is_all_deletions_and_counted_in_coverage() -> None:
    corpus = score_corpus([("a", "你好", None), ("b", "早晨", "早晨")])
    assert corpus.clips[0].cer_counts.D == 2 and not corpus.clips[0].has_hypothesis
    assert corpus.covered == 1 and corpus.coverage == 0.5
    assert corpus.cer == 0.5


def test_empty_reference_has_a_defined_rate() -> None:
    assert score_clip("a", "", "").cer == 0.0
    assert score_clip("a", "", "多嘢").cer == 1.0
    assert score_clip("a", "，。", "").cer == 0.0  # punctuation only: empty after normalisation
    corpus = score_corpus([("a", "", "多"), ("b", "你好", "你好")])
    assert corpus.cer_counts.I == 1 and corpus.cer == 0.5


def test_mix_error_rate_counts_a_latin_word_once() -> None:
    clip = score_clip("a", "我想買iPhone", "我想買iPhome")
    assert clip.cer_counts.S == 1 and clip.cer_counts.N == 9
    assert clip.mer_counts.S == 1 and clip.mer_counts.N == 4
    assert clip.mer == 0.25


def test_equal_meaning_numbers_cost_nothing() -> None:
    for ref, hyp in [("百二蚊", "一百二十蚊"), ("一百萬", "100萬"), ("HK$1,200", "一千二百蚊")]:
        assert score_clip("a", ref, hyp).cer == 0.0


def test_per_class_breakdown_charges_substitutions_and_deletions_to_the_reference() -> None:
    clip = score_clip("a", "佢食iphone", "佢飲iphne1")
    by = clip.by_class
    assert by[TokenClass.HAN].S == 1 and by[TokenClass.HAN].N == 1
    assert by[TokenClass.CANTONESE].N == 1 and by[TokenClass.CANTONESE].errors == 0
    assert by[TokenClass.LATIN].D == 1 and by[TokenClass.LATIN].N == 6
    assert by[TokenClass.DIGIT].I == 1
    assert sum(c.errors for c in by.values()) == clip.cer_counts.errors
    assert sum(c.N for c in by.values()) == clip.cer_counts.N


def test_simplified_cost_counts_errors_that_traditional_would_have_avoided() -> None:
    clip = score_clip("a", "呢個人好乾淨", "呢个人好干净")
    assert clip.cer_counts.S == 3
    assert clip.simplified.characters == 2  # 个 净; 干 is also valid Traditional, so not Simplified-only
    # ... but where the reference has 乾, writing Traditional would have avoided the error on 干 too.
    assert clip.simplified.errors == 3


@pytest.mark.parametrize(
    ("ref", "hyp", "errors"),
    [
        ("三萬五", "三万五", 1),
        ("佢係學生", "佢系学生", 2),
        ("幾多隻", "几多只", 2),
        ("以後", "以后", 1),
        ("好", "好", 0),
    ],
)
def test_simplified_cost_counts_characters_valid_elsewhere_and_numbers(
    ref: str, hyp: str, errors: int
) -> None:
    clip = score_clip("a", ref, hyp)
    assert clip.simplified.errors == clip.cer_counts.errors == errors


def test_reference_in_simplified_is_folded_before_scoring() -> None:
    assert score_clip("a", "这个人", "這個人").cer == 0.0
    assert score_clip("a", "這個人", "这个人").cer == 2 / 3


texts = st.text(alphabet="唔該埋單个個好iphone 15，。一二百", max_size=40)


@settings(max_examples=200, deadline=None)
@given(texts, texts)
def test_cer_is_zero_exactly_when_normalised_texts_are_equal(ref: str, hyp: str) -> None:
    clip = score_clip("a", ref, hyp)
    equal = normalise_reference(ref).cer == normalise_hypothesis(hyp).cer
    assert (clip.cer_counts.errors == 0) == equal
    assert (clip.cer == 0.0) == equal
    assert len(normalise_reference(ref).cer) == clip.cer_counts.N
    assert rate(clip.cer_counts) == clip.cer


def test_corpus_scores_every_clip_as_score_clip_does() -> None:
    # score_corpus counts all clips' alignments together; each clip must be what score_clip makes of it.
    rng = random.Random(8)
    words = [
        "我哋",
        "今日",
        "iPhone",
        "15",
        "pro",
        "三點五",
        "百分之五十",
        "HK$1,200",
        "食飯",
        "，",
        "。",
        " ",
        "OK",
        "头发",  # Simplified-only: the reference fold changes it, the hypothesis keeps it
        "万",
    ]
    triples: list[tuple[str, str, str | None]] = []
    for k in range(400):
        ref = "".join(rng.choice(words) for _ in range(rng.choice([0, 1, 3, 8, 20, 120])))
        hyp = "".join(w for w in ref.split("我哋") if rng.random() < 0.9) + rng.choice(
            ["", "好", "iphone 16"]
        )
        if k % 5 == 0 and triples:  # a text seen before, on either side, and a hypothesis as its reference
            ref = rng.choice(triples)[1]
            hyp = rng.choice([ref, ref, triples[-1][2] or ""])
        triples.append((f"c{k}", ref, None if k % 17 == 0 else hyp))
    corpus = score_corpus(triples)
    for clip, (cid, ref, hyp) in zip(corpus.clips, triples, strict=True):
        alone = score_clip(cid, ref, hyp)
        assert clip == alone
        assert clip.script == alone.script
        assert (clip.ref_tokens, clip.hyp_tokens) == (alone.ref_tokens, alone.hyp_tokens)
    assert corpus.cer_counts == Counts(
        *map(sum, zip(*(score_clip(*t).cer_counts for t in triples), strict=True))
    )


@settings(max_examples=300, deadline=None)
@example("萬一", "万三")
@given(
    st.text(alphabet="這个個门門们們净淨呢人好一二三万萬系係", max_size=30),
    st.text(alphabet="這个個门門们們净淨呢人好一二三万萬系係", max_size=30),
)
def test_simplified_cost_is_the_errors_that_folding_the_hypothesis_removes(ref: str, hyp: str) -> None:
    from cvb_scorer.align import edit_counts
    from cvb_scorer.metrics import script_folded_cer

    clip = score_clip("a", ref, hyp)
    folded = script_folded_cer(clip.reference, clip.hypothesis, clip.cer_alignment)
    after = edit_counts(clip.reference.cer, folded).errors
    # Folding can make a numeral readable (万三 → 萬三, read as 13000), so the folded text may cost more; then no
    # error was the script's fault. Hypothesis found ref 萬一 against hyp 万三.
    assert clip.simplified.errors == max(0, clip.cer_counts.errors - after)
    assert 0 <= clip.simplified.errors <= clip.cer_counts.errors


def test_simplified_costs_of_a_corpus_are_each_clips_folded_errors() -> None:
    # Corpus scoring keeps only the CER alignments' substitutions and counts the folded clips together; each
    # clip's cost must still be the errors its folded hypothesis loses, by the plain statement.
    from cvb_scorer.align import edit_counts
    from cvb_scorer.metrics import script_folded_cer, simplified_costs

    rng = random.Random(11)
    words = [
        "呢個",
        "这个",
        "三萬五",
        "三万五",
        "係",
        "系",
        "幾多",
        "几多",
        "隻",
        "只",
        "以後",
        "以后",
        "好",
        "，",
        "iPhone",
    ]
    triples = []
    for k in range(300):
        ref = "".join(rng.choice(words) for _ in range(rng.choice([0, 2, 6, 30])))
        hyp = "".join(
            w if rng.random() < 0.7 else rng.choice(words)
            for w in (ref[i : i + 2] for i in range(0, len(ref), 2))
        )
        triples.append((f"c{k}", ref, hyp))
    corpus = score_corpus(triples)
    costs = simplified_costs(corpus.clips)
    assert sum(c.errors for c in costs) > 50
    for clip, cost in zip(corpus.clips, costs, strict=True):
        folded = script_folded_cer(clip.reference, clip.hypothesis, clip.cer_alignment)
        assert cost.errors == max(0, clip.cer_counts.errors - edit_counts(clip.reference.cer, folded).errors)
        assert cost == clip.simplified


_MER_PIECES = [
    "好",
    "唔該",
    "iphone",
    "15",
    "16",
    "3.5",
    "50%",
    "wifi",
    "ok",
    " ",
    "a",
    "1",
    "\U000f0000",
    "\ue000",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(_MER_PIECES), max_size=12).map("".join),
            st.lists(st.sampled_from(_MER_PIECES), max_size=12).map("".join),
        ),
        max_size=12,
    )
)
def test_corpus_mer_counts_are_the_reference_alignment_of_the_tokens(pairs: list[tuple[str, str]]) -> None:
    # Corpus scoring aligns each side's tokens written one character per token (a word or a number as a
    # private-use character neither text has: the texts here have some); the counts must be those of the plain
    # alignment of the token lists.
    from cvb_scorer.reference.align import edit_counts as reference_counts
    from cvb_scorer.tokens import mer_token_texts

    corpus = score_corpus([(str(k), ref, hyp) for k, (ref, hyp) in enumerate(pairs)])
    for clip in corpus.clips:
        tokens = mer_token_texts(clip.reference.text), mer_token_texts(clip.hypothesis.text)
        assert clip.mer_counts == reference_counts(*tokens)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_MER_PIECES), max_size=12).map("".join),
    st.lists(st.sampled_from(_MER_PIECES), max_size=12).map("".join),
)
def test_one_clips_mer_script_is_the_reference_alignment_of_its_tokens(ref: str, hyp: str) -> None:
    # One clip (the editor's) counts MER and draws it over its tokens written one character per token; the
    # script's runs index the token lists, and it and the counts must be the plain alignment's.
    from cvb_scorer.reference.align import align as reference_align

    clip = score_clip("c", ref, hyp)
    expected = reference_align(clip.ref_tokens, clip.hyp_tokens)
    assert clip.mer_alignment.runs == expected.runs
    assert clip.mer_counts == clip.mer_alignment.counts == expected.counts


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="這个個门門们們净淨呢人好一二三万萬系係头发脚，。 ", max_size=40))
def test_the_reference_script_text_reuses_the_fold_its_normalisation_made(text: str) -> None:
    # The Simplified cost compares scripts on the reference as its fold left it; that fold is taken from the
    # normalisation's record instead of being made again, and must be the same text.
    from cvb_scorer.metrics import _script_texts
    from cvb_scorer.normalise import prepare
    from cvb_scorer.normalise.fold import fold_reference
    from cvb_scorer.normalise.text import fold_variants

    ref = normalise_reference(text)
    assert _script_texts(ref, normalise_hypothesis(""))[0] == fold_variants(fold_reference(prepare(text))[0])
