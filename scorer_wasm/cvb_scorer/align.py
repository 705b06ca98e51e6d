"""Levenshtein alignment with unit costs: the results of ``cvb_scorer.reference.align`` (the textbook table
walked back under the published tie order), computed bit-parallel on Python ints (Myers 1999, in Hyyrö's 2003
formulation).

Tie rule (published; part of the signature as ``diag>del>ins``): walk back from the end of both sequences and
at each cell take the first move that stays on a minimal path, in the order diagonal (match or substitution),
then deletion (a reference item missing from the hypothesis), then insertion. The rate never depends on the
rule; only the S/D/I split and the drawing do, and this procedure gives the same split on every runtime.

The module is one bit-vector step (``_step``), one tie-rule function (``_tie``), one walk that reads the
columns the step makes and applies the rule (``_walk``), and three named measures, each checked against the
reference by one harness (tests/scorer/test_align_harness.py) and each kept because it pays in the benches:

- corpus packing (``edit_counts_many``): the middles of a corpus's pairs (what lies between their common
  ends) side by side in one integer per column, so the arithmetic of a column runs once per group rather than
  once per pair; a process that has loaded numpy makes the groups' match masks with it
  (``cvb_scorer.align_numpy``, the same bits as ``_match_masks``);
- keystroke reuse (``_stored_columns``, ``_Trail``): the editor realigns on every keystroke against the same
  reference; the columns of the hypothesis prefix the new text shares with the kept text nearest to it are
  reused, and the walk ends where it meets that text's last walk in those columns (typing at the end of a
  long text then walks a few steps rather than the whole text);
- bounded memory (``_checkpointed_columns``): past ``_STORE_MAX_CELLS`` only every k-th column is kept and the
  walk recomputes the block of columns it is in, cut to the rows it can still reach, so memory grows with
  ``len(reference) * sqrt(len(hypothesis))`` bits instead of their product. The walk reads the same column
  values, so the script is the same.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from math import isqrt

from cvb_scorer.reference.align import TIE_ORDER, TIE_RULE, Alignment, Counts, Move, Op, Run

__all__ = [
    "TIE_RULE",
    "Alignment",
    "Counts",
    "Op",
    "align",
    "clear_cache",
    "count_edits",
    "distance",
    "edit_counts",
    "edit_counts_many",
    "substitutions_in",
    "substitutions_many",
]

# ``_tie`` is the published order written out for speed; the harness proves it equal to the reference's.
assert TIE_ORDER == (Move.DIAGONAL, Move.DELETE, Move.INSERT), "align._tie implements diag>del>ins only"


def _step(eq: int, vp: int, vn: int, full: int, starts: int) -> tuple[int, int, int]:
    """One column of the table from the one before. Bit r-1 (from a pair's offset) stands for row r.

    In: ``eq``, the rows whose reference item equals this column's hypothesis item; ``vp``/``vn``, the rows
    where D[r][c-1] - D[r-1][c-1] is +1/-1; ``full``, every row; ``starts``, row 1 of every pair (D[0][c] -
    D[0][c-1] = +1 is carried in there). Out: the vertical deltas of this column, and ``d0``, the rows where
    D[r][c] == D[r-1][c-1] (Hyyrö's D0; elsewhere D[r][c] is one more). Carries and shifts only move bits
    upwards, so the low rows of a column never depend on higher ones: pairs packed one above another (with a
    spare bit between, where the carry of the addition stops) do not mix, and a column cut to its low rows is
    exact on them.
    """
    d0 = (((eq & vp) + vp) ^ vp) | eq | vn
    hp = vn | (full ^ (d0 | vp))
    hn = vp & d0
    hp_in = (hp << 1) | starts
    return ((hn << 1) | (full ^ (d0 | hp_in))) & full, hp_in & d0, d0


def _tie(d0: int, vp: int, row: int) -> Op:
    """The tie rule at cell (i, j) whose items differ, read at bit ``row`` (row i) of column j's ``d0`` and
    ``vp`` (see ``_step``): the diagonal when it is on a minimal path (D[i][j] == D[i-1][j-1] + 1: the bit is
    clear in ``d0``; else D[i][j] == D[i-1][j-1]), else the deletion when it is (D[i][j] == D[i-1][j] + 1: the
    bit is set in ``vp``), else the insertion (one of the three moves always is). Equal items never reach it:
    the diagonal then costs nothing, is always minimal (D[i-1][j-1] == D[i][j]) and comes first."""
    if not d0 & row:
        return Op.SUBSTITUTE
    if vp & row:
        return Op.DELETE
    return Op.INSERT


# A block of columns: (lo, vps, d0s), index c - lo holding column c (its vertical +1 deltas and its ``d0``, see
# ``_step``); ``_Load(i, j)`` gives the block holding column j, exact at least on rows 1..i (the walk never
# goes back up).
_Block = tuple[int, list[int], list[int]]
_Load = Callable[[int, int], _Block]


def _walk(
    a: Sequence[str],
    b: Sequence[str],
    load: _Load,
    off: int,
    runs: list[Run] | None,
    subs: list[tuple[int, int]] | None = None,
    trail: _Trail | None = None,
) -> tuple[int, int, int]:
    """Walk back from (len(a), len(b)) under the tie rule, over the columns ``load`` gives, with the pair's
    rows from bit ``off``; append the runs of steps it makes to ``runs`` (last first; see ``Run``) unless it is
    None, and the positions of the substitutions to ``subs`` (last first) unless it is None (only for walks
    without a trail: the part of a trail a walk follows adds none). With a ``trail`` (see ``_Trail``), end
    by following the last walk over the same columns where this one meets it, and leave this walk in its
    place. Returns S, D and I."""
    i, j = len(a), len(b)
    s = d = n_ins = 0
    lo = j  # no block yet: the first cell whose items differ loads one
    vps: list[int] = []
    d0s = vps
    match, sub, dele = Op.MATCH, Op.SUBSTITUTE, Op.DELETE
    last: Op | None = None  # the kind of runs[-1] when it is an error run
    begun: list[_Begun] = []
    if trail is not None and runs is None:
        runs = []  # the next walk may follow this one's runs
    while i and j:
        if a[i - 1] == b[j - 1]:
            if runs is None:
                # Counting alone takes matches one at a time (an inner loop as below bought nothing there).
                i -= 1
                j -= 1
                continue
            # A script takes a run of matches at once and records it as one run; with a trail, this is where
            # the walk may meet the last one. (Meeting it also where a run ends bought nothing measurable.)
            if trail is not None:
                if (rest := trail.at(i, j)) is not None:
                    return trail.follow(rest, runs, begun, (s, d, n_ins))
                begun.append((i, j, len(runs), s, d, n_ins))
            i1, j1 = i, j
            i -= 1
            j -= 1
            while i and j and a[i - 1] == b[j - 1]:
                i -= 1
                j -= 1
            runs.append((match, i, i1, j, j1))
            last = None
            continue
        if j <= lo:
            lo, vps, d0s = load(i, j)
        c = j - lo
        op = _tie(d0s[c], vps[c], 1 << (off + i - 1))
        if op is sub:
            i -= 1
            j -= 1
            s += 1
            if subs is not None:
                subs.append((i, j))
        elif op is dele:
            i -= 1
            d += 1
        else:
            j -= 1
            n_ins += 1
        if runs is not None:
            if op is last:
                _, _, i1, _, j1 = runs[-1]
                runs[-1] = (op, i, i1, j, j1)
            else:
                runs.append((op, i, i if op is Op.INSERT else i + 1, j, j if op is dele else j + 1))
                last = op
    if runs is not None and (i or j):
        # At the first row or column, what is left of one side is deleted or inserted: one run, joined to the
        # run made last when that is of the same kind.
        op = dele if i else Op.INSERT
        i1, j1 = i, j
        if op is last:
            _, _, i1, _, j1 = runs.pop()
        runs.append((op, 0, i1, 0, j1))
    if trail is not None and runs is not None:
        trail.remember(runs, begun, (s, d + i, n_ins + j))
    return s, d + i, n_ins + j


# Where a walk began a run of matches: the cell (i, j), the runs made before it, and S, D and I so far.
_Begun = tuple[int, int, int, int, int, int]


@dataclass(eq=False, slots=True)
class _Trail:
    """The last walk over one pair's stored columns, for the next walk to follow where it meets it.

    The walk from a cell depends only on the columns up to that cell and on the items before it: two
    hypotheses that share their first ``unchanged`` items walk alike from every cell of those columns. For
    each cell where the last walk began a run of matches, ``rest`` holds the number of runs, S, D and I from
    there to the start of both sequences; ``runs`` are that walk's runs, last first. A walk that begins a run
    of matches on such a cell is done: a keystroke at the end of a long text walks a few steps, not the whole
    text. Every cell in ``rest`` is on the path of ``runs``, and the number of runs to go falls along it."""

    rest: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)
    runs: list[Run] = field(default_factory=list)
    unchanged: int = 0

    def at(self, i: int, j: int) -> tuple[int, int, int, int] | None:
        """The rest of the last walk from cell (i, j), if it passed there in the columns kept since."""
        return self.rest.get((i, j)) if j <= self.unchanged else None

    def follow(
        self,
        rest: tuple[int, int, int, int],
        runs: list[Run],
        begun: list[_Begun],
        counts: tuple[int, int, int],
    ) -> tuple[int, int, int]:
        """End a walk that has made ``runs`` and ``counts`` so far on a cell with ``rest``: the last walk's
        runs from there on are this walk's. Returns this walk's S, D and I."""
        made, s, d, n_ins = rest
        runs.extend(self.runs[len(self.runs) - made :])
        # The last walk's cells from this one on are this walk's too (fewer runs to go); the others are not.
        kept = {cell: left for cell, left in self.rest.items() if left[0] <= made}
        totals = (counts[0] + s, counts[1] + d, counts[2] + n_ins)
        self.remember(runs, begun, totals, kept)
        return totals

    def remember(
        self,
        runs: list[Run],
        begun: list[_Begun],
        totals: tuple[int, int, int],
        kept: dict[tuple[int, int], tuple[int, int, int, int]] | None = None,
    ) -> None:
        """Make a finished walk the trail: its ``runs`` and ``totals``, the cells where it began runs of
        matches (``begun``), and the cells ``kept`` from the trail it followed."""
        s, d, n_ins = totals
        rest = {} if kept is None else kept
        for i, j, before, s0, d0, i0 in begun:
            rest[i, j] = (len(runs) - before, s - s0, d - d0, n_ins - i0)
        self.rest, self.runs = rest, runs


def _peq(reference: Sequence[str]) -> dict[str, int]:
    """For each item, the rows (bit r-1 for row r) where the reference has it."""
    peq: dict[str, int] = {}
    bit = 1
    for sym in reference:
        peq[sym] = peq.get(sym, 0) | bit
        bit <<= 1
    return peq


def distance(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """Levenshtein distance only: D[m][n] = D[0][n] + the vertical deltas of the last column. No column is
    kept."""
    peq = _peq(reference)
    full = (1 << len(reference)) - 1
    vp, vn = full, 0
    for eq in map(peq.get, hypothesis, repeat(0)):
        vp, vn, _ = _step(eq, vp, vn, full, 1)
    return len(hypothesis) + vp.bit_count() - vn.bit_count()


def align(reference: Sequence[str], hypothesis: Sequence[str]) -> Alignment:
    """Minimal alignment of two sequences of symbols (characters or tokens) under the published tie rule.

    Parameters
    ----------
    reference, hypothesis : Sequence[str]
        The symbols to align: a string's characters for CER, a tuple of tokens for MER.

    Returns
    -------
    Alignment
        The edit script as runs of one kind of step, ``(op, ref_start, ref_end, hyp_start, hyp_end)``, and its
        ``Counts``: substitutions, deletions, insertions and the reference's length. Of the minimal scripts it
        is the one the tie rule (``TIE_RULE``, ``diag>del>ins``) picks walking back from the end: a
        substitution where one is minimal, else a deletion, else an insertion.

    Examples
    --------
    >>> from cvb_scorer.align import align
    >>> result = align("保單號碼", "保單號")
    >>> result.counts
    Counts(S=0, D=1, I=0, N=4)
    >>> [(op.value, ref_start, ref_end) for op, ref_start, ref_end, _, _ in result.runs]
    [('match', 0, 3), ('delete', 3, 4)]

    Two swapped characters cost two edits either way; the tie rule makes them two substitutions:

    >>> align("ab", "ba").counts
    Counts(S=2, D=0, I=0, N=2)
    """
    runs: list[Run] = []
    load, trail = _columns(reference, hypothesis)
    s, d, ins = _walk(reference, hypothesis, load, 0, runs, trail=trail)
    # Not reversed in place: a trail may keep the list.
    return Alignment(tuple(reversed(runs)), Counts(s, d, ins, len(reference)))


def count_edits(reference: Sequence[str], hypothesis: Sequence[str]) -> Alignment:
    """The S/D/I counts of ``align`` (same tie rule) without building the edit script (``ops`` is empty)."""
    return Alignment((), edit_counts(reference, hypothesis))


def edit_counts(reference: Sequence[str], hypothesis: Sequence[str]) -> Counts:
    """The counts of ``align(reference, hypothesis)`` alone."""
    load, trail = _columns(reference, hypothesis)
    s, d, ins = _walk(reference, hypothesis, load, 0, None, trail=trail)
    return Counts(s, d, ins, len(reference))


def _columns(reference: Sequence[str], hypothesis: Sequence[str]) -> tuple[_Load, _Trail | None]:
    """The columns of one pair: all of them, with the trail of the last walk over them (both reusable by
    the next keystroke), when they fit; else checkpoints."""
    if len(reference) * len(hypothesis) <= _STORE_MAX_CELLS:
        return _stored_columns(reference, hypothesis)
    return _checkpointed_columns(reference, hypothesis), None


# Pairs up to this many cells keep all their columns (3 bits a cell: at most 15 MB); larger ones keep
# checkpoints. The editor's pairs are far below it.
_STORE_MAX_CELLS = 40_000_000


@dataclass(eq=False, slots=True)
class _Stored:
    """All columns of one alignment, and the trail of the last walk over them, kept so the next alignment
    against the same reference can reuse the columns of the hypothesis prefix the two share and follow the
    walk where it can (the editor realigns on every keystroke)."""

    reference: Sequence[str]
    hypothesis: Sequence[str]
    peq: dict[str, int]
    vps: list[int]
    vns: list[int]
    d0s: list[int]
    trail: _Trail = field(default_factory=_Trail)


# A keystroke aligns the characters and the MER tokens, and the Simplified cost may align the script texts and
# a folded hypothesis against the characters' reference: each finds the entry it left at the last keystroke.
# Entries past the first are also dropped once all kept hold more than _KEEP_CELLS cells (counted as if none
# shared the integers of a prefix with another, so this overstates them): long texts keep fewer, and the
# columns kept stay under about 30 MB. Typing at random places in a 5,000-character text held 21 MB when a
# reference kept one entry, 44 MB with six entries and no budget, 31 MB with this one.
_REUSE_ENTRIES = 6
_KEEP_CELLS = 2 * _STORE_MAX_CELLS
_recent: list[_Stored] = []


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


def _stored_columns(reference: Sequence[str], hypothesis: Sequence[str]) -> tuple[_Load, _Trail]:
    """Every column, the shared prefix's taken from the entry for the same reference whose hypothesis shares
    the longest prefix with this one, and the trail of the last walk over them. Column c depends only on the
    reference and the first c hypothesis items, so a kept column is the column.

    The entry drawn from is left as it was: the new one takes copies of its lists up to the shared prefix
    (the integers themselves are shared). Two alignments against one reference that take turns (the
    keystroke's characters, and the Simplified cost's folded hypothesis) then each find their own columns."""
    rows = len(reference)
    full = (1 << rows) - 1
    source, start = None, -1
    for kept in _recent:
        if len(kept.reference) != rows or kept.reference != reference:
            continue
        # After the first (the latest), an entry is measured only if it shares more than the best so far.
        if source is None or kept.hypothesis[: start + 1] == hypothesis[: start + 1]:
            shared = _shared_prefix(kept.hypothesis, hypothesis)
            if shared > start:
                source, start = kept, shared
    if source is None:
        entry = _Stored(reference, hypothesis, _peq(reference), [full], [0], [0])
        start = 0
    elif start == len(source.hypothesis) == len(hypothesis):
        entry = source  # the same hypothesis again: every column and the last walk are this one's
        _recent.remove(entry)
    else:
        last = source.trail
        entry = _Stored(
            reference,
            hypothesis,
            source.peq,
            source.vps[: start + 1],
            source.vns[: start + 1],
            source.d0s[: start + 1],
            # A walk never changes a trail's dict or list in place (``remember`` replaces them), so the two
            # trails may share them.
            _Trail(last.rest, last.runs),
        )
    entry.trail.unchanged = start
    vps, vns, d0s = entry.vps, entry.vns, entry.d0s
    vp, vn = vps[start], vns[start]
    for eq in map(entry.peq.get, hypothesis[start:], repeat(0)):
        vp, vn, d0 = _step(eq, vp, vn, full, 1)
        vps.append(vp)
        vns.append(vn)
        d0s.append(d0)
    _recent.insert(0, entry)
    del _recent[_REUSE_ENTRIES:]
    cells = 0
    for count, kept in enumerate(_recent):
        cells += len(kept.reference) * len(kept.hypothesis)
        if count and cells > _KEEP_CELLS:
            del _recent[count:]
            break
    block = (0, vps, d0s)
    return (lambda i, j: block), entry.trail


def _checkpointed_columns(reference: Sequence[str], hypothesis: Sequence[str]) -> _Load:
    """Every k-th column's vertical deltas (k about the square root of the hypothesis length); a block of k
    columns is recomputed from its checkpoint when the walk enters it, cut to the rows the walk can still
    visit (exact: see ``_step``)."""
    peq = _peq(reference)
    full = (1 << len(reference)) - 1
    n = len(hypothesis)
    k = max(1, isqrt(n))
    checkpoints = [(full, 0)]
    vp, vn = full, 0
    for c, eq in enumerate(map(peq.get, hypothesis, repeat(0)), 1):
        vp, vn, _ = _step(eq, vp, vn, full, 1)
        if not c % k:
            checkpoints.append((vp, vn))

    def load(i: int, j: int) -> _Block:
        lo = (j - 1) // k * k
        rows = (1 << i) - 1
        vp, vn = checkpoints[lo // k]
        vp &= rows
        vn &= rows
        vps, d0s = [vp], [0]
        for eq in map(peq.get, hypothesis[lo : min(lo + k, n)], repeat(0)):
            vp, vn, d0 = _step(eq & rows, vp, vn, rows, 1)
            vps.append(vp)
            d0s.append(d0)
        return lo, vps, d0s

    return load


def edit_counts_many(pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[Counts]:
    """``edit_counts`` of every pair (what corpus scoring needs): pairs of like hypothesis length share their
    columns, one above another in one integer per column (see ``_step``), so the arithmetic of a column runs
    once per group rather than once per pair. Pairs too long to gain are counted one by one."""
    return _count_many(pairs, None)


Substitutions = tuple[tuple[int, int], ...]


def substitutions_in(runs: Iterable[Run], shift: int = 0) -> Substitutions:
    """The (reference, hypothesis) positions of the substitutions in ``runs`` (in order), each moved by
    ``shift``."""
    sub = Op.SUBSTITUTE
    return tuple(
        (i + shift, j + shift)
        for op, i0, i1, j0, j1 in runs
        if op is sub
        for i, j in zip(range(i0, i1), range(j0, j1), strict=True)
    )


def substitutions_many(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
) -> tuple[list[Counts], list[Substitutions]]:
    """``edit_counts_many`` and, for each pair, the (reference, hypothesis) positions of the substitutions of
    ``align(pair)``, in order: what the Simplified-cost diagnostic reads, without building a script.

    The walk of a pair's middle makes the whole pair's steps shifted by the common prefix, up to where it
    reaches the middle's first row or column (the cells there have the same values, see ``_middle``); from
    there both walks make deletions or insertions only (the counts are equal, and the middle's makes no
    substitution there), so shifting the middle's substitutions gives the whole pair's."""
    subs: list[Substitutions] = [() for _ in pairs]
    counts = _count_many(pairs, subs)
    return counts, subs


def _count_many(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], subs: list[Substitutions] | None
) -> list[Counts]:
    """The counts of every pair, and the positions of their substitutions into ``subs`` unless it is None."""
    if len(pairs) == 1:
        # One pair (the editor's, on every keystroke): packing has nothing to share, and its stored columns and
        # trail serve the next alignment against the same reference (``_stored_columns``).
        a, b = pairs[0]
        s, d, ins = _count_one(a, b, 0, subs, 0)
        return [Counts(s, d, ins, len(a))]
    out: list[tuple[int, int, int]] = [(0, 0, 0)] * len(pairs)
    middles = [_middle(a, b) for a, b in pairs]
    jobs: list[tuple[int, int]] = []
    for k, (a, b, p) in enumerate(middles):
        if not a or not b:
            out[k] = (0, len(a), len(b))
        elif len(a) > _PACK_MAX_LENGTH or len(b) > _PACK_MAX_LENGTH:
            out[k] = _count_one(a, b, k, subs, p)
        else:
            jobs.append((len(b), k))
    # Pairs of like length side by side, so that few columns run past a pair's end.
    jobs.sort()
    group: list[int] = []
    bits = 0
    for _, k in jobs:
        group.append(k)
        bits += len(middles[k][0]) + 1
        if bits >= _GROUP_BITS:
            _count_group(middles, group, out, subs)
            group, bits = [], 0
    _count_group(middles, group, out, subs)
    return [Counts(*counts, len(a)) for counts, (a, _) in zip(out, pairs, strict=True)]


def _count_one(
    a: Sequence[str], b: Sequence[str], k: int, subs: list[Substitutions] | None, shift: int
) -> tuple[int, int, int]:
    """S, D and I of one pair counted on its own (its columns stored, or checkpointed when long), and into
    ``subs[k]`` unless it is None, its substitutions moved by ``shift``."""
    load, trail = _columns(a, b)
    if subs is None:
        return _walk(a, b, load, 0, None, trail=trail)
    runs: list[Run] = []
    counts = _walk(a, b, load, 0, runs, trail=trail)
    subs[k] = substitutions_in(reversed(runs), shift)
    return counts


def _middle(a: Sequence[str], b: Sequence[str]) -> tuple[Sequence[str], Sequence[str], int]:
    """The pair without its common suffix and then its common prefix, and the length of that prefix: it has
    the counts of the whole pair (not its script). The walk takes a common suffix as matches; and with a
    common prefix x, D[|x| + i][|x| + j] is the distance of the middles' prefixes (a common prefix never
    changes a distance), where the walk makes the same steps until it reaches row or column |x|; from there D
    = |i - j| allows only matches and the steps the middle's walk makes along its edge, as many of them."""
    m, n = len(a), len(b)
    while m and n and a[m - 1] == b[n - 1]:
        m -= 1
        n -= 1
    p = 0
    while p < m and p < n and a[p] == b[p]:
        p += 1
    return a[p:m], b[p:n], p


# Rows per group: past this the integers grow long enough that the walk's look-ups cost more than the column
# arithmetic saves (CPU time of edit_counts_many, 1,000 pairs of 500 characters / 3,000 HKCanCor utterances,
# against 8,192 rows: 2,048 1.01 / 0.89, 4,096 0.98 / 0.92, 16,384 1.03 / 1.28).
_GROUP_BITS = 4096
# A group keeps all its columns (2 integers of its rows each, as many as its longest hypothesis): a long side
# on either hand goes alone, where long pairs keep checkpoints only.
_PACK_MAX_LENGTH = 2000


# The byte and the bit within it of row r + 1 in a little-endian mask, for ``_peq_bytes``.
_BYTE_BITS = [(r >> 3, 1 << (r & 7)) for r in range(_PACK_MAX_LENGTH)]


def _peq_bytes(reference: Sequence[str], size: int) -> dict[str, bytearray]:
    """``_peq`` as little-endian masks of ``size`` bytes (what a group joins into its columns), set bit by
    bit: building the integers and converting each with ``to_bytes`` cost a third more."""
    peq: dict[str, bytearray] = {}
    get = peq.get
    for sym, (byte, bit) in zip(reference, _BYTE_BITS[: len(reference)], strict=True):
        mask = get(sym)
        if mask is None:
            mask = peq[sym] = bytearray(size)
        mask[byte] |= bit
    return peq


def _count_group(
    pairs: Sequence[tuple[Sequence[str], Sequence[str], int]],
    group: list[int],
    out: list[tuple[int, int, int]],
    subs: list[Substitutions] | None,
) -> None:
    """S, D and I of a group of pairs over shared columns, into ``out`` (and their substitutions into ``subs``
    unless it is None). Pair g has its rows from
    ``offsets[g]``, a multiple of 8, so that a column's match masks are joined as bytes (shifting and adding
    them would copy the growing integer once per pair); the bits between two pairs stay clear (see ``_step``).
    ``starts`` is every pair's row 1."""
    if not group:
        return
    members = [(pairs[k][0], pairs[k][1]) for k in group]
    cols = max(len(b) for _, b in members)
    sizes = [len(a) // 8 + 1 for a, _ in members]  # bytes for the rows and at least one clear bit above them
    offsets = [8 * before for before in accumulate(sizes[:-1], initial=0)]
    from_bytes, join = int.from_bytes, b"".join
    full = from_bytes(
        join(
            ((1 << len(a)) - 1).to_bytes(size, "little") for (a, _), size in zip(members, sizes, strict=True)
        ),
        "little",
    )
    starts = from_bytes(join(b"\x01".ljust(size, b"\x00") for size in sizes), "little")
    vp, vn = full, 0
    vps, d0s = [vp], [0]
    for eq in _group_masks(members, sizes, cols):
        vp, vn, d0 = _step(eq, vp, vn, full, starts)
        vps.append(vp)
        d0s.append(d0)
    block = (0, vps, d0s)
    found: list[tuple[int, int]] = []  # one pair's substitutions at a time, last first
    for k, off in zip(group, offsets, strict=True):
        a, b, p = pairs[k]
        out[k] = _walk(a, b, lambda i, j: block, off, None, None if subs is None else found)
        if subs is not None:
            subs[k] = tuple((i + p, j + p) for i, j in reversed(found))
            found.clear()


def _match_masks(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], sizes: Sequence[int], cols: int
) -> Iterable[int]:
    """The match mask of each of a group's ``cols`` columns: pair g's rows in ``sizes[g]`` bytes (bit r-1 of
    them set where its reference has the item of its hypothesis at this column; none past its hypothesis),
    the pairs' bytes joined in order, read little-endian."""
    eq_lists: list[list[bytes | bytearray]] = []
    for (a, b), size in zip(pairs, sizes, strict=True):
        peq = _peq_bytes(a, size)
        zero = bytes(size)
        eq_lists.append([*map(peq.get, b, repeat(zero)), *repeat(zero, cols - len(b))])
    from_bytes, join = int.from_bytes, b"".join
    return (from_bytes(join(column), "little") for column in zip(*eq_lists, strict=True))


def _group_masks(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]], sizes: Sequence[int], cols: int
) -> Iterable[int]:
    """``_match_masks``, or the same masks made with numpy (``cvb_scorer.align_numpy``, for strings whose
    references are ``_NUMPY_MIN_MEAN_LENGTH`` characters long on average) when the process has loaded numpy
    already: the command's bootstrap loads it before scoring a corpus large enough for it to pay
    (``report.score_jsonl``); to repay the import on its own, corpus alignment would need about a million
    characters. Pyodide never loads numpy for the scorer."""
    if _numpy_loaded() and sum(len(a) for a, _ in pairs) >= _NUMPY_MIN_MEAN_LENGTH * len(pairs):
        strings = [(a, b) for a, b in pairs if isinstance(a, str) and isinstance(b, str)]
        if len(strings) == len(pairs):
            from cvb_scorer import align_numpy

            return align_numpy.match_masks(strings, sizes, cols)
    return _match_masks(pairs, sizes, cols)


# numpy's masks cost a few microseconds a pair besides their characters: for groups of short pairs (a corpus of
# utterances) that is more than they save. Masks of 40 packed groups of generated pairs, numpy against Python,
# by reference length: 1.71x the time at 8 characters, 1.11x at 16, 0.85x at 24, 0.49x at 64, 0.57x at 500.
_NUMPY_MIN_MEAN_LENGTH = 24


def _numpy_loaded() -> bool:
    # ``sys.modules["numpy"] = None`` is how a process says numpy is not to be imported.
    return sys.modules.get("numpy") is not None and sys.platform != "emscripten"
