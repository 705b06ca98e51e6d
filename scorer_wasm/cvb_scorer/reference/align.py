"""Alignment as the textbook dynamic-programming table, with the published tie order as data.

``D[i][j]`` is the Levenshtein distance (unit costs) between the first ``i`` reference items and the first ``j``
hypothesis items. The edit script is read by walking back from ``D[len(ref)][len(hyp)]``: at each cell, the
first move of ``TIE_ORDER`` that stays on a minimal path is taken. The rate never depends on the order; the
S/D/I split and the drawing do, so the order is published (``TIE_RULE``, part of the scoring signature).

The result types live here too, so that what an alignment *is* is defined beside the plain procedure that
makes one; ``cvb_scorer.align`` computes the same results quickly and is tested against this module.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple


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


# A run of one kind of step: (op, reference start, end, hypothesis start, end). Within a run the indices on
# each side are consecutive, so a run is one slice of each text; on the side its steps skip, the slice is
# empty and sits where the gap is.
Run = tuple[Op, int, int, int, int]


@dataclass(frozen=True)
class Alignment:
    """An edit script as runs of one kind of step (``Run``), in order, with its counts. The drawing and the
    per-class breakdown read the runs; ``ops`` spells the same script out one step at a time."""

    runs: tuple[Run, ...]
    counts: Counts

    @property
    def distance(self) -> int:
        return self.counts.errors

    @cached_property
    def ops(self) -> tuple[tuple[Op, int, int], ...]:
        """The script one step at a time: (op, reference index or -1, hypothesis index or -1)."""
        ops: list[tuple[Op, int, int]] = []
        for op, i0, i1, j0, j1 in self.runs:
            if op is Op.DELETE:
                ops.extend((op, i, -1) for i in range(i0, i1))
            elif op is Op.INSERT:
                ops.extend((op, -1, j) for j in range(j0, j1))
            else:
                ops.extend((op, i, j) for i, j in zip(range(i0, i1), range(j0, j1), strict=True))
        return tuple(ops)


def runs_of(ops: Sequence[tuple[Op, int, int]]) -> tuple[Run, ...]:
    """The runs of a script given one step at a time, in order."""
    runs: list[Run] = []
    i = j = 0
    for op, group in groupby(ops, key=itemgetter(0)):
        k = len(list(group))
        di = 0 if op is Op.INSERT else k
        dj = 0 if op is Op.DELETE else k
        runs.append((op, i, i + di, j, j + dj))
        i += di
        j += dj
    return tuple(runs)


class Move(enum.Enum):
    """A step back from cell (i, j): to (i-1, j-1), (i-1, j) or (i, j-1)."""

    DIAGONAL = "diag"  # a match (equal items, cost 0) or a substitution (cost 1)
    DELETE = "del"  # a reference item missing from the hypothesis
    INSERT = "ins"  # a hypothesis item with no reference item


# The published tie order: the first move, in this order, that stays on a minimal path.
TIE_ORDER: tuple[Move, ...] = (Move.DIAGONAL, Move.DELETE, Move.INSERT)
TIE_RULE = ">".join(move.value for move in TIE_ORDER)


def table(reference: Sequence[str], hypothesis: Sequence[str]) -> list[list[int]]:
    """The full table: ``D[i][0] = i``, ``D[0][j] = j``, and each other cell the cheapest of its three moves."""
    m, n = len(reference), len(hypothesis)
    d = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        d[i][0] = i
    for j in range(n + 1):
        d[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            substitution = reference[i - 1] != hypothesis[j - 1]
            d[i][j] = min(d[i - 1][j - 1] + substitution, d[i - 1][j] + 1, d[i][j - 1] + 1)
    return d


def align(
    reference: Sequence[str], hypothesis: Sequence[str], *, order: Sequence[Move] = TIE_ORDER
) -> Alignment:
    """The edit script of the walk back through ``table`` under ``order``, with its counts."""
    d = table(reference, hypothesis)
    i, j = len(reference), len(hypothesis)
    ops: list[tuple[Op, int, int]] = []
    while i or j:
        for move in order:
            if move is Move.DIAGONAL and i and j:
                equal = reference[i - 1] == hypothesis[j - 1]
                if d[i - 1][j - 1] + (not equal) == d[i][j]:
                    i, j = i - 1, j - 1
                    ops.append((Op.MATCH if equal else Op.SUBSTITUTE, i, j))
                    break
            elif move is Move.DELETE and i and d[i - 1][j] + 1 == d[i][j]:
                i -= 1
                ops.append((Op.DELETE, i, -1))
                break
            elif move is Move.INSERT and j and d[i][j - 1] + 1 == d[i][j]:
                j -= 1
                ops.append((Op.INSERT, -1, j))
                break
        else:
            raise ValueError(
                f"tie order {order!r} leaves cell ({i}, {j}) without a move; name all three moves"
            )
    ops.reverse()
    made = [op for op, _, _ in ops]
    counts = Counts(made.count(Op.SUBSTITUTE), made.count(Op.DELETE), made.count(Op.INSERT), len(reference))
    return Alignment(runs_of(ops), counts)


def edit_counts(reference: Sequence[str], hypothesis: Sequence[str]) -> Counts:
    """S, D, I and N of ``align``."""
    return align(reference, hypothesis).counts


def distance(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """The Levenshtein distance: the table's last cell."""
    return table(reference, hypothesis)[-1][-1]
