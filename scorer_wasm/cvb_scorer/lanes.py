"""The published draw's lanes, shared by its two routes (``cvb_scorer.stats``, pure, and
``cvb_scorer.stats_numpy``): the lane width, the bound on the numpy route's sums, and the error both raise.

A leaf: ``stats`` imports ``stats_numpy`` (when numpy is its route) and both import this module, so neither
imports the other back.
"""

from __future__ import annotations


class StatsError(ValueError):
    """Inputs the statistics cannot use; the message says what to fix."""


LANE_BITS = 16
# The numpy route's int64 sums stay below 2**INT64_SUM_BITS (the sign bit and one spare bit stay clear).
INT64_SUM_BITS = 62


def lane_bits(n: int) -> int:
    """Bits per lane of the published draw for ``n`` clips."""
    if n < 1:
        raise StatsError("A bootstrap needs at least one clip; the corpus is empty.")
    if n > 1 << 32:
        raise StatsError(f"A bootstrap over {n} clips is beyond the published draw (at most 2**32 clips).")
    return LANE_BITS if n <= 1 << LANE_BITS else 32
