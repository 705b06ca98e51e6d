"""The delivery measures the kit's copy of the connection test uses, on signals with known answers."""

from __future__ import annotations

import math

import pytest

from starter_kit.protocol.delivery import PlainMeasures, check_delivery, expected_seconds
from tests.starter_kit.protocol_support import SETTINGS, TEXT, tone

M = PlainMeasures()
S = SETTINGS


@pytest.mark.parametrize("level", [-40.0, -20.0, -6.0])
def test_a_sine_s_median_frame_level_is_its_rms_level(level: float) -> None:
    assert M.median_frame_level_dbfs(tone(1.0, level_dbfs=level), frame_bytes=S.frame_bytes) == pytest.approx(
        level, abs=0.05
    )


def test_silence_is_minus_infinity_and_a_mostly_silent_clip_takes_the_silence() -> None:
    assert M.median_frame_level_dbfs(bytes(S.frame_bytes * 5), frame_bytes=S.frame_bytes) == -math.inf
    mostly_silent = bytes(S.frame_bytes * 3) + tone(0.2)
    assert M.median_frame_level_dbfs(mostly_silent, frame_bytes=S.frame_bytes) == -math.inf


def test_clipped_share_counts_samples_at_either_end_of_the_scale() -> None:
    top, bottom = (32767).to_bytes(2, "little", signed=True), (-32768).to_bytes(2, "little", signed=True)
    pcm = top * 3 + bottom + bytes(2 * 6)
    assert M.clipped_share(pcm) == pytest.approx(0.4)
    assert M.clipped_share(tone(0.5)) == 0.0


def test_duration_counts_whole_samples() -> None:
    assert M.duration_s(bytes(S.sample_rate_hz * 2), sample_rate_hz=S.sample_rate_hz) == 1.0


@pytest.mark.parametrize(
    ("pcm", "code"),
    [
        (tone(0.5), None),
        (b"", "no_audio"),
        (tone(0.01), "implausible_duration"),
        (tone(0.5, level_dbfs=-70.0), "level_out_of_range"),
        (tone(0.5, level_dbfs=-1.5), "audio_clipped"),
    ],
    ids=["good", "none", "too short", "too quiet", "clipped"],
)
def test_the_first_failing_delivery_check_is_the_verdict(pcm: bytes, code: str | None) -> None:
    delivery = check_delivery(pcm, TEXT, settings=S, measures=M)
    assert delivery.failure == code
    assert bool(delivery.detail) == (code is not None)


def test_the_plausible_length_grows_with_the_text() -> None:
    short, long = expected_seconds("好", settings=S), expected_seconds("好" * 20, settings=S)
    assert short[0] < long[0] and short[1] < long[1]
