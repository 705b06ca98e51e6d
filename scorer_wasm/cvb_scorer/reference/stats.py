"""The published bootstrap draw and the corpus-rate bootstrap written the obvious way: one random word, one
lane, one clip at a time. ``cvb_scorer.stats`` takes the same draw in bulk; a test checks they agree exactly."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from cvb_scorer.stats import Interval, lane_bits, percentile


def index_stream(n: int, *, seed: int) -> Iterator[int]:
    """Clip indices in the published order: each 32-bit word of ``random.Random(seed)`` split into lanes, low
    lane first; a lane value below ``n * (2**bits // n)`` draws clip ``value % n``, a larger one is skipped."""
    rng = random.Random(seed)
    bits = lane_bits(n)
    lane_mask = (1 << bits) - 1
    limit = n * ((1 << bits) // n)
    while True:
        word = rng.getrandbits(32)
        for shift in range(0, 32, bits):
            value = (word >> shift) & lane_mask
            if value < limit:
                yield value % n


def draws(n: int, *, resamples: int, seed: int) -> list[list[int]]:
    """``resamples`` lists of ``n`` clip indices: the stream cut into consecutive runs of ``n``."""
    stream = index_stream(n, seed=seed)
    return [[next(stream) for _ in range(n)] for _ in range(resamples)]


def bootstrap_rates(
    errors: Sequence[Sequence[int]],
    totals: Sequence[Sequence[int]],
    *,
    resamples: int,
    seed: int,
    interval: float,
) -> list[Interval]:
    """Every rate's percentile interval on one shared draw; an empty resample's rate is 0 without errors, else 1.
    The interval is flagged collapsed when it has no width at 0 or 1."""
    n = len(errors[0])
    rates: list[list[float]] = [[] for _ in errors]
    for indices in draws(n, resamples=resamples, seed=seed):
        for k, (errs, tots) in enumerate(zip(errors, totals, strict=True)):
            err = sum(errs[i] for i in indices)
            tot = sum(tots[i] for i in indices)
            rates[k].append(err / tot if tot else (0.0 if err == 0 else 1.0))
    out = []
    tail = (1.0 - interval) / 2.0
    for values in rates:
        values.sort()
        low, high = percentile(values, tail), percentile(values, 1.0 - tail)
        out.append(Interval(low, high, interval, low == high and low in (0.0, 1.0)))
    return out
