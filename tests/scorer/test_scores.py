"""Pillar scores, Core and Full, from the rules (never constants)."""

from __future__ import annotations

import dataclasses

import pytest
from cvb_scorer.rules import ScoringRules, rules_from_mapping
from cvb_scorer.scores import (
    PillarScore,
    ScoreError,
    composite,
    e2e_score,
    error_rate_score,
    latency_percentile,
    latency_score,
    rating_score,
    tts_score,
)

from tests.scorer.conftest import RULES_MAPPING


@pytest.mark.parametrize(("cer", "score"), [(0.0, 100.0), (0.12, 88.0), (0.5, 50.0), (1.0, 0.0), (1.7, 0.0)])
def test_error_rate_maps_linearly_with_the_floor_in_force(
    rules: ScoringRules, cer: float, score: float
) -> None:
    assert error_rate_score(cer, rules=rules) == pytest.approx(score)


def test_the_floor_comes_from_the_rules(rules: ScoringRules) -> None:
    mapping = {**RULES_MAPPING, "error_rate_floor": {"current": 0.6, "history": []}}
    assert error_rate_score(0.3, rules=rules_from_mapping(mapping)) == pytest.approx(50.0)
    assert error_rate_score(0.6, rules=rules_from_mapping(mapping)) == 0.0


def test_a_past_scoring_version_uses_its_floor_from_the_history(rules: ScoringRules) -> None:
    assert error_rate_score(0.5, rules=rules, scoring_version="2026-1") == pytest.approx(50.0)
    with pytest.raises(ScoreError, match="names no scoring version"):
        error_rate_score(0.5, rules=rules, scoring_version="2025-9")


def test_floor_history_with_unannounced_versions_parses(rules: ScoringRules) -> None:
    assert [e.floor for e in rules.floors.history] == [0.2, 0.6, 1.0]
    assert rules.floors.history[0].scoring_version is None
    assert rules.floors.for_version("2026-1") == 1.0


@pytest.mark.parametrize(("rating", "score"), [(1, 0.0), (3, 50.0), (5, 100.0), (4.5, 87.5)])
def test_ratings_map_straight_across(rules: ScoringRules, rating: float, score: float) -> None:
    assert rating_score(rating, rules=rules) == score


def test_rating_outside_the_scale_is_refused_with_a_sentence(rules: ScoringRules) -> None:
    with pytest.raises(ScoreError, match="between 1 and 5"):
        rating_score(6, rules=rules)


def test_tts_weights_delivery_and_tone_survival(rules: ScoringRules) -> None:
    s = tts_score(delivery=100, tone_survival=50, tones_recovered=6, rules=rules)
    assert s.score == pytest.approx(80.0) and not s.capped


def test_tts_is_capped_when_no_tone_is_recovered(rules: ScoringRules) -> None:
    # A 180 Hz sine wave passes every delivery check: without the cap it would score 60.
    s = tts_score(delivery=100, tone_survival=0, tones_recovered=0, rules=rules)
    assert s.score == 50.0 and s.capped


def test_latency_is_flat_below_and_zero_at_the_thresholds(rules: ScoringRules) -> None:
    assert latency_score(120, rules=rules) == 100.0
    assert latency_score(300, rules=rules) == 100.0
    assert latency_score(1150, rules=rules) == pytest.approx(50.0)
    assert latency_score(2000, rules=rules) == 0.0
    assert latency_score(3000, rules=rules) == 0.0


def test_latency_percentile_is_type_7(rules: ScoringRules) -> None:
    assert latency_percentile([float(x) for x in range(1, 101)], rules=rules) == pytest.approx(95.05)


def test_e2e_machine_measure_is_flagged_measured_not_rated(rules: ScoringRules) -> None:
    s = e2e_score(
        latencies_ms=[200] * 20, yield_ms=[100, 900], turns_completed=3, turns_attempted=3, rules=rules
    )
    assert s.measured_not_rated
    assert s.score == pytest.approx(0.5 * 100 + 0.3 * 50 + 0.2 * 100)


def test_e2e_with_a_naturalness_rating_uses_the_rated_weights(rules: ScoringRules) -> None:
    s = e2e_score(
        latencies_ms=[200] * 20, yield_ms=[100], turns_completed=3, turns_attempted=3, naturalness_rating=3,
        rules=rules,
    )  # fmt: skip
    assert not s.measured_not_rated
    assert s.score == pytest.approx(0.4 * 100 + 0.6 * 50)


def test_core_rescales_core_pillars_and_full_is_withheld_until_final(rules: ScoringRules) -> None:
    pillars = {
        "asr": PillarScore("asr", 80.0),
        "llm": PillarScore("llm", 60.0),
        "tts": PillarScore("tts", 70.0),
        "e2e": PillarScore("e2e", 90.0, final=False, measured_not_rated=True),
    }
    c = composite(pillars, rules=rules)
    assert c.core == pytest.approx((0.2 * 80 + 0.25 * 60 + 0.3 * 70) / 0.75)
    assert c.full is None and c.full_reason is not None and "e2e" in c.full_reason
    assert c.measured_not_rated == ("e2e",)
    final = composite({**pillars, "e2e": dataclasses.replace(pillars["e2e"], final=True)}, rules=rules)
    assert final.full == pytest.approx(0.2 * 80 + 0.25 * 60 + 0.3 * 70 + 0.25 * 90)


def test_full_covers_only_entered_pillars(rules: ScoringRules) -> None:
    pillars = {n: PillarScore(n, 50.0) for n in ("asr", "llm", "tts")}
    c = composite(pillars, rules=rules)
    assert c.core == pytest.approx(50.0) and c.full == pytest.approx(50.0)


def test_core_needs_every_core_pillar(rules: ScoringRules) -> None:
    c = composite({"asr": PillarScore("asr", 50.0)}, rules=rules)
    assert c.core is None and c.core_reason is not None and "llm" in c.core_reason
