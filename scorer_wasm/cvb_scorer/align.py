"""Levenshtein alignment with unit costs: bit-parallel (Myers 1999, in Hyyrö's 2003 formulation) on Python
ints, with a full edit script.

Tie rule (published; part of the signature as ``diag>del>ins``): walk back from the end of both sequences and
at each cell take the first move that stays on a minimal path, in the order diagonal (match or substitution),
then deletion (a reference item missing from the hypothesis), then insertion. The rate never depends on the
rule; only the S/D/I split and the drawing do, and this procedure gives the same split on every runtime.

Memory grows with ``len(reference) * len(hypothesis) / 2`` bits (four bit vectors per hypothesis item).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby, repeat
from operator import itemgetter, lshift
from typing import NamedTuple

TIE_RULE = "diag>del>ins"


class Op(enum.Enum):
    MATCH = "match"
    SUBSTITUTE = "substitute"
    DELETE = "delete"
    INSERT = "insert"


class Counts(NamedTuple):
    """Substitutions, deletions, insertions and reference length. ``errors`` = S + D + I. (A named tuple:
    immutable like the other results, and cheap to make once per clip.)"""

    S: int = 0
    D: int = 0
    I: int = 0  # noqa: E741 - the standard letter for insertions
    N: int = 0

    @property
    def errors(self) -> int:
        return self.S + self.D + self.I

    def plus(self, other: Counts) -> Counts:
        return Counts(self.S + other.S, self.D + other.D, self.I + other.I, self.N + other.N)


@dataclass(frozen=True)
class Alignment:
    """An edit script: ``ops[k]`` is (op, reference index or -1, hypothesis index or -1), in order."""

    ops: tuple[tuple[Op, int, int], ...]
    counts: Counts

    @property
    def distance(self) -> int:
        return self.counts.errors

    @cached_property
    def runs(self) -> tuple[tuple[Op, int, int, int, int], ...]:
        """The script as runs of one kind of step, (op, reference start, end, hypothesis start, end): within a
        run the indices on each side are consecutive, so a run is one slice of each text (empty on the side
        its steps skip). The drawing and the per-class breakdown both read these."""
        runs = []
        for op, group in groupby(self.ops, key=itemgetter(0)):
            items = list(group)
            (_, i0, j0), (_, i1, j1) = items[0], items[-1]
            ref = (i0, i1 + 1) if i0 >= 0 else (0, 0)
            hyp = (j0, j1 + 1) if j0 >= 0 else (0, 0)
            runs.append((op, *ref, *hyp))
        return tuple(runs)


def distance(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """Levenshtein distance only (no edit script), bit-parallel."""
    m = len(reference)
    if m == 0:
        return len(hypothesis)
    peq: dict[str, int] = {}
    for i, sym in enumerate(reference):
        peq[sym] = peq.get(sym, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    vp, vn, score = full, 0, m
    get = peq.get
    for sym in hypothesis:
        eq = get(sym, 0)
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = vn | (~(xh | vp) & full)
        hn = vp & xh
        if hp & top:
            score += 1
        elif hn & top:
            score -= 1
        hp = ((hp << 1) | 1) & full
        hn = (hn << 1) & full
        vp = hn | (~(xv | hp) & full)
        vn = hp & xv
    return score


def align(reference: Sequence[str], hypothesis: Sequence[str]) -> Alignment:
    """Minimal alignment of two sequences of symbols (characters or tokens) under the published tie rule."""
    return _align(reference, hypothesis, record=True)


def count_edits(reference: Sequence[str], hypothesis: Sequence[str]) -> Alignment:
    """The S/D/I counts of ``align`` (same tie rule) without building the edit script (``ops`` is empty)."""
    return Alignment((), edit_counts(reference, hypothesis))


def edit_counts(reference: Sequence[str], hypothesis: Sequence[str]) -> Counts:
    """The counts of ``align(reference, hypothesis)`` alone: what corpus scoring needs for every clip."""
    m = len(reference)
    # Columns of long texts are kept for the editor's next keystroke; a short one (every clip of a corpus)
    # takes a lean path that keeps nothing.
    if m < _REUSE_MIN_ROWS:
        return Counts(*_short_counts(reference, hypothesis), m)
    return _align(reference, hypothesis, record=False).counts


def _align(reference: Sequence[str], hypothesis: Sequence[str], *, record: bool) -> Alignment:
    m, n = len(reference), len(hypothesis)
    # Common ends are cheap and exact. A common suffix is always walked as matches (the diagonal comes first
    # and equal items cost nothing). For a common prefix of length p, D[i][j] = |i - j| whenever i <= p or j
    # <= p, and D over the rest equals the distance matrix of the stripped texts (a common prefix never
    # changes a distance), so the walk below is the full walk: the bit vectors cover the rest, and the strip
    # is walked with its known values.
    suffix = 0
    while suffix < m and suffix < n and reference[m - 1 - suffix] == hypothesis[n - 1 - suffix]:
        suffix += 1
    prefix = 0
    limit = min(m, n) - suffix
    while prefix < limit and reference[prefix] == hypothesis[prefix]:
        prefix += 1
    ops, s, d, ins = _walk(reference, hypothesis, prefix, m - suffix, n - suffix, record)
    if suffix and record:
        match = Op.MATCH
        ops.extend((match, m - suffix + k, n - suffix + k) for k in range(suffix))
    return Alignment(tuple(ops), Counts(s, d, ins, m))


@dataclass(eq=False, slots=True)
class _Columns:
    """The bit vectors of one alignment, kept so the next alignment against the same reference can reuse the
    columns of the hypothesis prefix they share (the editor realigns on every keystroke)."""

    reference: Sequence[str]
    hypothesis: Sequence[str]
    peq: dict[str, int]
    vps: list[int]
    vns: list[int]
    # The walk over these columns, so the next walk can join it: the walk from a cell depends only on the
    # columns and items up to that cell, so once a new walk reaches a cell of the old one inside the shared
    # columns, the rest of the old walk is the rest of the new one. ``marks`` maps the cells the walk stood on
    # (after each step or run of matches) to (script length, S, D, I) there; ``end`` is where it left the bit
    # vectors, with its counts; ``ops`` is None when no script was recorded.
    prefix: int = -1
    marks: dict[tuple[int, int], tuple[int, int, int, int]] | None = None
    ops: list[tuple[Op, int, int]] | None = None
    end: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)


# Reusing columns only pays for long texts; short clips (corpus scoring) skip the bookkeeping. A few entries
# (the editor aligns characters and MER tokens alternately) of bounded size (bits kept: 4 x rows x columns).
_REUSE_MIN_ROWS = 200
_REUSE_MAX_CELLS = 40_000_000
_REUSE_ENTRIES = 4
_recent: list[_Columns] = []


def _match_run(a: Sequence[str], b: Sequence[str], i: int, j: int) -> int:
    """How many items end both ``a[:i]`` and ``b[:j]`` alike (at least 1 when called): a gallop then a binary
    search on slice equality, so each comparison runs in C. Short runs (most of them) are counted directly."""
    limit = min(i, j)
    k = 1
    while k < limit and k < 8:
        if a[i - 1 - k] != b[j - 1 - k]:
            return k
        k += 1
    if k == limit:
        return k
    lo, step = k, k * 2
    while step <= limit and a[i - step : i] == b[j - step : j]:
        lo, step = step, step * 2
    hi = min(step, limit + 1)  # a[i-hi:i] != b[j-hi:j] or hi > limit
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[i - mid : i] == b[j - mid : j]:
            lo = mid
        else:
            hi = mid
    return lo


def _record_matches(ops: list[tuple[Op, int, int]], match: Op, i: int, j: int, k: int) -> None:
    """Append the k matches that end at (i, j), walking back, as the walk records every other step."""
    ops.extend(zip(repeat(match, k), range(i - 1, i - k - 1, -1), range(j - 1, j - k - 1, -1), strict=True))


def clear_cache() -> None:
    """Forget the columns kept for reuse (results never depend on them; benchmarks time cold alignments)."""
    _recent.clear()


def _shared_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the common prefix, by binary search on slice equality (each comparison runs in C)."""
    # Typing or deleting at the end (the editor's commonest edit) leaves one text a prefix of the other.
    if len(a) <= len(b):
        if b[: len(a)] == a:
            return len(a)
    elif a[: len(b)] == b:
        return len(b)
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _columns(reference: Sequence[str], hypothesis: Sequence[str]) -> tuple[_Columns, _Columns | None, int]:
    """Column c (after c hypothesis items): bit r-1 of VP/VN says D[r][c] - D[r-1][c] is +1/-1. Column 0 is
    D[r][0] = r. The horizontal deltas (HP/HN) are not kept: the walk needs them only at the few cells where
    the items differ, and rebuilds them there from the column before (``_left``).

    Bits at and above ``len(reference)`` are never read, and no operation here (and, or, xor, add, shift left)
    lets high bits reach low ones, so vectors are masked only every 16 columns, to keep them from growing.

    Returns the columns, the previous alignment against the same reference if its columns were reused (else
    None), and how many leading hypothesis items the two share. Only long texts are kept for reuse.
    """
    rows, cols = len(reference), len(hypothesis)
    full = (1 << rows) - 1
    start = 0
    # Filled by index below (cheaper than appending).
    vps, vns = [full] * (cols + 1), [0] * (cols + 1)
    peq: dict[str, int] | None = None
    prev: _Columns | None = None
    reuse = rows >= _REUSE_MIN_ROWS and rows * cols <= _REUSE_MAX_CELLS
    if reuse:
        prev = next((e for e in _recent if len(e.reference) == rows and e.reference == reference), None)
        if prev is not None:
            _recent.remove(prev)
            peq = prev.peq
            start = _shared_prefix(prev.hypothesis, hypothesis)
            vps[: start + 1], vns[: start + 1] = prev.vps[: start + 1], prev.vns[: start + 1]
    if peq is None:
        peq = {}
        bit = 1
        for sym in reference:
            peq[sym] = peq.get(sym, 0) | bit
            bit <<= 1
    vp, vn = vps[start], vns[start]
    get = peq.get
    for c in range(start, cols):
        eq = get(hypothesis[c], 0)
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = ((vn | (full ^ (xh | vp))) << 1) | 1
        vp = ((vp & xh) << 1) | (full ^ (xv | hp))
        vn = hp & xv
        if not c & 15:
            vp &= full
            vn &= full
        vps[c + 1] = vp
        vns[c + 1] = vn
    entry = _Columns(reference, hypothesis, peq, vps, vns)
    if reuse:
        _recent.insert(0, entry)
        del _recent[_REUSE_ENTRIES:]
    return entry, prev, start


def _left(cols: _Columns, c: int, sym: str, b: int) -> int:
    """D[r][c] - D[r][c-1] where ``b`` is bit r-1 and ``sym`` the hypothesis item of column c: the horizontal
    delta of column c, rebuilt from column c-1 exactly as ``_columns`` computes it."""
    vp, vn = cols.vps[c - 1], cols.vns[c - 1]
    eq = cols.peq.get(sym, 0)
    xh = (((eq & vp) + vp) ^ vp) | eq
    if vn & b or not (xh | vp) & b:  # HP = VN | ~(XH | VP)
        return 1
    return -1 if vp & xh & b else 0  # HN = VP & XH


def _join(
    prev: _Columns,
    hit: tuple[int, int, int, int],
    cell: tuple[int, int],
    ops: list[tuple[Op, int, int]],
    marks: dict[tuple[int, int], tuple[int, int, int, int]] | None,
    counts: tuple[int, int, int],
) -> tuple[int, int, int, int, int]:
    """Finish a walk that has reached ``cell`` of the previous walk: append the rest of its script, carry its
    marks over (shifted), and return where it left the bit vectors with the new S, D, I counts."""
    pos, s0, d0, i0 = hit
    end_i, end_j, s1, d1, i1 = prev.end
    base, (s, d, ins) = len(ops), counts
    if prev.ops is not None:
        ops.extend(prev.ops[pos:])
    if marks is not None and prev.marks is not None:
        ci, cj = cell
        for key, (p2, s2, d2, i2) in prev.marks.items():
            if key[0] <= ci and key[1] <= cj:
                marks[key] = (base + p2 - pos, s + s2 - s0, d + d2 - d0, ins + i2 - i0)
    return end_i, end_j, s + s1 - s0, d + d1 - d0, ins + i1 - i0


def _walk(
    reference: Sequence[str], hypothesis: Sequence[str], p: int, m: int, n: int, record: bool = True
) -> tuple[list[tuple[Op, int, int]], int, int, int]:
    """Edit script of ``reference[:m]`` against ``hypothesis[:n]``, whose first ``p`` items are equal, with
    its S, D and I counts; ``record=False`` gives the counts only (no script is built)."""
    match, sub, dele, ins = Op.MATCH, Op.SUBSTITUTE, Op.DELETE, Op.INSERT
    ops: list[tuple[Op, int, int]] = []
    # Counts only: the steps go to a list nobody keeps (a C call, cheaper than a test at every step).
    discard: list[tuple[Op, int, int]] = []
    append = ops.append if record else discard.append
    n_sub = n_del = n_ins = 0
    i, j = m, n
    if m > p and n > p:
        cols, prev, start = _columns(reference[p:m], hypothesis[p:n])
        vps, vns = cols.vps, cols.vns
        joinable = prev is not None and prev.prefix == p and prev.marks is not None
        if record and prev is not None and prev.ops is None:
            joinable = False
        old_marks = prev.marks if joinable and prev is not None else None
        # Marks are kept only for alignments whose columns are kept.
        marks: dict[tuple[int, int], tuple[int, int, int, int]] | None = (
            {} if _recent and _recent[0] is cols else None
        )
        shared_j = p + start  # cells with j <= shared_j lie in columns the two alignments share

        # Walk back under the tie rule. Equal items always allow the diagonal at no cost (D[i-1][j-1] ==
        # D[i][j]), so only unequal items need the bit vectors.
        while i > p and j > p:
            if reference[i - 1] == hypothesis[j - 1]:
                # A run of equal items is all diagonals under the rule; take it in one step.
                k = _match_run(reference, hypothesis, i, j)
                if record:
                    _record_matches(ops, match, i, j, k)
                i -= k
                j -= k
            else:
                r, c = i - p, j - p
                b = 1 << (r - 1)
                up = 1 if vps[c] & b else (-1 if vns[c] & b else 0)  # D[i][j] - D[i-1][j]
                # D[i-1][j] - D[i-1][j-1]
                left = _left(cols, c, hypothesis[j - 1], b >> 1) if r > 1 else 1
                if up + left == 1:  # D[i-1][j-1] + 1 == D[i][j]
                    i -= 1
                    j -= 1
                    append((sub, i, j))
                    n_sub += 1
                elif up == 1:
                    i -= 1
                    append((dele, i, -1))
                    n_del += 1
                else:
                    j -= 1
                    append((ins, -1, j))
                    n_ins += 1
            if old_marks is not None and j <= shared_j:
                hit = old_marks.get((i, j))
                if hit is not None and prev is not None:
                    i, j, n_sub, n_del, n_ins = _join(prev, hit, (i, j), ops, marks, (n_sub, n_del, n_ins))
                    break
            if marks is not None:
                marks[(i, j)] = (len(ops), n_sub, n_del, n_ins)
        if marks is not None:
            cols.prefix = p
            cols.marks = marks
            cols.ops = list(ops) if record else None
            cols.end = (i, j, n_sub, n_del, n_ins)
    # The strip where i <= p or j <= p: D[i][j] = |i - j|, so the diagonal is on a minimal path exactly when
    # the items are equal, a deletion when i > j, an insertion when j > i.
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            k = _match_run(reference, hypothesis, i, j)
            if record:
                _record_matches(ops, match, i, j, k)
            i -= k
            j -= k
        elif i > j:
            i -= 1
            append((dele, i, -1))
            n_del += 1
        else:
            j -= 1
            append((ins, -1, j))
            n_ins += 1
    while i > 0:
        i -= 1
        append((dele, i, -1))
        n_del += 1
    while j > 0:
        j -= 1
        append((ins, -1, j))
        n_ins += 1
    ops.reverse()
    return ops, n_sub, n_del, n_ins


def edit_counts_many(pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[Counts]:
    """``edit_counts`` of every pair (what corpus scoring needs): short pairs share their bit-parallel
    columns, ``_GROUP`` pairs side by side in one integer per column, so the arithmetic of a column runs once
    per group rather than once per pair."""
    out: list[Counts | None] = [None] * len(pairs)
    jobs: list[tuple[int, int, Sequence[str], Sequence[str], int, int, int]] = []
    for k, (a, b) in enumerate(pairs):
        size = len(a)
        if size >= _REUSE_MIN_ROWS:
            out[k] = edit_counts(a, b)
            continue
        p, m, n = _common_ends(a, b)
        if m > p and n > p:
            if m - p == 1 or n - p == 1:
                out[k] = Counts(*_one_against_many(a, b, p, m, n), size)
            else:
                jobs.append((n - p, k, a, b, p, m, n))
        else:
            out[k] = Counts(*_strip_walk(a, b, m, n, 0, 0, 0), size)
    # Pairs of like length side by side, so that few columns run past a pair's end.
    jobs.sort(key=itemgetter(0))
    for start in range(0, len(jobs), _GROUP):
        for k, counts in _grouped_counts(jobs[start : start + _GROUP]):
            out[k] = counts
    return [c if c is not None else Counts() for c in out]  # (every entry is filled above)


# Pairs per group: past a few dozen the integers grow long enough to cost more than the loop they save.
_GROUP = 64


def _common_ends(a: Sequence[str], b: Sequence[str]) -> tuple[int, int, int]:
    """(p, m, n): ``a[:p] == b[:p]`` and ``a[m:] == b[n:]``, the suffix taken first, each as long as can be."""
    m, n = len(a), len(b)
    while m and n and a[m - 1] == b[n - 1]:
        m -= 1
        n -= 1
    p, first = 0, min(m, n)
    while p < first and a[p] == b[p]:
        p += 1
    return p, m, n


def _grouped_counts(
    jobs: list[tuple[int, int, Sequence[str], Sequence[str], int, int, int]],
) -> list[tuple[int, Counts]]:
    """The walks of a group of pairs over shared columns (as ``_short_counts`` walks one pair's).

    Pair g takes its rows' bits from ``offsets[g]``, with one spare bit above them where the carry of the
    addition stops, so pairs never mix. A shift moves each pair's top row into its spare bit and the spare bit
    into the next pair's row 0: ``starts`` sets every row 0 of HP (D[0][c] - D[0][c - 1] = +1) and VP is
    masked with ``full``. The horizontal deltas (the walk's left look-ups) are kept rather than rebuilt.
    """
    cols = jobs[-1][0]
    eq_lists: list[list[int]] = []
    offsets: list[int] = []
    full = starts = off = 0
    for _, _, a, b, p, m, n in jobs:
        peq: dict[str, int] = {}
        bit = 1
        for sym in a[p:m]:
            peq[sym] = peq.get(sym, 0) | bit
            bit <<= 1
        eqs = list(map(peq.get, b[p:n], repeat(0)))
        eqs += repeat(0, cols - (n - p))
        eq_lists.append(eqs)
        offsets.append(off)
        full |= (bit - 1) << off
        starts |= 1 << off
        off += m - p + 1
    vp, vn = full, 0
    vps, vns, hps, hns = [vp], [vn], [0], [0]
    for column in zip(*eq_lists, strict=True):
        eq = sum(map(lshift, column, offsets))
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = vn | (full ^ (xh | vp))  # bit r - 1: D[r][c] - D[r][c - 1] is +1 (hn: -1)
        hn = vp & xh
        hp_in = (hp << 1) | starts
        vp = ((hn << 1) | (full ^ (xv | hp_in))) & full
        vn = hp_in & xv
        vps.append(vp)
        vns.append(vn)
        hps.append(hp)
        hns.append(hn)
    done = []
    for (_, k, a, b, p, m, n), off in zip(jobs, offsets, strict=True):
        s = d = ins = 0
        i, j = m, n
        while i > p and j > p:
            if a[i - 1] == b[j - 1]:
                i -= 1
                j -= 1
                while i and j and a[i - 1] == b[j - 1]:
                    i -= 1
                    j -= 1
                continue
            c = j - p
            r = off + i - p - 1  # the bit of row i
            up = 1 if vps[c] >> r & 1 else (-1 if vns[c] >> r & 1 else 0)  # D[i][j] - D[i-1][j]
            left = 1  # D[i-1][j] - D[i-1][j-1]
            if i - p > 1:
                left = 1 if hps[c] >> (r - 1) & 1 else (-1 if hns[c] >> (r - 1) & 1 else 0)
            # The tie rule's step, written out here as in ``_short_counts`` and ``_walk``: these loops are the
            # corpus's hot path, and a call per error step costs more than the three lines it would save.
            if up + left == 1:
                s += 1
                i -= 1
                j -= 1
            elif up == 1:
                d += 1
                i -= 1
            else:
                ins += 1
                j -= 1
        done.append((k, Counts(*_strip_walk(a, b, i, j, s, d, ins), len(a))))
    return done


def _short_counts(a: Sequence[str], b: Sequence[str]) -> tuple[int, int, int]:
    """S, D and I of the published walk for a short text: ``_walk`` over the columns of ``_columns``, without
    what the editor needs (no column reuse, no marks, no script)."""
    p, m, n = _common_ends(a, b)
    s = d = ins = 0
    i, j = m, n
    if i > p and j > p:
        rows = m - p
        if rows == 1 or n - p == 1:
            return _one_against_many(a, b, p, m, n)
        full = (1 << rows) - 1
        peq: dict[str, int] = {}
        bit = 1
        for sym in a[p:m]:
            peq[sym] = peq.get(sym, 0) | bit
            bit <<= 1
        get = peq.get
        vp, vn = full, 0
        vps, vns = [full], [0]
        for sym in b[p:n]:
            eq = get(sym, 0)
            xv = eq | vn
            xh = (((eq & vp) + vp) ^ vp) | eq
            hp = ((vn | (full ^ (xh | vp))) << 1) | 1
            vp = (((vp & xh) << 1) | (full ^ (xv | hp))) & full
            vn = hp & xv
            vps.append(vp)
            vns.append(vn)
        while i > p and j > p:
            if a[i - 1] == b[j - 1]:
                # Runs between the errors of a short text are short: counted here, not galloped.
                i -= 1
                j -= 1
                while i and j and a[i - 1] == b[j - 1]:
                    i -= 1
                    j -= 1
                continue
            c = j - p
            bit = 1 << (i - p - 1)
            up = 1 if vps[c] & bit else (-1 if vns[c] & bit else 0)  # D[i][j] - D[i-1][j]
            left = 1  # D[i-1][j] - D[i-1][j-1], rebuilt from column c - 1 as in ``_left``
            if i - p > 1:
                bit >>= 1
                vp, vn = vps[c - 1], vns[c - 1]
                eq = get(b[j - 1], 0)
                xh = (((eq & vp) + vp) ^ vp) | eq
                if not (vn & bit or not (xh | vp) & bit):
                    left = -1 if vp & xh & bit else 0
            if up + left == 1:
                s += 1
                i -= 1
                j -= 1
            elif up == 1:
                d += 1
                i -= 1
            else:
                ins += 1
                j -= 1
    return _strip_walk(a, b, i, j, s, d, ins)


def _strip_walk(
    a: Sequence[str], b: Sequence[str], i: int, j: int, s: int, d: int, ins: int
) -> tuple[int, int, int]:
    """The rest of a walk from (i, j) where i or j is within the common prefix (D = |i - j| there), as in
    ``_walk``, added to the counts so far."""
    if i == j:  # both within the common prefix: the rest is matches
        return s, d, ins
    while i and j:
        if a[i - 1] == b[j - 1]:
            k = _match_run(a, b, i, j)
            i -= k
            j -= k
        elif i > j:
            d += 1
            i -= 1
        else:
            ins += 1
            j -= 1
    return s, d + i, ins + j


def _one_against_many(a: Sequence[str], b: Sequence[str], p: int, m: int, n: int) -> tuple[int, int, int]:
    """S, D and I when what is left between the common ends is one item on one side (an isolated error, the
    commonest case): S + D + I is the distance and D - I the length difference, and the distance is one less
    when the lone item occurs strictly inside the other side (not at either end, which the common ends rule
    out), so the walk has nothing left to decide."""
    rows, cols = m - p, n - p
    if rows == 1:
        return (0 if a[p] in b[p + 1 : n - 1] else 1), 0, cols - 1
    return (0 if b[p] in a[p + 1 : m - 1] else 1), rows - 1, 0
