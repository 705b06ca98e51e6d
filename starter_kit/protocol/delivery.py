"""Speech delivery checks on the audio a TTS endpoint sent: arrived, plausibly long, audible, unclipped.

The measures are the scorer's own (cvb_scorer.audio, the functions `cvb audio-stats` and the browser use), so a
clip's level reads the same in the connection test, on the command line and on the site. The kit carries a copy
of that one module beside this package. AudioMeasures is the seam: the shell may pass any object with `measure`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cvb_scorer.audio import AudioError, AudioFormat, AudioStats, MeasureSettings, measure

from starter_kit.protocol.settings import Settings


class AudioMeasures(Protocol):
    def measure(self, pcm: bytes) -> AudioStats:
        """Every recording measure of non-empty PCM in the protocol's format; AudioError when it cannot be."""
        ...


class ScorerMeasures:
    """cvb_scorer.audio.measure with the protocol's format and the config's thresholds."""

    def __init__(self, settings: Settings) -> None:
        self.audio = AudioFormat(
            sample_rate_hz=settings.sample_rate_hz,
            channels=settings.channels,
            sample_bits=settings.sample_bits,
        )
        self.settings = MeasureSettings(
            frame_ms=settings.frame_ms,
            noise_floor_percentile=settings.noise_floor_percentile,
            digital_silence_min_ms=settings.digital_silence_min_ms,
        )

    def measure(self, pcm: bytes) -> AudioStats:
        return measure(pcm, self.audio, self.settings, name="the speech received")


@dataclass(frozen=True)
class Delivery:
    audio_bytes: int
    duration_s: float
    expected_s: tuple[float, float]
    level_dbfs: float | None  # None for digital silence, or when nothing was measured
    clipped_share: float | None
    failure: str | None  # a failure code from the catalogue, or None when every check passes
    detail: str = ""  # what was measured against what was allowed, for the failing check


def spoken_characters(text: str) -> int:
    return sum(1 for c in text if c.isalnum())


def expected_seconds(text: str, *, settings: Settings) -> tuple[float, float]:
    """The shortest and longest speech that is plausible for `text`."""
    limits = settings.delivery
    characters = spoken_characters(text)
    return (
        characters * limits.min_seconds_per_character,
        characters * limits.max_seconds_per_character + limits.extra_seconds_allowed,
    )


def check_delivery(pcm: bytes, text: str, *, settings: Settings, measures: AudioMeasures) -> Delivery:
    """The delivery checks in the order an entrant should fix them; the first failing one is the verdict."""
    limits = settings.delivery
    characters = spoken_characters(text)
    expected = expected_seconds(text, settings=settings)
    if not pcm:
        return Delivery(0, 0.0, expected, None, None, "no_audio", "turn_done came with no audio before it")
    try:
        stats = measures.measure(pcm)
    except AudioError as exc:  # not whole samples: the frames themselves were malformed
        return Delivery(len(pcm), 0.0, expected, None, None, "malformed_audio", str(exc))
    duration, level, clipped = stats.duration_s, stats.median_level_dbfs, stats.clipped_share
    failure, detail = None, ""
    if not expected[0] <= duration <= expected[1]:
        failure = "implausible_duration"
        detail = (
            f"{duration:.2f} s of speech for {characters} spoken characters; "
            f"{expected[0]:.2f} to {expected[1]:.2f} s expected"
        )
    elif level is None or not limits.min_level_dbfs <= level <= limits.max_level_dbfs:
        failure = "level_out_of_range"
        measured = "digital silence" if level is None else f"{level:.1f} dBFS"
        detail = (
            f"median frame level {measured}; {limits.min_level_dbfs:g} to {limits.max_level_dbfs:g} "
            "dBFS expected"
        )
    elif clipped > limits.max_clipped_share:
        failure = "audio_clipped"
        detail = f"{clipped:.2%} of samples at full scale; at most {limits.max_clipped_share:.2%} allowed"
    return Delivery(len(pcm), duration, expected, level, clipped, failure, detail)
