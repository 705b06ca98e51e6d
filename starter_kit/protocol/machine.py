"""One connection of the connection test, as the platform runs it: a sans-I/O state machine.

In the style of websockets' protocol.py: the shell tells the machine what happened (connected, a text or
binary message arrived, the socket closed, time passed) with a monotonic time in seconds, and asks it what to
send (data_to_send), when to wake it next (next_wakeup) and, once done, for its verdicts. The machine never
sleeps or reads a clock, so every sequence of events is a plain table in tests.
"""

from __future__ import annotations

import enum
import json
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from starter_kit.protocol import schema
from starter_kit.protocol.delivery import (
    AudioMeasures,
    Delivery,
    ScorerMeasures,
    check_delivery,
    expected_seconds,
)
from starter_kit.protocol.records import FAILURE_CODES, PILLARS, Clip, Item, Timings, Verdict
from starter_kit.protocol.settings import Settings

__all__ = ["FAILURE_CODES", "PILLARS", "Clip", "Exchange", "Item", "State", "Timings", "Verdict"]

_MS = 1000.0


class State(enum.Enum):
    CONNECTING = "connecting"
    AWAIT_READY = "awaiting ready"
    STREAMING = "streaming the caller's audio"
    AWAIT_REPLY = "awaiting the reply"
    SPEAKING = "receiving speech"
    YIELDING = "awaiting the yield after barge_in"
    LISTENING = "listening after the last turn_done"
    DONE = "done"


class _EndOfUtterance:
    """Marks the place in the send schedule where end_of_utterance goes, so its send time is known."""


_EOU = _EndOfUtterance()
Outgoing = str | bytes


@dataclass
class _Turn:
    index: int
    # None: the reply is heard out; a number: barge_in once that many ms of the reply's audio have arrived.
    barge_in_after_ms: int | None
    started: float | None = None  # end_of_utterance (speech: hello): the deadline clock's start
    speaking_at: float | None = None
    barge_in_at: float | None = None
    last_audio_at: float | None = None
    pcm: bytearray = field(default_factory=bytearray)

    @property
    def expect_interruption(self) -> bool:
        return self.barge_in_after_ms is not None


class Exchange:
    """The platform's side of one connection for one item (a clip on a pillar).

    Recognition and reasoning: hello, ready, the clip's audio (one frame per frame interval when paced), then
    end_of_utterance; the first transcript settles the clip, and one sent before end_of_utterance fails it.
    Speech: hello carries the clip's text; speaking, audio and turn_done must follow, and the audio passes the
    delivery checks. Conversation: the clip is played once per entry of the settings'
    conversation_barge_in_after_ms, as turns 0, 1, ...: a turn with None is heard out in full; on the others
    barge_in goes out once that much of the reply's audio has arrived (0: at its first frame) and turn_done must
    follow within the yield threshold. After the last turn_done of speech or a conversation the machine listens
    a little longer, so a repeated turn_done fails. Unpaced, end_of_utterance still waits one frame interval
    after the audio, so a reply sent on `turn` shows up before it. Any message over max_message_bytes fails.
    """

    def __init__(
        self, item: Item, *, settings: Settings, paced: bool, measures: AudioMeasures | None = None
    ) -> None:
        if item.pillar not in PILLARS:
            raise ValueError(f"unknown pillar {item.pillar!r}")
        self.item = item
        self.settings = settings
        self.paced = paced
        self.measures: AudioMeasures = measures or ScorerMeasures(settings)
        self.state = State.CONNECTING
        self.verdicts: list[Verdict] = []
        self.deadline_ms = settings.deadline_ms(item.clip.duration_ms)
        self._out: list[Outgoing] = []
        self._schedule: deque[tuple[float, Outgoing | _EndOfUtterance]] = deque()
        self._wait_until: float | None = None
        self._on_expiry = ""
        self._hello_at = 0.0
        self._handshake_ms: float | None = None
        self._notes: list[str] = []
        # A conversation plays the clip once per turn the settings list, each heard out or interrupted.
        self._turns = (
            [_Turn(n, after) for n, after in enumerate(settings.conversation_barge_in_after_ms)]
            if item.pillar == "e2e"
            else [_Turn(settings.tts_turn_index, None)]
        )
        self._turn_position = 0
        self._finished: set[int] = set()

    # ---- what the shell asks ----
    @property
    def done(self) -> bool:
        return self.state is State.DONE

    def data_to_send(self) -> list[Outgoing]:
        out, self._out = self._out, []
        return out

    def next_wakeup(self) -> float | None:
        """When the shell must call tick() at the latest; None only when done (every wait is bounded)."""
        if self.done:
            return None
        times = [
            t for t in (self._wait_until, self._schedule[0][0] if self._schedule else None) if t is not None
        ]
        return min(times) if times else None

    # ---- what the shell tells ----
    def connected(self, now: float) -> None:
        self._hello_at = now
        self._out.append(self._json(self._hello()))
        self.state = State.AWAIT_READY
        self._wait(now + self.settings.handshake_timeout_ms / _MS, "handshake_incomplete")

    def connection_failed(self, code: str, detail: str, now: float) -> None:
        self._fail(code, detail)

    def tick(self, now: float) -> None:
        self._advance(now)

    def receive_close(self, now: float) -> None:
        self._advance(now)
        if self.state is State.LISTENING:
            self._finish()  # every turn is settled: closing now is the endpoint's right
        elif not self.done:
            self._fail("closed_before_response", f"the socket closed while {self.state.value}")

    def message_too_large(self, now: float) -> None:
        """The shell refused a message over max_message_bytes before reading all of it."""
        self._advance(now)
        if not self.done:
            self._fail("message_too_large", f"a message over {self.settings.max_message_bytes} bytes")

    def receive_bytes(self, data: bytes, now: float) -> None:
        self._advance(now)
        if self.done or self._oversized(len(data)):
            return
        pillar, state = self.item.pillar, self.state
        if state is State.LISTENING:
            return  # audio after the last turn_done is not heard; only a repeated frame is an error
        if state is State.AWAIT_READY:
            self._fail("replied_before_ready", "audio arrived before ready")
        elif pillar in ("asr", "llm"):
            self._fail(
                "unrecognised_frame",
                f"a binary message of {len(data)} bytes on a pillar that answers in text",
            )
        elif state is State.STREAMING:
            self._fail("answered_during_turn", "audio arrived before end_of_utterance")
        elif state is State.AWAIT_REPLY:
            self._fail("audio_before_speaking", f"a binary message of {len(data)} bytes before speaking")
        elif not data or len(data) % 2:
            self._fail("malformed_audio", f"a binary message of {len(data)} bytes")
        else:
            turn = self._turn
            if state is State.YIELDING and turn.barge_in_at is not None:
                late_ms = (now - turn.barge_in_at) * _MS
                if late_ms > self.settings.yield_within_ms:
                    self._fail("did_not_yield", f"audio still arriving {late_ms:.0f} ms after barge_in")
                    return
            turn.last_audio_at = now
            turn.pcm.extend(data)
            if self.item.pillar == "tts" and self._too_long(turn):
                return
            if state is State.SPEAKING:
                self._wait(now + self.settings.late_reply_wait_ms / _MS, "no_response")
                heard_ms = len(turn.pcm) / self._bytes_per_ms
                if turn.barge_in_after_ms is not None and heard_ms >= turn.barge_in_after_ms:
                    self._barge_in(now)

    def receive_text(self, text: str, now: float) -> None:
        self._advance(now)
        if self.done or self._oversized(len(text.encode())):
            return
        frame = self._parse(text)
        if frame is None:
            return
        kind, state = frame["type"], self.state
        if state is State.AWAIT_READY:
            if kind != "ready":
                self._fail("replied_before_ready", f"{kind} arrived before ready")
            else:
                if frame["accept"] != self.settings.encoding:
                    # The accept value is not negotiated: the one format is sent whatever it says.
                    self._notes.append(
                        f"ready's accept was {frame['accept']!r}; hello offered {self.settings.encoding!r}, "
                        "and that format is sent either way, so this is not a failure"
                    )
                self._handshake_ms = (now - self._hello_at) * _MS
                self._start(now)
        elif kind == "ready":
            self._fail("unrecognised_frame", "a second ready")
        elif self.item.pillar in ("asr", "llm"):
            self._transcript(now)
        elif kind == "turn_done" and frame["index"] in self._finished:
            self._fail(
                "repeated_turn_done", f"turn_done for index {frame['index']}, which had already finished"
            )
        elif state is State.LISTENING:
            self._fail("unrecognised_frame", f"{kind} after the last turn_done")
        elif state is State.STREAMING:
            self._fail("answered_during_turn", f"{kind} arrived before end_of_utterance")
        elif frame["index"] != self._turn.index:
            self._fail(
                "turn_index_mismatch",
                f"{kind} carried index {frame['index']}, the turn is {self._turn.index}",
            )
        elif state is State.AWAIT_REPLY:
            if kind == "speaking":
                self._speaking(now)
            else:
                self._fail("no_response", "turn_done arrived without speaking or audio")
        elif kind == "speaking":
            self._fail("unrecognised_frame", "a second speaking for the same turn")
        else:
            self._turn_done(now)

    # ---- the exchange ----
    @property
    def _turn(self) -> _Turn:
        return self._turns[self._turn_position]

    def _hello(self) -> dict[str, Any]:
        s, pillar, clip = self.settings, self.item.pillar, self.item.clip
        frame: dict[str, Any] = {
            "type": "hello",
            "protocol": s.protocol_version,
            "run_item_id": self.item.run_item_id,
            "pillar": pillar,
        }
        if pillar != "tts":
            frame["clip"] = {
                "sample_rate": s.sample_rate_hz,
                "encoding": s.encoding,
                "duration_ms": clip.duration_ms,
            }
        if pillar == "llm":
            frame["task"] = s.llm_task
        if pillar == "tts":
            frame["text"] = clip.text
        frame["deadline_ms"] = self.deadline_ms
        frame["formats"] = [s.encoding]
        return frame

    def _start(self, now: float) -> None:
        self._wait_until = None
        if self.item.pillar == "tts":
            # Speech runs backwards: its clock started at hello.
            self._turn.started = self._hello_at
            self._await_reply(self._hello_at)
        elif self.item.pillar == "e2e":
            self._play_turn(now)
        else:
            self._stream(now)

    def _play_turn(self, now: float) -> None:
        turn, s, clip = self._turn, self.settings, self.item.clip
        self._out.append(
            self._json(
                {
                    "type": "turn",
                    "index": turn.index,
                    "text": clip.text,
                    "audio": {
                        "sample_rate": s.sample_rate_hz,
                        "encoding": s.encoding,
                        "duration_ms": clip.duration_ms,
                    },
                    "expect_interruption": turn.expect_interruption,
                }
            )
        )
        self._stream(now)

    def _stream(self, now: float) -> None:
        """Queue the clip's frames, one per frame interval when paced, then end_of_utterance."""
        s, pcm = self.settings, self.item.clip.pcm
        step = s.frame_ms / _MS if self.paced else 0.0
        starts = range(0, len(pcm), s.frame_bytes)
        for n, start in enumerate(starts):
            self._schedule.append((now + n * step, pcm[start : start + s.frame_bytes]))
        # The caller stops talking when the last frame has played. Unpaced, end_of_utterance still waits one
        # frame interval, so a reply sent on `turn` (a trap) arrives before it, as it would in a scored run.
        self._schedule.append((now + len(starts) * step + (0.0 if self.paced else s.frame_ms / _MS), _EOU))
        self.state = State.STREAMING
        self._advance(now)

    def _await_reply(self, started: float) -> None:
        self.state = State.AWAIT_REPLY
        self._wait(started + (self.deadline_ms + self.settings.late_reply_wait_ms) / _MS, "no_response")

    def _response_ms(self, now: float) -> float:
        started = self._turn.started
        assert started is not None
        return (now - started) * _MS

    def _transcript(self, now: float) -> None:
        if self.state is State.STREAMING:
            # A scored run would take this (a streaming recogniser's partial result, typically) as the answer.
            unsent = sum(1 for _, m in self._schedule if isinstance(m, bytes))
            self._fail(
                "early_transcript",
                f"a transcript arrived with {unsent} of the clip's audio frames still to send, "
                "before end_of_utterance",
            )
            return
        response = self._response_ms(now)
        late = response > self.deadline_ms
        self._settle(
            "deadline_exceeded" if late else None, self._late(response) if late else "", response_ms=response
        )

    def _speaking(self, now: float) -> None:
        turn = self._turn
        response = self._response_ms(now)
        turn.speaking_at = now
        if response > self.deadline_ms:
            self._settle("deadline_exceeded", self._late(response))
            return
        self.state = State.SPEAKING
        self._wait(now + self.settings.late_reply_wait_ms / _MS, "no_response")

    def _barge_in(self, now: float) -> None:
        turn = self._turn
        turn.barge_in_at = now
        self._out.append(self._json({"type": "barge_in", "index": turn.index}))
        self.state = State.YIELDING
        self._wait(now + self.settings.yield_within_ms / _MS, "did_not_yield")

    def _turn_done(self, now: float) -> None:
        turn = self._turn
        if turn.barge_in_at is not None and (now - turn.barge_in_at) * _MS > self.settings.yield_within_ms:
            self._settle(
                "did_not_yield",
                f"turn_done came {(now - turn.barge_in_at) * _MS:.0f} ms after barge_in",
                done_at=now,
            )
            return
        if self.item.pillar == "tts":
            delivery = check_delivery(
                bytes(turn.pcm), self.item.clip.text, settings=self.settings, measures=self.measures
            )
            self._settle(delivery.failure, delivery.detail, done_at=now, delivery=delivery)
            return
        self._settle(None, "", done_at=now)

    def _too_long(self, turn: _Turn) -> bool:
        """Fail speech as soon as it outruns the longest plausible length, so an endless stream cannot hold
        the test open."""
        longest = expected_seconds(self.item.clip.text, settings=self.settings)[1]
        seconds = len(turn.pcm) / (self.settings.sample_rate_hz * self.settings.sample_bits // 8)
        if seconds <= longest:
            return False
        self._fail(
            "implausible_duration", f"more than {longest:.2f} s of speech for this text, and still coming"
        )
        return True

    def _late(self, response_ms: float) -> str:
        return f"the first response came {response_ms:.0f} ms after the clock started; the deadline was {self.deadline_ms} ms"

    # ---- verdicts ----
    def _timings(self, *, response_ms: float | None = None, done_at: float | None = None) -> Timings:
        turn, s = self._turn, self.settings
        started = turn.started
        if response_ms is None and turn.speaking_at is not None and started is not None:
            response_ms = (turn.speaking_at - started) * _MS
        barge = turn.barge_in_at
        return Timings(
            handshake_ms=self._handshake_ms,
            deadline_ms=self.deadline_ms if self._handshake_ms is not None else None,
            response_ms=response_ms,
            hello_to_speaking_ms=(turn.speaking_at - self._hello_at) * _MS
            if turn.speaking_at is not None
            else None,
            barge_in_to_last_audio_ms=(
                max(0.0, (turn.last_audio_at - barge) * _MS)
                if barge is not None and turn.last_audio_at is not None
                else None
            ),
            barge_in_to_turn_done_ms=(done_at - barge) * _MS
            if barge is not None and done_at is not None
            else None,
            yield_within_ms=s.yield_within_ms if barge is not None else None,
        )

    def _settle(
        self,
        code: str | None,
        detail: str,
        *,
        response_ms: float | None = None,
        done_at: float | None = None,
        delivery: Delivery | None = None,
    ) -> None:
        """Record the current turn's verdict; move to the next turn, or finish."""
        assert code is None or code in FAILURE_CODES, code
        turn = self._turn
        self.verdicts.append(
            Verdict(
                pillar=self.item.pillar,
                clip_id=self.item.clip.id,
                turn=turn.index if self.item.pillar == "e2e" else None,
                failure=self.settings.failure(code) if code else None,
                detail=detail,
                timings=self._timings(response_ms=response_ms, done_at=done_at),
                delivery=delivery,
                notes=tuple(self._notes),
            )
        )
        self._finished.add(turn.index)
        if code is None and self._turn_position + 1 < len(self._turns):
            self._turn_position += 1
            self._wait_until = None
            assert done_at is not None
            self._play_turn(done_at)
        elif code is None and done_at is not None and self.item.pillar in ("tts", "e2e"):
            self.state = State.LISTENING
            self._wait(done_at + self.settings.listen_after_last_turn_ms / _MS, "")
        else:
            self._finish()

    def _fail(self, code: str, detail: str) -> None:
        assert code in FAILURE_CODES, code
        if self.state is State.LISTENING:
            # The last turn had passed; what came after it fails that turn after all.
            self.verdicts[-1] = replace(self.verdicts[-1], failure=self.settings.failure(code), detail=detail)
            self._finish()
        elif self.state in (State.CONNECTING, State.AWAIT_READY):
            # Nothing per turn happened yet: one verdict for the connection.
            self.verdicts.append(
                Verdict(
                    self.item.pillar,
                    self.item.clip.id,
                    None,
                    self.settings.failure(code),
                    detail,
                    self._timings(),
                    notes=tuple(self._notes),
                )
            )
            self._finish()
        else:
            self._settle(code, detail)

    def _finish(self) -> None:
        self.state = State.DONE
        self._schedule.clear()
        self._wait_until = None

    # ---- plumbing ----
    def _wait(self, until: float, on_expiry: str) -> None:
        self._wait_until, self._on_expiry = until, on_expiry

    def _advance(self, now: float) -> None:
        while self._schedule and self._schedule[0][0] <= now and not self.done:
            _, message = self._schedule.popleft()
            if isinstance(message, _EndOfUtterance):
                self._out.append(self._json({"type": "end_of_utterance"}))
                self._turn.started = now
                self._await_reply(now)
            else:
                self._out.append(message)
        if self._wait_until is not None and now >= self._wait_until and not self.done:
            code = self._on_expiry
            if self.state is State.LISTENING:
                self._finish()  # nothing more came: the verdicts stand
                return
            details = {
                "handshake_incomplete": f"no ready within {self.settings.handshake_timeout_ms} ms of hello",
                "no_response": f"nothing more arrived within {self.settings.late_reply_wait_ms} ms past the deadline or the last audio",
                "did_not_yield": f"no turn_done within {self.settings.yield_within_ms} ms of barge_in",
            }
            self._fail(code, details[code])

    @property
    def _bytes_per_ms(self) -> float:
        s = self.settings
        return s.sample_rate_hz * s.channels * (s.sample_bits // 8) / _MS

    def _oversized(self, size: int) -> bool:
        """Fail a message over the platform's limit; True when it did."""
        if size <= self.settings.max_message_bytes:
            return False
        self._fail(
            "message_too_large",
            f"a message of {size} bytes; the platform reads at most {self.settings.max_message_bytes}",
        )
        return True

    def _parse(self, text: str) -> dict[str, Any] | None:
        """The frame, or None after failing the clip for anything that is not an entrant's frame here."""
        try:
            frame = json.loads(text)
        except ValueError:
            frame = None
        kind = frame.get("type") if isinstance(frame, dict) else None
        pillar = self.item.pillar
        if not isinstance(kind, str) or self.settings.senders.get(kind) != "entrant":
            self._fail("unrecognised_frame", f"received {text[:80]!r}")
            return None
        if pillar not in self.settings.schemas[kind]:
            self._fail("unrecognised_frame", f"a {kind} frame, which the {pillar} pillar does not use")
            return None
        found = schema.problems(self.settings.schemas[kind][pillar], frame, where=kind)
        if found:
            self._fail("unrecognised_frame", "; ".join(found))
            return None
        checked: dict[str, Any] = frame
        return checked

    @staticmethod
    def _json(frame: dict[str, Any]) -> str:
        return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
