"""Levenshtein alignment with unit costs: bit-parallel (Myers 1999, in Hyyrö's 2003 formulation) on Python
ints,
with a full edit script.

Tie rule (published; part of the signature as ``diag>del>ins``): walk back from the end of both sequences and
at
each cell take the first move that stays on a minimal path, in the order diagonal (match or substitution),
then
deletion (a reference item missing from the hypothesis), then insertion. The rate never depends on the rule;
only
the S/D/I split and the drawing do, and this procedure gives the same split on every runtime.

Memory grows with ``len(reference) * len(hypothesis) / 2`` bits (four bit vectors per hypothesis item).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

TIE_RULE = "diag>del>ins"


class Op(enum.Enum):
    MATCH = "match"
    SUBSTITUTE = "substitute"
    DELETE = "delete"
    INSERT = "insert"


@dataclass(frozen=True)
class Counts:
    """Substitutions, deletions, insertions and reference length. ``errors`` = S + D + I."""

    S: int = 0
    D: int = 0
    I: int = 0  # noqa: E741 - the standard letter for insertions
    N: int = 0

    @property
    def errors(self) -> int:
        return self.S + self.D + self.I

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.S + other.S, self.D + other.D, self.I + other.I, self.N + other.N)


@dataclass(frozen=True)
class Alignment:
    """An edit script: ``ops[k]`` is (op, reference index or -1, hypothesis index or -1), in order."""

    ops: tuple[tuple[Op, int, int], ...]
    counts: Counts

    @property
    def distance(self) -> int:
        return self.counts.errors


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
    m, n = len(reference), len(hypothesis)
    # A common suffix is always matched by the tie rule (diagonal first, and equal last items never cost), so
    # it
    # is aligned directly; a common prefix is not stripped because the walk back may leave it differently.
    suffix = 0
    while suffix < m and suffix < n and reference[m - 1 - suffix] == hypothesis[n - 1 - suffix]:
        suffix += 1
    ops, s, d, ins = _align_core(reference, hypothesis, m - suffix, n - suffix)
    if suffix:
        match = Op.MATCH
        ops.extend((match, m - suffix + k, n - suffix + k) for k in range(suffix))
    return Alignment(tuple(ops), Counts(s, d, ins, m))


def _align_core(
    reference: Sequence[str], hypothesis: Sequence[str], m: int, n: int
) -> tuple[list[tuple[Op, int, int]], int, int, int]:
    """Edit script of ``reference[:m]`` against ``hypothesis[:n]`` and its S, D, I counts."""
    if m == 0:
        return [(Op.INSERT, -1, j) for j in range(n)], 0, 0, n
    if n == 0:
        return [(Op.DELETE, i, -1) for i in range(m)], 0, m, 0
    peq: dict[str, int] = {}
    for i in range(m):
        sym = reference[i]
        peq[sym] = peq.get(sym, 0) | (1 << i)
    full = (1 << m) - 1
    # Column j (after j hypothesis items): bit i-1 of VP/VN says D[i][j] - D[i-1][j] is +1/-1; bit i-1 of
    # HP/HN
    # says D[i][j] - D[i][j-1] is +1/-1. Column 0 is D[i][0] = i.
    vps = [full]
    vns = [0]
    hps = [0]
    hns = [0]
    vp, vn = full, 0
    get = peq.get
    for j in range(n):
        eq = get(hypothesis[j], 0)
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = vn | (full & ~(xh | vp))
        hn = vp & xh
        hps.append(hp)
        hns.append(hn)
        hp = ((hp << 1) | 1) & full
        vp = ((hn << 1) & full) | (full & ~(xv | hp))
        vn = hp & xv
        vps.append(vp)
        vns.append(vn)

    # Walk back under the tie rule. Equal items always allow the diagonal at no cost (D[i-1][j-1] == D[i][j]),
    # so only unequal items need the bit vectors.
    match, sub, dele, ins = Op.MATCH, Op.SUBSTITUTE, Op.DELETE, Op.INSERT
    ops: list[tuple[Op, int, int]] = []
    append = ops.append
    n_sub = n_del = n_ins = 0
    i, j = m, n
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            i -= 1
            j -= 1
            append((match, i, j))
            continue
        b = 1 << (i - 1)
        up = 1 if vps[j] & b else (-1 if vns[j] & b else 0)  # D[i][j] - D[i-1][j]
        if i > 1:
            b >>= 1
            left = 1 if hps[j] & b else (-1 if hns[j] & b else 0)  # D[i-1][j] - D[i-1][j-1]
        else:
            left = 1
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
