"""Seeded bootstrap (the bulk draw and both routes, pure and numpy, against the plain reference),
linear-interpolation percentiles, collapse warnings, rank bands, paired differences."""

from __future__ import annotations

import contextlib
import math
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from cvb_scorer import stats_numpy
from cvb_scorer.reference import stats as reference
from cvb_scorer.stats import (
    NUMPY_MIN_DRAWS,
    Entry,
    Route,
    StatsError,
    bootstrap_mean,
    bootstrap_rates,
    draws,
    lane_bits,
    paired_difference,
    percentile,
    rank_bands,
    rates_route,
    resample_sums,
)
from hypothesis import example, given, settings
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


@pytest.mark.parametrize("seed", [0, 1, 5, 20260924, 2**40 + 7, -3])
@pytest.mark.parametrize("counts", [[1], [623, 1, 2, 700], [624, 624, 1], [5000, 3, 1250]])
def test_numpy_words_equal_getrandbits_words_across_call_boundaries(seed: int, counts: list[int]) -> None:
    # The numpy route takes its words from numpy's MT19937 loaded with random.Random(seed)'s state; calls of
    # any size, crossing the generator's 624-word refills, must continue getrandbits' stream word for word.
    words = stats_numpy._published_words(seed)
    getrandbits = random.Random(seed).getrandbits
    for count in counts:
        expected = getrandbits(32 * count).to_bytes(4 * count, "little")
        assert words(count).tobytes() == expected


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


# ---- The two routes (pure built-ins, numpy) against each other and the plain reference ----------------------

# Clip counts that matter to the draw: one clip, small corpora, heavy rejection (40,000 keeps 61% of 16-bit
# lanes; 32,769 keeps 50%), the last 16-bit sizes and the first with 32-bit lanes.
SIZES = st.sampled_from([1, 2, 3, 40000, 32769, 65535, 65536, 65537]) | st.integers(1, 90)


@contextlib.contextmanager
def numpy_passes() -> Iterator[list[int]]:
    """Records the clip count of every pass the numpy route makes over the draw (the real function still runs),
    so a test can tell that the route it compares really ran."""
    calls: list[int] = []
    real = stats_numpy.column_sums

    def counted(columns: Sequence[Sequence[int]], *, resamples: int, seed: int, **options: Any) -> object:
        calls.append(len(columns[0]))
        return real(columns, resamples=resamples, seed=seed, **options)

    setattr(stats_numpy, "column_sums", counted)  # noqa: B010
    try:
        yield calls
    finally:
        setattr(stats_numpy, "column_sums", real)  # noqa: B010


def _resamples(n: int) -> int:
    return 2 if n > 5000 else 25


def _columns(n: int, rng: random.Random, top: int, count: int) -> list[list[int]]:
    return [[rng.randrange(top + 1) for _ in range(n)] for _ in range(count)]


@settings(max_examples=40, deadline=None)
@given(
    n=SIZES,
    rates=st.integers(1, 3),
    top=st.sampled_from([0, 1, 40, 600, 10**6]),
    zero_totals=st.booleans(),
    data_seed=st.integers(0, 2**32),
    seed=st.integers(0, 2**64),
)
@example(n=40000, rates=2, top=600, zero_totals=False, data_seed=1, seed=2)
@example(n=65535, rates=1, top=40, zero_totals=False, data_seed=3, seed=4)
@example(n=65537, rates=2, top=10**6, zero_totals=False, data_seed=5, seed=6)
@example(n=1, rates=3, top=0, zero_totals=True, data_seed=7, seed=8)
def test_bootstrap_rates_are_identical_on_the_numpy_route_the_pure_route_and_the_reference(
    n: int, rates: int, top: int, zero_totals: bool, data_seed: int, seed: int
) -> None:
    rng = random.Random(data_seed)
    errors = _columns(n, rng, top, rates)
    # Zero totals on every clip make every resample's total 0 (the 0-or-1 rule); otherwise some clips have none.
    totals = [[0] * n for _ in range(rates)] if zero_totals else _columns(n, rng, top, rates)
    resamples = _resamples(n)
    assert rates_route(errors, totals, resamples=resamples, route=Route.NUMPY) is Route.NUMPY
    with numpy_passes() as calls:
        fast = bootstrap_rates(
            errors, totals, resamples=resamples, seed=seed, interval=0.9, route=Route.NUMPY
        )
        pure = bootstrap_rates(errors, totals, resamples=resamples, seed=seed, interval=0.9, route=Route.PURE)
    assert calls == [n]
    plain = reference.bootstrap_rates(errors, totals, resamples=resamples, seed=seed, interval=0.9)
    assert fast == pure == plain


@settings(max_examples=30, deadline=None)
@given(n=SIZES, bits=st.sampled_from([1, 16, 40, 61, 62, 63, 130]), data_seed=st.integers(0, 2**32))
def test_resample_sums_split_values_of_any_size_into_limbs_and_agree_exactly(
    n: int, bits: int, data_seed: int
) -> None:
    rng = random.Random(data_seed)
    values = [rng.getrandbits(bits) for _ in range(n)]
    values[rng.randrange(n)] = (1 << bits) - 1  # the widest value of that size
    resamples = _resamples(n)
    expected = [sum(values[i] for i in idx) for idx in reference.draws(n, resamples=resamples, seed=bits)]
    with numpy_passes() as calls:
        assert resample_sums(values, resamples=resamples, seed=bits, route=Route.NUMPY) == expected
    assert calls == [n]
    assert resample_sums(values, resamples=resamples, seed=bits, route=Route.PURE) == expected


def _mean_oracle(values: Sequence[float], resamples: int, seed: int, level: float) -> tuple[float, float]:
    means = sorted(
        math.fsum(values[i] for i in idx) / len(values)
        for idx in reference.draws(len(values), resamples=resamples, seed=seed)
    )
    tail = (1 - level) / 2
    return percentile(means, tail), percentile(means, 1 - tail)


FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6) | st.sampled_from(
    [0.0, 100.0, 0.1, 1 / 3, 5e-324, 2.0**-60]
)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(FLOATS, min_size=1, max_size=60), seed=st.integers(0, 2**32))
def test_bootstrap_mean_keeps_math_fsum_bits_on_both_routes(values: list[float], seed: int) -> None:
    expected = _mean_oracle(values, 30, seed, 0.9)
    for route in (Route.NUMPY, Route.PURE):
        iv = bootstrap_mean(values, resamples=30, seed=seed, interval=0.9, bounds=None, route=route)
        assert (iv.low, iv.high) == expected


@pytest.mark.parametrize(
    ("values", "numpy_runs"),
    [
        ([73.4, 12.5, 100.0, 0.0, 55.55], True),  # scores on a 0-100 scale: three limbs
        ([1.0, -2.5, 3.25], True),  # negative values are offset by the minimum
        ([1e300, 1e-300], False),  # 2,000 bits of span: fsum's job
        ([-0.0, -0.0], False),  # fsum's sign of zero is its own
        ([1.0, math.inf, 2.0], False),  # fsum's infinities (and NaN from inf - inf in a percentile)
    ],
)
def test_bootstrap_mean_takes_numpy_only_where_a_few_limbs_hold_the_exact_sum(
    values: list[float], numpy_runs: bool
) -> None:
    with numpy_passes() as calls:
        fast = bootstrap_mean(values, resamples=40, seed=3, interval=0.9, bounds=None, route=Route.NUMPY)
    assert bool(calls) is numpy_runs
    pure = bootstrap_mean(values, resamples=40, seed=3, interval=0.9, bounds=None, route=Route.PURE)
    assert repr(fast) == repr(pure)  # repr: NaN bounds compare unequal
    if all(map(math.isfinite, values)):
        assert (fast.low, fast.high) == _mean_oracle(values, 40, 3, 0.9)


@settings(max_examples=30, deadline=None)
@given(n=SIZES, top=st.sampled_from([0, 3, 500]), data_seed=st.integers(0, 2**32), seed=st.integers(0, 2**32))
def test_paired_difference_is_identical_on_both_routes_and_the_reference_draw(
    n: int, top: int, data_seed: int, seed: int
) -> None:
    rng = random.Random(data_seed)
    a, b, t = _columns(n, rng, top, 3)
    resamples = _resamples(n)
    with numpy_passes() as calls:
        fast = paired_difference(a, b, t, resamples=resamples, seed=seed, interval=0.9, route=Route.NUMPY)
    assert calls == [n]
    assert fast == paired_difference(a, b, t, resamples=resamples, seed=seed, interval=0.9, route=Route.PURE)
    diffs = []
    for idx in reference.draws(n, resamples=resamples, seed=seed):
        tot = sum(t[i] for i in idx)
        diffs.append(sum(a[i] for i in idx) / tot - sum(b[i] for i in idx) / tot if tot else 0.0)
    assert fast.a_better_share == sum(d < 0 for d in diffs) / resamples
    tail = (1 - 0.9) / 2  # as the bootstrap computes it (0.04999..., not 0.05)
    assert (fast.interval.low, fast.interval.high) == (
        percentile(sorted(diffs), tail),
        percentile(sorted(diffs), 1 - tail),
    )


def test_sums_that_could_reach_2_to_the_53_stay_on_the_pure_route() -> None:
    # int64 -> float64 is exact only below 2**53: at that bound a rate could round differently from Python's
    # int / int, so the numpy route declines; one below it, the numpy route runs and agrees.
    n = 4
    with numpy_passes() as calls:
        for top, route in (((1 << 53) // n, Route.PURE), ((1 << 53) // n - 1, Route.NUMPY)):
            errors, totals = [[top, 1, top - 7, 3]], [[top, top, top - 1, 5]]
            assert rates_route(errors, totals, resamples=50, route=Route.NUMPY) is route
            got = bootstrap_rates(errors, totals, resamples=50, seed=8, interval=0.9, route=Route.NUMPY)
            assert got == reference.bootstrap_rates(errors, totals, resamples=50, seed=8, interval=0.9)
    assert calls == [n]


def test_column_fields_pack_into_int64_words_without_carrying() -> None:
    # Four columns whose sums need 20, 40, 61 and 2 bits: the 62-bit words may not share a field across a word.
    n, rng = 7, random.Random(4)
    columns = [[rng.randrange(1 << w) for _ in range(n)] for w in (17, 37, 58, 1)]
    sums = stats_numpy.column_sums(columns, resamples=20, seed=11)
    for r, idx in enumerate(reference.draws(n, resamples=20, seed=11)):
        assert sums[r].tolist() == [sum(col[i] for i in idx) for col in columns]


@pytest.mark.parametrize(
    ("n", "top", "count"),
    [
        (1, 3, 4),  # every lane a resample of its own
        (64, 100, 4),  # pieces as long as the resample
        (1000, 40, 4),  # four 40-draw columns fit one word only in pieces
        (16162, 145, 4),  # HKCanCor's size: pieces across block boundaries
        (40000, 600, 2),  # 61% of the lanes accepted: resamples span blocks
        (65537, 40, 3),  # 32-bit lanes, rejected lanes zeroed after the gather
    ],
)
def test_column_sums_in_pieces_over_raw_lanes_equal_the_plain_reference_draw(
    n: int, top: int, count: int
) -> None:
    # The numpy route sums each resample in pieces over the raw lanes (rejected ones gather 0): every
    # resample's sums are those of the reference draw's indices.
    rng = random.Random(n)
    columns = [[rng.randrange(top + 1) for _ in range(n)] for _ in range(count)]
    columns[0][0] = top
    resamples = 3 if n > 5000 else 40
    sums = stats_numpy.column_sums(columns, resamples=resamples, seed=n + top)
    for r, idx in enumerate(reference.draws(n, resamples=resamples, seed=n + top)):
        assert sums[r].tolist() == [sum(col[i] for i in idx) for col in columns]


def test_four_columns_of_short_clips_are_summed_in_pieces_of_one_word() -> None:
    # Short utterances' four columns need two int64 words for a whole resample of HKCanCor's 16,162 clips but
    # fit one word in pieces of a few hundred draws; a single word is what the layout must choose.
    length, words = stats_numpy._layout([60, 145, 60, 145], 16162)
    assert len(words) == 1 and stats_numpy.MIN_PIECE <= length < 16162
    assert len(stats_numpy._layout([60, 145, 60, 145], 16162)[1]) < len(
        stats_numpy._pack([60, 145, 60, 145], 16162)
    )


def _run_python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_auto_route_loads_numpy_only_for_a_draw_large_enough_to_repay_it() -> None:
    # A fresh interpreter: importing the scorer and bootstrapping a small corpus never loads numpy; a corpus of
    # NUMPY_MIN_DRAWS draws does.
    code = (
        "import sys\n"
        "from cvb_scorer import report, view\n"
        "from cvb_scorer.stats import NUMPY_MIN_DRAWS, Route, bootstrap_rates, rates_route\n"
        "e, t = [[1, 0, 2]], [[4, 5, 6]]\n"
        "small = rates_route(e, t, resamples=(NUMPY_MIN_DRAWS - 1) // 3)\n"
        "bootstrap_rates(e, t, resamples=(NUMPY_MIN_DRAWS - 1) // 3, seed=1, interval=0.9)\n"
        "before = 'numpy' in sys.modules\n"
        "large = rates_route(e, t, resamples=NUMPY_MIN_DRAWS // 3 + 1)\n"
        "print(small.name, before, large.name, 'numpy' in sys.modules)\n"
    )
    assert _run_python(code).split() == ["PURE", "False", "NUMPY", "True"]
    assert NUMPY_MIN_DRAWS > 3


def test_a_report_loads_numpy_before_aligning_only_when_its_bootstrap_will() -> None:
    # The command's corpus alignment makes its match masks with numpy when the bootstrap loads numpy anyway
    # (cvb_scorer.align_numpy); a corpus too small for numpy's bootstrap route never loads it.
    code = """if True:
        import json, sys
        from cvb_scorer.report import score_jsonl
        from cvb_scorer.rules import load_packaged_rules
        from cvb_scorer.stats import NUMPY_MIN_DRAWS
        rules = load_packaged_rules()
        def lines(n, text):
            return "".join(json.dumps({"id": f"c{k}", "text": f"{text}{k}"}) + "\\n" for k in range(n))
        def report(n):
            # Clips long enough for numpy's masks (align._NUMPY_MIN_MEAN_LENGTH).
            ref, hyp = "唔該埋單，我想問下份保單幾時到期。" * 3, "唔該買單，我想問吓份保單幾時到期" * 3
            score_jsonl(lines(n, ref), lines(n, hyp), rules=rules, ref_name="r", hyp_name="h")
        n = -(-NUMPY_MIN_DRAWS // rules.bootstrap.resamples)
        report(n - 1)
        small = "cvb_scorer.align_numpy" in sys.modules, "numpy" in sys.modules
        report(n)
        print(*small, "cvb_scorer.align_numpy" in sys.modules)
    """
    assert _run_python(code).split() == ["False", "False", "True"]


def test_without_numpy_every_route_is_the_pure_one() -> None:
    code = (
        "import sys\n"
        "sys.modules['numpy'] = None  # import numpy now raises ImportError, as where it is not installed\n"
        "from cvb_scorer.stats import Route, bootstrap_rates, rates_route\n"
        "e, t = [[1, 0, 2] * 400], [[4, 5, 6] * 400]\n"
        "print(rates_route(e, t, resamples=10000, route=Route.NUMPY).name, "
        "bootstrap_rates(e, t, resamples=3000, seed=1, interval=0.9)[0])\n"
    )
    route, interval = _run_python(code).split(" ", 1)
    assert route == "PURE"
    e, t = [[1, 0, 2] * 400], [[4, 5, 6] * 400]
    assert interval.strip() == repr(
        bootstrap_rates(e, t, resamples=3000, seed=1, interval=0.9, route=Route.NUMPY)[0]
    )


def test_the_published_intervals_of_a_fixed_corpus_are_unchanged_on_every_route() -> None:
    # Pinned from the bootstrap as published before the numpy route existed: the same seed gives the same
    # intervals, so the signature's draw name still means what it meant.
    rng = random.Random(12)
    errors = _columns(300, rng, 30, 2)
    totals = [[e + rng.randrange(1, 80) for e in col] for col in errors]
    published = [(0.24369071909671483, 0.2781913244955407), (0.266919051447516, 0.30505174347437386)]
    for route in Route:
        got = bootstrap_rates(errors, totals, resamples=10000, seed=20260924, interval=0.95, route=route)
        assert [(iv.low, iv.high) for iv in got] == published, route
