"""The causality probe's rules, pure: where to cut, and which frames moved when the audio after a cut changed.

A probability reported for frame *i* may depend on audio only up to the end of that frame, (i + 1) x hop
seconds. The probe runs the submitted function on the whole recording and on altered copies, each altered only
after one cut point at a frame boundary: every frame that ends at or before the cut must come out the same. Two
alterations catch different faults: replacing the audio after the cut with noise catches lookahead and smoothing
after the fact; cutting the file short there catches whole-file statistics and end-of-file padding.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass


class Variant(enum.Enum):
    NOISE_AFTER = "noise_after"  # samples from the cut on replaced with seeded noise of the same level
    TRUNCATED = "truncated"  # the recording ends at the cut


class ProbeError(ValueError):
    """The probe cannot run or the function's output cannot be judged; the message says why."""


@dataclass(frozen=True)
class Cut:
    frame: int  # frames 0 .. frame - 1 end at or before the cut
    sample: int
    variant: Variant

    @property
    def seconds_label(self) -> str:
        return f"frame boundary {self.frame}"


@dataclass(frozen=True)
class Dependence:
    frame: int
    frame_end_s: float
    cut_s: float
    variant: Variant
    full: float
    altered: float | None  # None: the altered run reported no probability for a frame it had audio for

    @property
    def change(self) -> float:
        return float("inf") if self.altered is None else abs(self.altered - self.full)


def frame_end_sample(frame: int, *, hop_s: float, sample_rate: int) -> int:
    return round((frame + 1) * hop_s * sample_rate)


def frame_count(n_samples: int, *, hop_s: float, sample_rate: int) -> int:
    """Whole frames the recording holds."""
    return int(n_samples // (hop_s * sample_rate) + 1e-9)


def plan(n_samples: int, *, sample_rate: int, hop_s: float, cut_points: int) -> list[Cut]:
    """``cut_points`` frame boundaries spread evenly over the recording (every boundary when there are fewer),
    each probed with both alterations."""
    if hop_s <= 0:
        raise ProbeError(f"--hop must be a positive number of seconds (got {hop_s}).")
    frames = frame_count(n_samples, hop_s=hop_s, sample_rate=sample_rate)
    if frames < 2:
        raise ProbeError(
            f"the recording holds {frames} frame(s) of {hop_s} s; the probe needs at least two to cut between."
        )
    boundaries = range(1, frames)  # a cut after frame b - 1, before frame b
    if cut_points >= len(boundaries):
        chosen = list(boundaries)
    else:
        step = len(boundaries) / cut_points
        chosen = sorted({boundaries[int(step * k + step / 2)] for k in range(cut_points)})
    return [
        Cut(b, frame_end_sample(b - 1, hop_s=hop_s, sample_rate=sample_rate), variant)
        for b in chosen
        for variant in Variant
    ]


def compare(
    full: Sequence[float],
    altered: Sequence[float],
    cut: Cut,
    *,
    sample_rate: int,
    hop_s: float,
    tolerance: float,
) -> list[Dependence]:
    """Frames that end at or before the cut and changed by more than ``tolerance`` (or went missing)."""
    out: list[Dependence] = []
    for frame in range(min(cut.frame, len(full))):
        after = altered[frame] if frame < len(altered) else None
        if after is not None and abs(after - full[frame]) <= tolerance:
            continue
        out.append(
            Dependence(
                frame=frame,
                frame_end_s=(frame + 1) * hop_s,
                cut_s=cut.sample / sample_rate,
                variant=cut.variant,
                full=full[frame],
                altered=after,
            )
        )
    return out


@dataclass(frozen=True)
class FrameVerdict:
    """The worst change seen for one frame over every cut."""

    frame: int
    frame_end_s: float
    largest_change: float
    cut_s: float
    variant: Variant


def by_frame(dependences: Sequence[Dependence]) -> list[FrameVerdict]:
    worst: dict[int, Dependence] = {}
    for d in dependences:
        if d.frame not in worst or d.change > worst[d.frame].change:
            worst[d.frame] = d
    return [FrameVerdict(f, d.frame_end_s, d.change, d.cut_s, d.variant) for f, d in sorted(worst.items())]


def runs(frames: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive frames as (first, last) pairs, for a readable summary."""
    out: list[tuple[int, int]] = []
    for f in sorted(frames):
        if out and f == out[-1][1] + 1:
            out[-1] = (out[-1][0], f)
        else:
            out.append((f, f))
    return out


def check_output(values: object, *, label: str, frames: int) -> list[float]:
    """The function's output as floats, or a sentence saying what is wrong with it."""
    if not isinstance(values, list):
        raise ProbeError(f"the function returned no sequence of probabilities for the {label} recording.")
    out: list[float] = []
    for i, v in enumerate(values):
        if not isinstance(v, (int, float)) or v != v:  # NaN is not equal to itself
            raise ProbeError(
                f"the function's output for the {label} recording has a non-number at frame {i}."
            )
        out.append(float(v))
    if len(out) > frames + 1:
        raise ProbeError(
            f"the function returned {len(out)} probabilities for a {label} recording of {frames} frames; "
            "is --hop right?"
        )
    return out
