"""The platform's numbers come from scoring_rules.json, parsed into frozen dataclasses."""

from __future__ import annotations

import copy
import json

import pytest
from cvb_scorer.rules import (
    RulesError,
    ScoringRules,
    load_packaged_rules,
    rules_from_json,
    rules_from_mapping,
)

from tests.scorer.conftest import RULES_MAPPING


def test_packaged_rules_load_from_the_wheel(packaged_rules: ScoringRules) -> None:
    assert packaged_rules is load_packaged_rules()
    assert packaged_rules.bootstrap.resamples >= 1
    assert {"asr", "llm", "tts", "e2e"} <= set(packaged_rules.pillars)


def test_agreed_shape_parses(rules: ScoringRules) -> None:
    assert rules.scoring_version == "2026-1"
    assert rules.bootstrap.seed == 20260924 and rules.bootstrap.interval == 0.95
    assert rules.pillar("tts").sub_weights == {"delivery": 0.6, "tone_survival": 0.4}
    lat = rules.pillar("e2e").latency
    assert lat is not None and (lat.flat_below_ms, lat.zero_at_ms, lat.percentile) == (300, 2000, 95)


def test_rules_are_frozen(rules: ScoringRules) -> None:
    with pytest.raises(AttributeError):
        rules.scoring_version = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("bootstrap"), "lack `bootstrap`"),
        (lambda d: d.update(schema=2), "schema 2"),
        (lambda d: d["bootstrap"].update(resamples="many"), "must be a number"),
        (lambda d: d["error_rate_floor"].update(current=0), "above 0"),
        (lambda d: d["bootstrap"].update(interval=95), "interval"),
    ],
)
def test_malformed_rules_are_refused_with_a_sentence(mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(RULES_MAPPING)
    mutate(data)
    with pytest.raises(RulesError, match=message):
        rules_from_mapping(data)


def test_rules_json_errors_name_the_source() -> None:
    with pytest.raises(RulesError, match=r"my\.json is not valid JSON"):
        rules_from_json("{", source="my.json")
    assert rules_from_json(json.dumps(RULES_MAPPING)).scoring_version == "2026-1"


def test_unknown_pillar_is_an_error(rules: ScoringRules) -> None:
    with pytest.raises(RulesError, match="no pillar 'xyz'"):
        rules.pillar("xyz")
