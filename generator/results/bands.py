"""The published band rule: any two entries whose intervals overlap share a band, and so does every entry chained
to them through further overlaps. The bands are the connected components of the overlap relation.

Pure. The rule is written plainly (every pair tested, components joined by union-find): a board has hundreds of
entries at most, so the quadratic pass costs nothing next to the bootstraps. A test compares it with an
independent sweep over the intervals sorted by their low ends.

Within a band the entries are listed best score first (equal scores by name); bands are ordered by their best
entry. An entry's rank is one more than the number of entries in the bands above its own, so a band shares one
rank. A band's leader is its best entry: it is only the first name of the band, never a test of membership.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cvb_scorer.stats import Banded, Entry


def overlap(a: Entry, b: Entry) -> bool:
    """Closed intervals meet (touching ends count as overlapping)."""
    return a.low <= b.high and b.low <= a.high


def overlap_bands(entries: Sequence[Entry]) -> list[Banded]:
    """Every entry with its band, rank and band leader, in the board's order (band, then score, then name)."""
    ordered = sorted(entries, key=lambda e: (-e.score, e.name))
    parent = list(range(len(ordered)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            if overlap(a, ordered[j]):
                ri, rj = root(i), root(j)
                # The better-placed root stays the root, so a component's root is its best entry.
                parent[max(ri, rj)] = min(ri, rj)
    members: dict[int, list[int]] = {}
    for i in range(len(ordered)):
        members.setdefault(root(i), []).append(i)
    out: list[Banded] = []
    rank = 1
    for band, (first, group) in enumerate(sorted(members.items()), start=1):
        leader = ordered[first].name
        out.extend(Banded(ordered[i], band, rank, leader) for i in group)
        rank += len(group)
    return out


@dataclass(frozen=True)
class Chain:
    """How a band holds together when not every pair of it overlaps: the two entries furthest apart in overlap
    steps, the path of overlaps that joins them, and how many of the band's pairs do not overlap."""

    path: tuple[str, ...]  # names, from one end to the other; consecutive names overlap
    apart: int  # pairs in the band whose intervals do not overlap
    pairs: int  # all pairs in the band

    @property
    def links(self) -> int:
        return len(self.path) - 1


def chain(members: Sequence[Entry]) -> Chain | None:
    """The band's longest chain (the longest of the shortest overlap paths between two members), or None when
    every pair of the band overlaps directly. ``members`` in the board's order; ties go to the earlier pair."""
    n = len(members)
    near = [[j for j in range(n) if j != i and overlap(members[i], members[j])] for i in range(n)]
    apart = sum(1 for i in range(n) for j in range(i + 1, n) if not overlap(members[i], members[j]))
    if apart == 0:
        return None
    best: list[int] = []
    for start in range(n):
        # Breadth first from each member: the first path found to each other member is a shortest one.
        previous = {start: start}
        frontier = [start]
        while frontier:
            reached = []
            for i in frontier:
                for j in near[i]:
                    if j not in previous:
                        previous[j] = i
                        reached.append(j)
            frontier = reached
        for end in range(start + 1, n):
            path = [end]
            while path[-1] != start:
                path.append(previous[path[-1]])
            # Strictly longer only: among equally long chains the earliest pair (start, end) is kept.
            if len(path) > len(best):
                best = path[::-1]
    return Chain(tuple(members[i].name for i in best), apart, n * (n - 1) // 2)
