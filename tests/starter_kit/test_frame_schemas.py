"""The frame JSON Schemas generated from frames.yaml: valid JSON Schema, every example frame on the pages conforms,
and the kit's small validator agrees with the jsonschema package."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.frame_schemas import frame_schemas
from generator.pages.frames import example_frames
from starter_kit.protocol import schema as kit_schema
from tests.starter_kit.protocol_support import CONFIG

SCHEMAS = frame_schemas(CONFIG)
EXAMPLES = {name: json.loads(text.text) for name, text in example_frames(CONFIG).items()}


def pillars_of(example: dict[str, Any]) -> list[str]:
    """hello names its pillar; other frames have the same fields on every pillar that uses them."""
    if example["type"] == "hello":
        return [example["pillar"]]
    return list(SCHEMAS[example["type"]])


def test_every_frame_of_frames_yaml_has_a_valid_schema_on_each_of_its_pillars() -> None:
    assert set(SCHEMAS) == set(CONFIG.frames.root)
    for name, spec in CONFIG.frames.root.items():
        assert list(SCHEMAS[name]) == spec.pillars
        for one in SCHEMAS[name].values():
            jsonschema.Draft202012Validator.check_schema(one)
            assert one["properties"]["type"]["const"] == name


def test_pillar_only_fields_appear_only_on_their_pillars() -> None:
    hello = SCHEMAS["hello"]
    assert "task" in hello["llm"]["properties"] and "task" not in hello["asr"]["properties"]
    assert "text" in hello["tts"]["properties"] and "clip" not in hello["tts"]["properties"]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_frame_on_the_pages_conforms_to_its_schema(name: str) -> None:
    example = EXAMPLES[name]
    for pillar in pillars_of(example):
        jsonschema.validate(example, SCHEMAS[example["type"]][pillar])
        assert kit_schema.problems(SCHEMAS[example["type"]][pillar], example) == []


def _mutations() -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    values = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False), st.text(max_size=3),
                       st.lists(st.text(max_size=2), max_size=2), st.lists(st.integers(), max_size=2))  # fmt: skip

    @st.composite
    def mutated(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
        name = draw(st.sampled_from(sorted(EXAMPLES)))
        frame = json.loads(json.dumps(EXAMPLES[name]))
        target = frame
        if "clip" in frame and draw(st.booleans()):
            target = frame["clip"]
        action = draw(st.sampled_from(["drop", "add", "change", "none"]))
        keys = sorted(target)
        if action == "drop" and keys:
            del target[draw(st.sampled_from(keys))]
        elif action == "add":
            target[draw(st.text(min_size=1, max_size=6))] = draw(values)
        elif action == "change" and keys:
            target[draw(st.sampled_from(keys))] = draw(values)
        return name, frame

    return mutated()


@settings(max_examples=300, deadline=None)
@given(_mutations())
def test_the_kits_validator_agrees_with_jsonschema(case: tuple[str, dict[str, Any]]) -> None:
    name, frame = case
    example = EXAMPLES[name]
    for pillar in pillars_of(example):
        one = SCHEMAS[example["type"]][pillar]
        expected = jsonschema.Draft202012Validator(one).is_valid(frame)
        assert (kit_schema.problems(one, frame) == []) == expected


def test_a_frame_that_breaks_the_schema_is_named_in_plain_words() -> None:
    found = kit_schema.problems(SCHEMAS["speaking"]["e2e"], {"type": "speaking", "index": "2", "note": 1})
    assert found == [
        "frame has a field 'note' the protocol does not define",
        "frame.index must be an integer",
    ]
