"""Built-in clips: the config's sentences spoken by Debian's espeak-ng (Cantonese voice) and converted by SoX
to the protocol's audio format, written to build/clips/ as WAV files with clips.json beside them.

    python -m starter_kit.clips build/clips

clips.json lists [{"id", "file", "text", "seconds"}], shortest first: the first connection_test.clips of them
are the connection test's clips. The folder is written aside and swapped in whole. Both tools are
deterministic, so a rebuild writes the same bytes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from cvb_scorer.audio import AudioError, samples_of, wav_pcm

from generator.atomic import swap_in
from generator.audio_stats import audio_format
from generator.config import Config, ConfigError, load_config
from generator.paths import Layout

TIMEOUT_S = 60
# How far below full scale each clip's loudest sample is put: loud enough to hear, never clipped. A property
# of our test fixtures, not of the platform, so it is not in the config.
PEAK_DBFS = -3


@dataclass(frozen=True)
class ClipRecord:
    id: str
    file: str
    text: str
    seconds: float


class ClipBuildError(RuntimeError):
    """A tool is missing or failed; the message says which and how to fix it."""


def speak_command(config: Config, text: str) -> list[str]:
    return ["espeak-ng", "-v", config.protocol.builtin_clips.voice, "--stdout", text]


def convert_command(config: Config, out: Path) -> list[str]:
    audio = config.protocol.audio
    # -D: no dither, so the conversion is the same bytes every time; gain -n: peak normalised, never clipped.
    return [
        *("sox", "-t", "wav", "-", "-D", "-t", "wav"),
        *("-r", str(audio.sample_rate_hz), "-c", str(audio.channels), "-b", str(audio.sample_bits)),
        *("-e", "signed-integer", str(out), "gain", "-n", str(PEAK_DBFS)),
    ]


def _run(command: list[str], data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise ClipBuildError(f"{command[0]} is not installed; run `make system-deps`.") from None
    if done.returncode:
        raise ClipBuildError(f"{command[0]} failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def build_clips(config: Config, target: Path) -> list[ClipRecord]:
    audio = audio_format(config)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".clips-", dir=target.parent))
    try:
        records = []
        for clip in config.protocol.builtin_clips.texts:
            out = work / f"{clip.id}.wav"
            _run(convert_command(config, out), _run(speak_command(config, clip.text)))
            try:
                samples = samples_of(wav_pcm(out.read_bytes(), audio, name=out.name), audio, name=out.name)
            except AudioError as exc:
                raise ClipBuildError(f"the conversion did not give the protocol's format: {exc}") from None
            seconds = len(samples) / (audio.sample_rate_hz * audio.channels)
            records.append(ClipRecord(clip.id, out.name, clip.text, round(seconds, 3)))
        records.sort(key=lambda r: (r.seconds, r.id))
        listing = json.dumps([asdict(r) for r in records], ensure_ascii=False, indent=2) + "\n"
        (work / "clips.json").write_text(listing, encoding="utf-8")
        swap_in(work, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return records


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    layout = Layout()
    target = Path(args[0]) if args else layout.root / "build" / "clips"
    try:
        records = build_clips(load_config(layout.config), target)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ClipBuildError as exc:
        print(f"clips: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {len(records)} clips to {target}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
