"""Values the pages state that are computed from the config, never typed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from generator.config import Config
from generator.config.tracked_view import VConfig, VScoringFile
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


def deadline_for(config: VConfig, duration_ms: Num) -> Num:
    """The platform's deadline rule: a factor of the clip's length, never below the floor."""
    deadline = config.protocol.deadline
    # Whole milliseconds, rounded down: the frame carries an integer and the platform never grants extra time.
    scaled = duration_ms * deadline.factor
    return num_max(deadline.floor_ms, Num(math.floor(scaled.value), scaled.sources))


def rating_to_score(scoring: VScoringFile, rating: Num) -> Num:
    low, high = scoring.rating_scale.min, scoring.rating_scale.max
    top = scoring.score_scale.max
    score: Num = (rating - low) / (high - low) * top
    return score


def derive(config: Config) -> Derived:
    cfg = tracked(config)
    draw, rounds = cfg.rounds.draw, cfg.rounds
    strata = [
        StratumCount(tier, fraction, fraction_words(fraction), fraction * draw.size)
        for tier, fraction in draw.strata.items()
    ]
    # Expected share of the pool an entrant has seen after every run in the quota, assuming each run's draw
    # is uniform over the pool: 1 - (1 - draw/pool)^runs. Stratification changes this only slightly.
    unseen = (1 - draw.size / rounds.pool_size) ** rounds.runs_per_round
    exposure = 1 - unseen
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
    cap = tts.no_tone_cap_rating
    if cap is None:  # the model allows it per pillar; the speech pillar's page sentence needs it
        raise ValueError("scoring.yaml: pillars.tts.no_tone_cap_rating is required for the speech pillar.")
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
        tts_cap_score=rating_to_score(cfg.scoring, cap),
        current_floor=cfg.scoring.error_rate_floor_history[
            len(config.scoring.error_rate_floor_history) - 1
        ].floor,
        factor_words=fraction_words(cfg.protocol.deadline.factor),
    )


def tracked(config: Config) -> VConfig:
    """The whole config as one tracked tree: cfg.protocol.deadline.floor_ms is tagged 'protocol.deadline.floor_ms'.

    Typed as the generated VConfig, so a misspelt key is a mypy error; at run time it is a Tracked view."""
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
    return cast(VConfig, Tracked(files, ""))


__all__ = ["Derived", "derive", "track", "tracked"]
