"""Seeded percentile bootstrap over clips, rank bands, and the paired-difference diagnostic.

Reproducible bit for bit on CPython and in Pyodide. The published draw (``DRAW``), written out plainly in
``cvb_scorer.reference.stats``: ``random.Random(seed)`` gives a stream of 32-bit words (``getrandbits(32)``,
the Mersenne Twister output Python documents as reproducible); each word is two lanes, low half first, of
``LANE_BITS`` = 16 bits (32-bit lanes, a whole word each, when there are more than 65,536 clips). A lane
value ``v`` below ``n * (2**LANE_BITS // n)`` draws clip ``v % n``; larger values are skipped, so every clip is
exactly equally likely. Each resample takes the next ``n`` draws. Rates are integer sums divided once, and
percentiles interpolate linearly between order statistics (Hyndman and Fan type 7, numpy's default):
position ``p * (R - 1)`` in the sorted resamples. No float ``sum()`` is used (its algorithm changed in Python
3.12).

The draw is taken in bulk (``getrandbits`` of many words at once yields the same words in the same order,
least significant first) and every per-draw step runs inside built-ins (``array``, ``map``, ``filter``,
``sum``): the draw is most of a bootstrap's work, so no step of it runs once per draw in Python code.

Two routes compute every bootstrap here, with identical results: the pure route below (the only one in
Pyodide, which never loads numpy) and, on CPython, ``cvb_scorer.stats_numpy``, which takes the same words from
the same ``getrandbits`` and sums them in exact int64 arithmetic, far faster per draw. ``Route.AUTO`` takes
numpy only when it is importable and the draw has at least ``NUMPY_MIN_DRAWS`` clip draws (below that, importing
numpy costs more than it saves) or numpy is already loaded, and only when the sums fit: every rate's sums stay
below 2**53 (so int64 to float64 is exact and each rate is the same double as Python's ``int / int``), a mean
of floats is exact in a few 2**62-bounded integer limbs, and no value is a negative zero. Since the routes give
the same bits (``tests/scorer/test_stats.py`` compares both with ``cvb_scorer.reference.stats`` on generated
input), the scoring signature names the draw, not the route.
"""

from __future__ import annotations

import enum
import functools
import math
import random
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice, repeat

from cvb_scorer.lanes import INT64_SUM_BITS as INT64_SUM_BITS
from cvb_scorer.lanes import LANE_BITS as LANE_BITS
from cvb_scorer.lanes import StatsError as StatsError
from cvb_scorer.lanes import lane_bits as lane_bits
from cvb_scorer.progress import Progress, counted

# The name of the published draw; a different draw publishes different intervals from the same seed.
DRAW = "lanes16-reject"
# Bits of randomness taken per call of ``getrandbits``: a whole number of 32-bit words, so taking the stream in
# chunks yields exactly the words that one word at a time would.
_CHUNK_BITS = 1 << 18
# Clip draws (resamples x clips) from which the numpy route repays importing numpy: the import has a fixed
# cost per process (with the one OpenBLAS thread the command asks for, cli._one_blas_thread) and each draw is
# cheaper on the numpy route than on the pure one; the break-even between them, as whole processes, is
# measured by bench/scorer.py's ``routes_as_whole_processes``. Either route draws and sums the same, so this
# only moves time.
NUMPY_MIN_DRAWS = 700_000
# Sums below 2**53 convert to float64 exactly, so numpy's division rounds once, as Python's int / int does.
_EXACT_BITS = 53
# At most this many 62-bit integer limbs per value make a mean of floats worth the numpy route.
_MEAN_MAX_LIMBS = 4


class Route(enum.Enum):
    """Which implementation computes a bootstrap; every route gives the same bits."""

    AUTO = "auto"  # numpy where it is importable, the draw is large enough to repay loading it, and sums fit
    PURE = "pure"  # built-ins only (the route Pyodide always takes)
    NUMPY = "numpy"  # numpy whenever it is importable and the sums fit, however small the draw


@functools.cache
def _numpy_importable() -> bool:
    # Pyodide ships numpy but must not load it for the editor: the pure route is the browser's.
    if sys.platform == "emscripten":
        return False
    try:
        import cvb_scorer.stats_numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _choose(route: Route, *, draws: int, fits: bool) -> Route:
    if route is Route.PURE or not fits or sys.platform == "emscripten":
        return Route.PURE
    if route is Route.AUTO and draws < NUMPY_MIN_DRAWS and "numpy" not in sys.modules:
        return Route.PURE
    return Route.NUMPY if _numpy_importable() else Route.PURE


def load_route(*, draws: int) -> Route:
    """The route a bootstrap of ``draws`` clip draws takes unless told otherwise, with numpy loaded now when it
    is numpy's: scoring the corpus before the bootstrap then builds its alignment's match masks with numpy too
    (``cvb_scorer.align``), for the import paid once."""
    return _choose(Route.AUTO, draws=draws, fits=True)


def _sums_fit(columns: Sequence[Sequence[int]], n: int, bits: int) -> bool:
    """Every column is non-negative and sums over ``n`` clips below ``2**bits``."""
    return all(min(col) >= 0 and (n * max(col)).bit_length() <= bits for col in columns)


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """Linear-interpolation percentile (type 7) of already sorted values; ``p`` in [0, 1]."""
    if not sorted_values:
        raise StatsError("A percentile of no values is undefined; pass at least one value.")
    if not 0.0 <= p <= 1.0:
        raise StatsError(f"A percentile level must be between 0 and 1, not {p}.")
    pos = p * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    a, b = sorted_values[lo], sorted_values[hi]
    return a + (b - a) * frac


@dataclass(frozen=True)
class Interval:
    """A percentile interval; ``collapsed`` when it has no width because resamples piled up at a bound of the
    scale (a ceiling or floor), which reflects the scale, not certainty."""

    low: float
    high: float
    level: float
    collapsed: bool = False

    @property
    def warning(self) -> str | None:
        if not self.collapsed:
            return None
        return (
            f"The {self.level:.0%} interval collapsed to [{self.low}, {self.high}]: "
            "the resamples sit at a bound "
            "of the scale, so the zero width shows the scale's limit, not certainty."
        )


def _lanes(seed: int, bits: int) -> Iterator[array[int]]:
    """The published stream of lane values, in chunks (``array`` of unsigned 16- or 32-bit integers)."""
    getrandbits = random.Random(seed).getrandbits
    code = "H" if bits == 16 else "I"
    nbytes = _CHUNK_BITS // 8
    while True:
        chunk = array(code, getrandbits(_CHUNK_BITS).to_bytes(nbytes, "little"))
        if sys.byteorder == "big":
            chunk.byteswap()
        yield chunk


def _accepted(n: int, bits: int) -> Callable[[int], bool]:
    return (n * ((1 << bits) // n)).__gt__


def index_stream(n: int, *, seed: int) -> Iterator[int]:
    """The published stream of clip indices, ``n`` per resample (``reference.stats.index_stream`` spelt out)."""
    bits = lane_bits(n)
    lanes = chain.from_iterable(_lanes(seed, bits))
    return map(n.__rmod__, filter(_accepted(n, bits), lanes))


def draws(n: int, *, resamples: int, seed: int) -> Iterator[list[int]]:
    """The published draw: ``resamples`` lists of ``n`` clip indices. Every bootstrap here resamples through
    it (``resample_sums`` is the same draw, summed as it goes)."""
    stream = index_stream(n, seed=seed)
    for _ in range(resamples):
        yield list(islice(stream, n))


def resample_sums(
    values: Sequence[int],
    *,
    resamples: int,
    seed: int,
    route: Route = Route.AUTO,
    progress: Progress | None = None,
) -> list[int]:
    """``sum(values[i] for i in indices)`` for each list of ``draws(len(values), ...)``, without building them.

    Pure route: up to 2**16 clips every lane value maps straight to its clip's value through one table (the
    value plus one, so a skipped lane can be a falsy 0 that ``filter(None)`` drops), and the sums run in
    ``sum``. The numpy route splits values of any size into int64 limbs. ``progress`` hears of the resamples
    summed (``cvb_scorer.progress``).
    """
    n = len(values)
    bits = lane_bits(n)
    if any(v < 0 for v in values):
        raise StatsError("Resampled values must not be negative.")
    if _choose(route, draws=resamples * n, fits=True) is Route.NUMPY:
        from cvb_scorer import stats_numpy

        return stats_numpy.resample_sums(values, resamples=resamples, seed=seed, progress=progress)
    rounds = counted(range(resamples), phase="bootstrap", total=resamples, progress=progress)
    if bits != LANE_BITS:
        stream = map(values.__getitem__, index_stream(n, seed=seed))
        return [sum(islice(stream, n)) for _ in rounds]
    limit = n * ((1 << bits) // n)
    table = [values[v % n] + 1 if v < limit else 0 for v in range(1 << bits)]
    drawn = chain.from_iterable(
        map(filter, repeat(None), map(map, repeat(table.__getitem__), _lanes(seed, bits)))
    )
    return [sum(islice(drawn, n)) - n for _ in rounds]


def _interval(values: list[float], level: float, bounds: tuple[float, float] | None) -> Interval:
    values.sort()
    tail = (1.0 - level) / 2.0
    low = percentile(values, tail)
    high = percentile(values, 1.0 - tail)
    collapsed = low == high and (bounds is None or low in bounds)
    return Interval(low, high, level, collapsed)


def bootstrap_rates(
    errors: Sequence[Sequence[int]],
    totals: Sequence[Sequence[int]],
    *,
    resamples: int,
    seed: int,
    interval: float,
    route: Route = Route.AUTO,
    progress: Progress | None = None,
) -> list[Interval]:
    """Percentile intervals for several corpus rates (e.g. CER and MER) on ONE shared draw of clips.

    ``errors[k][c]`` and ``totals[k][c]`` are rate k's errors and reference tokens for clip c. A resample
    whose reference tokens sum to 0 counts as rate 0 (no errors) or 1. ``progress`` hears of the resamples
    drawn (``cvb_scorer.progress``).
    """
    if not errors or len(errors) != len(totals):
        raise StatsError("Pass one list of per-clip errors and one of per-clip totals for each rate.")
    n = len(errors[0])
    if n == 0:
        raise StatsError("A bootstrap needs at least one clip; the corpus is empty.")
    if any(len(e) != n or len(t) != n for e, t in zip(errors, totals, strict=True)):
        raise StatsError("Every rate needs one error count and one total per clip, for the same clips.")
    columns = [c for pair in zip(errors, totals, strict=True) for c in pair]
    if any(v < 0 for col in columns for v in col):
        raise StatsError("Error counts and totals must not be negative.")
    if rates_route(errors, totals, resamples=resamples, route=route) is Route.NUMPY:
        from cvb_scorer import stats_numpy

        sums = stats_numpy.column_sums(columns, resamples=resamples, seed=seed, progress=progress)
        return [
            _interval(stats_numpy.rates(sums[:, 2 * k], sums[:, 2 * k + 1]).tolist(), interval, (0.0, 1.0))
            for k in range(len(errors))
        ]
    # Every per-clip count goes into one integer, each in its own bit field wide enough that no sum over n
    # clips can carry into the next field: one integer sum per resample then gives every rate's errors and
    # total. (Storing MER as its difference from CER narrows the fields enough for sum()'s machine-integer
    # path only on text without Latin words or numbers, so it did not earn its place.)
    width = max(1, n * max(max(col) for col in columns)).bit_length()
    mask = (1 << width) - 1
    packed = [sum(col[c] << (width * f) for f, col in enumerate(columns)) for c in range(n)]
    samples: list[list[float]] = [[] for _ in errors]
    fields = range(len(errors))
    totals_drawn = resample_sums(packed, resamples=resamples, seed=seed, route=Route.PURE, progress=progress)
    for total in totals_drawn:
        for k in fields:
            err = (total >> (width * 2 * k)) & mask
            tot = (total >> (width * (2 * k + 1))) & mask
            samples[k].append(err / tot if tot else (0.0 if err == 0 else 1.0))
    return [_interval(s, interval, (0.0, 1.0)) for s in samples]


def rates_route(
    errors: Sequence[Sequence[int]],
    totals: Sequence[Sequence[int]],
    *,
    resamples: int,
    route: Route = Route.AUTO,
) -> Route:
    """The route ``bootstrap_rates`` takes for these counts: numpy needs every sum below 2**53."""
    n = len(errors[0])
    fits = _sums_fit([*errors, *totals], n, _EXACT_BITS)
    return _choose(route, draws=resamples * n, fits=fits)


def _fixed_point(values: Sequence[float]) -> tuple[list[int], int] | None:
    """``values`` as exact integers over one power-of-two denominator (``v == k / 2**shift``), or None when
    that would take more than a few limbs, or a value is not finite, is a negative zero or could overflow a
    sum: cases the pure ``math.fsum`` route keeps."""
    try:
        floats = [float(v) for v in values]
    except OverflowError:
        return None
    n = len(floats)
    if not all(map(math.isfinite, floats)) or max(map(abs, floats)) >= 2.0**1000 / n:
        return None
    if any(f == 0.0 and math.copysign(1.0, f) < 0 for f in floats):
        return None
    ratios = [f.as_integer_ratio() for f in floats]
    shift = max(q.bit_length() for _, q in ratios) - 1
    scaled = [p << (shift - q.bit_length() + 1) for p, q in ratios]
    span = max(scaled) - min(scaled)
    if span.bit_length() > _MEAN_MAX_LIMBS * (INT64_SUM_BITS - n.bit_length()):
        return None
    return scaled, shift


def bootstrap_mean(
    values: Sequence[float],
    *,
    resamples: int,
    seed: int,
    interval: float,
    bounds: tuple[float, float] | None,
    route: Route = Route.AUTO,
) -> Interval:
    """Percentile interval of the mean of per-clip values (e.g. 0-100 scores); ``bounds`` is the scale, used
    to flag a collapse at a ceiling or floor.

    The numpy route sums the values as exact integers over a common power-of-two denominator; the one
    correctly rounded division of that exact sum is ``math.fsum``'s correctly rounded result, bit for bit.
    """
    n = len(values)
    if n == 0:
        raise StatsError("A bootstrap needs at least one value.")
    numpy = _choose(route, draws=resamples * n, fits=True) is Route.NUMPY
    if numpy and (fixed := _fixed_point(values)) is not None:
        scaled, shift = fixed
        low = min(scaled)
        offset, denominator = n * low, 1 << shift
        sums = resample_sums([v - low for v in scaled], resamples=resamples, seed=seed, route=Route.NUMPY)
        return _interval([(s + offset) / denominator / n for s in sums], interval, bounds)
    get = values.__getitem__
    samples = [math.fsum(map(get, indices)) / n for indices in draws(n, resamples=resamples, seed=seed)]
    return _interval(samples, interval, bounds)


@dataclass(frozen=True)
class PairedDifference:
    """Bootstrap of rate(A) - rate(B) over the same clips: ``interval`` of the difference and the share of
    resamples in which A's rate is lower (better)."""

    difference: float
    interval: Interval
    a_better_share: float


def paired_difference(
    errors_a: Sequence[int],
    errors_b: Sequence[int],
    totals: Sequence[int],
    *,
    resamples: int,
    seed: int,
    interval: float,
    route: Route = Route.AUTO,
) -> PairedDifference:
    """Paired bootstrap of the difference of two systems' corpus rates on the same clips (a diagnostic: the
    published bands use interval overlap)."""
    n = len(totals)
    if n == 0 or len(errors_a) != n or len(errors_b) != n:
        raise StatsError("Both systems need one error count per clip, for the same non-empty list of clips.")
    t_all = sum(totals)
    point = (sum(errors_a) - sum(errors_b)) / t_all if t_all else 0.0
    fits = _sums_fit([errors_a, errors_b, totals], n, _EXACT_BITS)
    if _choose(route, draws=resamples * n, fits=fits) is Route.NUMPY:
        from cvb_scorer import stats_numpy

        sums = stats_numpy.column_sums([errors_a, errors_b, totals], resamples=resamples, seed=seed)
        diff = stats_numpy.differences(sums[:, 0], sums[:, 1], sums[:, 2])
        better_count = int((diff < 0).sum())
        return PairedDifference(point, _interval(diff.tolist(), interval, None), better_count / resamples)
    ea, eb, tt = errors_a.__getitem__, errors_b.__getitem__, totals.__getitem__
    diffs: list[float] = []
    better = 0
    for idx in draws(n, resamples=resamples, seed=seed):
        tot = sum(map(tt, idx))
        if tot == 0:
            diffs.append(0.0)
            continue
        d = sum(map(ea, idx)) / tot - sum(map(eb, idx)) / tot
        diffs.append(d)
        if d < 0:
            better += 1
    return PairedDifference(point, _interval(diffs, interval, None), better / resamples)


@dataclass(frozen=True)
class Entry:
    name: str
    score: float
    low: float
    high: float


@dataclass(frozen=True)
class Banded:
    entry: Entry
    band: int
    rank: int
    leader: str


def rank_bands(entries: Sequence[Entry]) -> list[Banded]:
    """The published band rule (anchor rule): walk entries from the best score down (ties by name); an entry
    joins the current band while its interval overlaps the band leader's, otherwise it leads a new band.

    Overlap is checked against the leader only, so a chain of small overlaps cannot pull everyone into one
    band. ``rank`` is 1 + the number of entries in better bands (shared within a band).
    """
    ordered = sorted(entries, key=lambda e: (-e.score, e.name))
    out: list[Banded] = []
    leader: Entry | None = None
    band = 0
    rank = 1
    for pos, entry in enumerate(ordered):
        if leader is None or not (entry.high >= leader.low and entry.low <= leader.high):
            leader = entry
            band += 1
            rank = pos + 1
        out.append(Banded(entry, band, rank, leader.name))
    return out
