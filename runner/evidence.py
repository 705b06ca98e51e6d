"""What happened on one connection, as evidence: every frame with its time on the monotonic clock, its size,
and how the connection closed. Pure: the shell reports each event with the time it read.

Audio is logged as runs of consecutive binary frames in one direction (first and last time, frames, bytes), so
a thirty-second clip is one line of evidence rather than fifteen hundred, with nothing lost that a verdict uses.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from starter_kit.protocol.machine import Exchange, Item, Verdict
from starter_kit.protocol.settings import Settings


def _t(now: float) -> float:
    return round(now, 6)


@dataclass
class Close:
    """How the connection ended. `frame`: whether a WebSocket close frame arrived from the entrant."""

    code: int | None
    reason: str
    frame: bool
    by: str  # "entrant" (their close frame), "platform" (ours), "network" (no close frame came)
    at: float


@dataclass
class ConnectionLog:
    opened_at: float | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    close: Close | None = None

    def opened(self, now: float) -> None:
        self.opened_at = _t(now)

    def text(self, direction: str, message: str, now: float) -> None:
        kind: str
        try:
            parsed = json.loads(message)
            kind = str(parsed.get("type", "?")) if isinstance(parsed, dict) else "?"
        except ValueError:
            kind = "not JSON"
        self.frames.append(
            {"dir": direction, "type": kind, "t": _t(now), "bytes": len(message.encode("utf-8"))}
        )

    def audio(self, direction: str, data: bytes, now: float) -> None:
        last = self.frames[-1] if self.frames else None
        if last is not None and last["dir"] == direction and last["type"] == "audio":
            last["frames"] += 1
            last["bytes"] += len(data)
            last["until"] = _t(now)
            return
        self.frames.append(
            {
                "dir": direction,
                "type": "audio",
                "t": _t(now),
                "until": _t(now),
                "frames": 1,
                "bytes": len(data),
            }
        )

    def closed(self, close: Close) -> None:
        self.close = close

    def to_json(self) -> dict[str, Any]:
        close = None
        if self.close is not None:
            c = self.close
            close = {"code": c.code, "reason": c.reason, "close_frame": c.frame, "by": c.by, "t": _t(c.at)}
        return {"opened_at": self.opened_at, "frames": self.frames, "close": close}


class RecordingExchange(Exchange):
    """The connection test's machine, unchanged, plus the first transcript's text (the scorer needs the words;
    the machine only times them)."""

    def __init__(self, item: Item, *, settings: Settings, paced: bool) -> None:
        super().__init__(item, settings=settings, paced=paced)
        self.transcript: str | None = None

    def receive_text(self, text: str, now: float) -> None:
        was_done = self.done
        super().receive_text(text, now)
        if was_done or self.transcript is not None or self.item.pillar not in ("asr", "llm"):
            return
        try:
            frame = json.loads(text)
        except ValueError:
            return
        if (
            isinstance(frame, dict)
            and frame.get("type") == "transcript"
            and isinstance(frame.get("text"), str)
        ):
            self.transcript = frame["text"]


def verdict_json(v: Verdict) -> dict[str, Any]:
    """A verdict as plain JSON: the failure's code, party and sentence; the timings; speech's delivery."""

    def plain(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: plain(x) for k, x in value.items()}
        if isinstance(value, list | tuple):
            return [plain(x) for x in value]
        return value

    out: dict[str, Any] = plain({**asdict(v), "passed": v.passed})
    return out
