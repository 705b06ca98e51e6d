"""Recording measures of a clip: median frame level, noise floor, runs of digital silence, clipped share and
duration. Pure functions of PCM bytes, with the format and thresholds passed in (the platform config holds
them), so `cvb audio-stats`, the connection test's delivery checks and the browser compute the same figures.

Levels are RMS in dBFS against a full-scale square wave: a full-scale sine reads about -3.01 dBFS.
"""

from __future__ import annotations

import math
import operator
import re
import struct
import sys
from array import array
from dataclasses import dataclass

RIFF_HEADER = struct.Struct("<4sI4s")
CHUNK_HEADER = struct.Struct("<4sI")
FMT_FIELDS = struct.Struct("<HHIIHH")
WAVE_FORMAT_PCM = 0x0001
WAVE_FORMAT_EXTENSIBLE = 0xFFFE
# The sub-format GUID of PCM inside WAVE_FORMAT_EXTENSIBLE starts with the PCM format tag.
_KSDATAFORMAT_PCM_PREFIX = struct.pack("<H", WAVE_FORMAT_PCM)
FORMAT_NAMES = {0x0003: "32-bit float", 0x0006: "A-law", 0x0007: "mu-law", 0x0055: "MP3", 0x0011: "IMA ADPCM"}


class AudioError(ValueError):
    """The clip cannot be measured; the message says what it is and what was expected."""


@dataclass(frozen=True)
class AudioFormat:
    """The protocol's audio: little-endian signed PCM."""

    sample_rate_hz: int
    channels: int
    sample_bits: int

    def describe(self) -> str:
        return f"{self.sample_rate_hz} Hz, {self.channels}-channel, {self.sample_bits}-bit PCM"


@dataclass(frozen=True)
class MeasureSettings:
    frame_ms: int
    noise_floor_percentile: float
    digital_silence_min_ms: int


@dataclass(frozen=True)
class AudioStats:
    samples: int
    duration_s: float
    frames: int
    # None when the median frame is digital silence (its level is minus infinity).
    median_level_dbfs: float | None
    # None when every frame is digital silence.
    noise_floor_dbfs: float | None
    silence_runs: int
    longest_silence_s: float
    clipped_share: float


def samples_of(pcm: bytes, audio: AudioFormat, *, name: str = "the clip") -> array[int]:
    """The signed samples of little-endian PCM; an error for an empty clip or one that is not whole samples."""
    width = audio.sample_bits // 8
    if not pcm:
        raise AudioError(f"{name} has no audio (no samples); record or pass a clip with sound in it.")
    if len(pcm) % (width * audio.channels):
        raise AudioError(
            f"{name} has {len(pcm)} bytes of audio, which is not a whole number of "
            f"{audio.sample_bits}-bit {audio.channels}-channel samples; it is not {audio.describe()}."
        )
    typecode = {2: "h", 4: "i"}.get(width)
    if typecode is None or array(typecode).itemsize != width:
        # Rare widths (8 and 24 bits) take the plain path.
        return array(
            "i",
            (int.from_bytes(pcm[i : i + width], "little", signed=True) for i in range(0, len(pcm), width)),
        )
    out = array(typecode)
    out.frombytes(pcm)
    if sys.byteorder == "big":
        out.byteswap()
    return out


def level_dbfs(frame: array[int] | list[int], full_scale: int) -> float:
    """RMS level of one frame in dBFS; minus infinity for digital silence."""
    power = sum(map(operator.mul, frame, frame)) / len(frame)
    return 10 * math.log10(power / (full_scale * full_scale)) if power else -math.inf


def frame_levels(samples: array[int], audio: AudioFormat, settings: MeasureSettings) -> list[float]:
    """Levels of consecutive frames of settings.frame_ms (the last may be shorter)."""
    size = audio.sample_rate_hz * audio.channels * settings.frame_ms // 1000
    full_scale = 1 << (audio.sample_bits - 1)
    return [level_dbfs(samples[i : i + size], full_scale) for i in range(0, len(samples), size)]


def nearest_rank(values: list[float], percentile: float) -> float:
    """The nearest-rank percentile: the smallest value with at least `percentile` % of values at or below it."""
    ordered = sorted(values)
    rank = max(1, math.ceil(percentile / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    low, high = ordered[middle - 1], ordered[middle]
    return low if low == high else (low + high) / 2


def silence_runs(pcm: bytes, audio: AudioFormat, min_samples: int) -> list[int]:
    """Lengths (in samples) of runs of exact-zero samples at least `min_samples` long. Fast: a regular
    expression over the bytes, each run of zero bytes trimmed to whole samples."""
    width = audio.sample_bits // 8
    runs = []
    for match in re.finditer(b"\x00{%d,}" % (min_samples * width), pcm):
        start = -(-match.start() // width) * width
        end = match.end() // width * width
        if (end - start) // width >= min_samples:
            runs.append((end - start) // width)
    return runs


def silence_runs_reference(samples: array[int] | list[int], min_samples: int) -> list[int]:
    """The plain definition that `silence_runs` must agree with: walk the samples, count zeros in a row."""
    runs, current = [], 0
    for value in [*samples, 1]:  # a non-zero sentinel closes a run at the end
        if value == 0:
            current += 1
            continue
        if current >= min_samples:
            runs.append(current)
        current = 0
    return runs


def measure(
    pcm: bytes, audio: AudioFormat, settings: MeasureSettings, *, name: str = "the clip"
) -> AudioStats:
    """Every measure of one clip of raw PCM in `audio`'s format."""
    samples = samples_of(pcm, audio, name=name)
    rate = audio.sample_rate_hz * audio.channels
    levels = frame_levels(samples, audio, settings)
    sounding = [level for level in levels if level > -math.inf]
    middle = median(levels)
    runs = silence_runs(pcm, audio, max(1, rate * settings.digital_silence_min_ms // 1000))
    top = (1 << (audio.sample_bits - 1)) - 1
    clipped = samples.count(top) + samples.count(-top - 1)
    return AudioStats(
        samples=len(samples),
        duration_s=len(samples) / rate,
        frames=len(levels),
        median_level_dbfs=middle if middle > -math.inf else None,
        noise_floor_dbfs=nearest_rank(sounding, settings.noise_floor_percentile) if sounding else None,
        silence_runs=len(runs),
        longest_silence_s=max(runs, default=0) / rate,
        clipped_share=clipped / len(samples),
    )


def wav_pcm(data: bytes, audio: AudioFormat, *, name: str = "the clip") -> bytes:
    """The PCM inside a WAV file, refused with a sentence unless it is exactly the protocol's format."""
    if len(data) < RIFF_HEADER.size or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise AudioError(
            f"{name} is not a WAV file (it does not begin with RIFF....WAVE); pass a WAV, or raw PCM with --raw."
        )
    offset, found_format = RIFF_HEADER.size, None
    while offset + CHUNK_HEADER.size <= len(data):
        chunk, size = CHUNK_HEADER.unpack_from(data, offset)
        body = data[offset + CHUNK_HEADER.size : offset + CHUNK_HEADER.size + size]
        if chunk == b"fmt ":
            if len(body) < FMT_FIELDS.size:
                raise AudioError(
                    f"{name} has a fmt chunk of {len(body)} bytes, too short to describe its audio."
                )
            found_format = body
            _check_format(body, audio, name)
        elif chunk == b"data":
            if found_format is None:
                raise AudioError(f"{name} has its audio before its fmt chunk, so its format is unknown.")
            return body
        offset += CHUNK_HEADER.size + size + (size & 1)  # chunks are padded to an even length
    raise AudioError(f"{name} has no data chunk: it holds no audio.")


def _check_format(body: bytes, audio: AudioFormat, name: str) -> None:
    tag, channels, rate, _, _, bits = FMT_FIELDS.unpack_from(body)
    if tag == WAVE_FORMAT_EXTENSIBLE and len(body) >= FMT_FIELDS.size + 2 + 22:
        sub_format = body[FMT_FIELDS.size + 2 + 8 : FMT_FIELDS.size + 2 + 10]
        tag = WAVE_FORMAT_PCM if sub_format == _KSDATAFORMAT_PCM_PREFIX else -1
    if tag != WAVE_FORMAT_PCM:
        kind = FORMAT_NAMES.get(tag, f"format {tag:#06x}" if tag >= 0 else "a non-PCM extensible format")
        raise AudioError(
            f"{name} is a WAV of {kind} audio, not PCM; the protocol's format is {audio.describe()}. {_convert(audio)}"
        )
    actual = AudioFormat(sample_rate_hz=rate, channels=channels, sample_bits=bits)
    if actual != audio:
        raise AudioError(
            f"{name} is a WAV of {actual.describe()}; the protocol's format is {audio.describe()}. {_convert(audio)}"
        )


def _convert(audio: AudioFormat) -> str:
    return (
        f"Convert it first, e.g. `sox IN.wav -r {audio.sample_rate_hz} -c {audio.channels} "
        f"-b {audio.sample_bits} -e signed-integer OUT.wav`."
    )
