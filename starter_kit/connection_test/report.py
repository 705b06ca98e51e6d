"""The connection test's report: one line per clip and turn, as text or as JSON."""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from starter_kit.connection_test.client import RunResult
from starter_kit.protocol.machine import Verdict
from starter_kit.protocol.settings import Settings


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f} ms"


def _where(v: Verdict) -> str:
    return f"{v.pillar} {v.clip_id}" + (f" turn {v.turn}" if v.turn is not None else "")


def _timings(v: Verdict) -> str:
    t = v.timings
    parts = []
    if t.handshake_ms is not None:
        parts.append(f"handshake {_ms(t.handshake_ms)}")
    if t.response_ms is not None:
        start = "hello" if v.pillar == "tts" else "end_of_utterance"
        reply = "transcript" if v.pillar in ("asr", "llm") else "speaking"
        parts.append(f"{start} to {reply} {_ms(t.response_ms)} (deadline {t.deadline_ms} ms)")
    if t.hello_to_speaking_ms is not None and v.pillar != "tts":
        parts.append(f"hello to speaking {_ms(t.hello_to_speaking_ms)}")
    if t.yield_within_ms is not None:
        parts.append(
            f"barge_in to last audio {_ms(t.barge_in_to_last_audio_ms)}, to turn_done "
            f"{_ms(t.barge_in_to_turn_done_ms)} (yield within {t.yield_within_ms} ms)"
        )
    return " · ".join(parts)


def _delivery(v: Verdict) -> str:
    d = v.delivery
    if d is None:
        return ""
    level = "silent" if d.level_dbfs is None else f"{d.level_dbfs:.1f} dBFS"
    clipped = "–" if d.clipped_share is None else f"{d.clipped_share:.2%}"
    low, high = d.expected_s
    return (
        f"speech {d.duration_s:.2f} s (plausible for the text: {low:.2f}–{high:.2f} s) · median frame level "
        f"{level} · clipped {clipped}"
    )


def render_text(result: RunResult, *, settings: Settings) -> str:
    lines = []
    for v in result.verdicts:
        mark = "PASS" if v.passed else "FAIL"
        lines.append(f"{mark}  {_where(v)}")
        if v.failure is not None:
            lines.append(f"      {v.failure.code}: {v.failure.message}")
            if v.detail:
                lines.append(f"      what we saw: {v.detail}")
        lines += [f"      note: {note}" for note in v.notes]
        for extra in (_timings(v), _delivery(v)):
            if extra:
                lines.append(f"      {extra}")
    failed = sum(1 for v in result.verdicts if not v.passed)
    lines.append("")
    source = f" (from {result.declared_from})" if result.declared_from else ""
    lines.append(
        f"Tested at concurrency {result.concurrency}{source}: at most {result.max_open} connections open at once."
    )
    lines += [f"Not measured: {sentence}" for sentence in settings.not_measured]
    if failed:
        lines.append(f"{failed} of {len(result.verdicts)} clips and turns failed.")
    else:
        lines.append(f"All {len(result.verdicts)} clips and turns passed.")
    return "\n".join(lines) + "\n"


def _plain(value: Any) -> Any:
    # JSON has no infinity: a silent clip's level is reported as null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def to_json(result: RunResult, *, settings: Settings) -> dict[str, Any]:
    return {
        "passed": result.passed,
        "protocol": settings.protocol_version,
        "concurrency": result.concurrency,
        "concurrency_from": result.declared_from,
        "max_open_connections": result.max_open,
        "not_measured": list(settings.not_measured),
        "results": [_plain({**asdict(v), "passed": v.passed}) for v in result.verdicts],
    }
