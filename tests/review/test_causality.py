"""The causality probe on toy models with known answers, run through the real subprocess worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.review.causality import Cut, ProbeError, Variant, compare, plan, runs
from generator.review.probe import probe
from tests.review import toy_models
from tests.review.audio import RATE, conversation, mono

HERE = Path(__file__).parent
HOP = toy_models.HOP


def run(
    tmp_path: Path, function: str, *, cuts: int = 4, time_limit: float = 120
) -> tuple[set[int], list[int]]:
    audio = conversation(tmp_path / "call.wav")
    report = probe(
        f"toy_models:{function}",
        audio,
        hop_s=HOP,
        cut_points=cuts,
        tolerance=1e-6,
        time_limit_s=time_limit,
        paths=[HERE],
    )
    return {v.frame for v in report.verdicts}, sorted({c.frame for c in report.cuts})


def test_a_causal_model_passes(tmp_path: Path) -> None:
    flagged, _ = run(tmp_path, "causal")
    assert flagged == set()


def test_lookahead_is_caught_at_the_frames_before_each_cut(tmp_path: Path) -> None:
    flagged, boundaries = run(tmp_path, "lookahead")
    expected = {b - k for b in boundaries for k in range(1, toy_models.LOOKAHEAD + 1)}
    assert flagged == expected


def test_smoothing_after_the_fact_is_caught_just_before_each_cut(tmp_path: Path) -> None:
    flagged, boundaries = run(tmp_path, "smoothed_afterwards")
    assert {b - 1 for b in boundaries} <= flagged
    # Nothing after the last cut can be blamed on it: the backward pass only reaches earlier frames.
    assert max(flagged) < max(boundaries)


def test_whole_file_padding_moves_the_earliest_frames(tmp_path: Path) -> None:
    audio = conversation(tmp_path / "call.wav")
    report = probe(
        "toy_models:padded_to_whole_seconds",
        audio,
        hop_s=HOP,
        cut_points=4,
        tolerance=1e-6,
        time_limit_s=120,
        paths=[HERE],
    )
    assert 0 in {v.frame for v in report.verdicts}
    assert {v.variant for v in report.verdicts} == {Variant.TRUNCATED}


@pytest.mark.parametrize(
    ("function", "audio_kind", "time_limit", "says"),
    [
        ("slow", "stereo", 3, "did not finish"),
        ("broken", "stereo", 60, "ValueError: weights file not found"),
        ("missing_function", "stereo", 60, "AttributeError"),
        ("causal", "mono", 60, "has 1 channel"),
        ("causal", "not-a-wav", 60, "is not a PCM WAV file"),
    ],
)
def test_a_probe_that_cannot_run_says_why(
    tmp_path: Path, function: str, audio_kind: str, time_limit: float, says: str
) -> None:
    if audio_kind == "stereo":
        audio = conversation(tmp_path / "call.wav", seconds=1.0)
    elif audio_kind == "mono":
        audio = mono(tmp_path / "mono.wav")
    else:
        audio = tmp_path / "notes.wav"
        audio.write_text("not audio", encoding="utf-8")
    with pytest.raises(ProbeError, match=says):
        probe(
            f"toy_models:{function}",
            audio,
            hop_s=HOP,
            cut_points=2,
            tolerance=1e-6,
            time_limit_s=time_limit,
            paths=[HERE],
        )


def test_a_target_without_a_function_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ProbeError, match="MODULE:FUNCTION"):
        probe(
            "toy_models",
            tmp_path / "x.wav",
            hop_s=HOP,
            cut_points=2,
            tolerance=1e-6,
            time_limit_s=5,
            paths=[],
        )


@pytest.mark.parametrize(
    ("samples", "cut_points", "boundaries"),
    [
        (RATE * 4, 100, list(range(1, 40))),  # fewer boundaries than asked: every one
        (RATE * 4, 3, [7, 20, 33]),  # spread evenly, each in the middle of its share
        (RATE * 4 + 100, 39, list(range(1, 40))),  # a partial last frame is not a frame
    ],
)
def test_cuts_fall_on_frame_boundaries(samples: int, cut_points: int, boundaries: list[int]) -> None:
    cuts = plan(samples, sample_rate=RATE, hop_s=HOP, cut_points=cut_points)
    assert sorted({c.frame for c in cuts}) == boundaries
    assert all(c.sample == round(c.frame * HOP * RATE) for c in cuts)
    assert {c.variant for c in cuts} == set(Variant)


def test_a_recording_shorter_than_two_frames_cannot_be_probed() -> None:
    with pytest.raises(ProbeError, match="at least two"):
        plan(RATE // 20, sample_rate=RATE, hop_s=HOP, cut_points=3)


def test_compare_judges_only_frames_that_end_by_the_cut() -> None:
    cut = Cut(frame=3, sample=round(3 * HOP * RATE), variant=Variant.NOISE_AFTER)
    full = [0.1, 0.2, 0.3, 0.4, 0.5]
    altered = [0.1, 0.2 + 1e-9, 0.35, 0.9, 0.0]  # frame 1 within tolerance; frames 3 and 4 end after the cut
    found = compare(full, altered, cut, sample_rate=RATE, hop_s=HOP, tolerance=1e-6)
    assert [(d.frame, round(d.change, 6)) for d in found] == [(2, 0.05)]
    missing = compare(full, [0.1], cut, sample_rate=RATE, hop_s=HOP, tolerance=1e-6)
    assert [d.frame for d in missing] == [1, 2] and all(d.altered is None for d in missing)


def test_runs_group_consecutive_frames() -> None:
    assert runs([5, 1, 2, 3, 9]) == [(1, 3), (5, 5), (9, 9)]
    assert runs([]) == []


@pytest.mark.parametrize(("function", "code", "causal"), [("causal", 0, True), ("lookahead", 1, False)])
def test_the_command_prints_json_and_exits_by_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, code: int, causal: bool
) -> None:
    import json

    from generator.cli import main

    audio = conversation(tmp_path / "call.wav", seconds=2.0)
    args = [
        "review",
        "causality",
        f"toy_models:{function}",
        str(audio),
        "--hop",
        str(HOP),
        "--path",
        str(HERE),
    ]
    assert main([*args, "--cuts", "3", "--json"]) == code
    report = json.loads(capsys.readouterr().out)
    assert report["causal"] is causal and report["cut_frames"] == [4, 10, 16]
    assert main([*args, "--cuts", "3"]) == code
    text = capsys.readouterr().out
    assert ("causal at these cuts" in text) is causal
    assert ("depend on audio after their end" in text) is not causal
