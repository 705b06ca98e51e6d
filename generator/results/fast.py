"""The board's per-resample statistics by a fast route: the same floats as the plain statistics in
``generator.results.aggregate`` (the reference), without a sorted latency list or a score object per resample.

At 200 entrants x 4 pillars x 10,000 resamples the plain statistics were most of a build, the conversation one
alone about two thirds (it sorted every resample's latencies for the percentile and built a ``PillarScore``).
Three facts make this route exact, not approximate:

- A finite float is an integer times a power of two, so per-clip values scaled to one power of two are integers
  whose sum is exact; ``math.fsum`` returns the correctly rounded exact sum and so does Python's ``int / int``,
  so one division gives the very float ``fsum`` gives.
- Non-negative integer columns packed into bit fields too wide to carry (as ``stats.bootstrap_rates`` packs its
  counts) give every column's sum over a resample in one ``sum``.
- The latency percentile (type 7) needs two order statistics of the resample's latencies. With all clips'
  latencies sorted once, highest first, walking down and adding each clip's multiplicity in the resample reaches
  them after a few steps (the config's percentile sits near the top).

The score formulas after the sums are the scorer's own (``cvb_scorer.scores``), restated on plain floats in the
same order of operations; the latency and rating conversions are called, not restated. A route returns ``None``
when its preconditions do not hold (a value that is not finite, a clip with no latency or no interruption,
more turns completed than attempted), and the caller uses the reference, which then says what is wrong. The
resample indices are the caller's, from ``cvb_scorer.stats.draws``; a property test compares both routes bit for
bit on generated record sets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cvb_scorer import scores
from cvb_scorer.rules import ScoringRules

from generator.results.records import E2eClip, TtsClip


def clip_counts(draws: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    """For each resample, how many times it draws each of the ``n`` clips."""
    out = []
    for idx in draws:
        counts = [0] * n
        for i in idx:
            counts[i] += 1
        out.append(counts)
    return out


def fixed_point(values: Sequence[float]) -> tuple[list[int], int] | None:
    """Non-negative finite floats as integers at one scale ``2**shift`` (exactly), or None."""
    ratios = []
    for v in values:
        if not (math.isfinite(v) and v >= 0):
            return None
        ratios.append(float(v).as_integer_ratio())  # the denominator is a power of two
    shift = max((d.bit_length() - 1 for _, d in ratios), default=0)
    return [num << (shift - (d.bit_length() - 1)) for num, d in ratios], shift


class _Packed:
    """Non-negative integer columns packed one field per column; ``sums`` gives each resample's packed sum."""

    def __init__(self, columns: Sequence[Sequence[int]], *, draw_size: int) -> None:
        top = max((max(col, default=0) for col in columns), default=0)
        # A field holds any sum of draw_size values of its column, so no field carries into the next.
        self.width = max(1, draw_size * top).bit_length() + 1
        self.mask = (1 << self.width) - 1
        n = len(columns[0])
        self.fields = len(columns)
        self.values = [sum(col[c] << (self.width * f) for f, col in enumerate(columns)) for c in range(n)]

    def columns(self, draws: Sequence[Sequence[int]]) -> list[list[int]]:
        """Per column, its sum over each resample (one packed ``sum`` per resample, split afterwards)."""
        get = self.values.__getitem__
        sums = [sum(map(get, idx)) for idx in draws]
        mask = self.mask
        return [
            [(s >> shift) & mask for s in sums] for shift in range(0, self.width * self.fields, self.width)
        ]


def _clamp(x: float, rules: ScoringRules) -> float:
    return max(rules.score_min, min(rules.score_max, x))


def tts_samples(
    clips: Sequence[TtsClip], draws: Sequence[Sequence[int]], *, rules: ScoringRules
) -> list[float] | None:
    """``scores.tts_score(...).score`` of each resample's mean delivery, mean tone survival and tones recovered."""
    n = len(clips)
    delivery = fixed_point([c.delivery for c in clips])
    tone = fixed_point([c.tone_survival for c in clips])
    if n == 0 or delivery is None or tone is None:
        return None
    if any(not rules.score_min <= v <= rules.score_max for c in clips for v in (c.delivery, c.tone_survival)):
        return None  # the reference refuses such a mean; let it say so
    pillar = rules.pillar("tts")
    w = pillar.sub_weights
    if w is None:
        return None
    wd, wt = w["delivery"], w["tone_survival"]
    cap = (
        scores.rating_score(pillar.no_tone_cap_rating, rules=rules)
        if pillar.no_tone_cap_rating is not None
        else None
    )
    (d_ints, d_shift), (t_ints, t_shift) = delivery, tone
    d_scale, t_scale = 1 << d_shift, 1 << t_shift
    packed = _Packed([d_ints, t_ints, [c.tones_recovered for c in clips]], draw_size=n)
    out = []
    for d_sum, t_sum, tones in zip(*packed.columns(draws), strict=True):
        # As tts_score: fsum of the weighted means, the no-tone cap, the clamp.
        score = math.fsum((wd * (d_sum / d_scale / n), wt * (t_sum / t_scale / n)))
        if cap is not None and tones == 0 and score > cap:
            score = cap
        out.append(_clamp(score, rules))
    return out


def e2e_samples(
    clips: Sequence[E2eClip],
    draws: Sequence[Sequence[int]],
    counts: Sequence[Sequence[int]],
    *,
    rules: ScoringRules,
) -> list[float] | None:
    """``scores.e2e_score(...).score`` of each resample (its clips' latencies, yields, turns and ratings pooled);
    ``counts`` is ``clip_counts(draws, len(clips))``."""
    n = len(clips)
    pillar = rules.pillar("e2e")
    lat_rules = pillar.latency
    ratings = [c.naturalness_rating for c in clips]
    rated = all(r is not None for r in ratings)
    if n == 0 or lat_rules is None or any(not c.latencies_ms for c in clips):
        return None
    if any(c.turns_completed > c.turns_attempted for c in clips):
        return None
    nat = fixed_point([r for r in ratings if r is not None]) if rated else ([0] * n, 0)
    if nat is None:
        return None
    weights = pillar.rated_weights if rated else pillar.machine_weights
    within = pillar.yield_within_ms
    if weights is None or (not rated and (within is None or any(not c.yield_ms for c in clips))):
        return None
    yielded = [sum(1 for t in c.yield_ms if t <= within) for c in clips] if within is not None else [0] * n
    nat_ints, nat_shift = nat
    nat_scale = 1 << nat_shift
    packed = _Packed(
        [
            [len(c.latencies_ms) for c in clips],
            yielded,
            [len(c.yield_ms) for c in clips],
            [c.turns_completed for c in clips],
            [c.turns_attempted for c in clips],
            nat_ints,
        ],
        draw_size=n,
    )
    # Every latency once, highest first, with its clip: a resample holds each clip's latencies as many times as
    # it draws the clip, so its order statistics from the top are where the running multiplicity passes them.
    ranked = sorted(((v, c) for c, clip in enumerate(clips) for v in clip.latencies_ms), reverse=True)
    p = lat_rules.percentile / 100.0
    smin, span = rules.score_min, rules.score_max - rules.score_min
    w_lat = weights["latency"]
    # Resamples share their top latencies, so few percentiles occur: each is converted once.
    latency_scores: dict[float, float] = {}
    out = []
    for m, yielded_sum, yields, done, tried, nat_sum, cnt in zip(*packed.columns(draws), counts, strict=True):
        # stats.percentile on the sorted resample: positions lo and hi from the bottom, a and b their values.
        pos = p * (m - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, m - 1)
        frac = pos - lo
        need_b, need_a = m - 1 - hi, m - 1 - lo
        seen = 0
        a = b = None
        for value, clip in ranked:
            seen += cnt[clip]
            if b is None and seen > need_b:
                b = value
            if seen > need_a:
                a = value
                break
        assert a is not None and b is not None  # the walk covers all m latencies
        p_latency = a + (b - a) * frac
        lat = latency_scores.get(p_latency)
        if lat is None:
            lat = latency_scores[p_latency] = scores.latency_score(p_latency, rules=rules)
        if rated:
            naturalness = scores.rating_score(nat_sum / nat_scale / n, rules=rules)
            score = math.fsum((w_lat * lat, weights["naturalness"] * naturalness))
        else:
            yield_score = smin + span * yielded_sum / yields
            turns_score = smin + span * done / tried
            score = math.fsum(
                (w_lat * lat, weights["yielding"] * yield_score, weights["turns_completed"] * turns_score)
            )
        out.append(_clamp(score, rules))
    return out
