"""The pure page model: derived values, the words sentences use for numbers, and example-frame validation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.config import load_config
from generator.pages.derive import derive
from generator.pages.frames import example_frames, frame_problems
from generator.pages.words import cardinal, fraction_words, share_words
from generator.paths import Layout
from generator.provenance import Num
from tests.generator.conftest import project_copy

CONFIG = load_config(Layout().config)


def num(value: float) -> Num:
    return Num(value, frozenset({"test"}))


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0.2, "a fifth"),
        (0.4, "two fifths"),
        (0.5, "half"),
        (0.25, "a quarter"),
        (0.75, "three quarters"),
        (0.1, "a tenth"),
        (0.125, "an eighth"),
        (0.33, "33%"),
        (1 / 3, "a third"),
        (77.9, "7790%"),
        (1.5, "150%"),
    ],
)
def test_fractions_read_as_words_or_fall_back_to_a_percentage(value: float, words: str) -> None:
    assert fraction_words(num(value)).text == words


@pytest.mark.parametrize(
    ("share", "words"),
    [
        (0.97, "nearly all"),
        (0.8999, "most"),
        (0.6, "most"),
        (0.5, "about half"),
        (0.3, "a fair part"),
        (0.05, "a little"),
    ],
)
def test_pool_exposure_reads_as_the_word_that_fits(share: float, words: str) -> None:
    assert share_words(num(share)).text == words


@pytest.mark.parametrize(
    ("value", "words"), [(3, "three"), (8, "eight"), (10, "ten"), (12, "12"), (2.5, "2.5")]
)
def test_counts_read_as_words_up_to_ten(value: float, words: str) -> None:
    assert cardinal(num(value)).text == words


def test_derived_values_follow_the_config() -> None:
    d = derive(CONFIG)
    assert d.deadline_example.value == 9000  # max(3000, 18000 × 0.5)
    assert d.deadline_long_example.value == 30000
    assert d.floor_applies_below_ms.value == 6000
    assert [(s.tier, s.clips.value) for s in d.strata] == [("easy", 6), ("normal", 12), ("hard", 12)]
    assert d.pool_exposure.value == pytest.approx(1 - (26 / 56) ** 3)
    assert d.pool_exposure_words.text == "most"
    assert {p.id: round(p.core_weight.value, 4) for p in d.pillars if p.core_weight} == {
        "asr": 0.2667,
        "llm": 0.3333,
        "tts": 0.4,
    }
    assert [(r.rating.value, r.score.value) for r in d.rating_map] == [
        (1, 0),
        (2, 25),
        (3, 50),
        (4, 75),
        (5, 100),
    ]
    assert d.tts_cap_score.value == 50
    assert d.bytes_per_second.value == 32000


def test_a_derived_value_remembers_every_setting_it_came_from() -> None:
    sources = derive(CONFIG).deadline_example.sources
    assert sources == {
        "protocol.deadline.floor_ms",
        "protocol.deadline.factor",
        "protocol.examples.clip_duration_ms",
    }


def test_the_deadline_floor_wins_for_short_clips(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    path = layout.config / "protocol.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("clip_duration_ms: 18000", "clip_duration_ms: 4001"),
        encoding="utf-8",
    )
    assert derive(load_config(layout.config)).deadline_example.value == 3000


HELLO = CONFIG.frames.root["hello"].fields


@pytest.mark.parametrize(
    ("frame", "pillar", "problem"),
    [
        ({"type": "hello"}, "asr", "field 'protocol' is missing"),
        (
            {
                **dict.fromkeys(("protocol", "run_item_id", "pillar"), "x"),
                "type": "hello",
                "clip": {"sample_rate": "16000", "encoding": "e", "duration_ms": 1},
                "deadline_ms": 1,
                "formats": ["e"],
            },
            "asr",
            "field 'sample_rate' must be an integer",
        ),
        (
            {
                **dict.fromkeys(("protocol", "run_item_id", "pillar"), "x"),
                "type": "hello",
                "clip": {"sample_rate": 1, "encoding": "e", "duration_ms": 1},
                "deadline_ms": True,
                "formats": ["e"],
            },
            "asr",
            "field 'deadline_ms' must be an integer",
        ),
        (
            {
                **dict.fromkeys(("protocol", "run_item_id", "pillar", "task"), "x"),
                "type": "hello",
                "clip": {"sample_rate": 1, "encoding": "e", "duration_ms": 1},
                "deadline_ms": 1,
                "formats": ["e"],
            },
            "asr",
            "field 'task' is not in the schema for pillar 'asr'",
        ),
        (
            {
                **dict.fromkeys(("protocol", "run_item_id", "pillar"), "x"),
                "type": "helo",
                "clip": {"sample_rate": 1, "encoding": "e", "duration_ms": 1},
                "deadline_ms": 1,
                "formats": ["e"],
            },
            "asr",
            "field 'type' must be 'hello'",
        ),
    ],
)
def test_a_frame_that_disagrees_with_its_schema_is_described(
    frame: dict[str, Any], pillar: str, problem: str
) -> None:
    assert any(problem in p for p in frame_problems(HELLO, frame, pillar=pillar, where="hello"))


def test_every_published_example_frame_conforms_to_its_schema() -> None:
    frames = example_frames(CONFIG)
    assert set(frames) >= {
        "hello_asr",
        "hello_llm",
        "ready",
        "transcript",
        "turn",
        "barge_in",
        "speaking",
        "turn_done",
    }
    assert json.loads(frames["hello_asr"].text)["deadline_ms"] == 9000


def test_the_floor_timeline_dates_each_floor_only_as_far_as_the_config_knows() -> None:
    timeline = derive(CONFIG).floor_timeline
    first, second, now = timeline
    assert (first.floor.value, first.starts, first.ends and first.ends.text) == (0.2, None, "2026-08")
    assert (second.starts and second.starts.text, second.ends) == ("2026-08", None)
    assert second.ended_by is not None and second.ended_by.text == "2026-09-24"
    assert now.current and now.published_on is not None and now.published_on.text == "2026-09-24"
    assert (now.measured_low and now.measured_low.value, first.scoring_version) == (0.66, None)


def test_downloads_state_the_size_and_sha256_of_the_bytes_given() -> None:
    from generator.pages.downloads import Artefact, downloads

    (listed,) = downloads([Artefact("x", "assets/kit/x.py", "X", b"abc")])
    assert (listed.name.text, listed.size.value) == ("x.py", 3)
    assert listed.sha256.text == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
