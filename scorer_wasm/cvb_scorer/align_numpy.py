"""The match masks of a packed group's columns (``cvb_scorer.align``'s corpus packing) made with numpy: the
CPython route, taken only when the process has loaded numpy already (the command's bootstrap loads it before
a corpus is scored, see ``cvb_scorer.report.score_jsonl``); Pyodide never takes it.

The masks are the plain route's bytes (``align._match_masks``), bit for bit: pair ``g`` of the group holds the
bytes ``offset[g] .. offset[g] + sizes[g]`` of every column, and in column ``j`` the bit of row ``r`` is set
when ``a[r] == b[j]``. The plain route sets the bits of each reference character in Python (about half of
corpus alignment's time besides the column arithmetic); here each character is a key (its pair and its code
point), the bits of every key's rows are added up with one ``add.at``, and each column gathers its keys' masks.
tests/scorer/test_align_harness.py compares the two on generated groups.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# A key is the pair's index above the 21 bits of a code point, so equal characters of different pairs differ.
_CODE_BITS = 21


def match_masks(pairs: Sequence[tuple[str, str]], sizes: Sequence[int], cols: int) -> list[int]:
    """Column ``j``'s match mask for ``j`` in ``range(cols)``: the pairs' rows joined as bytes, pair ``g`` in
    ``sizes[g]`` bytes (more than its reference's length in bits), little-endian; a column past a pair's
    hypothesis has no bit of that pair."""
    width = sum(sizes)
    stride = max(sizes)
    keys = [_keys(a, g) for g, (a, _) in enumerate(pairs)] + [_keys(b, g) for g, (_, b) in enumerate(pairs)]
    # Keys of both sides numbered together: a hypothesis character missing from its reference gets a key
    # with no rows, so an empty mask.
    _, key_of = np.unique(np.concatenate(keys), return_inverse=True)
    rows = np.concatenate([np.arange(len(a)) for a, _ in pairs])
    from_reference = key_of[: len(rows)]
    # Each key's mask as ``stride`` bytes: the bits of its rows added into them, distinct powers of two, so
    # exact. (``bincount`` with the bits as weights made the same bytes through a float array eight times the
    # size: 6% slower.)
    masks = np.zeros((int(key_of.max()) + 1, stride), dtype=np.uint8)
    np.add.at(
        masks.reshape(-1), from_reference * stride + (rows >> 3), np.left_shift(1, rows & 7).astype(np.uint8)
    )
    table = np.zeros((cols, width), dtype=np.uint8)
    start, offset = len(rows), 0
    for (_, b), size in zip(pairs, sizes, strict=True):
        table[: len(b), offset : offset + size] = masks[key_of[start : start + len(b)], :size]
        start += len(b)
        offset += size
    flat = table.tobytes()
    from_bytes = int.from_bytes
    return [from_bytes(flat[j * width : (j + 1) * width], "little") for j in range(cols)]


def _keys(text: str, pair: int) -> np.ndarray[tuple[int], np.dtype[np.int64]]:
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    keyed: np.ndarray[tuple[int], np.dtype[np.int64]] = codes | (pair << _CODE_BITS)
    return keyed
