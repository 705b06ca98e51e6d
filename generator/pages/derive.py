"""Values the pages state that are computed from the config, never typed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from cvb_scorer.draw import expected_exposure, stratum_counts
from cvb_scorer.stats import Entry

from generator.config import Config
from generator.config.models import FloorEntry
from generator.config.tracked_view import VConfig, VScoringFile
from generator.pages.words import fraction_words, share_words
from generator.provenance import Num, Text, Tracked, num_max, track
from generator.results.bands import chain, overlap_bands


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
class BandRow:
    """One entry of the rank-band example as the scorer's own rank_bands placed it."""

    name: Text
    score: Num
    low: Num
    high: Num
    band: Num
    rank: Num
    leader: Text
    leads: bool


@dataclass(frozen=True)
class BandChain:
    """A band of the example held together by a chain of overlaps: its ends do not overlap each other."""

    path: list[BandRow]  # end to end; consecutive entries overlap
    first: BandRow
    last: BandRow
    between: list[Text]  # the names between the ends
    links: Num
    apart: Num
    pairs: Num


@dataclass(frozen=True)
class FloorPeriod:
    """One error-rate floor as a stretch of time. Unknown bounds are None, never a made-up date."""

    floor: Num
    scoring_version: Text | None
    starts: Text | None
    ends: Text | None
    # When the next floor's start was not announced: the date by which it was in force, so this one had ended.
    ended_by: Text | None
    current: bool
    # For a floor whose start was not announced: the first issue of the pages that carried its scoring version.
    published_on: Text | None
    reason: Text
    measured_low: Num | None
    measured_high: Num | None


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
    band_example: list[BandRow]
    band_chain: BandChain | None
    floor_timeline: list[FloorPeriod]


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
        band_example=band_example(config),
        band_chain=band_chain(band_example(config)),
        floor_timeline=floor_timeline(config),
    )


TBA = "to be announced"


def band_example(config: Config) -> list[BandRow]:
    """The site's example entries put into bands by the board's own rule, so the page shows what the code does."""
    cfg = tracked(config)
    rows = {str(e.name): e for e in cfg.site.rank_band_example}
    every = frozenset({"site.rank_band_example"})
    banded = overlap_bands([Entry(e.name, e.score, e.low, e.high) for e in config.site.rank_band_example])
    return [
        BandRow(
            name=rows[b.entry.name].name,
            score=rows[b.entry.name].score,
            low=rows[b.entry.name].low,
            high=rows[b.entry.name].high,
            band=Num(b.band, every),
            rank=Num(b.rank, every),
            leader=rows[b.leader].name,
            leads=b.leader == b.entry.name,
        )
        for b in banded
    ]


def band_chain(rows: list[BandRow]) -> BandChain | None:
    """The first band of the example whose entries are not all overlapping each other, as the board explains it."""
    every = frozenset({"site.rank_band_example"})
    by_name = {str(r.name): r for r in rows}
    for band in sorted({int(r.band.value) for r in rows}):
        members = [r for r in rows if r.band.value == band]
        found = chain(
            [
                Entry(str(r.name), float(r.score.value), float(r.low.value), float(r.high.value))
                for r in members
            ]
        )
        if found is not None:
            path = [by_name[n] for n in found.path]
            return BandChain(
                path,
                path[0],
                path[-1],
                [r.name for r in path[1:-1]],
                Num(found.links, every),
                Num(found.apart, every),
                Num(found.pairs, every),
            )
    return None


def _unannounced(config: Config, value: object) -> bool:
    """Whether a value is "to be announced", in either edition's words (the Chinese config carries its own)."""
    return str(value) in {TBA, config.glossary.terms["to_be_announced"].zh}


def floor_timeline(config: Config) -> list[FloorPeriod]:
    cfg = tracked(config)
    history = config.scoring.error_rate_floor_history
    periods: list[FloorPeriod] = []
    published = [_first_published(config, entry) for entry in history]
    for index, entry in enumerate(history):
        t = cfg.scoring.error_rate_floor_history[index]
        following = history[index + 1] if index + 1 < len(history) else None
        ends = (
            cfg.scoring.error_rate_floor_history[index + 1].effective_from
            if following is not None and not _unannounced(config, following.effective_from)
            else None
        )
        measured = t.measured_error_rate_range
        periods.append(
            FloorPeriod(
                floor=t.floor,
                scoring_version=None if _unannounced(config, entry.scoring_version) else t.scoring_version,
                starts=None if _unannounced(config, entry.effective_from) else t.effective_from,
                ends=ends,
                ended_by=published[index + 1] if following is not None and ends is None else None,
                current=following is None,
                published_on=published[index],
                reason=t.reason,
                measured_low=measured[0] if measured is not None else None,
                measured_high=measured[1] if measured is not None else None,
            )
        )
    return periods


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


def _first_published(config: Config, entry: FloorEntry) -> Text | None:
    """For a floor whose start was not announced: the date of the first issue of the pages that carried its
    scoring version, the earliest day it is known to have been in force."""
    version = entry.scoring_version
    if not _unannounced(config, entry.effective_from) or _unannounced(config, version):
        return None
    cfg = tracked(config)
    for number, issue in enumerate(config.platform.issues):
        if issue.scoring_version == version:
            found: Text = cfg.platform.issues[number].issued
            return found
    return None
