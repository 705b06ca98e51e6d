"""Alignment: the published tie rule, edit scripts that rebuild the hypothesis, and distances equal to
rapidfuzz's on more than 10,000 random pairs."""

from __future__ import annotations

import random

import pytest
from cvb_scorer.align import (
    TIE_RULE,
    Alignment,
    Op,
    align,
    count_edits,
    distance,
    edit_counts,
    edit_counts_many,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

_LETTER = {Op.MATCH: "M", Op.SUBSTITUTE: "S", Op.DELETE: "D", Op.INSERT: "I"}


def tie_rule_by_table(a: str, b: str) -> tuple[int, str]:
    """The published rule on the full DP table: walk back from the end, diagonal > deletion > insertion."""
    m, n = len(a), len(b)
    d = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        d[i][0] = i
    for j in range(n + 1):
        d[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            d[i][j] = min(d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), d[i - 1][j] + 1, d[i][j - 1] + 1)
    i, j, ops = m, n, []
    while i or j:
        if i and j and d[i - 1][j - 1] + (a[i - 1] != b[j - 1]) == d[i][j]:
            ops.append("M" if a[i - 1] == b[j - 1] else "S")
            i, j = i - 1, j - 1
        elif i and d[i - 1][j] + 1 == d[i][j]:
            ops.append("D")
            i -= 1
        else:
            ops.append("I")
            j -= 1
    return d[m][n], "".join(reversed(ops))


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
    assert script(align(ref, hyp)) == expected


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
    assert not mismatches, f"{len(mismatches)} pairs disagree with rapidfuzz, e.g. {mismatches[:2]}"


def test_edit_scripts_follow_the_tie_rule_on_random_pairs() -> None:
    for a, b in _pairs(1500, seed=7):
        a, b = a[:90], b[:90]
        dist, expected = tie_rule_by_table(a, b)
        al = align(a, b)
        assert (al.distance, script(al)) == (dist, expected), (a, b)


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


@settings(max_examples=500, deadline=None)
@given(
    st.lists(symbols, max_size=260).map("".join),
    st.lists(st.tuples(st.integers(0, 260), st.sampled_from(["sub", "del", "ins"]), symbols), max_size=30),
    st.booleans(),
)
def test_lean_counts_equal_the_full_walk(ref: str, edits: list[tuple[int, str, str]], warm: bool) -> None:
    # Short texts are counted by a lean copy of the walk (``_short_counts``), long ones by the editor's path
    # with column reuse: both must give the counts of the full edit script, cold or with the cache warm.
    import cvb_scorer.align as module

    hyp = list(ref)
    for pos, kind, sym in edits:
        k = min(pos, len(hyp))
        if kind == "ins":
            hyp.insert(k, sym)
        elif hyp and kind == "sub":
            hyp[min(k, len(hyp) - 1)] = sym
        elif hyp:
            del hyp[min(k, len(hyp) - 1)]
    text = "".join(hyp)
    if warm:
        align(ref, text[: len(text) // 2])
        count_edits(ref, text[1:])
    else:
        module.clear_cache()
    expected = align(ref, text).counts
    assert edit_counts(ref, text) == count_edits(ref, text).counts == expected
    assert edit_counts(list(ref), list(text)) == expected
    assert expected.errors == Levenshtein.distance(ref, text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(symbols, max_size=6).map("".join),
    symbols,
    st.lists(symbols, min_size=1, max_size=6).map("".join),
    st.lists(symbols, max_size=6).map("".join),
    st.booleans(),
)
def test_one_item_against_several_counts_like_the_walk(
    head: str, lone: str, several: str, tail: str, lone_in_reference: bool
) -> None:
    # Between the common ends one side may keep a single item: counted without a walk (``_one_against_many``).
    ref, hyp = head + lone + tail, head + several + tail
    if not lone_in_reference:
        ref, hyp = hyp, ref
    assert edit_counts(ref, hyp) == align(ref, hyp).counts


def test_counts_of_many_pairs_equal_each_walk() -> None:
    # Corpus scoring counts short pairs side by side in shared columns (``edit_counts_many``): every pair must
    # come out as its own walk, whatever its neighbours and group, long pairs and token lists included.
    pairs = _pairs(3000, seed=99)
    pairs += [(a[:25], b[:25]) for a, b in pairs[:1500]]
    random.Random(4).shuffle(pairs)
    assert edit_counts_many(pairs) == [align(a, b).counts for a, b in pairs]
    tokens = [(list(a), list(b)) for a, b in pairs[:300]]
    assert edit_counts_many(tokens) == [align(a, b).counts for a, b in tokens]
    assert edit_counts_many([]) == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(symbols, max_size=40).map("".join), st.lists(symbols, max_size=40).map("".join))
    )
)
def test_counts_of_many_random_pairs_equal_each_walk(pairs: list[tuple[str, str]]) -> None:
    assert edit_counts_many(pairs) == [align(a, b).counts for a, b in pairs]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab我", max_size=20), st.text(alphabet="ab我", max_size=20))
def test_shared_prefix_is_the_length_of_the_common_prefix(a: str, b: str) -> None:
    from cvb_scorer.align import _shared_prefix

    naive = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    assert _shared_prefix(a, b) == naive
    assert _shared_prefix(tuple(a), tuple(b)) == naive
    assert _shared_prefix(a, a + b) == len(a) and _shared_prefix(a + b, a) == len(a)
