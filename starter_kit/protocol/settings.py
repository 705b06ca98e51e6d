"""Every number and sentence the protocol machine uses, in one frozen object built from the config.

The repository builds it from platform_config/ (starter_kit.connection_test.bundle.settings_from_config); the kit
carries it as a generated constants file. Either way no number is typed here.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Failure:
    code: str
    attributed_to: str
    message: str


@dataclass(frozen=True)
class DeliveryLimits:
    min_seconds_per_character: float
    max_seconds_per_character: float
    extra_seconds_allowed: float
    min_level_dbfs: float
    max_level_dbfs: float
    max_clipped_share: float


@dataclass(frozen=True)
class Settings:
    protocol_version: str
    encoding: str
    sample_rate_hz: int
    channels: int
    sample_bits: int
    frame_ms: int
    frame_bytes: int
    wav_header_bytes: int
    # The recording measures' thresholds (protocol.audio_measures), passed to cvb_scorer.audio.
    noise_floor_percentile: float
    digital_silence_min_ms: int
    handshake_timeout_ms: int
    # The largest message the platform reads from an endpoint; a larger one fails the clip.
    max_message_bytes: int
    deadline_factor: float
    deadline_floor_ms: int
    llm_task: str
    tts_turn_index: int
    yield_within_ms: int
    connection_test_clips: int
    default_concurrency: int
    late_reply_wait_ms: int
    # One entry per conversation turn: None, heard out in full; a number, barge_in once that many ms of the
    # reply's audio have arrived.
    conversation_barge_in_after_ms: tuple[int | None, ...]
    listen_after_last_turn_ms: int
    delivery: DeliveryLimits
    not_measured: tuple[str, ...]
    failures: dict[str, Failure] = field(default_factory=dict)
    # {frame type: {pillar: JSON Schema}} and {frame type: sender}, generated from frames.yaml.
    schemas: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    senders: dict[str, str] = field(default_factory=dict)

    def deadline_ms(self, duration_ms: int) -> int:
        """The deadline rule: a factor of the clip's length in whole milliseconds, never below the floor.

        Must agree with generator.pages.derive.deadline_for (a test compares them)."""
        return max(self.deadline_floor_ms, math.floor(duration_ms * self.deadline_factor))

    def failure(self, code: str) -> Failure:
        return self.failures[code]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        values = dict(data)
        values["delivery"] = DeliveryLimits(**values["delivery"])
        values["not_measured"] = tuple(values["not_measured"])
        values["conversation_barge_in_after_ms"] = tuple(values["conversation_barge_in_after_ms"])
        values["failures"] = {code: Failure(**f) for code, f in values["failures"].items()}
        return cls(**values)
