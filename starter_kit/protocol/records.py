"""What the connection test works on and what it reports: clips, items, timings and verdicts."""

from __future__ import annotations

from dataclasses import dataclass

from starter_kit.protocol.delivery import Delivery
from starter_kit.protocol.settings import Failure

PILLARS = ("asr", "llm", "tts", "e2e")
# Every failure code this machine (and the shell, for connection errors) can report; each must be in the
# config's catalogue, which a test checks, so a verdict always has its sentence.
FAILURE_CODES = frozenset(
    {
        "tls_certificate_rejected",
        "connection_refused",
        "handshake_incomplete",
        "replied_before_ready",
        "unrecognised_frame",
        "deadline_exceeded",
        "no_response",
        "closed_before_response",
        "answered_during_turn",
        "turn_index_mismatch",
        "audio_before_speaking",
        "malformed_audio",
        "repeated_turn_done",
        "did_not_yield",
        "no_audio",
        "implausible_duration",
        "level_out_of_range",
        "audio_clipped",
        "early_transcript",
        "message_too_large",
        "upgrade_rejected",
        "scheme_mismatch",
        "upgrade_stalled",
        "network_interrupted",
    }
)


@dataclass(frozen=True)
class Clip:
    id: str
    pcm: bytes  # protocol format, no header
    text: str
    duration_ms: int


@dataclass(frozen=True)
class Item:
    pillar: str
    clip: Clip

    @property
    def run_item_id(self) -> str:
        return f"{self.pillar}-{self.clip.id}"


@dataclass(frozen=True)
class Timings:
    handshake_ms: float | None = None
    deadline_ms: int | None = None
    # End of utterance (speech: hello) to the first response: transcript or speaking.
    response_ms: float | None = None
    hello_to_speaking_ms: float | None = None
    barge_in_to_last_audio_ms: float | None = None
    barge_in_to_turn_done_ms: float | None = None
    yield_within_ms: int | None = None


@dataclass(frozen=True)
class Verdict:
    pillar: str
    clip_id: str
    turn: int | None
    failure: Failure | None
    detail: str
    timings: Timings
    delivery: Delivery | None = None
    # What the report mentions without failing on it (a ready whose accept names another format).
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return self.failure is None
