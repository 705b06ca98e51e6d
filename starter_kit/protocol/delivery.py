"""Speech delivery checks on the audio a TTS endpoint sent: arrived, plausibly long, audible, unclipped.

The measures come through the small AudioMeasures interface so the scorer's own pure functions
(cvb_scorer.audio, shared with the browser) can be passed in; PlainMeasures is a stdlib stand-in that the kit
carries because the kit cannot import the scorer.
"""

from __future__ import annotations

import math
import statistics
import sys
from array import array
from dataclasses import dataclass
from typing import Protocol

from starter_kit.protocol.settings import Settings


class AudioMeasures(Protocol):
    def duration_s(self, pcm: bytes, *, sample_rate_hz: int) -> float: ...

    def median_frame_level_dbfs(self, pcm: bytes, *, frame_bytes: int) -> float: ...

    def clipped_share(self, pcm: bytes) -> float: ...


def _samples(pcm: bytes) -> array[int]:
    samples = array("h", pcm[: len(pcm) - len(pcm) % 2])
    if sys.byteorder == "big":
        samples.byteswap()  # the protocol's PCM is little-endian
    return samples


class PlainMeasures:
    """Obvious loops over signed 16-bit little-endian mono PCM."""

    def duration_s(self, pcm: bytes, *, sample_rate_hz: int) -> float:
        return len(pcm) // 2 / sample_rate_hz

    def median_frame_level_dbfs(self, pcm: bytes, *, frame_bytes: int) -> float:
        """Median over frames of each frame's RMS level relative to full scale; -inf for digital silence."""
        levels = []
        for start in range(0, len(pcm), frame_bytes):
            samples = _samples(pcm[start : start + frame_bytes])
            if not samples:
                continue
            rms = math.sqrt(sum(s * s for s in samples) / len(samples))
            levels.append(20 * math.log10(rms / 32768) if rms > 0 else -math.inf)
        return statistics.median(levels) if levels else -math.inf

    def clipped_share(self, pcm: bytes) -> float:
        samples = _samples(pcm)
        if not samples:
            return 0.0
        return sum(1 for s in samples if s >= 32767 or s <= -32768) / len(samples)


@dataclass(frozen=True)
class Delivery:
    audio_bytes: int
    duration_s: float
    expected_s: tuple[float, float]
    level_dbfs: float | None
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
    duration = measures.duration_s(pcm, sample_rate_hz=settings.sample_rate_hz)
    level = measures.median_frame_level_dbfs(pcm, frame_bytes=settings.frame_bytes)
    clipped = measures.clipped_share(pcm)
    failure, detail = None, ""
    if not expected[0] <= duration <= expected[1]:
        failure = "implausible_duration"
        detail = (
            f"{duration:.2f} s of speech for {characters} spoken characters; "
            f"{expected[0]:.2f} to {expected[1]:.2f} s expected"
        )
    elif not limits.min_level_dbfs <= level <= limits.max_level_dbfs:
        failure = "level_out_of_range"
        measured = "digital silence" if math.isinf(level) else f"{level:.1f} dBFS"
        detail = (
            f"median frame level {measured}; {limits.min_level_dbfs:g} to {limits.max_level_dbfs:g} "
            "dBFS expected"
        )
    elif clipped > limits.max_clipped_share:
        failure = "audio_clipped"
        detail = f"{clipped:.2%} of samples at full scale; at most {limits.max_clipped_share:.2%} allowed"
    return Delivery(len(pcm), duration, expected, level, clipped, failure, detail)
