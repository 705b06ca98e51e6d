"""Alignment: golden edit scripts under the published tie rule, scripts that rebuild the hypothesis, and
distances equal to rapidfuzz's on 10,000 random pairs. Every fast path against the plain reference:
test_align_harness.py."""

from __future__ import annotations

import random

import pytest
from cvb_scorer.align import TIE_RULE, Alignment, Op, align, count_edits, distance, edit_counts
from cvb_scorer.reference import align as reference
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

_LETTER = {Op.MATCH: "M", Op.SUBSTITUTE: "S", Op.DELETE: "D", Op.INSERT: "I"}


def script(al: Alignment) -> str:
    return "".join(_LETTER[op] for op, _, _ in al.ops)


def rebuild(ref: str, hyp: str, al: Alignment) -> str:
    out = []
    for op, i, j in al.ops:
        if op is Op.MATCH:
            assert ref[i] == hyp[j]
            out.append(ref[i])
        elif op in (Op.SUBSTITUTE, Op.INSERT):
            out.append(hyp[j])
    return "".join(out)


def test_tie_rule_is_named_in_the_signature_form() -> None:
    assert TIE_RULE == "diag>del>ins"


def test_swapped_pair_is_two_substitutions_under_the_tie_rule() -> None:
    # 唔該埋單 vs 該唔埋單: rapidfuzz and jiwer give D1 I1; the published rule gives S2.
    al = align("唔該埋單", "該唔埋單")
    assert script(al) == "SSMM"
    assert (al.counts.S, al.counts.D, al.counts.I, al.counts.N) == (2, 0, 0, 4)


@pytest.mark.parametrize(
    ("ref", "hyp", "expected"),
    [
        ("", "", ""),
        ("abc", "", "DDD"),
        ("", "abc", "III"),
        ("abc", "abc", "MMM"),
        ("abc", "axc", "MSM"),
        ("abc", "ac", "MDM"),
        ("ac", "abc", "MIM"),
        ("aab", "ab", "DMM"),  # the walk back from the end matches the later a
        ("ab", "ba", "SS"),
        ("abcd", "bcda", "DMMMI"),
    ],
)
def test_golden_edit_scripts(ref: str, hyp: str, expected: str) -> None:
    assert script(align(ref, hyp)) == script(reference.align(ref, hyp)) == expected


def _pairs(count: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    alphabets = ["ab", "abc", "abcdefgh", "".join(chr(0x4E00 + k) for k in range(3000)), "唔該埋單好"]
    pairs = []
    for k in range(count):
        alphabet = alphabets[k % len(alphabets)]
        # Lengths around the 64-bit word boundary matter for word-based implementations; include them.
        m = rng.choice([0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, rng.randint(0, 200)])
        n = max(0, m + rng.randint(-8, 8)) if rng.random() < 0.7 else rng.randint(0, 200)
        a = "".join(rng.choice(alphabet) for _ in range(m))
        if rng.random() < 0.5:
            chars = list(a)
            for _ in range(rng.randint(0, max(1, m // 5))):
                if chars and rng.random() < 0.5:
                    chars[rng.randrange(len(chars))] = rng.choice(alphabet)
                elif rng.random() < 0.5:
                    chars.insert(rng.randint(0, len(chars)), rng.choice(alphabet))
                elif chars:
                    del chars[rng.randrange(len(chars))]
            b = "".join(chars)
        else:
            b = "".join(rng.choice(alphabet) for _ in range(n))
        pairs.append((a, b))
    return pairs


def test_distance_equals_rapidfuzz_on_10000_random_pairs() -> None:
    mismatches = []
    for a, b in _pairs(10_000, seed=20260924):
        expected = Levenshtein.distance(a, b)
        al = align(a, b)
        if distance(a, b) != expected or al.distance != expected or edit_counts(a, b) != al.counts:
            mismatches.append((a, b))
    # The reference's table too (on the shorter pairs: it is quadratic in pure Python).
    for a, b in _pairs(1000, seed=5):
        if len(a) * len(b) < 5000 and reference.distance(a, b) != Levenshtein.distance(a, b):
            mismatches.append((a, b))
    assert not mismatches, f"{len(mismatches)} pairs disagree with rapidfuzz, e.g. {mismatches[:2]}"


def test_token_sequences_align_like_strings() -> None:
    al = align(["iphone", "15", "好"], ["iphone", "16", "好"])
    assert script(al) == "MSM"


symbols = st.sampled_from(list("ab唔該埋單1x"))


@settings(max_examples=300, deadline=None)
@given(st.lists(symbols, max_size=80).map("".join), st.lists(symbols, max_size=80).map("".join))
def test_edit_script_rebuilds_the_hypothesis_and_counts_add_up(ref: str, hyp: str) -> None:
    al = align(ref, hyp)
    assert rebuild(ref, hyp, al) == hyp
    c = al.counts
    matches = sum(1 for op, _, _ in al.ops if op is Op.MATCH)
    assert c.N == len(ref) == matches + c.S + c.D
    assert len(hyp) == matches + c.S + c.I
    assert c.errors == Levenshtein.distance(ref, hyp)
    assert (c.errors == 0) == (ref == hyp)
    # Indices run in order on both sides.
    refs = [i for _, i, _ in al.ops if i >= 0]
    hyps = [j for _, _, j in al.ops if j >= 0]
    assert refs == list(range(len(ref))) and hyps == list(range(len(hyp)))


@settings(max_examples=300, deadline=None)
@given(st.lists(symbols, max_size=80).map("".join), st.lists(symbols, max_size=80).map("".join))
def test_runs_are_maximal_slices_that_tile_both_texts_and_spell_the_steps(ref: str, hyp: str) -> None:
    al = align(ref, hyp)
    i = j = 0
    for k, (op, i0, i1, j0, j1) in enumerate(al.runs):
        # Each run starts where the one before ended, on both sides, and is never of the same kind as it.
        assert (i0, j0) == (i, j)
        assert k == 0 or al.runs[k - 1][0] is not op
        taken = (i1 - i0, j1 - j0)
        if op is Op.DELETE:
            assert taken[0] > 0 and taken[1] == 0
        elif op is Op.INSERT:
            assert taken[0] == 0 and taken[1] > 0
        else:
            assert taken[0] == taken[1] > 0
        assert op is not Op.MATCH or ref[i0:i1] == hyp[j0:j1]
        i, j = i1, j1
    assert (i, j) == (len(ref), len(hyp))
    assert reference.runs_of(al.ops) == al.runs


def test_long_alignment_is_exact() -> None:
    rng = random.Random(3)
    ref = "".join(rng.choice("唔該埋單好嘅咗") for _ in range(3000))
    hyp = "".join(c if rng.random() > 0.1 else rng.choice("唔該埋單好嘅咗") for c in ref)
    al = align(ref, hyp)
    assert al.distance == Levenshtein.distance(ref, hyp)
    assert rebuild(ref, hyp, al) == hyp


def test_realigning_after_keystrokes_equals_a_fresh_alignment() -> None:
    # The editor realigns on every keystroke; columns shared with the previous hypothesis are reused and a walk
    # that reaches the previous walk joins it. The result must not depend on either.
    import cvb_scorer.align as module

    for seed, size in ((11, 800), (12, 1500), (13, 300)):
        rng = random.Random(seed)
        ref = "".join(rng.choice("唔該埋單好嘅咗ab") for _ in range(size))
        hyp = [c if rng.random() > 0.1 else rng.choice("唔該x") for c in ref]
        for _ in range(40):
            pos = rng.randrange(len(hyp) + 1)
            roll = rng.random()
            if roll < 0.4:
                hyp.insert(pos, rng.choice("唔該x"))
            elif hyp and roll < 0.8:
                del hyp[min(pos, len(hyp) - 1)]
            elif hyp:
                hyp[min(pos, len(hyp) - 1)] = rng.choice("ab唔")
            text = "".join(hyp)
            warm = align(ref, text)
            warm_counts = count_edits(list(ref), list(text)).counts
            kept = list(module._recent)
            module.clear_cache()
            assert align(ref, text) == warm
            assert count_edits(list(ref), list(text)).counts == warm_counts == warm.counts
            module._recent[:] = kept


def test_two_texts_aligned_in_turn_against_one_reference_each_keep_their_columns() -> None:
    # The editor aligns the keystroke's text and, for the Simplified cost, a folded text against the same
    # reference: the second alignment must not take the first one's columns, or the next keystroke recomputes
    # them all from the first folded character.
    from cvb_scorer import align as module

    module.clear_cache()
    ref = "我想問下份保單幾時到期" * 20
    typed = ref.replace("幾", "几")
    folded = ref
    for text in (typed, folded, typed + "呀", folded + "呀"):
        assert align(ref, text) == reference.align(ref, text)
    kept = [entry.hypothesis for entry in module._recent if entry.reference == ref]
    assert typed + "呀" in kept
    assert folded + "呀" in kept
    # The keystroke's columns were taken from its own last text, not recomputed from the first 几.
    entry = next(e for e in module._recent if e.hypothesis == typed + "呀")
    assert entry.trail.unchanged == len(typed)
    module.clear_cache()


def test_the_columns_kept_stay_within_their_budget_of_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever was aligned, the entries kept besides the latest hold at most _KEEP_CELLS cells between them;
    # the latest is kept whatever its size, and results never depend on what is kept.
    from cvb_scorer import align as module

    monkeypatch.setattr(module, "_KEEP_CELLS", 2_000)
    module.clear_cache()
    rng = random.Random(5)
    for _ in range(40):
        ref = "".join(rng.choice("唔該埋單") for _ in range(rng.randrange(1, 80)))
        hyp = "".join(rng.choice("唔該埋x") for _ in range(rng.randrange(1, 80)))
        assert align(ref, hyp) == reference.align(ref, hyp)
        cells = [len(entry.reference) * len(entry.hypothesis) for entry in module._recent]
        assert module._recent[0].hypothesis == hyp
        assert len(cells) <= module._REUSE_ENTRIES
        assert len(cells) == 1 or sum(cells) <= 2_000
    module.clear_cache()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab我", max_size=20), st.text(alphabet="ab我", max_size=20))
def test_shared_prefix_is_the_length_of_the_common_prefix(a: str, b: str) -> None:
    from cvb_scorer.align import _shared_prefix

    naive = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    assert _shared_prefix(a, b) == naive
    assert _shared_prefix(tuple(a), tuple(b)) == naive
    assert _shared_prefix(a, a + b) == len(a) and _shared_prefix(a + b, a) == len(a)
