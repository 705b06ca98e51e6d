"""Pillar scores on the 0-100 scale, and the Core and Full scores.

Every number (floors, weights, caps, thresholds, percentile) comes from ``ScoringRules``; none is a constant
here. Weighted sums use ``math.fsum`` (exactly rounded, so identical on every runtime).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cvb_scorer.rules import PillarRules, RulesError, ScoringRules
from cvb_scorer.stats import percentile


class ScoreError(ValueError):
    """An input outside what the scoring rules accept; the message says which and why."""


def _clamp(x: float, rules: ScoringRules) -> float:
    return max(rules.score_min, min(rules.score_max, x))


def error_rate_score(error_rate: float, *, rules: ScoringRules, scoring_version: str | None = None) -> float:
    """An error rate to 0-100: 0 errors is the top of the scale, the floor in force (or the floor of
    ``scoring_version``, from the history) and anything above it is the bottom, linear in between."""
    if not error_rate >= 0:
        raise ScoreError(f"An error rate cannot be negative or NaN; got {error_rate}.")
    floor = rules.floors.current
    if scoring_version is not None and scoring_version != rules.scoring_version:
        past = rules.floors.for_version(scoring_version)
        if past is None:
            raise ScoreError(
                f"The floor history names no scoring version {scoring_version!r}; the current one is "
                f"{rules.scoring_version!r}."
            )
        floor = past
    span = rules.score_max - rules.score_min
    return _clamp(rules.score_max - span * min(error_rate, floor) / floor, rules)


def rating_score(rating: float, *, rules: ScoringRules) -> float:
    """A rating on the rating scale (1-5) to 0-100, linearly: the lowest rating is 0, the highest 100."""
    if not rules.rating_min <= rating <= rules.rating_max:
        raise ScoreError(
            f"A rating must be between {rules.rating_min:g} and {rules.rating_max:g}; got {rating}."
        )
    span = rules.rating_max - rules.rating_min
    return rules.score_min + (rules.score_max - rules.score_min) * (rating - rules.rating_min) / span


@dataclass(frozen=True)
class PillarScore:
    """A pillar's 0-100 score. ``final``: no further evaluation will change it. ``measured_not_rated``: it is
    published on a machine measure where the rules foresee a human rating, and the board must say so."""

    pillar: str
    score: float
    final: bool = True
    measured_not_rated: bool = False
    capped: bool = False


def _weights(pillar: PillarRules, field: str, attr: Mapping[str, float] | None) -> Mapping[str, float]:
    if attr is None:
        raise RulesError(f"The scoring rules give pillar {pillar.name!r} no `{field}`.")
    return attr


def tts_score(
    *, delivery: float, tone_survival: float, tones_recovered: int, rules: ScoringRules, final: bool = True
) -> PillarScore:
    """TTS from delivery and tone survival (each 0-100), capped at the rules' rating when no tone survives."""
    pillar = rules.pillar("tts")
    w = _weights(pillar, "sub_weights", pillar.sub_weights)
    for name, value in (("delivery", delivery), ("tone_survival", tone_survival)):
        if not rules.score_min <= value <= rules.score_max:
            raise ScoreError(f"The TTS {name} score must be on the 0-100 scale; got {value}.")
    if tones_recovered < 0:
        raise ScoreError(f"The number of tones recovered cannot be negative; got {tones_recovered}.")
    score = math.fsum((w["delivery"] * delivery, w["tone_survival"] * tone_survival))
    capped = False
    if tones_recovered == 0 and pillar.no_tone_cap_rating is not None:
        cap = rating_score(pillar.no_tone_cap_rating, rules=rules)
        if score > cap:
            score, capped = cap, True
    return PillarScore("tts", _clamp(score, rules), final=final, capped=capped)


def latency_score(p_latency_ms: float, *, rules: ScoringRules) -> float:
    """100 at or below the flat threshold, 0 at or above the zero threshold, linear in between."""
    lat = rules.pillar("e2e").latency
    if lat is None:
        raise RulesError("The scoring rules give pillar 'e2e' no `latency_ms`.")
    if p_latency_ms <= lat.flat_below_ms:
        return rules.score_max
    if p_latency_ms >= lat.zero_at_ms:
        return rules.score_min
    share = (p_latency_ms - lat.flat_below_ms) / (lat.zero_at_ms - lat.flat_below_ms)
    return rules.score_max - (rules.score_max - rules.score_min) * share


def latency_percentile(latencies_ms: Sequence[float], *, rules: ScoringRules) -> float:
    """The rules' percentile (p95) of first-byte latencies, by linear interpolation between order statistics
    (type 7): position ``p * (n - 1)`` in the sorted latencies."""
    lat = rules.pillar("e2e").latency
    if lat is None:
        raise RulesError("The scoring rules give pillar 'e2e' no `latency_ms`.")
    if not latencies_ms:
        raise ScoreError("E2E latency needs at least one measured turn.")
    return percentile(sorted(latencies_ms), lat.percentile / 100.0)


def e2e_score(
    *,
    latencies_ms: Sequence[float],
    yield_ms: Sequence[float],
    turns_completed: int,
    turns_attempted: int,
    naturalness_rating: float | None = None,
    rules: ScoringRules,
    final: bool = True,
) -> PillarScore:
    """E2E: the machine measure (latency, yielding within the threshold, turns completed) until a panel's
    naturalness rating exists, then latency and naturalness. A machine-measured score is flagged
    ``measured_not_rated``. ``yield_ms`` holds, per interruption, how long the system kept speaking."""
    pillar = rules.pillar("e2e")
    if turns_attempted <= 0 or not 0 <= turns_completed <= turns_attempted:
        raise ScoreError(
            f"Turns completed must be between 0 and the turns attempted (> 0); got {turns_completed} of "
            f"{turns_attempted}."
        )
    lat = latency_score(latency_percentile(latencies_ms, rules=rules), rules=rules)
    if naturalness_rating is not None:
        w = _weights(pillar, "rated_weights", pillar.rated_weights)
        nat = rating_score(naturalness_rating, rules=rules)
        score = math.fsum((w["latency"] * lat, w["naturalness"] * nat))
        return PillarScore("e2e", _clamp(score, rules), final=final)
    w = _weights(pillar, "machine_weights", pillar.machine_weights)
    if pillar.yield_within_ms is None:
        raise RulesError("The scoring rules give pillar 'e2e' no `yield_within_ms`.")
    if not yield_ms:
        raise ScoreError("E2E yielding needs at least one interruption turn.")
    yielded = sum(1 for t in yield_ms if t <= pillar.yield_within_ms)
    span = rules.score_max - rules.score_min
    yield_score = rules.score_min + span * yielded / len(yield_ms)
    turns_score = rules.score_min + span * turns_completed / turns_attempted
    score = math.fsum((w["latency"] * lat, w["yielding"] * yield_score, w["turns_completed"] * turns_score))
    return PillarScore("e2e", _clamp(score, rules), final=final, measured_not_rated=True)


@dataclass(frozen=True)
class Composite:
    """Core: the core pillars, weights rescaled to 100. Full: every entered pillar; withheld (None) until
    every entered pillar is final, with the reason as a sentence."""

    core: float | None
    full: float | None
    core_reason: str | None
    full_reason: str | None
    measured_not_rated: tuple[str, ...]


def composite(pillars: Mapping[str, PillarScore], *, rules: ScoringRules) -> Composite:
    for name in pillars:
        rules.pillar(name)  # unknown pillar names are an error, not silently ignored
    core_names = sorted(n for n, p in rules.pillars.items() if p.core)
    missing = [n for n in core_names if n not in pillars]
    core: float | None = None
    core_reason: str | None = None
    if missing:
        core_reason = f"Core Score needs every core pillar; missing: {', '.join(missing)}."
    else:
        core = _weighted({n: pillars[n] for n in core_names}, rules)
    full: float | None = None
    full_reason: str | None = None
    pending = sorted(n for n, p in pillars.items() if not p.final)
    if missing:
        full_reason = f"Full Score needs every core pillar; missing: {', '.join(missing)}."
    elif pending:
        full_reason = (
            f"Full Score is withheld until every entered pillar is final; pending: {', '.join(pending)}."
        )
    else:
        full = _weighted(dict(pillars), rules)
    flagged = tuple(sorted(n for n, p in pillars.items() if p.measured_not_rated))
    return Composite(core, full, core_reason, full_reason, flagged)


def _weighted(pillars: Mapping[str, PillarScore], rules: ScoringRules) -> float:
    names = sorted(pillars)
    weights = [rules.pillar(n).weight for n in names]
    total = math.fsum(weights)
    if total <= 0:
        raise RulesError("The scoring rules give the scored pillars no positive weight.")
    return math.fsum(w * pillars[n].score for w, n in zip(weights, names, strict=True)) / total
