"""The paired view beside the bands: a diagnostic, never a rank.

Two entries in one band can still differ clearly: their intervals overlap, yet on the clips both scored one may
be better in nearly every resample. For two neighbours on a board, the clips both scored are matched by clip id
(from their records' draws; a clip scored in several runs pairs as many times as both scored it), and each
published bootstrap resample (``cvb_scorer.stats.draws`` with the config's seed, the draws the intervals use)
picks the same clips for both. The view is the share of those resamples in which each one's statistic is the
higher; the rest are ties.

Pure. The statistics are the board's own (``aggregate``), so a pillar's paired samples are exactly its interval's
samples recomputed on the matched clips: the draws depend only on the clip count and the seed, so both entries'
resample ``i`` draws the same positions of their matched lists, that is, the same clips.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cvb_scorer.rules import ScoringRules

from generator.results import aggregate
from generator.results.records import AsrClip, E2eClip, LlmClip, Record, TtsClip

Clip = AsrClip | LlmClip | TtsClip | E2eClip


@dataclass(frozen=True)
class PillarClips:
    """One entrant's clips on one pillar under one scoring version, in the board's order, and its finality."""

    clips: tuple[Clip, ...]
    final: bool


@dataclass(frozen=True)
class Paired:
    clips: int  # matched clips (summed over the pillars for the Core Score)
    upper_better: float  # share of the resamples in which the upper entry's statistic is higher
    lower_better: float


def _clips(record: Record) -> list[Clip]:
    return [c for c in record.run.clips if isinstance(c, AsrClip | LlmClip | TtsClip | E2eClip)]


def pillar_clips(records: Sequence[Record]) -> dict[tuple[str, str, str], PillarClips]:
    """By (scoring version, entrant, pillar): the clips in the order ``aggregate.pillar_result`` pools them."""
    grouped: dict[tuple[str, str, str], list[Record]] = {}
    for r in records:
        grouped.setdefault((r.run.scoring_version, r.run.entrant, r.run.pillar), []).append(r)
    out = {}
    for key, recs in grouped.items():
        ordered = sorted(recs, key=lambda r: (r.run.run, r.run.round))
        clips = tuple(c for r in ordered for c in sorted(_clips(r), key=lambda c: c.id))
        out[key] = PillarClips(clips, all(r.run.final for r in ordered))
    return out


def matched(a: Sequence[Clip], b: Sequence[Clip]) -> tuple[list[Clip], list[Clip]]:
    """The clips both scored, aligned: by clip id, each id as many times as both scored it, ids in order."""
    by_a: dict[str, list[Clip]] = {}
    by_b: dict[str, list[Clip]] = {}
    for c in a:
        by_a.setdefault(c.id, []).append(c)
    for c in b:
        by_b.setdefault(c.id, []).append(c)
    left: list[Clip] = []
    right: list[Clip] = []
    for cid in sorted(set(by_a) & set(by_b)):
        k = min(len(by_a[cid]), len(by_b[cid]))
        left += by_a[cid][:k]
        right += by_b[cid][:k]
    return left, right


def _shares(upper: Sequence[float], lower: Sequence[float]) -> tuple[float, float]:
    n = len(upper)
    return sum(map(operator.gt, upper, lower)) / n, sum(map(operator.lt, upper, lower)) / n


def paired(
    upper: Mapping[str, PillarClips],
    lower: Mapping[str, PillarClips],
    pillars: Sequence[str],
    *,
    rules: ScoringRules,
    version: str,
) -> Paired | None:
    """The paired view of two entrants over ``pillars`` (one pillar, or the core pillars weighted as the Core
    Score weighs them, resample by resample as its interval does). None when a pillar has no clip both scored."""
    columns_upper: list[list[float]] = []
    columns_lower: list[list[float]] = []
    count = 0
    for p in pillars:
        a, b = matched(upper[p].clips, lower[p].clips)
        if not a:
            return None
        count += len(a)
        columns_upper.append(
            aggregate.pillar_samples(p, a, final=upper[p].final, rules=rules, version=version)
        )
        columns_lower.append(
            aggregate.pillar_samples(p, b, final=lower[p].final, rules=rules, version=version)
        )
    if len(pillars) == 1:
        return Paired(count, *_shares(columns_upper[0], columns_lower[0]))
    weights = [rules.pillar(p).weight for p in pillars]
    total = math.fsum(weights)

    def combine(columns: list[list[float]]) -> list[float]:
        return [math.fsum(map(operator.mul, weights, row)) / total for row in zip(*columns, strict=True)]

    return Paired(count, *_shares(combine(columns_upper), combine(columns_lower)))
