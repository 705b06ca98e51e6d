"""The speech delivery verdicts, on the scorer's own measures (cvb_scorer.audio, the one implementation the
connection test, `cvb audio-stats` and the browser share), with signals whose answers are known."""

from __future__ import annotations

import pytest

from starter_kit.protocol.delivery import ScorerMeasures, check_delivery, expected_seconds
from tests.starter_kit.protocol_support import SETTINGS, TEXT, tone

S = SETTINGS
M = ScorerMeasures(S)


@pytest.mark.parametrize(
    ("pcm", "code"),
    [
        (tone(0.5), None),
        (b"", "no_audio"),
        (tone(0.01), "implausible_duration"),
        (tone(0.5, level_dbfs=-70.0), "level_out_of_range"),
        # More silent frames than sounding ones: the median frame is digital silence.
        (bytes(S.frame_bytes * 30) + tone(0.2), "level_out_of_range"),
        (tone(0.5, level_dbfs=-1.5), "audio_clipped"),
        (tone(0.5) + b"\x00", "malformed_audio"),
    ],
    ids=["good", "none", "too short", "too quiet", "mostly silent", "clipped", "half a sample"],
)
def test_the_first_failing_delivery_check_is_the_verdict(pcm: bytes, code: str | None) -> None:
    delivery = check_delivery(pcm, TEXT, settings=S, measures=M)
    assert delivery.failure == code
    assert bool(delivery.detail) == (code is not None)


def test_the_verdict_reports_the_scorers_figures() -> None:
    pcm = tone(0.5, level_dbfs=-20.0)
    delivery = check_delivery(pcm, TEXT, settings=S, measures=M)
    stats = M.measure(pcm)
    assert (delivery.duration_s, delivery.level_dbfs, delivery.clipped_share) == (
        stats.duration_s,
        stats.median_level_dbfs,
        stats.clipped_share,
    )
    assert delivery.level_dbfs == pytest.approx(-20.0, abs=0.05)


def test_digital_silence_has_no_level_and_says_so() -> None:
    delivery = check_delivery(bytes(S.frame_bytes * 30), TEXT, settings=S, measures=M)
    assert delivery.level_dbfs is None and "digital silence" in delivery.detail


def test_the_plausible_length_grows_with_the_text() -> None:
    short, long = expected_seconds("好", settings=S), expected_seconds("好" * 20, settings=S)
    assert short[0] < long[0] and short[1] < long[1]
