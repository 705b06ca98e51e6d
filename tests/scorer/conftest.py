"""Shared fixtures for the scorer's tests.

Every test imports the INSTALLED wheel (``make wheel``), the same bytes the browser loads."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from cvb_scorer.rules import ScoringRules, load_packaged_rules, rules_from_mapping

ROOT = Path(__file__).resolve().parents[2]

RULES_MAPPING: dict[str, object] = {
    "schema": 2,
    "scoring_version": "2026-1",
    "score_scale": {"min": 0, "max": 100},
    "rating_scale": {"min": 1, "max": 5},
    "error_rate_floor": {
        "current": 1.0,
        "history": [
            {"scoring_version": None, "floor": 0.2, "effective_from": None, "effective_until": "2026-08"},
            {"scoring_version": None, "floor": 0.6, "effective_from": "2026-08", "effective_until": None},
            {"scoring_version": "2026-1", "floor": 1.0, "effective_from": None, "effective_until": None},
        ],
    },
    "bootstrap": {"resamples": 10000, "interval": 0.95, "seed": 20260924, "min_clips": 30},
    "input": {"max_text_chars": 100000},
    "pillars": {
        "asr": {"weight": 0.20, "core": True},
        "llm": {"weight": 0.25, "core": True},
        "tts": {
            "weight": 0.30,
            "core": True,
            "sub_weights": {"delivery": 0.6, "tone_survival": 0.4},
            "no_tone_cap_rating": 3,
        },
        "e2e": {
            "weight": 0.25,
            "core": False,
            "machine_weights": {"latency": 0.5, "yielding": 0.3, "turns_completed": 0.2},
            "rated_weights": {"latency": 0.4, "naturalness": 0.6},
            "latency_ms": {"flat_below": 300, "zero_at": 2000, "percentile": 95},
            "yield_within_ms": 500,
        },
    },
}


@pytest.fixture(scope="session")
def rules() -> ScoringRules:
    """The agreed rules shape, independent of whatever the packaged file holds."""
    return rules_from_mapping(RULES_MAPPING)


@pytest.fixture(scope="session")
def packaged_rules() -> ScoringRules:
    return load_packaged_rules()


@functools.cache
def hkcancor_utterances() -> tuple[str, ...]:
    """HKCanCor (16,162 utterances of Hong Kong Cantonese), shipped inside pycantonese."""
    pycantonese = pytest.importorskip("pycantonese")
    return tuple("".join(words) for words in pycantonese.hkcancor().words(by_utterance=True))
