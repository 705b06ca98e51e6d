"""The published bootstrap draw (``cvb_scorer.stats``) summed with numpy: the CPython route of the bootstrap.

Only ``cvb_scorer.stats`` imports this module, inside a bootstrap and never in Pyodide, so importing the scorer
(and the editor's keystroke path) never loads numpy. The draw is the published one, word for word: the words
still come from ``random.Random(seed).getrandbits``, read as little-endian lanes (low half of a word first),
rejected lanes are masked out, and consecutive runs of ``n`` accepted lanes are the resamples. Sums are exact
int64 arithmetic: callers pass only columns whose sum over ``n`` clips stays below ``2**62``
(``SUM_BITS``), which ``stats`` checks before choosing this route.

The words are ``getrandbits``' own, made by numpy: CPython's ``random`` is MT19937, and numpy's MT19937 loaded
with ``random.Random(seed).getstate()`` yields the same 32-bit words in the same order (``_published_words``;
tests/scorer/test_stats.py compares them with ``getrandbits`` across seeds and call boundaries), so no word is
made in Python or converted through bytes.

Memory is bounded by processing ``BLOCK_DRAWS`` draws (whole resamples) at a time: the block's lanes, accepted
indices and one gathered word, a 512 KB table per packed word, and 8 bytes per resample and column for the
sums; the peak therefore does not grow with the number of resamples (bench/scorer.py traces it). A block holds
at least one resample, so above ``BLOCK_DRAWS`` clips the peak grows with the clip count, by a few words per
clip beside the inputs themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from cvb_scorer.lanes import INT64_SUM_BITS as SUM_BITS
from cvb_scorer.lanes import lane_bits
from cvb_scorer.progress import Progress

# Draws per block: large enough that numpy's per-call overhead is small, small enough that a block's arrays
# stay in cache (measured: blocks of 2**13 to 2**17 draws run alike; 2**22 ran 3x slower).
BLOCK_DRAWS = 1 << 16

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


def _accepted_lanes(n: int, *, resamples: int, seed: int) -> Iterator[npt.NDArray[np.intp]]:
    """The published stream of accepted lane values, cut into blocks of whole resamples (``k * n`` lanes)."""
    bits = lane_bits(n)
    limit = n * ((1 << bits) // n)
    lane = np.dtype("<u2" if bits == 16 else "<u4")
    lanes_per_word = 32 // bits
    words_of = _published_words(seed)
    per_block = max(1, BLOCK_DRAWS // n)
    pending = np.empty(0, dtype=lane)
    left = resamples
    while left:
        take = min(per_block, left) * n
        while pending.size < take:
            # Enough words for the missing lanes at the acceptance rate, plus slack so that one call nearly
            # always suffices. Words drawn beyond the last resample are never used: the generator is private.
            words = ((take - pending.size) << bits) // limit // lanes_per_word * 101 // 100 + 64
            raw = words_of(words).view(lane)
            pending = np.concatenate((pending, raw[raw < limit]))
        yield pending[:take].astype(np.intp)
        pending = pending[take:]
        left -= take // n


def _pack(columns: Sequence[Sequence[int]], n: int) -> list[tuple[Int64Array, list[tuple[int, int, int]]]]:
    """Columns packed into as few int64 words per clip as fit: each column gets a bit field wide enough for
    its sum over ``n`` clips, so one gather and one sum per word give every field's sums. Returns each word's
    per-clip values with its fields as (column, shift, mask)."""
    words: list[tuple[Int64Array, list[tuple[int, int, int]]]] = []
    used = SUM_BITS
    for k, col in enumerate(columns):
        values = np.asarray(col, dtype=np.int64)
        width = max(1, n * int(values.max())).bit_length()
        if width > SUM_BITS:
            raise ValueError(f"column {k} can sum to {width} bits, beyond int64's safe {SUM_BITS}")
        if used + width > SUM_BITS:
            words.append((np.zeros(n, dtype=np.int64), []))
            used = 0
        word, fields = words[-1]
        word |= values << used
        fields.append((k, used, (1 << width) - 1))
        used += width
    return words


def column_sums(
    columns: Sequence[Sequence[int]], *, resamples: int, seed: int, progress: Progress | None = None
) -> Int64Array:
    """``out[r, k]`` = column k's sum over resample r of the published draw, for non-negative columns of one
    length ``n`` whose sums over ``n`` clips stay below ``2**SUM_BITS``. ``progress`` hears of every resample
    summed, as on the pure route, so a listener hears the same calls whichever route ran."""
    n = len(columns[0])
    bits = lane_bits(n)
    words = _pack(columns, n)
    if bits == 16:
        # Lane value v (below the acceptance limit) draws clip v % n: a table over lane values gathers the
        # clip's word directly, with no division per draw.
        copies = (1 << bits) // n
        tables = [np.tile(word, copies) for word, _ in words]
    else:
        tables = [word for word, _ in words]
    sums = np.empty((resamples, len(words)), dtype=np.int64)
    row = 0
    for lanes in _accepted_lanes(n, resamples=resamples, seed=seed):
        indices = lanes if bits == 16 else lanes % n
        count = lanes.size // n
        for w, table in enumerate(tables):
            sums[row : row + count, w] = table.take(indices).reshape(count, n).sum(axis=1)
        if progress is not None:
            # A block sums many resamples at once; each is told, in order, as the pure route tells it.
            for done in range(row + 1, row + count + 1):
                progress("bootstrap", done, resamples)
        row += count
    out = np.empty((resamples, len(columns)), dtype=np.int64)
    for w, (_, fields) in enumerate(words):
        for k, shift, mask in fields:
            out[:, k] = (sums[:, w] >> shift) & mask
    return out


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
