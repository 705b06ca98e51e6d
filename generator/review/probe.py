"""`cvb review causality`'s shell: plan the cuts, run the submitted function in a separate process with a time
limit, and judge its output with the pure rules in `causality`."""

from __future__ import annotations

import json
import subprocess
import sys
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.review.causality import (
    Cut,
    FrameVerdict,
    ProbeError,
    Variant,
    by_frame,
    check_output,
    compare,
    frame_count,
    plan,
    runs,
)

WORKER = Path(__file__).with_name("probe_worker.py")
_DONE = {Variant.NOISE_AFTER: "replaced with noise", Variant.TRUNCATED: "cut off"}


@dataclass(frozen=True)
class ProbeReport:
    target: str
    audio: str
    hop_s: float
    frames: int
    cuts: tuple[Cut, ...]
    verdicts: tuple[FrameVerdict, ...]

    @property
    def causal(self) -> bool:
        return not self.verdicts

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "audio": self.audio,
            "hop_seconds": self.hop_s,
            "frames": self.frames,
            "cut_frames": sorted({c.frame for c in self.cuts}),
            "causal": self.causal,
            "frames_depending_on_later_audio": [
                {
                    "frame": v.frame,
                    "frame_end_seconds": round(v.frame_end_s, 6),
                    "largest_change": v.largest_change if v.largest_change != float("inf") else None,
                    "cut_seconds": round(v.cut_s, 6),
                    "alteration": v.variant.value,
                }
                for v in self.verdicts
            ],
        }


def _header(audio: Path) -> tuple[int, int, int]:
    try:
        with wave.open(str(audio), "rb") as w:
            return w.getnchannels(), w.getframerate(), w.getnframes()
    except FileNotFoundError:
        raise ProbeError(f"{audio} does not exist.") from None
    except (wave.Error, EOFError) as exc:
        raise ProbeError(f"{audio} is not a PCM WAV file ({exc}).") from None


def probe(
    target: str,
    audio: Path,
    *,
    hop_s: float,
    cut_points: int,
    tolerance: float,
    time_limit_s: float,
    paths: list[Path],
    python: str = sys.executable,
) -> ProbeReport:
    if ":" not in target or not all(target.partition(":")[::2]):
        raise ProbeError(f"{target!r} is not MODULE:FUNCTION (for example model.infer:frame_probabilities).")
    channels, rate, n = _header(audio)
    if channels != 2:
        raise ProbeError(f"{audio} has {channels} channel(s); the endpointing task's audio has two.")
    cuts = plan(n, sample_rate=rate, hop_s=hop_s, cut_points=cut_points)
    job = {
        "target": target,
        "paths": [str(p.resolve()) for p in paths],
        "audio": str(audio.resolve()),
        "cuts": [{"sample": c.sample, "variant": c.variant.value, "seed": i} for i, c in enumerate(cuts)],
    }
    try:
        done = subprocess.run(
            [python, str(WORKER)],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            timeout=time_limit_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ProbeError(
            f"the function did not finish {len(cuts) + 1} runs within {time_limit_s:g} s; "
            "raise --time-limit or use fewer --cuts."
        ) from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise ProbeError(f"the function failed in its own process: {last}")
    try:
        result = json.loads(done.stdout.rstrip().rsplit("\n", 1)[-1])
    except (json.JSONDecodeError, IndexError):
        raise ProbeError("the worker printed no result; did the function exit the process?") from None
    frames = frame_count(n, hop_s=hop_s, sample_rate=rate)
    full = check_output(result["full"], label="full", frames=frames)
    dependences = []
    for cut, values in zip(cuts, result["altered"], strict=True):
        label = f"{cut.variant.value} at {cut.seconds_label}"
        altered = check_output(values, label=label, frames=frames)
        dependences.extend(compare(full, altered, cut, sample_rate=rate, hop_s=hop_s, tolerance=tolerance))
    return ProbeReport(target, str(audio), hop_s, frames, tuple(cuts), tuple(by_frame(dependences)))


def report_text(report: ProbeReport) -> str:
    head = (
        f"Probed {report.target} on {report.audio}: {report.frames} frames of {report.hop_s:g} s, "
        f"{len({c.frame for c in report.cuts})} cut points, each with noise after the cut and with the file cut short."
    )
    if report.causal:
        return head + "\nNo frame changed when only later audio changed: causal at these cuts.\n"
    lines = [head, f"{len(report.verdicts)} frames depend on audio after their end:"]
    worst = {v.frame: v for v in report.verdicts}
    for first, last in runs(list(worst)):
        span = [worst[f] for f in range(first, last + 1)]
        big = max(span, key=lambda v: v.largest_change)
        change = "a missing value" if big.largest_change == float("inf") else f"{big.largest_change:.3g}"
        frames = f"frame {first}" if first == last else f"frames {first}-{last}"
        lines.append(
            f"  {frames} (ending {span[0].frame_end_s:g}-{span[-1].frame_end_s:g} s): up to {change} "
            f"when the audio after {big.cut_s:g} s was {_DONE[big.variant]}"
        )
    return "\n".join(lines) + "\n"
