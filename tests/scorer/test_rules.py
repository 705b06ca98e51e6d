"""The platform's numbers come from scoring_rules.json, parsed into frozen dataclasses."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from typing import Any

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


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value

    return mutate


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[key]
        del node[last]

    return mutate


# Each malformed rules file is refused with one sentence naming the file, the key and what is wrong, in the
# config's style ("FILE, key KEY: PROBLEM.").
MALFORMED: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_drop("bootstrap"), "key bootstrap: this required key is missing"),
    (_drop("input"), "key input: this required key is missing"),
    (_set("schema", 1), "key schema: is 1, but this scorer reads schema 2"),
    (_set("schema", "2"), "key schema: must be a whole number, not '2'"),
    (_set("bootstrap.resamples", 2.7), "key bootstrap.resamples: must be a whole number, not 2.7"),
    (_set("bootstrap.resamples", 10000.0), "key bootstrap.resamples: must be a whole number, not 10000.0"),
    (_set("bootstrap.resamples", 0), "key bootstrap.resamples: must be at least 1, not 0"),
    (_set("bootstrap.resamples", True), "key bootstrap.resamples: must be a whole number, not True"),
    (_set("bootstrap.resamples", "many"), "key bootstrap.resamples: must be a whole number, not 'many'"),
    (_set("bootstrap.seed", -1), "key bootstrap.seed: must be at least 0, not -1"),
    (_set("bootstrap.min_clips", 0.5), "key bootstrap.min_clips: must be a whole number"),
    (_set("bootstrap.interval", 95), "key bootstrap.interval: must lie strictly between 0 and 1"),
    (_set("bootstrap.interval", None), "key bootstrap.interval: must be a finite number, not null"),
    (_set("bootstrap.resample", 5), "key bootstrap.resample: this key is not known here"),
    (_set("input.max_text_chars", -5), "key input.max_text_chars: must be at least 1, not -5"),
    (_set("input", [1]), "key input: must be a JSON object, not a list"),
    (_set("error_rate_floor.current", 0), "key error_rate_floor.current: must be above 0, not 0"),
    (
        _set("error_rate_floor.history", {"a": 1}),
        "key error_rate_floor.history: must be a list, not an object",
    ),
    (_set("error_rate_floor.history.0", 3), "key error_rate_floor.history[0]: must be a JSON object, not 3"),
    (
        _set("error_rate_floor.history.1.floor", "high"),
        "key error_rate_floor.history[1].floor: must be a finite",
    ),
    (_set("scoring_version", ""), "key scoring_version: must be a non-empty string, not ''"),
    (_set("score_scale", {"min": 100, "max": 0}), "key score_scale: needs min below max, not 100 and 0"),
    (_set("pillars", []), "key pillars: must be a non-empty object of pillars, not a list"),
    (_set("pillars.asr", "heavy"), "key pillars.asr: must be a JSON object, not 'heavy'"),
    (_set("pillars.asr.core", "yes"), "key pillars.asr.core: must be true or false, not 'yes'"),
    (_set("pillars.tts.sub_weights", 1), "key pillars.tts.sub_weights: must be an object of weights, not 1"),
    (
        _set("pillars.tts.sub_weights.delivery", None),
        "key pillars.tts.sub_weights.delivery: must be a finite",
    ),
    (
        _set("pillars.e2e.latency_ms", {"flat_below": 1}),
        "key pillars.e2e.latency_ms.zero_at: this required key",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), MALFORMED)
def test_malformed_rules_are_refused_with_file_key_and_problem(
    mutate: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = copy.deepcopy(RULES_MAPPING)
    mutate(data)
    with pytest.raises(RulesError) as refused:
        rules_from_json(json.dumps(data), source="my-rules.json")
    assert str(refused.value).startswith(f"my-rules.json, {message}")
    assert str(refused.value).endswith(".")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "my.json is not valid JSON: Expecting property name enclosed in double quotes at column 2."),
        ("[" * 100_000, "my.json is not valid JSON: its brackets nest too deeply to read."),
        (
            '{"schema": 2, "schema": 2}',
            'my.json is not valid JSON: the key "schema" appears twice in one object.',
        ),
        ("[1, 2]", "my.json: must be a JSON object, not a list."),
        (
            json.dumps({**RULES_MAPPING, "bootstrap": {**RULES_MAPPING["bootstrap"], "interval": math.nan}}),  # type: ignore[dict-item]
            "my.json, key bootstrap.interval: must be a finite number, not nan.",
        ),
        (
            "\n\n  {]",
            "my.json is not valid JSON: Expecting property name enclosed in double quotes at line 3",
        ),
    ],
)
def test_unreadable_rules_json_is_refused_with_a_sentence(text: str, message: str) -> None:
    with pytest.raises(RulesError) as refused:
        rules_from_json(text, source="my.json")
    assert str(refused.value).startswith(message)


def test_rules_round_trip() -> None:
    assert rules_from_json(json.dumps(RULES_MAPPING)).scoring_version == "2026-1"
    assert rules_from_mapping(RULES_MAPPING).input.max_text_chars == 100000


def test_unknown_pillar_is_an_error(rules: ScoringRules) -> None:
    with pytest.raises(RulesError, match="no pillar 'xyz'"):
        rules.pillar("xyz")
