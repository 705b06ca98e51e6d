"""Clips for the connection test: the built-in set (clips.json beside its WAVs) or an entrant's own WAV files."""

from __future__ import annotations

import json
import wave
from pathlib import Path

from starter_kit.protocol.machine import Clip
from starter_kit.protocol.settings import Settings


class ClipError(ValueError):
    """A clip the test cannot use, as one sentence naming the file."""


def read_wav(path: Path, *, settings: Settings, clip_id: str, text: str) -> Clip:
    try:
        with wave.open(str(path), "rb") as wav:
            rate, channels, width = wav.getframerate(), wav.getnchannels(), wav.getsampwidth()
            pcm = wav.readframes(wav.getnframes())
    except (wave.Error, EOFError) as exc:
        raise ClipError(f"{path} is not a WAV file this test can read ({exc}).") from None
    except OSError as exc:
        raise ClipError(f"{path} could not be read: {exc.strerror or exc}.") from None
    wanted = (settings.sample_rate_hz, settings.channels, settings.sample_bits)
    if (rate, channels, width * 8) != wanted:
        raise ClipError(
            f"{path} is {rate} Hz, {channels} channel(s), {width * 8}-bit; the protocol streams {wanted[0]} Hz, "
            f"{wanted[1]} channel(s), {wanted[2]}-bit PCM. Convert it, for example: "
            f"sox {path.name} -r {wanted[0]} -c {wanted[1]} -b {wanted[2]} -e signed-integer converted.wav"
        )
    if not pcm:
        raise ClipError(f"{path} holds no audio.")
    samples = len(pcm) // (settings.sample_bits // 8)
    return Clip(clip_id, pcm, text, samples * 1000 // settings.sample_rate_hz)


def load_clips(directory: Path, *, settings: Settings, shortest: int | None = None) -> list[Clip]:
    """clips.json's list ([{"id", "file", "text", "seconds"}]) when present, else every *.wav (text from a
    same-named .txt if there is one). `shortest` keeps that many of the shortest, as the platform does."""
    if not directory.is_dir():
        raise ClipError(f"{directory} is not a folder of clips.")
    index = directory / "clips.json"
    clips: list[Clip] = []
    if index.is_file():
        try:
            entries = json.loads(index.read_text(encoding="utf-8"))
            listed = [(str(e["id"]), directory / str(e["file"]), str(e["text"])) for e in entries]
        except (ValueError, KeyError, TypeError) as exc:
            raise ClipError(
                f"{index} is not a list of {{id, file, text, seconds}} entries ({exc})."
            ) from None
    else:
        listed = []
        for path in sorted(directory.glob("*.wav")):
            caption = path.with_suffix(".txt")
            text = caption.read_text(encoding="utf-8").strip() if caption.is_file() else ""
            listed.append((path.stem, path, text))
    for clip_id, path, text in listed:
        clips.append(read_wav(path, settings=settings, clip_id=clip_id, text=text))
    if not clips:
        raise ClipError(f"{directory} holds no WAV clips.")
    if shortest is not None:
        clips = sorted(clips, key=lambda c: (c.duration_ms, c.id))[:shortest]
    return clips
