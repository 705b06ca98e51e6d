"""A bad config is refused with a sentence naming the file, the line and the key; nothing is built."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.config import ConfigError, load_config
from generator.paths import Layout

CONFIG = Layout().config


def edit(name: str, old: str, new: str) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"test setup: {old!r} not found in {name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return apply


def line_of(name: str, needle: str, *, occurrence: int = 1) -> int:
    """The line of the needle's `occurrence`-th appearance in the file (-1: its last)."""
    found = [
        number
        for number, line in enumerate((CONFIG / name).read_text(encoding="utf-8").splitlines(), start=1)
        if needle in line
    ]
    if not found or occurrence > len(found):
        raise AssertionError(f"{needle!r} not in {name} {occurrence} times")
    return found[occurrence - 1] if occurrence > 0 else found[occurrence]


# The issue in force is the last record: a version bump is checked against it.
LATEST_ISSUE = (CONFIG / "platform.yaml").read_text(encoding="utf-8").count("\n  - issued: ") - 1


# (case id, edit, file, line of the key in the pristine file, key, words the sentence must contain)
CASES = [
    (
        "wrong type: a quoted number",
        edit("protocol.yaml", "floor_ms: 3000", 'floor_ms: "3000"'),
        "protocol.yaml",
        line_of("protocol.yaml", "floor_ms: 3000"),
        "deadline.floor_ms",
        "valid integer",
    ),
    (
        "wrong type: text for a weight",
        edit("scoring.yaml", "weight: 0.20", "weight: twenty"),
        "scoring.yaml",
        line_of("scoring.yaml", "weight: 0.20"),
        "pillars.asr.weight",
        "valid number",
    ),
    (
        "missing key",
        edit("protocol.yaml", "handshake_timeout_ms: 5000\n", ""),
        "protocol.yaml",
        2,
        "handshake_timeout_ms",
        "required key is missing",
    ),
    (
        "a scored run with no attempt per item",
        edit("protocol.yaml", "  max_attempts: 3", "  max_attempts: 0"),
        "protocol.yaml",
        line_of("protocol.yaml", "  max_attempts: 3"),
        "scored_run.max_attempts",
        "greater than 0",
    ),
    (
        "unknown key",
        edit("rounds.yaml", "runs_per_round: 3", "runs_per_round: 3\nrun_per_round: 4"),
        "rounds.yaml",
        line_of("rounds.yaml", "runs_per_round: 3") + 1,
        "run_per_round",
        "not known here",
    ),
    (
        "weights that do not add up",
        edit("scoring.yaml", "weight: 0.20", "weight: 0.30"),
        "scoring.yaml",
        line_of("scoring.yaml", "pillars:"),
        "pillars",
        "must add up to 1",
    ),
    (
        "sub-weights that do not add up",
        edit(
            "scoring.yaml",
            "sub_weights: {delivery: 0.6, tone_survival: 0.4}",
            "sub_weights: {delivery: 0.7, tone_survival: 0.4}",
        ),
        "scoring.yaml",
        line_of("scoring.yaml", "sub_weights:"),
        "pillars.tts.sub_weights",
        "must add up to 1",
    ),
    (
        "a draw larger than the pool",
        edit("rounds.yaml", "pool_size: 56", "pool_size: 25"),
        "rounds.yaml",
        line_of("rounds.yaml", "size: 30"),
        "draw.size",
        "cannot come from a pool of 25",
    ),
    (
        "strata that do not add to the draw",
        edit("rounds.yaml", "hard: 0.4", "hard: 0.3"),
        "rounds.yaml",
        line_of("rounds.yaml", "strata:"),
        "draw.strata",
        "must add up to the whole draw",
    ),
    (
        "a stratum that is not a whole number of clips",
        edit("rounds.yaml", "size: 30", "size: 32"),
        "rounds.yaml",
        line_of("rounds.yaml", "easy: 0.2"),
        "draw.strata.easy",
        "whole number",
    ),
    (
        "floor history out of date order",
        edit(
            "scoring.yaml",
            "effective_from: to be announced\n    reason: >-",
            "effective_from: 2026-07\n    reason: >-",
        ),
        "scoring.yaml",
        line_of("scoring.yaml", "effective_from:", occurrence=3),
        "error_rate_floor_history[2].effective_from",
        "date order",
    ),
    (
        "an unknown pillar",
        edit(
            "protocol.yaml",
            "  e2e: {starts_at: end_of_utterance, stops_at: speaking}",
            "  e2e: {starts_at: end_of_utterance, stops_at: speaking}\n  asr2: {starts_at: hello, stops_at: speaking}",
        ),
        "protocol.yaml",
        line_of("protocol.yaml", "  e2e: {starts_at") + 1,
        "clock.asr2",
        "unknown pillar 'asr2'",
    ),
    (
        "a frame naming an unknown pillar",
        edit(
            "frames.yaml",
            "  pillars: [e2e]\n  purpose: One numbered",
            "  pillars: [e2e, chat]\n  purpose: One numbered",
        ),
        "frames.yaml",
        line_of("frames.yaml", "purpose: One numbered") - 1,
        "turn.pillars[1]",
        "unknown pillar 'chat'",
    ),
    (
        "frame bytes that disagree with the audio format",
        edit("protocol.yaml", "frame_bytes: 3200", "frame_bytes: 3000"),
        "protocol.yaml",
        line_of("protocol.yaml", "frame_bytes: 3200"),
        "audio.frame_bytes",
        "is 3200 bytes, not 3000",
    ),
    (
        "protocol version without an issue record",
        edit("protocol.yaml", 'version: "1.2"', 'version: "1.3"'),
        "platform.yaml",
        line_of("platform.yaml", 'protocol: "1.2"', occurrence=-1),
        f"issues[{LATEST_ISSUE}].protocol",
        "cvb issue new --protocol 1.3",
    ),
    (
        "an impossible date",
        edit("platform.yaml", "issued: 2026-09-24", "issued: 2026-02-30"),
        "platform.yaml",
        line_of("platform.yaml", "issued: 2026-09-24"),
        "issues[0].issued",
        "2026-02-30 is not a day of the calendar",
    ),
    (
        "a quoted date",
        edit("platform.yaml", "issued: 2026-09-24", 'issued: "2026-09-24"'),
        "platform.yaml",
        line_of("platform.yaml", "issued: 2026-09-24"),
        "issues[0].issued",
        "write the date without quotes (2026-09-24, not '2026-09-24')",
    ),
    (
        "a quoted date where 'to be announced' may stand",
        edit("platform.yaml", "opens: to be announced", 'opens: "2026-10-05"'),
        "platform.yaml",
        line_of("platform.yaml", "opens: to be announced"),
        "rounds[0].opens",
        "write the date without quotes (2026-10-05, not '2026-10-05')",
    ),
    (
        "a misspelt pillar",
        edit("scoring.yaml", "\n  asr:", "\n  asrr:"),
        "scoring.yaml",
        line_of("scoring.yaml", "  asr:"),
        "pillars.asrr",
        "call it 'asr'; correct the spelling",
    ),
    (
        "more held-out clips than the pool",
        edit("rounds.yaml", "held_out_size: 11", "held_out_size: 60"),
        "rounds.yaml",
        line_of("rounds.yaml", "held_out_size: 11"),
        "held_out_size",
        "60 held-out clips must be fewer than the pool of 56",
    ),
    (
        "a duplicated key",
        edit("rounds.yaml", "pool_size: 56", "pool_size: 56\npool_size: 60"),
        "rounds.yaml",
        line_of("rounds.yaml", "pool_size: 56") + 1,
        "pool_size",
        "appears twice",
    ),
    (
        "invalid YAML",
        edit("rounds.yaml", "runs_per_round: 3", "runs_per_round: [3"),
        "rounds.yaml",
        None,
        "(top level)",
        "not valid YAML",
    ),
    (
        "held-out ids that overlap the shipped ones",
        edit("endpointing.yaml", "held_out_ids: [38,", "held_out_ids: [20,"),
        "endpointing.yaml",
        line_of("endpointing.yaml", "held_out_ids:"),
        "release.held_out_ids",
        "both shipped and held out",
    ),
    (
        "a malformed month",
        edit("scoring.yaml", "effective_from: 2026-08", "effective_from: 2026-13"),
        "scoring.yaml",
        line_of("scoring.yaml", "effective_from: 2026-08"),
        "error_rate_floor_history[1].effective_from",
        "found '2026-13'",
    ),
    (
        "a speech pillar without its cap",
        edit("scoring.yaml", "    no_tone_cap_rating: 3\n", ""),
        "scoring.yaml",
        line_of("scoring.yaml", "  tts:"),
        "pillars.tts.no_tone_cap_rating",
        "capped at when no tone survives",
    ),
    (
        "no round the standings count",
        edit("platform.yaml", "    standing: true\n", ""),
        "platform.yaml",
        line_of("platform.yaml", "rounds:"),
        "rounds",
        "exactly one round must have `standing: true`",
    ),
    (
        "two rounds the standings count",
        edit(
            "platform.yaml",
            "    purpose: decides who continues\n",
            "    purpose: decides who continues\n    standing: true\n",
        ),
        "platform.yaml",
        line_of("platform.yaml", "rounds:"),
        "rounds",
        "found qualification, online_challenge",
    ),
]


# Cases where one edit once gave several messages (a traceback, a message per union member, 16 for a pillar).
ONE_MESSAGE = {
    "an impossible date",
    "a quoted date",
    "a quoted date where 'to be announced' may stand",
    "a misspelt pillar",
    "more held-out clips than the pool",
}


@pytest.mark.parametrize(("case", "mutate", "file", "line", "key", "words"), CASES, ids=[c[0] for c in CASES])
def test_bad_config_is_refused_with_file_line_and_key(
    tmp_path: Path,
    case: str,
    mutate: Callable[[Path], None],
    file: str,
    line: int | None,
    key: str,
    words: str,
) -> None:
    folder = tmp_path / "platform_config"
    shutil.copytree(CONFIG, folder)
    mutate(folder)
    with pytest.raises(ConfigError) as caught:
        load_config(folder)
    messages = [str(p) for p in caught.value.problems]
    expected_where = f"{folder / file}, line {line}" if line is not None else f"{folder / file}, line"
    matching = [m for m in messages if m.startswith(expected_where) and f"key {key}:" in m and words in m]
    assert matching, f"{case}: no problem matched {expected_where!r} / {key!r} / {words!r} in {messages}"
    assert all(re.search(r"[.;)]$", m) for m in messages), "every message ends as a sentence"
    if case in ONE_MESSAGE:
        assert messages == matching, f"{case}: one message, at the line that is wrong: {messages}"


def test_the_shipped_config_is_valid() -> None:
    config = load_config(CONFIG)
    assert config.protocol.version == config.platform.issues[-1].protocol


def test_a_missing_config_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nowhere")


def test_a_stray_file_in_the_config_folder_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "platform_config"
    shutil.copytree(CONFIG, folder)
    (folder / "weights.yaml").write_text("asr: 0.2\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"weights\.yaml.*not read"):
        load_config(folder)


@pytest.mark.parametrize("clips", [50, 60])
def test_a_pool_of_another_size_than_the_config_says_is_reported(tmp_path: Path, clips: int) -> None:
    from generator.check import pool_problems

    config = load_config(CONFIG)
    folder = tmp_path / "results"
    (folder / "pools").mkdir(parents=True)
    lines = "".join(f'{{"id": "c{i}", "tier": "easy"}}\n' for i in range(clips))
    (folder / "pools" / "online_challenge.jsonl").write_text(lines, encoding="utf-8")
    found = pool_problems(Layout(), config, folder)
    assert len(found) == 1 and found[0].message.startswith(
        f"the pool holds {clips} clips but rounds.pool_size is {config.rounds.pool_size}"
    )
    whole = "".join(f'{{"id": "c{i}", "tier": "easy"}}\n' for i in range(config.rounds.pool_size))
    (folder / "pools" / "online_challenge.jsonl").write_text(whole, encoding="utf-8")
    assert pool_problems(Layout(), config, folder) == []


def test_a_pool_no_larger_than_the_held_out_set_is_reported_beside_its_size(tmp_path: Path) -> None:
    from generator.check import pool_problems

    config = load_config(CONFIG)
    folder = tmp_path / "results"
    (folder / "pools").mkdir(parents=True)
    held_out = config.rounds.held_out_size
    lines = "".join(f'{{"id": "c{i}", "tier": "easy"}}\n' for i in range(held_out))
    (folder / "pools" / "online_challenge.jsonl").write_text(lines, encoding="utf-8")
    found = [p.message for p in pool_problems(Layout(), config, folder)]
    assert len(found) == 2 and found[0].startswith(f"the pool holds {held_out} clips"), found
    assert found[1] == f"rounds.held_out_size ({held_out}) is not fewer than the pool's clips"
    more = "".join(f'{{"id": "c{i}", "tier": "easy"}}\n' for i in range(held_out + 1))
    (folder / "pools" / "online_challenge.jsonl").write_text(more, encoding="utf-8")
    # One clip more than the held-out set: only the size is wrong now.
    [size] = pool_problems(Layout(), config, folder)
    assert size.message.startswith(f"the pool holds {held_out + 1} clips")


def test_a_draw_change_names_the_command_that_remakes_the_example_records(tmp_path: Path) -> None:
    from generator.build import render_all
    from generator.site_build.standings import EXAMPLE_TOOL, BadRecordsError
    from tests.generator.conftest import project_copy

    layout = project_copy(tmp_path)
    size = load_config(layout.config).rounds.draw.size
    edit("rounds.yaml", f"size: {size}", f"size: {size + 5}")(layout.config)
    with pytest.raises(BadRecordsError) as refused:
        render_all(layout, results=layout.root / "results" / "example")
    first = str(refused.value).splitlines()[0]
    assert f"remake them with `{EXAMPLE_TOOL}`" in first
