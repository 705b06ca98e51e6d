"""Seeded bootstrap (the bulk draw against its plain reference), linear-interpolation percentiles, collapse warnings, rank bands, paired differences."""

from __future__ import annotations

import random

import pytest
from cvb_scorer.reference import stats as reference
from cvb_scorer.stats import (
    Entry,
    StatsError,
    bootstrap_mean,
    bootstrap_rates,
    draws,
    lane_bits,
    paired_difference,
    percentile,
    rank_bands,
    resample_sums,
)
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    ("values", "p", "expected"),
    [
        ([1.0], 0.5, 1.0),
        ([1.0, 2.0], 0.5, 1.5),
        ([1.0, 2.0, 3.0, 4.0], 0.25, 1.75),
        ([0.0, 10.0], 0.975, 9.75),
    ],
)
def test_percentile_interpolates_linearly(values: list[float], p: float, expected: float) -> None:
    assert percentile(values, p) == pytest.approx(expected)


def test_percentile_matches_numpy_type_7_on_random_data() -> None:
    rng = random.Random(1)
    values = sorted(rng.random() for _ in range(101))
    # type 7: position p * (n - 1); with n = 101 and p = 0.25 that is exactly the 26th value.
    assert percentile(values, 0.25) == values[25]


def test_bootstrap_is_reproducible_from_its_seed() -> None:
    errors = [[3, 0, 5, 1, 2, 9, 0, 4]]
    totals = [[10, 12, 9, 11, 10, 20, 8, 15]]
    a = bootstrap_rates(errors, totals, resamples=2000, seed=20260924, interval=0.95)
    b = bootstrap_rates(errors, totals, resamples=2000, seed=20260924, interval=0.95)
    c = bootstrap_rates(errors, totals, resamples=2000, seed=1, interval=0.95)
    assert a == b and a != c
    point = sum(errors[0]) / sum(totals[0])
    assert a[0].low < point < a[0].high


def test_bootstrap_draws_indices_as_documented() -> None:
    # The documented draw, from the words of random.Random(seed).getrandbits(32): two 16-bit lanes per word, low
    # half first; a lane below n * (65536 // n) draws clip lane % n, others are skipped; n draws per resample.
    n, resamples = 3, 50
    rng = random.Random(5)
    lanes = []
    while len(lanes) < 2 * n * resamples:
        word = rng.getrandbits(32)
        lanes += [word & 0xFFFF, word >> 16]
    limit = n * (65536 // n)
    indices = [v % n for v in lanes if v < limit]
    errors, totals = [[1, 0, 0]], [[1, 1, 1]]
    expected = sorted(sum(errors[0][i] for i in indices[r * n : (r + 1) * n]) / n for r in range(resamples))
    iv = bootstrap_rates(errors, totals, resamples=resamples, seed=5, interval=0.9)[0]
    assert iv.low == percentile(expected, 0.05) and iv.high == percentile(expected, 0.95)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 255, 1000, 21845, 65535, 65536])
def test_bulk_draw_equals_the_plain_reference_draw(n: int) -> None:
    resamples = 3 if n > 5000 else 40
    assert list(draws(n, resamples=resamples, seed=n)) == reference.draws(n, resamples=resamples, seed=n)


def test_bulk_draw_equals_the_reference_above_65536_clips_with_32_bit_lanes() -> None:
    n = 65537
    assert lane_bits(n) == 32 and lane_bits(n - 1) == 16
    assert list(draws(n, resamples=2, seed=9)) == reference.draws(n, resamples=2, seed=9)


def test_the_draw_is_uniform_over_clips() -> None:
    # Rejection keeps every clip exactly equally likely; a chi-square over 7 clips catches a modulo bias of the
    # size 65536 % 7 would leave (a 3-in-9362 skew is too small to see; this guards the mapping itself).
    n, resamples = 7, 20000
    counts = [0] * n
    for indices in draws(n, resamples=resamples, seed=1):
        for i in indices:
            counts[i] += 1
    expected = n * resamples / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 22.5  # the 0.999 quantile of chi-square with 6 degrees of freedom


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(min_value=0, max_value=2**70), min_size=1, max_size=300),
    resamples=st.integers(min_value=1, max_value=30),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_bulk_sums_equal_sums_over_the_reference_draw(values: list[int], resamples: int, seed: int) -> None:
    expected = [
        sum(values[i] for i in idx) for idx in reference.draws(len(values), resamples=resamples, seed=seed)
    ]
    assert resample_sums(values, resamples=resamples, seed=seed) == expected


@settings(max_examples=40, deadline=None)
@given(
    # Small counts pack into a machine integer; counts up to 10**7 force multi-digit sums.
    clips=st.lists(
        st.tuples(*[st.integers(0, 40) | st.integers(0, 10**7)] * 4),
        min_size=1,
        max_size=80,
    ),
    seed=st.integers(min_value=0, max_value=2**32),
    level=st.sampled_from([0.5, 0.9, 0.95]),
)
def test_bootstrap_rates_equal_the_plain_reference_exactly(
    clips: list[tuple[int, int, int, int]], seed: int, level: float
) -> None:
    errors = [[c[0] for c in clips], [c[2] for c in clips]]
    totals = [[c[1] for c in clips], [c[3] for c in clips]]
    fast = bootstrap_rates(errors, totals, resamples=200, seed=seed, interval=level)
    plain = reference.bootstrap_rates(errors, totals, resamples=200, seed=seed, interval=level)
    assert fast == plain


def test_interval_collapsed_at_a_ceiling_says_so() -> None:
    iv = bootstrap_mean([100.0] * 20, resamples=500, seed=1, interval=0.95, bounds=(0.0, 100.0))
    assert (iv.low, iv.high) == (100.0, 100.0) and iv.collapsed
    assert iv.warning is not None and "not certainty" in iv.warning
    perfect = bootstrap_rates([[0, 0, 0]], [[5, 5, 5]], resamples=100, seed=1, interval=0.95)[0]
    assert perfect.collapsed


def test_a_varied_interval_is_not_flagged() -> None:
    iv = bootstrap_mean([10.0, 90.0, 50.0, 70.0], resamples=500, seed=1, interval=0.95, bounds=(0.0, 100.0))
    assert not iv.collapsed and iv.warning is None


def test_bootstrap_refuses_an_empty_corpus_with_a_sentence() -> None:
    with pytest.raises(StatsError, match="at least one clip"):
        bootstrap_rates([[]], [[]], resamples=10, seed=1, interval=0.95)


def test_rank_bands_do_not_chain_everyone_together() -> None:
    # A overlaps B, B overlaps C, A does not overlap C: chaining would put all three in one band.
    entries = [Entry("A", 90, 85, 95), Entry("B", 84, 80, 88), Entry("C", 78, 74, 82), Entry("D", 60, 55, 65)]
    bands = {b.entry.name: (b.band, b.rank, b.leader) for b in rank_bands(entries)}
    assert bands == {"A": (1, 1, "A"), "B": (1, 1, "A"), "C": (2, 3, "C"), "D": (3, 4, "D")}


def test_rank_bands_order_ties_by_name() -> None:
    bands = rank_bands([Entry("b", 50, 40, 60), Entry("a", 50, 40, 60)])
    assert [b.entry.name for b in bands] == ["a", "b"] and {b.band for b in bands} == {1}


def test_paired_difference_is_a_diagnostic_on_the_same_clips() -> None:
    totals = [10] * 30
    a = [1] * 30
    b = [3] * 30
    diff = paired_difference(a, b, totals, resamples=1000, seed=3, interval=0.95)
    assert diff.difference == pytest.approx(-0.2)
    assert diff.interval.high < 0 and diff.a_better_share == 1.0
