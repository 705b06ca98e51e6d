"""The match masks of a packed group's columns (``cvb_scorer.align``'s corpus packing) made with numpy: the
CPython route, taken only when the process has loaded numpy already (the command's bootstrap loads it before
a corpus is scored, see ``cvb_scorer.report.score_jsonl``); Pyodide never takes it.

The masks are the plain route's bytes (``align._match_masks``), bit for bit: pair ``g`` of the group holds the
bytes ``offset[g] .. offset[g] + sizes[g]`` of every column, and in column ``j`` the bit of row ``r`` is set
when ``a[r] == b[j]``. The plain route sets the bits of each reference character in Python (about half of
corpus alignment's time besides the column arithmetic); here each character is a key (its pair and its code
point, numbered as ``_numbered_keys`` says), the bits of every key's rows are added up with one ``add.at``, and
each column gathers its keys' masks.
tests/scorer/test_align_harness.py compares the two on generated groups.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# A key is a pair's index and a character: equal characters of different pairs differ. Keys are numbered
# without a sort, from a table over the code points up to the largest the group has (those beyond the BMP,
# which Cantonese text has a few of, ranked after it), when the masks that numbering makes stay small (it
# leaves a row for every pair and every character of the group). Otherwise, by sorting the pair's index above
# the 21 bits of a code point. Either numbering gives the same masks: only which row of ``masks`` holds a key
# differs.
_CODE_BITS = 21
_DENSE_MAX_CODE = 0xFFFF
_DENSE_MAX_MASK_BYTES = 1 << 22


def match_masks(pairs: Sequence[tuple[str, str]], sizes: Sequence[int], cols: int) -> list[int]:
    """Column ``j``'s match mask for ``j`` in ``range(cols)``: the pairs' rows joined as bytes, pair ``g`` in
    ``sizes[g]`` bytes (more than its reference's length in bits), little-endian; a column past a pair's
    hypothesis has no bit of that pair."""
    width = sum(sizes)
    stride = max(sizes)
    references = [a for a, _ in pairs]
    hypotheses = [b for _, b in pairs]
    # Every reference, then every hypothesis, one code point an element (a lone surrogate too).
    codes = np.frombuffer("".join(references + hypotheses).encode("utf-32-le", "surrogatepass"), dtype="<u4")
    index = np.arange(len(pairs))
    pair_of = np.concatenate(
        (np.repeat(index, [len(a) for a in references]), np.repeat(index, [len(b) for b in hypotheses]))
    )
    key_of, keys = _numbered_keys(codes, pair_of, len(pairs), stride)
    # Keys of both sides numbered together: a hypothesis character missing from its reference gets a key
    # with no rows, so an empty mask.
    rows = np.concatenate([np.arange(len(a)) for a in references])
    from_reference = key_of[: len(rows)]
    # Each key's mask as ``stride`` bytes: the bits of its rows added into them, distinct powers of two, so
    # exact. (``bincount`` with the bits as weights made the same bytes through a float array eight times the
    # size: 6% slower.)
    masks = np.zeros((keys, stride), dtype=np.uint8)
    np.add.at(
        masks.reshape(-1), from_reference * stride + (rows >> 3), np.left_shift(1, rows & 7).astype(np.uint8)
    )
    table = np.zeros((cols, width), dtype=np.uint8)
    start, offset = len(rows), 0
    for b, size in zip(hypotheses, sizes, strict=True):
        table[: len(b), offset : offset + size] = masks[key_of[start : start + len(b)], :size]
        start += len(b)
        offset += size
    flat = table.tobytes()
    from_bytes = int.from_bytes
    return [from_bytes(flat[j * width : (j + 1) * width], "little") for j in range(cols)]


def _numbered_keys(
    codes: np.ndarray[tuple[int], np.dtype[np.uint32]],
    pair_of: np.ndarray[tuple[int], np.dtype[np.intp]],
    count: int,
    stride: int,
) -> tuple[np.ndarray[tuple[int], np.dtype[np.intp]], int]:
    """Each character's key (its pair, one of ``count``, and its code point) as a row number, and how many rows
    there are: the same row for the same key, different rows for different keys."""
    beyond = codes > _DENSE_MAX_CODE
    small = codes.astype(np.intp)
    if beyond.any():
        # The few characters beyond the BMP (Cantonese has some) numbered after it, in code point order.
        _, rank = np.unique(codes[beyond], return_inverse=True)
        small[beyond] = _DENSE_MAX_CODE + 1 + rank
    present = np.zeros(int(small.max()) + 1 if len(small) else 1, dtype=np.bool_)
    present[small] = True
    dense = np.cumsum(present, dtype=np.intp)
    distinct = int(dense[-1])
    keys = count * distinct
    if keys * stride <= _DENSE_MAX_MASK_BYTES:
        numbered: np.ndarray[tuple[int], np.dtype[np.intp]] = pair_of * distinct + (dense[small] - 1)
        return numbered, keys
    keyed = codes.astype(np.int64) | (pair_of.astype(np.int64) << _CODE_BITS)
    _, key_of = np.unique(keyed, return_inverse=True)
    return key_of, int(key_of.max()) + 1
