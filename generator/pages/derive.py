"""Values the pages state that are computed from the config, never typed."""

from __future__ import annotations

import math
from dataclasses import dataclass

from cvb_scorer.draw import expected_exposure, stratum_counts

from generator.config import Config
from generator.pages.words import fraction_words, share_words
from generator.provenance import Num, Text, Tracked, num_max, track


@dataclass(frozen=True)
class StratumCount:
    tier: str
    fraction: Num
    fraction_words: Text
    clips: Num


@dataclass(frozen=True)
class PillarWeight:
    id: str
    name: Text
    short: Text
    weight: Num
    core_weight: Num | None
    core: bool


@dataclass(frozen=True)
class RatingPoint:
    rating: Num
    score: Num


@dataclass(frozen=True)
class Derived:
    deadline_example: Num
    deadline_long_example: Num
    floor_applies_below_ms: Num
    strata: list[StratumCount]
    pool_exposure: Num
    pool_exposure_words: Text
    pillars: list[PillarWeight]
    pillar: dict[str, PillarWeight]
    core_total: Num
    rating_map: list[RatingPoint]
    bytes_per_second: Num
    tts_cap_score: Num
    current_floor: Num
    factor_words: Text


def deadline_for(config: Tracked, duration_ms: Num) -> Num:
    """The platform's deadline rule: a factor of the clip's length, never below the floor."""
    deadline = config.protocol.deadline
    # Whole milliseconds, rounded down: the frame carries an integer and the platform never grants extra time.
    scaled = duration_ms * deadline.factor
    return num_max(deadline.floor_ms, Num(math.floor(scaled.value), scaled.sources))


def rating_to_score(scoring: Tracked, rating: Num) -> Num:
    low, high = scoring.rating_scale.min, scoring.rating_scale.max
    top = scoring.score_scale.max
    score: Num = (rating - low) / (high - low) * top
    return score


def derive(config: Config) -> Derived:
    cfg = tracked(config)
    draw, rounds = cfg.rounds.draw, cfg.rounds
    # Clips per tier and the expected share of the pool seen after the quota come from the scorer's draw
    # functions, the very ones that draw runs, so the page cannot drift from the draw.
    shares = {tier: str(f) for tier, f in config.rounds.draw.strata.items()}
    counts = stratum_counts(config.rounds.draw.size, shares)
    draw_sources = draw.size.sources | frozenset({"rounds.draw.strata"})
    strata = [
        StratumCount(tier, fraction, fraction_words(fraction), Num(counts[tier], draw_sources))
        for tier, fraction in draw.strata.items()
    ]
    figure = expected_exposure(
        size=config.rounds.draw.size,
        strata=shares,
        runs=config.rounds.runs_per_round,
        pool_size=config.rounds.pool_size,
    )
    exposure = Num(figure.share, draw_sources | rounds.pool_size.sources | rounds.runs_per_round.sources)
    pillars = cfg.scoring.pillars
    core_ids = [pid for pid, pillar in config.scoring.pillars.items() if pillar.core]
    core_total = Num(0, frozenset())
    for pid in core_ids:
        core_total = core_total + pillars[pid].weight
    weights = [
        PillarWeight(
            id=pid,
            name=p.name,
            short=p.short,
            weight=p.weight,
            core_weight=p.weight / core_total if config.scoring.pillars[pid].core else None,
            core=config.scoring.pillars[pid].core,
        )
        for pid, p in pillars.items()
    ]
    scale = config.scoring.rating_scale
    rating_map = [
        RatingPoint(r, rating_to_score(cfg.scoring, r))
        for r in (
            Num(value, cfg.scoring.rating_scale.min.sources | cfg.scoring.rating_scale.max.sources)
            for value in range(scale.min, scale.max + 1)
        )
    ]
    audio = cfg.protocol.audio
    tts = pillars.tts
    return Derived(
        deadline_example=deadline_for(cfg, cfg.protocol.examples.clip_duration_ms),
        deadline_long_example=deadline_for(cfg, cfg.protocol.examples.long_clip_duration_ms),
        floor_applies_below_ms=cfg.protocol.deadline.floor_ms / cfg.protocol.deadline.factor,
        strata=strata,
        pool_exposure=exposure,
        pool_exposure_words=share_words(exposure),
        pillars=weights,
        pillar={w.id: w for w in weights},
        core_total=core_total,
        rating_map=rating_map,
        bytes_per_second=audio.sample_rate_hz * audio.channels * audio.sample_bits / 8,
        tts_cap_score=rating_to_score(cfg.scoring, tts.no_tone_cap_rating),
        current_floor=cfg.scoring.error_rate_floor_history[
            len(config.scoring.error_rate_floor_history) - 1
        ].floor,
        factor_words=fraction_words(cfg.protocol.deadline.factor),
    )


def tracked(config: Config) -> Tracked:
    """The whole config as one tracked tree: cfg.protocol.deadline.floor_ms is tagged 'protocol.deadline.floor_ms'."""
    files = {
        "platform": config.platform,
        "protocol": config.protocol,
        "frames": config.frames.root,
        "scoring": config.scoring,
        "rounds": config.rounds,
        "failures": config.failures.root,
        "endpointing": config.endpointing,
        "methodology": config.methodology,
        "site": config.site,
    }
    return Tracked(files, "")


__all__ = ["Derived", "derive", "track", "tracked"]
