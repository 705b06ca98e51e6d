"""How long a connection test takes: each item's time from the clip's length, the pacing and a model's reply
times, and the run's time as the client schedules the items (in order, each on the first free connection).

Pure and approximate by design: it leaves out the handshakes and the network, which on loopback are
milliseconds. The integration page states its figures for the kit's stub models, and a test compares them
with a measured run.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

from starter_kit.protocol.settings import Settings


@dataclass(frozen=True)
class ReplyTimes:
    """A model's pace: think_s before its first reply, then speech_s of audio produced at speed× real time."""

    think_s: float
    speech_s: float
    speed: float


def streaming_seconds(clip_ms: int, settings: Settings) -> float:
    """Paced: one frame per frame interval, and end_of_utterance as the last frame ends."""
    return math.ceil(clip_ms / settings.frame_ms) * settings.frame_ms / 1000


def item_seconds(pillar: str, clip_ms: int, *, settings: Settings, reply: ReplyTimes) -> float:
    listen_s = settings.listen_after_last_turn_ms / 1000
    full_reply_s = reply.think_s + reply.speech_s / reply.speed
    if pillar in ("asr", "llm"):
        return streaming_seconds(clip_ms, settings) + reply.think_s
    if pillar == "tts":
        return full_reply_s + listen_s
    total = listen_s
    for after_ms in settings.conversation_barge_in_after_ms:
        heard_s = reply.speech_s if after_ms is None else min(reply.speech_s, after_ms / 1000)
        total += streaming_seconds(clip_ms, settings) + reply.think_s + heard_s / reply.speed
    return total


def run_seconds(items: Sequence[float], *, concurrency: int) -> float:
    """The run's length: items taken in order, each on the connection that frees first."""
    free_at = [0.0] * min(concurrency, max(len(items), 1))
    for seconds in items:
        heapq.heappush(free_at, heapq.heappop(free_at) + seconds)
    return max(free_at)


def pillar_seconds(
    pillars: Sequence[str], clip_ms: Sequence[int], *, settings: Settings, reply: ReplyTimes, concurrency: int
) -> float:
    """A run over `pillars` (in the client's order) on these clips."""
    items = [item_seconds(pillar, ms, settings=settings, reply=reply) for pillar in pillars for ms in clip_ms]
    return run_seconds(items, concurrency=concurrency)
