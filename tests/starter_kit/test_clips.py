"""The built-in clips are real espeak-ng Cantonese speech in the protocol's format, listed shortest first with
their text and length, and a rebuild writes the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cvb_scorer.audio import measure, wav_pcm

from generator.audio_stats import audio_format, measure_settings
from generator.config import load_config
from generator.paths import Layout
from starter_kit.clips import build_clips

CONFIG = load_config(Layout().config)


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("build") / "clips"
    build_clips(CONFIG, target)
    return target


def test_every_configured_sentence_is_a_clip_listed_shortest_first(clips: Path) -> None:
    listing = json.loads((clips / "clips.json").read_text(encoding="utf-8"))
    texts = {c.id: c.text for c in CONFIG.protocol.builtin_clips.texts}
    assert {entry["id"]: entry["text"] for entry in listing} == texts
    assert [set(entry) for entry in listing] == [{"id", "file", "text", "seconds"}] * len(texts)
    assert [e["seconds"] for e in listing] == sorted(e["seconds"] for e in listing)
    assert sorted(p.name for p in clips.iterdir()) == sorted(["clips.json", *(e["file"] for e in listing)])


def test_each_clip_is_speech_in_the_protocols_format_and_as_long_as_listed(clips: Path) -> None:
    audio = audio_format(CONFIG)
    for entry in json.loads((clips / "clips.json").read_text(encoding="utf-8")):
        stats = measure(wav_pcm((clips / entry["file"]).read_bytes(), audio), audio, measure_settings(CONFIG))
        assert stats.duration_s == pytest.approx(entry["seconds"], abs=0.001)
        # Longer sentences take longer to say; a handful of syllables a second, as people speak.
        assert 0.05 < stats.duration_s / len(entry["text"]) < 0.5
        assert stats.clipped_share == 0
        assert stats.median_level_dbfs is not None and stats.median_level_dbfs > -40


def test_a_rebuild_writes_the_same_bytes(clips: Path, tmp_path: Path) -> None:
    again = tmp_path / "clips"
    build_clips(CONFIG, again)
    assert {p.name: p.read_bytes() for p in again.iterdir()} == {
        p.name: p.read_bytes() for p in clips.iterdir()
    }
