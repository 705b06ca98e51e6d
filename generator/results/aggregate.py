"""Pure aggregation of run records into the board's figures, over the scorer's own functions.

Per entrant, pillar and scoring version, the clips of every run are pooled (in run order, clips by id) and the
pillar's statistic is computed on them: the corpus error rate from summed counts (recognition), the mean judge
score (reasoning), delivery and tone survival with the no-tone cap (speech), the conversation measure (latency
percentile, yielding, turns). Intervals are the published percentile bootstrap: the resamples come from
``cvb_scorer.stats.draws`` with the config's seed, and the bounds are its type-7 ``percentile``. The Core and
Full intervals combine the pillars' resample i (pillars are drawn independently, so their resamples combine
index by index). Bands are ``generator.results.bands.overlap_bands``, the published rule (entries whose
intervals overlap share a band, and so does everything chained to them); composites are
``cvb_scorer.scores.composite``.

The speech and conversation statistics are written plainly here (``tts_statistic``, ``e2e_statistic``, one score
object per resample) and computed for the board by ``generator.results.fast``, which gives the same floats without
the per-resample sorting and objects; the plain ones are its reference and its fallback.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from cvb_scorer import scores, stats
from cvb_scorer.rules import ScoringRules

from generator.results import fast
from generator.results.bands import overlap_bands
from generator.results.records import AsrClip, E2eClip, Entrant, LlmClip, Record, TtsClip

PILLAR_ORDER = ("asr", "llm", "tts", "e2e")
_T = TypeVar("_T")


@dataclass(frozen=True)
class Figure:
    """A 0-100 figure with its percentile interval; ``collapsed``: zero width at a bound of the scale."""

    value: float
    low: float
    high: float
    collapsed: bool


@dataclass(frozen=True)
class PillarResult:
    pillar: str
    score: Figure
    # Recognition only: the corpus CER and MER (fractions) with intervals, and the cross-anchor CER.
    cer: Figure | None
    mer: Figure | None
    cross_anchor: float | None
    cross_anchor_source: str | None
    clips: int
    runs: int
    final: bool
    measured_not_rated: bool
    capped: bool
    sources: tuple[str, ...]
    samples: tuple[float, ...]


@dataclass(frozen=True)
class Row:
    entrant: Entrant
    scoring_version: str
    pillars: Mapping[str, PillarResult]
    core: Figure | None
    full: Figure | None
    core_reason: str | None
    full_reason: str | None

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted({s for p in self.pillars.values() for s in p.sources}))


def _figure(samples: list[float], point: float, *, level: float, bounds: tuple[float, float]) -> Figure:
    ordered = sorted(samples)
    tail = (1.0 - level) / 2.0
    low = stats.percentile(ordered, tail)
    high = stats.percentile(ordered, 1.0 - tail)
    return Figure(point, low, high, low == high and low in bounds)


@functools.lru_cache(maxsize=8)
def _draws(n: int, resamples: int, seed: int) -> tuple[list[int], ...]:
    # The published draws depend only on the clip count and the seed, so every pillar and entrant with the same
    # number of clips shares one set (drawing them is most of the cost otherwise).
    return tuple(stats.draws(n, resamples=resamples, seed=seed))


@functools.lru_cache(maxsize=2)
def _counts(n: int, resamples: int, seed: int) -> tuple[list[int], ...]:
    # Each resample's multiplicity per clip, for the conversation statistic's order statistics; shared like the
    # draws themselves.
    return tuple(fast.clip_counts(_draws(n, resamples, seed), n))


def _resample(n: int, statistic: Callable[[list[int]], _T], rules: ScoringRules) -> list[_T]:
    boot = rules.bootstrap
    return [statistic(idx) for idx in _draws(n, boot.resamples, boot.seed)]


def _rate(e: int, t: int) -> float:
    # As stats.bootstrap_rates: no reference tokens counts as rate 0 without errors, else 1.
    return e / t if t else (0.0 if e == 0 else 1.0)


def _asr(
    clips: Sequence[AsrClip], rules: ScoringRules, version: str
) -> tuple[float, list[float], Figure, Figure]:
    err = [c.S + c.D + c.I for c in clips]
    tot = [c.N for c in clips]
    merr = [c.mer_counts.S + c.mer_counts.D + c.mer_counts.I for c in clips]
    mtot = [c.mer_counts.N for c in clips]
    n = len(clips)
    level = rules.bootstrap.interval
    # Integer sums over the shared draws, the four counts packed into one integer per clip in fields too wide
    # to carry (as stats.bootstrap_rates does), so one sum per resample gives all four; a test compares the
    # rates with stats.bootstrap_rates'.
    columns = (err, tot, merr, mtot)
    width = max(1, n * max(max(col) for col in columns)).bit_length() + 1
    mask = (1 << width) - 1
    packed = [sum(col[c] << (width * f) for f, col in enumerate(columns)) for c in range(n)]
    get = packed.__getitem__
    sums = _resample(n, lambda idx: sum(map(get, idx)), rules)
    cer_samples = [_rate(s & mask, (s >> width) & mask) for s in sums]
    mer_samples = [_rate((s >> (2 * width)) & mask, (s >> (3 * width)) & mask) for s in sums]
    cer = _rate(sum(err), sum(tot))
    mer = _rate(sum(merr), sum(mtot))

    def score(r: float) -> float:
        return scores.error_rate_score(r, rules=rules, scoring_version=version)

    return (
        score(cer),
        [score(r) for r in cer_samples],
        _figure(cer_samples, cer, level=level, bounds=(0.0, 1.0)),
        _figure(mer_samples, mer, level=level, bounds=(0.0, 1.0)),
    )


def _llm(clips: Sequence[LlmClip], rules: ScoringRules) -> tuple[float, list[float]]:
    values = [c.score for c in clips]
    get = values.__getitem__
    n = len(values)
    # math.fsum is exactly rounded, as in stats.bootstrap_mean, so every runtime gets the same bits.
    return math.fsum(values) / n, _resample(n, lambda idx: math.fsum(map(get, idx)) / n, rules)


def tts_statistic(
    clips: Sequence[TtsClip], rules: ScoringRules, final: bool
) -> Callable[[Sequence[int]], scores.PillarScore]:
    """The speech statistic of one resample (clip indices), plainly: the reference for ``fast.tts_samples``."""
    delivery = [c.delivery for c in clips]
    tone = [c.tone_survival for c in clips]
    tones = [c.tones_recovered for c in clips]
    d, t, k = delivery.__getitem__, tone.__getitem__, tones.__getitem__

    def stat(idx: Sequence[int]) -> scores.PillarScore:
        n = len(idx)
        return scores.tts_score(
            delivery=math.fsum(map(d, idx)) / n,
            tone_survival=math.fsum(map(t, idx)) / n,
            tones_recovered=sum(map(k, idx)),
            rules=rules,
            final=final,
        )

    return stat


def _tts(
    clips: Sequence[TtsClip], rules: ScoringRules, final: bool
) -> tuple[scores.PillarScore, list[float]]:
    stat = tts_statistic(clips, rules, final)
    # Speech is published on delivery and tone survival until a panel rates MOS: a machine measure.
    point = replace(stat(range(len(clips))), measured_not_rated=True)
    draws = _draws(len(clips), rules.bootstrap.resamples, rules.bootstrap.seed)
    samples = fast.tts_samples(clips, draws, rules=rules)
    return point, samples if samples is not None else [stat(idx).score for idx in draws]


def e2e_statistic(
    clips: Sequence[E2eClip], rules: ScoringRules, final: bool
) -> Callable[[Sequence[int]], scores.PillarScore]:
    """The conversation statistic of one resample (clip indices), plainly: the reference for
    ``fast.e2e_samples``."""
    ratings = [c.naturalness_rating for c in clips]
    rated = all(r is not None for r in ratings)
    lat = [c.latencies_ms for c in clips]
    yld = [c.yield_ms for c in clips]
    done = [c.turns_completed for c in clips]
    tried = [c.turns_attempted for c in clips]
    nat = [r if r is not None else 0.0 for r in ratings]
    gl, gy, gd, gt, gn = (
        lat.__getitem__,
        yld.__getitem__,
        done.__getitem__,
        tried.__getitem__,
        nat.__getitem__,
    )
    chain = itertools.chain.from_iterable

    def stat(idx: Sequence[int]) -> scores.PillarScore:
        return scores.e2e_score(
            latencies_ms=list(chain(map(gl, idx))),
            yield_ms=list(chain(map(gy, idx))),
            turns_completed=sum(map(gd, idx)),
            turns_attempted=sum(map(gt, idx)),
            naturalness_rating=math.fsum(map(gn, idx)) / len(idx) if rated else None,
            rules=rules,
            final=final,
        )

    return stat


def _e2e(
    clips: Sequence[E2eClip], rules: ScoringRules, final: bool
) -> tuple[scores.PillarScore, list[float]]:
    stat = e2e_statistic(clips, rules, final)
    point = stat(range(len(clips)))
    n, boot = len(clips), rules.bootstrap
    draws = _draws(n, boot.resamples, boot.seed)
    samples = fast.e2e_samples(clips, draws, _counts(n, boot.resamples, boot.seed), rules=rules)
    return point, samples if samples is not None else [stat(idx).score for idx in draws]


def pillar_samples(
    pillar: str,
    clips: Sequence[AsrClip | LlmClip | TtsClip | E2eClip],
    *,
    final: bool,
    rules: ScoringRules,
    version: str,
) -> list[float]:
    """The pillar's 0-100 statistic on each published resample of these clips, as its interval computes it."""
    if pillar == "asr":
        return _asr([c for c in clips if isinstance(c, AsrClip)], rules, version)[1]
    if pillar == "llm":
        return _llm([c for c in clips if isinstance(c, LlmClip)], rules)[1]
    if pillar == "tts":
        return _tts([c for c in clips if isinstance(c, TtsClip)], rules, final)[1]
    return _e2e([c for c in clips if isinstance(c, E2eClip)], rules, final)[1]


def pillar_result(records: Sequence[Record], *, rules: ScoringRules, version: str) -> PillarResult:
    """One entrant's pillar under one scoring version, from all its runs' records."""
    # Two rounds may both have a run 1: the round breaks the tie, so the clip order never depends on file names.
    ordered = sorted(records, key=lambda r: (r.run.run, r.run.round))
    pillar = ordered[0].run.pillar
    clips = [c for r in ordered for c in sorted(r.run.clips, key=lambda c: c.id)]
    final = all(r.run.final for r in ordered)
    bounds = (rules.score_min, rules.score_max)
    level = rules.bootstrap.interval
    cer = mer = None
    measured = capped = False
    if pillar == "asr":
        value, samples, cer, mer = _asr([c for c in clips if isinstance(c, AsrClip)], rules, version)
    elif pillar == "llm":
        value, samples = _llm([c for c in clips if isinstance(c, LlmClip)], rules)
    else:
        if pillar == "tts":
            ps, samples = _tts([c for c in clips if isinstance(c, TtsClip)], rules, final)
        else:
            ps, samples = _e2e([c for c in clips if isinstance(c, E2eClip)], rules, final)
        value, measured, capped = ps.score, ps.measured_not_rated, ps.capped
    anchors = [(r.run.cross_anchor.cer, r.source) for r in ordered if r.run.cross_anchor is not None]
    anchor, anchor_source = anchors[-1] if anchors else (None, None)
    return PillarResult(
        pillar=pillar,
        score=_figure(list(samples), value, level=level, bounds=bounds),
        cer=cer,
        mer=mer,
        cross_anchor=anchor,
        cross_anchor_source=anchor_source,
        clips=len(clips),
        runs=len(ordered),
        final=final,
        measured_not_rated=measured,
        capped=capped,
        sources=tuple(r.source for r in ordered),
        samples=tuple(samples),
    )


def _weighted_samples(
    results: Mapping[str, PillarResult], names: Sequence[str], rules: ScoringRules
) -> list[float]:
    weights = [rules.pillar(n).weight for n in names]
    total = math.fsum(weights)
    columns = [results[n].samples for n in names]
    # Resample i of each pillar, weighted: the same products as a generator over the pillars, in one map.
    return [math.fsum(map(operator.mul, weights, sample)) / total for sample in zip(*columns, strict=True)]


def build_row(
    entrant: Entrant, version: str, results: Mapping[str, PillarResult], *, rules: ScoringRules
) -> Row:
    pillar_scores = {
        name: scores.PillarScore(name, r.score.value, final=r.final, measured_not_rated=r.measured_not_rated)
        for name, r in results.items()
    }
    comp = scores.composite(pillar_scores, rules=rules)
    bounds = (rules.score_min, rules.score_max)
    level = rules.bootstrap.interval
    core = full = None
    if comp.core is not None:
        names = sorted(n for n, p in rules.pillars.items() if p.core)
        core = _figure(_weighted_samples(results, names, rules), comp.core, level=level, bounds=bounds)
    if comp.full is not None:
        full = _figure(
            _weighted_samples(results, sorted(results), rules), comp.full, level=level, bounds=bounds
        )
    return Row(entrant, version, dict(results), core, full, comp.core_reason, comp.full_reason)


def standing_records(records: Sequence[Record], *, round_id: str) -> tuple[Record, ...]:
    """The runs the standings count: those of the round the config marks ``standing`` (the other rounds' runs
    are checked against their own pools but never ranked, since their pools are other clips)."""
    return tuple(r for r in records if r.run.round == round_id)


def rows(
    records: Sequence[Record], entrants: Mapping[str, Entrant], *, rules: ScoringRules
) -> dict[str, list[Row]]:
    """Rows grouped by scoring version (newest, i.e. the current one, first in the board's order)."""
    grouped: dict[tuple[str, str], dict[str, list[Record]]] = {}
    for record in records:
        run = record.run
        grouped.setdefault((run.scoring_version, run.entrant), {}).setdefault(run.pillar, []).append(record)
    out: dict[str, list[Row]] = {}
    for (version, entrant_id), by_pillar in sorted(grouped.items()):
        results = {
            p: pillar_result(by_pillar[p], rules=rules, version=version)
            for p in PILLAR_ORDER
            if p in by_pillar
        }
        out.setdefault(version, []).append(build_row(entrants[entrant_id], version, results, rules=rules))
    return out


def bands(rows_: Sequence[Row], figure: Callable[[Row], Figure | None]) -> list[tuple[Row, stats.Banded]]:
    """The published band rule over the rows that have this figure, best first."""
    by_id = {r.entrant.id: r for r in rows_}
    entries = []
    for r in rows_:
        f = figure(r)
        if f is not None:
            entries.append(stats.Entry(r.entrant.id, f.value, f.low, f.high))
    return [(by_id[b.entry.name], b) for b in overlap_bands(entries)]
