"""The sans-I/O protocol machine as tables of event sequences: invented times in, frames and verdicts out."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.pages.derive import deadline_for, tracked
from generator.provenance import Num
from starter_kit.protocol.machine import FAILURE_CODES, Clip, Exchange, Item, State
from tests.starter_kit.protocol_support import CONFIG, SETTINGS, TEXT, clip, tone

S = SETTINGS
FRAME_S = S.frame_ms / 1000
HANDSHAKE_S = S.handshake_timeout_ms / 1000
YIELD_S = S.yield_within_ms / 1000
LATE_S = S.late_reply_wait_ms / 1000
LISTEN_S = S.listen_after_last_turn_ms / 1000
CLIP = clip(0.3)
DEADLINE_S = S.deadline_ms(CLIP.duration_ms) / 1000
READY = 0.01
EOU = READY + FRAME_S  # unpaced: one frame interval after the audio
SPEECH = tone(0.5)
EPS = 1e-6  # times here are sums of floats; a limit is tested a hair past it

Step = tuple[Any, ...]


def drive(
    pillar: str, steps: list[Step], *, paced: bool = False, item_clip: Clip = CLIP
) -> tuple[Exchange, list[Any]]:
    exchange = Exchange(Item(pillar, item_clip), settings=S, paced=paced)
    sent: list[Any] = []
    for kind, t, *rest in steps:
        if kind == "connect":
            exchange.connected(t)
        elif kind == "text":
            payload = rest[0] if isinstance(rest[0], str) else json.dumps(rest[0], ensure_ascii=False)
            exchange.receive_text(payload, t)
        elif kind == "bytes":
            exchange.receive_bytes(rest[0], t)
        elif kind == "close":
            exchange.receive_close(t)
        else:
            exchange.tick(t)
        sent += [json.loads(m) if isinstance(m, str) else len(m) for m in exchange.data_to_send()]
    return exchange, sent


def ready(t: float = READY, accept: str = S.encoding) -> Step:
    return ("text", t, {"type": "ready", "accept": accept})


def text(t: float, kind: str, **fields: Any) -> Step:
    return ("text", t, {"type": kind, **fields})


OPEN = [("connect", 0.0), ready()]
EOU_TICK = ("tick", EOU)


def tts_reply(start: float, pcm: bytes = SPEECH, index: int = S.tts_turn_index) -> list[Step]:
    frames = [pcm[i : i + S.frame_bytes] for i in range(0, len(pcm), S.frame_bytes)]
    return [
        text(start, "speaking", index=index),
        *[("bytes", start + 0.001 * (n + 1), f) for n, f in enumerate(frames)],
        text(start + 0.05, "turn_done", index=index),
    ]


def turn_reply(index: int, start: float) -> list[Step]:
    return [
        text(start, "speaking", index=index),
        ("bytes", start + 0.01, SPEECH[:320]),
        text(start + 0.02, "turn_done", index=index),
    ]


# A conversation's next turn begins when the last one's turn_done arrives.
T0_DONE = EOU + 0.1 + 0.02
T1_EOU = T0_DONE + FRAME_S
E2E_FIRST_TURN = [*OPEN, EOU_TICK, *turn_reply(0, EOU + 0.1), ("tick", T1_EOU)]
# Turn 1 is interrupted at its reply's first audio frame and yields at once.
T1_DONE = T1_EOU + 0.1 + 0.02
T2_EOU = T1_DONE + FRAME_S
E2E_TWO_TURNS = [*E2E_FIRST_TURN, *turn_reply(1, T1_EOU + 0.1), ("tick", T2_EOU)]
# Turn 2 is interrupted in the middle of its reply, once this many whole frames of audio have arrived.
MID_FRAMES = -(-S.conversation_barge_in_after_ms[2] // S.frame_ms)  # type: ignore[operator]
T2_SPEAKING = T2_EOU + 0.1


def mid_reply(frames: int) -> list[Step]:
    """Turn 2's reply: speaking, then `frames` audio frames 10 ms apart."""
    audio = tone(frames * FRAME_S + 0.01)
    return [
        text(T2_SPEAKING, "speaking", index=2),
        *[
            ("bytes", T2_SPEAKING + 0.01 * (n + 1), audio[n * S.frame_bytes : (n + 1) * S.frame_bytes])
            for n in range(frames)
        ],
    ]


BARGE_2 = T2_SPEAKING + 0.01 * MID_FRAMES  # barge_in goes out with the frame that reaches the mark
E2E_ALL_TURNS = [
    *E2E_TWO_TURNS,
    *mid_reply(MID_FRAMES),
    text(BARGE_2 + 0.01, "turn_done", index=2),
]
OVERSIZED = S.max_message_bytes + 1

CASES: list[tuple[str, str, list[Step], str | None]] = [
    ("asr answers in time", "asr", [*OPEN, EOU_TICK, text(EOU + 0.2, "transcript", text="你好")], None),
    (
        "a transcript before end_of_utterance",
        "asr",
        [*OPEN, text(READY + 0.01, "transcript", text="你")],
        "early_transcript",
    ),
    (
        "an answer before end_of_utterance",
        "llm",
        [*OPEN, text(READY + 0.01, "transcript", text="好")],
        "early_transcript",
    ),
    (
        "a text message over the limit",
        "asr",
        [*OPEN, EOU_TICK, text(EOU + 0.1, "transcript", text="x" * OVERSIZED)],
        "message_too_large",
    ),
    (
        "an audio message over the limit",
        "tts",
        [*OPEN, text(0.2, "speaking", index=0), ("bytes", 0.21, bytes(OVERSIZED + 1))],
        "message_too_large",
    ),
    ("llm answers in time", "llm", [*OPEN, EOU_TICK, text(EOU + 0.2, "transcript", text="好")], None),
    (
        "transcript exactly at the deadline",
        "asr",
        [*OPEN, EOU_TICK, text(EOU + DEADLINE_S, "transcript", text="x")],
        None,
    ),
    ("silent after hello", "asr", [("connect", 0.0), ("tick", HANDSHAKE_S + EPS)], "handshake_incomplete"),
    (
        "transcript before ready",
        "asr",
        [("connect", 0.0), text(0.01, "transcript", text="x")],
        "replied_before_ready",
    ),
    (
        "speaking before ready",
        "tts",
        [("connect", 0.0), text(0.01, "speaking", index=0)],
        "replied_before_ready",
    ),
    ("audio before ready", "tts", [("connect", 0.0), ("bytes", 0.01, SPEECH[:320])], "replied_before_ready"),
    (
        "another accept value, which is not negotiated",
        "asr",
        [("connect", 0.0), ready(accept="wav"), EOU_TICK, text(EOU + 0.2, "transcript", text="好")],
        None,
    ),
    ("a debug line", "asr", [*OPEN, ("text", 0.05, "DEBUG got hello")], "unrecognised_frame"),
    ("JSON that is not a frame", "asr", [*OPEN, ("text", 0.05, "[1, 2]")], "unrecognised_frame"),
    ("a frame the platform sends", "asr", [*OPEN, text(0.05, "hello")], "unrecognised_frame"),
    (
        "a transcript without text",
        "asr",
        [*OPEN, EOU_TICK, text(EOU + 0.1, "transcript")],
        "unrecognised_frame",
    ),
    (
        "a transcript with an extra field",
        "asr",
        [*OPEN, EOU_TICK, text(EOU + 0.1, "transcript", text="x", score=1)],
        "unrecognised_frame",
    ),
    (
        "speaking on recognition",
        "asr",
        [*OPEN, EOU_TICK, text(EOU + 0.1, "speaking", index=0)],
        "unrecognised_frame",
    ),
    (
        "audio on recognition",
        "asr",
        [*OPEN, EOU_TICK, ("bytes", EOU + 0.1, SPEECH[:320])],
        "unrecognised_frame",
    ),
    ("a second ready", "asr", [*OPEN, ready(0.02)], "unrecognised_frame"),
    (
        "a transcript after the deadline",
        "asr",
        [*OPEN, EOU_TICK, text(EOU + DEADLINE_S + 0.001, "transcript", text="x")],
        "deadline_exceeded",
    ),
    ("no transcript", "asr", [*OPEN, EOU_TICK, ("tick", EOU + DEADLINE_S + LATE_S + EPS)], "no_response"),
    ("socket closed after hello", "asr", [("connect", 0.0), ("close", 0.01)], "closed_before_response"),
    (
        "socket closed before the transcript",
        "llm",
        [*OPEN, EOU_TICK, ("close", EOU + 0.1)],
        "closed_before_response",
    ),
    ("speech delivered", "tts", [*OPEN, *tts_reply(0.2), ("tick", 0.25 + LISTEN_S)], None),
    (
        "speech delivered, then the socket closed",
        "tts",
        [*OPEN, *tts_reply(0.2), ("close", 0.26)],
        None,
    ),
    (
        "a repeated turn_done on speech",
        "tts",
        [*OPEN, *tts_reply(0.2), text(0.26, "turn_done", index=0)],
        "repeated_turn_done",
    ),
    (
        "a stray frame after the last turn_done",
        "tts",
        [*OPEN, *tts_reply(0.2), text(0.26, "speaking", index=0)],
        "unrecognised_frame",
    ),
    (
        "speaking only after all audio",
        "tts",
        [*OPEN, *tts_reply(0.2)[1:-1], text(0.3, "speaking", index=0)],
        "audio_before_speaking",
    ),
    (
        "audio of odd length",
        "tts",
        [*OPEN, text(0.2, "speaking", index=0), ("bytes", 0.21, SPEECH[:321])],
        "malformed_audio",
    ),
    (
        "empty audio frame",
        "tts",
        [*OPEN, text(0.2, "speaking", index=0), ("bytes", 0.21, b"")],
        "malformed_audio",
    ),
    (
        "speech with a wrong index",
        "tts",
        [*OPEN, *tts_reply(0.2, index=S.tts_turn_index + 1)],
        "turn_index_mismatch",
    ),
    ("speaking after the deadline", "tts", [*OPEN, *tts_reply(DEADLINE_S + 0.001)], "deadline_exceeded"),
    (
        "turn_done without audio",
        "tts",
        [*OPEN, text(0.2, "speaking", index=0), text(0.3, "turn_done", index=0)],
        "no_audio",
    ),
    ("silent speech", "tts", [*OPEN, *tts_reply(0.2, pcm=bytes(len(SPEECH)))], "level_out_of_range"),
    ("clipped speech", "tts", [*OPEN, *tts_reply(0.2, pcm=tone(0.5, level_dbfs=-2.0))], "audio_clipped"),
    (
        "speech far too long for its text",
        "tts",
        [*OPEN, *tts_reply(0.2, pcm=tone(6.0))],
        "implausible_duration",
    ),
    (
        "speech that never ends",
        "tts",
        [
            *OPEN,
            text(0.2, "speaking", index=0),
            *[("bytes", 0.2 + n * 0.001, SPEECH[:3200]) for n in range(70)],
        ],
        "implausible_duration",
    ),
    (
        "speaking but never turn_done",
        "tts",
        [*OPEN, text(0.2, "speaking", index=0), ("tick", 0.2 + LATE_S + EPS)],
        "no_response",
    ),
    (
        "a conversation answered on end_of_utterance",
        "e2e",
        [*E2E_ALL_TURNS, ("tick", BARGE_2 + 0.01 + LISTEN_S)],
        None,
    ),
    (
        "a repeated turn_done after the last turn",
        "e2e",
        [*E2E_ALL_TURNS, text(BARGE_2 + 0.02, "turn_done", index=2)],
        "repeated_turn_done",
    ),
    (
        "still speaking after barge_in mid-reply",
        "e2e",
        [*E2E_TWO_TURNS, *mid_reply(MID_FRAMES + 1), ("bytes", BARGE_2 + YIELD_S + 0.01, SPEECH[:320])],
        "did_not_yield",
    ),
    (
        "a conversation answering on turn",
        "e2e",
        [*OPEN, text(READY + 0.01, "speaking", index=0)],
        "answered_during_turn",
    ),
    ("audio during the turn", "e2e", [*OPEN, ("bytes", READY + 0.01, SPEECH[:320])], "answered_during_turn"),
    ("a wrong index", "e2e", [*OPEN, EOU_TICK, text(EOU + 0.1, "speaking", index=7)], "turn_index_mismatch"),
    (
        "turn_done before speaking",
        "e2e",
        [*OPEN, EOU_TICK, text(EOU + 0.1, "turn_done", index=0)],
        "no_response",
    ),
    (
        "audio before speaking in a conversation",
        "e2e",
        [*OPEN, EOU_TICK, ("bytes", EOU + 0.1, SPEECH[:320])],
        "audio_before_speaking",
    ),
    (
        "still speaking after barge_in",
        "e2e",
        [
            *E2E_FIRST_TURN,
            text(T1_EOU + 0.1, "speaking", index=1),
            ("bytes", T1_EOU + 0.11, SPEECH[:320]),
            ("bytes", T1_EOU + 0.11 + YIELD_S + 0.001, SPEECH[:320]),
        ],
        "did_not_yield",
    ),
    (
        "no turn_done after barge_in",
        "e2e",
        [
            *E2E_FIRST_TURN,
            text(T1_EOU + 0.1, "speaking", index=1),
            ("bytes", T1_EOU + 0.11, SPEECH[:320]),
            ("tick", T1_EOU + 0.11 + YIELD_S + EPS),
        ],
        "did_not_yield",
    ),
    (
        "a second turn_done for a finished turn",
        "e2e",
        [*E2E_FIRST_TURN[:-1], text(T0_DONE + 0.01, "turn_done", index=0)],
        "repeated_turn_done",
    ),
]


@pytest.mark.parametrize(("pillar", "steps", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_event_sequence_ends_in_its_verdict(pillar: str, steps: list[Step], code: str | None) -> None:
    exchange, _ = drive(pillar, steps)
    assert exchange.done
    last = exchange.verdicts[-1]
    assert (last.failure.code if last.failure else None) == code, last.detail
    if code is not None:
        assert last.failure is not None and last.failure.message == S.failures[code].message
        assert last.detail  # says what was seen


@pytest.mark.parametrize(
    ("pillar", "steps"),
    [
        ("asr", [("connect", 0.0), ("tick", HANDSHAKE_S - 0.001)]),
        ("asr", [*OPEN, EOU_TICK, ("tick", EOU + DEADLINE_S + LATE_S - 0.001)]),
        (
            "e2e",
            [
                *E2E_FIRST_TURN,
                text(T1_EOU + 0.1, "speaking", index=1),
                ("bytes", T1_EOU + 0.11, SPEECH[:320]),
                ("tick", T1_EOU + 0.11 + YIELD_S - 0.001),
            ],
        ),
    ],
    ids=["handshake", "late reply", "yield"],
)
def test_a_wait_is_not_a_failure_until_its_limit(pillar: str, steps: list[Step]) -> None:
    exchange, _ = drive(pillar, steps)
    assert not exchange.done and all(v.passed for v in exchange.verdicts)
    assert exchange.next_wakeup() is not None  # and it is bounded


def test_another_accept_value_is_a_note_in_the_verdict_not_a_failure() -> None:
    exchange, sent = drive(
        "asr", [("connect", 0.0), ready(accept="wav"), EOU_TICK, text(EOU + 0.2, "transcript", text="好")]
    )
    assert exchange.done and [v.passed for v in exchange.verdicts] == [True]
    assert any(isinstance(m, dict) and m["type"] == "end_of_utterance" for m in sent)  # the audio went out
    (note,) = exchange.verdicts[0].notes
    assert "'wav'" in note and repr(S.encoding) in note
    plain, _ = drive("asr", [*OPEN, EOU_TICK, text(EOU + 0.2, "transcript", text="好")])
    assert plain.verdicts[0].notes == ()


def test_hello_carries_the_deadline_the_pages_compute() -> None:
    for duration in (CLIP.duration_ms, 18000, 60000):
        expected = deadline_for(tracked(CONFIG), Num(duration, frozenset()))
        assert S.deadline_ms(duration) == expected.value


@pytest.mark.parametrize("pillar", ["asr", "llm", "tts", "e2e"])
def test_every_frame_the_machine_sends_matches_the_platform_schema(pillar: str) -> None:
    steps = {
        "asr": [*OPEN, EOU_TICK],
        "llm": [*OPEN, EOU_TICK],
        "tts": [*OPEN],
        "e2e": [
            *E2E_FIRST_TURN,
            text(T1_EOU + 0.1, "speaking", index=1),
            ("bytes", T1_EOU + 0.11, SPEECH[:320]),
        ],
    }[pillar]
    _, sent = drive(pillar, steps)
    kinds = []
    for message in sent:
        if isinstance(message, dict):
            kinds.append(message["type"])
            assert S.senders[message["type"]] == "platform"
            jsonschema.validate(message, S.schemas[message["type"]][pillar])
    expected = {
        "asr": ["hello", "end_of_utterance"],
        "llm": ["hello", "end_of_utterance"],
        "tts": ["hello"],
        "e2e": ["hello", "turn", "end_of_utterance", "turn", "end_of_utterance", "barge_in"],
    }[pillar]
    assert kinds == expected


def test_audio_goes_out_in_protocol_frames_one_interval_apart_when_paced() -> None:
    item_clip = clip(0.45)  # four whole frames and a half
    exchange, sent = drive("asr", [("connect", 0.0), ready(0.0)], paced=True, item_clip=item_clip)
    wakeups, sizes = [], [m for m in sent if isinstance(m, int)]
    now = 0.0
    for _ in range(10):
        sizes += [len(m) for m in exchange.data_to_send() if isinstance(m, bytes)]
        wakeup = exchange.next_wakeup()
        assert wakeup is not None
        if exchange.state is not State.STREAMING:
            break
        wakeups.append(round(wakeup - now, 6))
        now = wakeup
        exchange.tick(now)
    assert sizes == [S.frame_bytes] * 4 + [len(item_clip.pcm) - 4 * S.frame_bytes]
    assert wakeups == [FRAME_S] * 5  # four more frames, then end_of_utterance as the last one ends
    assert exchange.state is State.AWAIT_REPLY


def test_barge_in_timings_are_measured_from_barge_in() -> None:
    barge = T1_EOU + 0.11
    steps = [
        *E2E_FIRST_TURN,
        text(T1_EOU + 0.1, "speaking", index=1),
        ("bytes", barge, SPEECH[:320]),
        ("bytes", barge + 0.05, SPEECH[:320]),
        text(barge + 0.08, "turn_done", index=1),
    ]
    exchange, _ = drive("e2e", steps)
    last = exchange.verdicts[-1]
    assert last.passed and last.turn == 1
    assert last.timings.barge_in_to_last_audio_ms == pytest.approx(50)
    assert last.timings.barge_in_to_turn_done_ms == pytest.approx(80)
    assert last.timings.response_ms == pytest.approx(100)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["text", "bytes", "close", "tick"]),
            st.floats(0, 20),
            st.binary(max_size=8),
            st.text(max_size=20),
        ),
        max_size=12,
    )
)
def test_any_event_sequence_leaves_a_bounded_wait_or_a_verdict(
    events: list[tuple[str, float, bytes, str]],
) -> None:
    exchange = Exchange(Item("e2e", CLIP), settings=S, paced=True)
    exchange.connected(0.0)
    now = 0.0
    for kind, step, data, body in events:
        now += step
        if kind == "text":
            exchange.receive_text(body, now)
        elif kind == "bytes":
            exchange.receive_bytes(data, now)
        elif kind == "close":
            exchange.receive_close(now)
        else:
            exchange.tick(now)
        exchange.data_to_send()
        assert exchange.done == (exchange.next_wakeup() is None)
        if exchange.done:
            assert exchange.verdicts and not exchange.verdicts[-1].passed


def test_a_clip_text_is_counted_in_spoken_characters() -> None:
    from starter_kit.protocol.delivery import spoken_characters

    assert spoken_characters(TEXT) == 3
    assert spoken_characters("你好，claim 返！") == 8


def test_every_failure_the_machine_reports_has_a_sentence_in_the_catalogue() -> None:
    catalogue = {f.code for f in CONFIG.failures.root}
    assert not FAILURE_CODES - catalogue, sorted(FAILURE_CODES - catalogue)
    reported = {code for _, _, _, code in CASES if code}
    # The table reaches every code except those only the socket shell can meet (tested over real sockets).
    assert FAILURE_CODES - reported == {
        "tls_certificate_rejected",
        "connection_refused",
        "upgrade_rejected",
        "scheme_mismatch",
        "upgrade_stalled",
        "network_interrupted",
    }


def test_a_conversation_plays_every_configured_turn_and_barges_in_where_the_config_says() -> None:
    exchange, sent = drive("e2e", E2E_ALL_TURNS)
    frames = [m for m in sent if isinstance(m, dict)]
    turns = [m for m in frames if m["type"] == "turn"]
    assert [t["index"] for t in turns] == list(range(len(S.conversation_barge_in_after_ms)))
    assert [t["expect_interruption"] for t in turns] == [
        after is not None for after in S.conversation_barge_in_after_ms
    ]
    assert [m["index"] for m in frames if m["type"] == "barge_in"] == [
        n for n, after in enumerate(S.conversation_barge_in_after_ms) if after is not None
    ]
    assert [v.turn for v in exchange.verdicts] == [t["index"] for t in turns]
    assert all(v.passed for v in exchange.verdicts)
    # The mid-reply barge_in was timed from the frame that reached the mark, not from the first one.
    last = exchange.verdicts[-1].timings
    assert last.barge_in_to_turn_done_ms == pytest.approx(10)
    assert last.response_ms == pytest.approx(100)
    assert not exchange.done and exchange.state is State.LISTENING


def test_barge_in_waits_for_the_configured_share_of_the_reply() -> None:
    _, sent = drive("e2e", [*E2E_TWO_TURNS, *mid_reply(MID_FRAMES - 1)])
    assert [m["index"] for m in sent if isinstance(m, dict) and m["type"] == "barge_in"] == [1]
    _, sent = drive("e2e", [*E2E_TWO_TURNS, *mid_reply(MID_FRAMES)])
    assert [m["index"] for m in sent if isinstance(m, dict) and m["type"] == "barge_in"] == [1, 2]


def test_the_shell_can_report_a_message_it_refused_as_too_large() -> None:
    exchange = Exchange(Item("asr", CLIP), settings=S, paced=False)
    exchange.connected(0.0)
    exchange.receive_text(json.dumps({"type": "ready", "accept": S.encoding}), READY)
    exchange.message_too_large(READY + 0.01)
    assert exchange.done
    failure = exchange.verdicts[-1].failure
    assert failure is not None and failure.code == "message_too_large"
