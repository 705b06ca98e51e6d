"""Seeded bootstrap, linear-interpolation percentiles, collapse warnings, rank bands, paired differences."""

from __future__ import annotations

import random

import pytest
from cvb_scorer.stats import (
    Entry,
    StatsError,
    bootstrap_mean,
    bootstrap_rates,
    paired_difference,
    percentile,
    rank_bands,
)


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
    # The documented draw: index = int(rng.random() * n), n per resample, resamples in order.
    errors, totals = [[1, 0, 0]], [[1, 1, 1]]
    rng = random.Random(5)
    expected = []
    for _ in range(50):
        idx = [int(rng.random() * 3) for _ in range(3)]
        expected.append(sum(errors[0][i] for i in idx) / 3)
    expected.sort()
    iv = bootstrap_rates(errors, totals, resamples=50, seed=5, interval=0.9)[0]
    assert iv.low == percentile(expected, 0.05) and iv.high == percentile(expected, 0.95)


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
