"""`cvb audio-stats CLIP [--raw] [--json]`: the recording measures of one clip, with the protocol's format and
the thresholds from the config. A thin shell over cvb_scorer.audio, which holds every rule."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from cvb_scorer.audio import AudioError, AudioFormat, AudioStats, MeasureSettings, measure, wav_pcm

from generator.config import Config


def audio_format(config: Config) -> AudioFormat:
    audio = config.protocol.audio
    return AudioFormat(
        sample_rate_hz=audio.sample_rate_hz, channels=audio.channels, sample_bits=audio.sample_bits
    )


def measure_settings(config: Config) -> MeasureSettings:
    measures = config.protocol.audio_measures
    return MeasureSettings(
        frame_ms=config.protocol.audio.frame_ms,
        noise_floor_percentile=measures.noise_floor_percentile,
        digital_silence_min_ms=measures.digital_silence_min_ms,
    )


def clip_stats(config: Config, path: Path, *, raw: bool) -> AudioStats:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise AudioError(
            f"{path} does not exist; pass the path of a WAV file (or raw PCM with --raw)."
        ) from None
    except IsADirectoryError:
        raise AudioError(f"{path} is a directory; pass the path of one clip.") from None
    except OSError as exc:
        raise AudioError(f"{path} cannot be read ({exc.strerror}).") from None
    if raw and data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        # Read as samples, the header would pass for a few milliseconds of audio and skew every measure.
        raise AudioError(
            f"{path} is a WAV file (it starts with a RIFF/WAVE header), and --raw reads headerless PCM; "
            "leave out --raw to read it as a WAV file."
        )
    audio = audio_format(config)
    pcm = data if raw else wav_pcm(data, audio, name=str(path))
    return measure(pcm, audio, measure_settings(config), name=str(path))


def _db(value: float | None) -> str:
    return "-inf dBFS (digital silence)" if value is None else f"{value:.1f} dBFS"


def stats_text(config: Config, path: Path, stats: AudioStats) -> str:
    settings = measure_settings(config)
    return "\n".join(
        [
            f"{path}: {stats.duration_s:.2f} s of {audio_format(config).describe()}, "
            f"{stats.frames} frames of {settings.frame_ms} ms",
            f"  median frame level  {_db(stats.median_level_dbfs)}",
            f"  noise floor         {_db(stats.noise_floor_dbfs)} "
            f"(the {settings.noise_floor_percentile:g}th percentile of frame levels by nearest rank, "
            "digital silence left out)",
            f"  digital silence     {stats.silence_runs} run(s), longest {stats.longest_silence_s:.3f} s "
            f"(exact zeros for at least {settings.digital_silence_min_ms} ms)",
            f"  clipped samples     {stats.clipped_share:.4%} at full scale",
            "",
        ]
    )


def stats_json(path: Path, stats: AudioStats) -> str:
    return json.dumps({"clip": str(path), **asdict(stats)}, ensure_ascii=False)
