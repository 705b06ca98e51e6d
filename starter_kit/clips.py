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
from typing import Any

from cvb_scorer.audio import AudioError, AudioFormat, samples_of, wav_pcm

from protocol_data.atomic import swap_in
from protocol_data.settings import ProtocolDataError, load

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


@dataclass(frozen=True)
class ClipPlan:
    """What to speak and in which format: protocol.yaml's builtin_clips and audio, as plain values."""

    voice: str
    texts: tuple[tuple[str, str], ...]  # (id, text)
    audio: AudioFormat

    @classmethod
    def from_config(cls, config: Any) -> ClipPlan:
        """From the generator's Config or from protocol.yaml's plain data ({"protocol": ...})."""
        protocol = config["protocol"] if isinstance(config, dict) else config.protocol.model_dump(mode="json")
        try:
            clips, audio = protocol["builtin_clips"], protocol["audio"]
            return cls(
                voice=str(clips["voice"]),
                texts=tuple((str(c["id"]), str(c["text"])) for c in clips["texts"]),
                audio=AudioFormat(
                    sample_rate_hz=int(audio["sample_rate_hz"]),
                    channels=int(audio["channels"]),
                    sample_bits=int(audio["sample_bits"]),
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolDataError(
                f"protocol.yaml: builtin_clips (voice, texts of id and text) and audio are needed ({exc})."
            ) from None


def speak_command(plan: ClipPlan, text: str) -> list[str]:
    return ["espeak-ng", "-v", plan.voice, "--stdout", text]


def convert_command(plan: ClipPlan, out: Path) -> list[str]:
    audio = plan.audio
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


def build_clips(config: Any, target: Path) -> list[ClipRecord]:
    """`config`: the generator's Config, protocol.yaml's plain data ({"protocol": ...}) or a ClipPlan."""
    plan = config if isinstance(config, ClipPlan) else ClipPlan.from_config(config)
    audio = plan.audio
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".clips-", dir=target.parent))
    try:
        records = []
        for clip_id, text in plan.texts:
            out = work / f"{clip_id}.wav"
            _run(convert_command(plan, out), _run(speak_command(plan, text)))
            try:
                samples = samples_of(wav_pcm(out.read_bytes(), audio, name=out.name), audio, name=out.name)
            except AudioError as exc:
                raise ClipBuildError(f"the conversion did not give the protocol's format: {exc}") from None
            seconds = len(samples) / (audio.sample_rate_hz * audio.channels)
            records.append(ClipRecord(clip_id, out.name, text, round(seconds, 3)))
        records.sort(key=lambda r: (r.seconds, r.id))
        listing = json.dumps([asdict(r) for r in records], ensure_ascii=False, indent=2) + "\n"
        (work / "clips.json").write_text(listing, encoding="utf-8")
        swap_in(work, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return records


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(__file__).resolve().parent.parent
    target = Path(args[0]) if args else root / "build" / "clips"
    try:
        records = build_clips(load(root / "platform_config"), target)
    except ProtocolDataError as exc:
        print(f"clips: {exc}", file=sys.stderr)
        return 2
    except ClipBuildError as exc:
        print(f"clips: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {len(records)} clips to {target}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
