"""The published bootstrap draw (``cvb_scorer.stats``) summed with numpy: the CPython route of the bootstrap.

Only ``cvb_scorer.stats`` imports this module, inside a bootstrap and never in Pyodide, so importing the scorer
(and the editor's keystroke path) never loads numpy. The draw is the published one, word for word: the words
still come from ``random.Random(seed).getrandbits``, read as little-endian lanes (low half of a word first),
rejected lanes gather nothing, and consecutive runs of ``n`` accepted lanes are the resamples. Sums are exact
int64 arithmetic: callers pass only columns whose sum over ``n`` clips stays below ``2**62``
(``SUM_BITS``), which ``stats`` checks before choosing this route.

The words are ``getrandbits``' own, made by numpy: CPython's ``random`` is MT19937, and numpy's MT19937 loaded
with ``random.Random(seed).getstate()`` yields the same 32-bit words in the same order (``_published_words``;
tests/scorer/test_stats.py compares them with ``getrandbits`` across seeds and call boundaries), so no word is
made in Python or converted through bytes.

Memory is bounded by processing ``RAW_WORDS`` words at a time: the block's lanes, their indices and one
gathered word, a 512 KB table per packed word, a few words per piece of a resample not yet summed, and 8 bytes
per resample and column for the sums; the peak therefore grows with neither the number of resamples nor the
clip count beyond the inputs themselves (bench/scorer.py traces it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from cvb_scorer.lanes import INT64_SUM_BITS as SUM_BITS
from cvb_scorer.lanes import lane_bits
from cvb_scorer.progress import Progress

# Words of the stream read per block: large enough that numpy's per-call overhead is small, small enough that
# a block's arrays stay in cache (bench/scorer.py measures the bootstrap).
RAW_WORDS = 1 << 15
# The shortest piece a resample is summed in (``_layout``): below it, the per-piece sums cost more than the
# gathers a narrower packing saves.
MIN_PIECE = 64

Int64Array = npt.NDArray[np.int64]


def _published_words(seed: int) -> Callable[[int], npt.NDArray[np.uint32]]:
    """``words(count)``: the next ``count`` 32-bit words of ``random.Random(seed)``, in the order
    ``getrandbits(32 * count)`` puts them from its low end, as a little-endian uint32 array."""
    _, state, _ = random.Random(seed).getstate()
    generator = np.random.MT19937()
    generator.state = {
        "bit_generator": "MT19937",
        "state": {"key": np.array(state[:-1], dtype=np.uint32), "pos": state[-1]},
    }
    # Over the whole 32-bit range, ``integers`` returns the generator's words unchanged (no rejection).
    integers = np.random.Generator(generator).integers

    def words(count: int) -> npt.NDArray[np.uint32]:
        out: npt.NDArray[np.uint32] = integers(0, 1 << 32, size=count, dtype=np.uint32).astype(
            "<u4", copy=False
        )
        return out

    return words


def _pack(maxima: Sequence[int], length: int) -> list[list[tuple[int, int, int]]]:
    """Fields for columns with these maxima, packed into as few int64 words as fit: each column gets a bit
    field wide enough for its sum over ``length`` draws, so no sum of that many draws carries from one field
    into the next. Returns each word's fields as (column, shift, mask)."""
    words: list[list[tuple[int, int, int]]] = []
    used = SUM_BITS
    for k, top in enumerate(maxima):
        width = max(1, length * top).bit_length()
        if width > SUM_BITS:
            raise ValueError(f"column {k} can sum to {width} bits, beyond int64's safe {SUM_BITS}")
        if used + width > SUM_BITS:
            words.append([])
            used = 0
        words[-1].append((k, used, (1 << width) - 1))
        used += width
    return words


def _layout(maxima: Sequence[int], n: int) -> tuple[int, list[list[tuple[int, int, int]]]]:
    """The length of the pieces each resample is summed in, and the packed words' fields for it: the longest
    piece (the whole resample, else a power of two from ``MIN_PIECE`` up) whose fields take as few words as
    any piece length at least ``MIN_PIECE`` allows. Each word costs a gather per draw; a piece costs a sum of
    its own, a few draws' worth."""
    lengths = [n, *(1 << k for k in range(n.bit_length() - 1, -1, -1) if MIN_PIECE <= 1 << k < n)]
    layouts = [(length, _pack(maxima, length)) for length in lengths]
    fewest = min(len(words) for _, words in layouts)
    return next((length, words) for length, words in layouts if len(words) == fewest)


def column_sums(
    columns: Sequence[Sequence[int]],
    *,
    resamples: int,
    seed: int,
    progress: Progress | None = None,
) -> Int64Array:
    """``out[r, k]`` = column k's sum over resample r of the published draw, for non-negative columns of one
    length ``n`` whose sums over ``n`` clips stay below ``2**SUM_BITS``. ``progress`` hears of every resample
    summed, as on the pure route, so a listener hears the same calls whichever route ran.

    The lanes are read as they come, rejected ones included: a rejected lane gathers 0, and the resamples'
    bounds are placed among the raw lanes by counting the rejected lanes before them, so the accepted lanes
    are never copied out. Each resample is summed in pieces of ``length`` draws (``_layout``), short enough
    that every column's field of a piece's sum fits beside the others in one int64 word; the pieces' fields
    are then summed per resample, exactly."""
    n = len(columns[0])
    bits = lane_bits(n)
    values = [np.asarray(col, dtype=np.int64) for col in columns]
    length, layout = _layout([int(v.max()) for v in values], n)
    pieces = -(-n // length)  # pieces per resample, the last one shorter when length does not divide n
    tables = []
    for fields in layout:
        word = np.zeros(n, dtype=np.int64)
        for k, shift, _ in fields:
            word |= values[k] << shift
        if bits == 16:
            # Lane value v (below the acceptance limit) draws clip v % n, so a table over every lane value
            # gathers the clip's word with no division per draw, and 0 for a rejected value.
            table = np.zeros(1 << bits, dtype=np.int64)
            copies = (1 << bits) // n
            table[: copies * n] = np.tile(word, copies)
            tables.append(table)
        else:
            tables.append(word)
    limit = n * ((1 << bits) // n)
    lane = np.dtype("<u2" if bits == 16 else "<u4")
    words_of = _published_words(seed)
    starts = np.arange(0, n, length, dtype=np.int64)  # where each piece of a resample starts, in draws
    needed = resamples * n
    accepted = 0  # accepted lanes before this block
    open_piece: list[np.int64] | None = None  # the running sum of a piece a block boundary cut, per word
    finished: list[list[Int64Array]] = [[] for _ in tables]  # whole pieces not yet summed into resamples
    sums = np.empty((resamples, len(columns)), dtype=np.int64)
    row = 0

    def settle() -> None:
        nonlocal row
        waiting = sum(part.size for part in finished[0])
        count = waiting // pieces
        if not count:
            return
        for w, fields in enumerate(layout):
            done = np.concatenate(finished[w])
            head = done[: count * pieces]
            finished[w] = [done[count * pieces :]]
            for k, shift, mask in fields:
                sums[row : row + count, k] = ((head >> shift) & mask).reshape(count, pieces).sum(axis=1)
        if progress is not None:
            # A block sums many resamples at once; each is told, in order, as the pure route tells it.
            for done_count in range(row + 1, row + count + 1):
                progress("bootstrap", done_count, resamples)
        row += count

    while accepted < needed:
        raw = words_of(RAW_WORDS).view(lane)
        rejected = np.flatnonzero(raw >= limit)
        # Before rejected lane i come rejected[i] - i accepted lanes: the accepted lane a sits at raw position
        # a + (the number of rejected lanes with at most a accepted lanes before them).
        accepted_before = rejected - np.arange(rejected.size)
        count = raw.size - rejected.size
        if accepted + count > needed:  # the last block: cut it after the last lane the draw uses
            count = needed - accepted
            cut = count + int(np.searchsorted(accepted_before, count - 1, side="right"))
            raw = raw[:cut]
            keep = rejected < cut
            rejected, accepted_before = rejected[keep], accepted_before[keep]
        if not count:
            continue
        first, last = accepted // n, (accepted + count - 1) // n
        bounds = (np.arange(first, last + 1, dtype=np.int64)[:, None] * n + starts).ravel() - accepted
        bounds = bounds[(bounds >= 0) & (bounds < count)]
        bounds += np.searchsorted(accepted_before, bounds, side="right")
        # ``take`` with indices of any type but intp converts them one by one, far slower than one astype.
        indices = raw.astype(np.intp)
        if bits != 16:
            indices %= n
        # The lanes before the block's first bound belong to the piece the last block left open (before the
        # first piece of all there are only rejected lanes, which gather 0).
        continues = open_piece is not None and not (bounds.size and bounds[0] == 0)
        edges = np.concatenate((np.zeros(1, dtype=np.int64), bounds)) if continues else bounds
        carried: list[np.int64] = []
        for w, table in enumerate(tables):
            drawn = table.take(indices)
            if bits != 16:
                drawn[rejected] = 0
            segments = np.add.reduceat(drawn, edges)
            running = None if open_piece is None else open_piece[w]
            if continues:
                running = running + segments[0]
                segments = segments[1:]
            if segments.size:
                if running is not None:
                    finished[w].append(np.array([running], dtype=np.int64))
                finished[w].append(segments[:-1])
                running = segments[-1]
            assert running is not None  # the first block has the first piece's start
            carried.append(running)
        open_piece = carried
        accepted += count
        settle()
    if open_piece is not None:
        for w, running in enumerate(open_piece):
            finished[w].append(np.array([running], dtype=np.int64))
    settle()
    return sums


def rates(errors: Int64Array, totals: Int64Array) -> npt.NDArray[np.float64]:
    """``errors / totals`` per resample with Python's ``int / int`` bits (both below 2**53, so converting to
    float64 is exact and the division rounds once, as CPython's does); no tokens counts as 0 without errors,
    else 1."""
    quotient = errors / np.maximum(totals, 1)
    empty = (errors > 0).astype(np.float64)
    out: npt.NDArray[np.float64] = np.where(totals > 0, quotient, empty)
    return out


def differences(errors_a: Int64Array, errors_b: Int64Array, totals: Int64Array) -> npt.NDArray[np.float64]:
    """``a / t - b / t`` per resample, each quotient and the difference rounded as Python rounds them (sums
    below 2**53); 0 where a resample has no tokens."""
    safe = np.maximum(totals, 1)
    out: npt.NDArray[np.float64] = np.where(totals > 0, errors_a / safe - errors_b / safe, 0.0)
    return out


def resample_sums(
    values: Sequence[int], *, resamples: int, seed: int, progress: Progress | None = None
) -> list[int]:
    """Exact sums of non-negative integers of any size over each resample: each value is split into limbs
    narrow enough that a limb's sum over ``n`` clips fits int64, and the limb sums are recombined in Python."""
    n = len(values)
    width = SUM_BITS - n.bit_length()  # n * (2**width - 1) < 2**SUM_BITS
    limbs = max(1, -(-max(values).bit_length() // width))
    mask = (1 << width) - 1
    columns = [[(v >> (width * j)) & mask for v in values] for j in range(limbs)]
    sums = column_sums(columns, resamples=resamples, seed=seed, progress=progress)
    if limbs == 1:
        out: list[int] = sums[:, 0].tolist()
        return out
    return [sum(s << (width * j) for j, s in enumerate(row)) for row in sums.tolist()]
