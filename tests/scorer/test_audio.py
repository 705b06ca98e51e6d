"""The recording measures give the known answer on signals built to have one (a sine at a known level, inserted
digital silence, clipped samples, noise at a known floor), agree with their plain reference, refuse a WAV that
is not the protocol's format with a sentence saying what it is, and read sensibly on espeak-ng speech."""

from __future__ import annotations

import io
import json
import math
import random
import subprocess
import sys
import wave
from array import array
from dataclasses import asdict
from pathlib import Path

import pytest
from cvb_scorer.audio import (
    AudioError,
    AudioFormat,
    MeasureSettings,
    measure,
    samples_of,
    silence_runs,
    silence_runs_reference,
    wav_pcm,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.audio_stats import audio_format, measure_settings
from generator.cli import main as cvb
from generator.config import load_config
from generator.paths import Layout

CONFIG = load_config(Layout().config)
FORMAT = audio_format(CONFIG)
SETTINGS = measure_settings(CONFIG)
RATE = FORMAT.sample_rate_hz
FULL_SCALE = 1 << (FORMAT.sample_bits - 1)
TOP = FULL_SCALE - 1


def pcm(samples: list[int]) -> bytes:
    data = array("h", samples)
    if sys.byteorder == "big":
        data.byteswap()
    return data.tobytes()


def sine(seconds: float, peak: float, hz: float = 440.0, phase: float = 0.3) -> list[int]:
    """Peak as a share of full scale; a phase that keeps samples off exact zero."""
    return [
        round(peak * FULL_SCALE * math.sin(2 * math.pi * hz * n / RATE + phase))
        for n in range(int(seconds * RATE))
    ]


def dbfs(rms_share: float) -> float:
    return 20 * math.log10(rms_share)


def test_a_sine_reads_its_rms_level_and_its_duration() -> None:
    stats = measure(pcm(sine(2.0, 0.5)), FORMAT, SETTINGS)
    assert stats.median_level_dbfs == pytest.approx(dbfs(0.5 / math.sqrt(2)), abs=0.05)  # -9.03 dBFS
    assert stats.duration_s == pytest.approx(2.0)
    assert stats.frames == 2000 // SETTINGS.frame_ms
    assert (stats.silence_runs, stats.clipped_share) == (0, 0)


def test_inserted_digital_silence_is_counted_with_its_length() -> None:
    quarter, short = [0] * (RATE // 4), [0] * (RATE * SETTINGS.digital_silence_min_ms // 1000 - 1)
    signal = sine(0.5, 0.3) + quarter + sine(0.5, 0.3) + short + sine(0.2, 0.3) + [0] * (RATE // 10)
    stats = measure(pcm(signal), FORMAT, SETTINGS)
    # The run one sample shorter than the threshold is not digital silence; the trailing tenth is.
    assert stats.silence_runs == 2
    assert stats.longest_silence_s == pytest.approx(0.25)


def test_clipped_share_counts_samples_at_either_end_of_the_range() -> None:
    signal = sine(1.0, 0.1)
    for n in range(0, 400, 4):
        signal[n] = TOP
        signal[n + 1] = -FULL_SCALE
    signal[1000] = TOP - 1  # near full scale is not clipped
    stats = measure(pcm(signal), FORMAT, SETTINGS)
    assert stats.clipped_share == pytest.approx(200 / len(signal))


def test_the_noise_floor_is_the_level_of_the_noise_under_the_speech() -> None:
    rng = random.Random(7)
    sigma = 100.0  # rms of the noise: about -50.3 dBFS
    noise = [round(rng.gauss(0, sigma)) for _ in range(3 * RATE)]
    loud = sine(1.0, 0.4)
    signal = [a + b for a, b in zip(loud + [0] * (2 * RATE), noise, strict=True)]
    stats = measure(pcm(signal), FORMAT, SETTINGS)
    assert stats.noise_floor_dbfs == pytest.approx(dbfs(sigma / FULL_SCALE), abs=0.5)
    assert stats.median_level_dbfs == pytest.approx(dbfs(sigma / FULL_SCALE), abs=0.5)  # two thirds noise
    assert stats.silence_runs == 0


def test_all_digital_silence_has_no_level_and_no_floor() -> None:
    stats = measure(bytes(RATE * 2), FORMAT, SETTINGS)
    assert (stats.median_level_dbfs, stats.noise_floor_dbfs, stats.silence_runs) == (None, None, 1)
    assert stats.longest_silence_s == pytest.approx(1.0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.just(0), st.integers(-FULL_SCALE, TOP)), max_size=400),
    st.integers(1, 12),
)
def test_the_fast_silence_scan_agrees_with_the_plain_walk(samples: list[int], min_samples: int) -> None:
    # Zeros are drawn often, so runs of every length occur; bytes like 0x0100 test the alignment.
    assert silence_runs(pcm(samples), FORMAT, min_samples) == silence_runs_reference(samples, min_samples)


def wav_bytes(
    *, rate: int = RATE, channels: int = 1, width: int = 2, frames: bytes = b"\x01\x00" * 10
) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(frames)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"ID3\x03 an mp3", "is not a WAV file"),
        (b"", "is not a WAV file"),
        (wav_bytes(rate=44100, channels=2, frames=bytes(8)), "is a WAV of 44100 Hz, 2-channel, 16-bit PCM"),
        (wav_bytes(width=1, frames=bytes(4)), "is a WAV of 16000 Hz, 1-channel, 8-bit PCM"),
        (wav_bytes()[:20] + b"\x03" + wav_bytes()[21:], "is a WAV of 32-bit float audio, not PCM"),
        (wav_bytes()[:36], "has no data chunk"),
    ],
)
def test_a_wav_not_in_the_protocols_format_is_refused_saying_what_it_is(data: bytes, says: str) -> None:
    with pytest.raises(AudioError, match=says) as caught:
        wav_pcm(data, FORMAT, name="call.wav")
    assert str(caught.value).startswith("call.wav ")


def test_an_empty_clip_and_a_clip_of_half_samples_are_refused() -> None:
    with pytest.raises(AudioError, match="has no audio"):
        measure(wav_pcm(wav_bytes(frames=b""), FORMAT), FORMAT, SETTINGS)
    with pytest.raises(AudioError, match="not a whole number of 16-bit 1-channel samples"):
        samples_of(b"\x01\x02\x03", FORMAT)


def test_a_wav_and_its_raw_pcm_measure_the_same() -> None:
    data = pcm(sine(0.7, 0.2))
    assert measure(wav_pcm(wav_bytes(frames=data), FORMAT), FORMAT, SETTINGS) == measure(
        data, FORMAT, SETTINGS
    )


def test_a_partial_last_frame_is_a_frame_of_its_own() -> None:
    settings = MeasureSettings(frame_ms=100, noise_floor_percentile=10, digital_silence_min_ms=10)
    stats = measure(pcm(sine(0.25, 0.5)), AudioFormat(RATE, 1, 16), settings)
    assert stats.frames == 3


@pytest.fixture(scope="module")
def espeak_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("speech") / "speech.wav"
    spoken = subprocess.run(
        ["espeak-ng", "-v", "yue", "--stdout", "你好，我想問下我份保單保唔保牙科。"],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    convert = ["sox", "-t", "wav", "-", "-D", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer"]
    subprocess.run([*convert, str(out), "gain", "-n", "-3"], input=spoken, check=True, timeout=60)
    return out


def test_espeak_speech_reads_as_speech(espeak_wav: Path) -> None:
    stats = measure(wav_pcm(espeak_wav.read_bytes(), FORMAT), FORMAT, SETTINGS)
    assert 1.5 < stats.duration_s < 8  # fifteen syllables
    assert stats.median_level_dbfs is not None and -40 < stats.median_level_dbfs < -6
    assert stats.clipped_share == 0  # normalised three decibels under full scale
    # espeak-ng writes exact zeros between phrases: the silence a synthesiser, never a room, makes.
    assert stats.silence_runs >= 1
    floor = stats.noise_floor_dbfs
    assert floor is not None and floor < stats.median_level_dbfs


def test_cvb_audio_stats_prints_text_json_and_sentences(
    espeak_wav: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cvb(["audio-stats", str(espeak_wav)]) == 0
    text = capsys.readouterr().out
    assert "median frame level" in text and "noise floor" in text and "digital silence" in text
    assert "percentile of frame levels by nearest rank" in text
    assert cvb(["audio-stats", "--json", str(espeak_wav)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {
        "clip": str(espeak_wav),
        **asdict(measure(wav_pcm(espeak_wav.read_bytes(), FORMAT), FORMAT, SETTINGS)),
    }
    raw = tmp_path / "speech.pcm"
    raw.write_bytes(wav_pcm(espeak_wav.read_bytes(), FORMAT))
    assert cvb(["audio-stats", "--raw", "--json", str(raw)]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == report["samples"]
    stereo = tmp_path / "stereo.wav"
    stereo.write_bytes(wav_bytes(rate=44100, channels=2, frames=bytes(8)))
    assert cvb(["audio-stats", str(stereo)]) == 2
    error = capsys.readouterr().err
    assert "44100 Hz, 2-channel" in error and "Traceback" not in error
    assert cvb(["audio-stats", str(tmp_path / "missing.wav")]) == 2
    assert "does not exist" in capsys.readouterr().err
    # A WAV read with --raw would count its header as samples: refused, with the way out.
    assert cvb(["audio-stats", "--raw", str(espeak_wav)]) == 2
    error = capsys.readouterr().err
    assert "RIFF/WAVE header" in error and "leave out --raw" in error and "Traceback" not in error
