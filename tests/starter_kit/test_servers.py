"""The kit's Python and Node servers, unpacked from the site's zip, do what the protocol asks with slow models:
every pillar at a concurrency above one, speaking at the first audio byte, yielding on barge_in, one
turn_done per turn, and a log line and a close code (never a crash, never text) for anything malformed."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from generator.kit_servers import (
    AUDIO,
    CONFIG,
    KIT,
    LANGUAGES,
    WAIT_S,
    KitServer,
    Received,
    hello,
    kit_server,
    receive,
    receive_until,
    run,
)

pytestmark = pytest.mark.xdist_group("kit-servers")

CONCURRENCY = 3
TURN = CONFIG.protocol.examples.turn
# "Within one frame": speaking may trail the first audio by the time one frame takes to pass, and no more.
SPEAKING_WITHIN_NS = AUDIO.frame_ms * 1_000_000
FRAME = bytes(AUDIO.frame_bytes)


@pytest.fixture(scope="module", params=LANGUAGES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[KitServer]:
    """The kit as shipped: the slow stub is the default model."""
    with kit_server(request.param, tmp_path_factory.mktemp(request.param)) as running:
        yield running


@pytest.fixture(scope="module", params=LANGUAGES)
def one_second_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[KitServer]:
    """A model that thinks for a second and then speaks in real time, tracing when its first audio exists."""
    env = {"STUB_DELAY_S": "1", "STUB_SPEED": "1", "STUB_SPEECH_S": "3", "KIT_TRACE": "1"}
    with kit_server(request.param, tmp_path_factory.mktemp(request.param), env=env) as running:
        yield running


async def recognise(url: str, pillar: str) -> Received:
    got = Received()
    async with connect(url) as ws:
        await ws.send(hello(pillar))
        assert await receive(ws, got) == {"type": "ready", "accept": AUDIO.encoding}
        for _ in range(3):
            await ws.send(FRAME)
        await ws.send(json.dumps({"type": "end_of_utterance"}))
        await receive_until(ws, got, "transcript")
    return got


async def synthesise(url: str) -> Received:
    got = Received()
    async with connect(url) as ws:
        await ws.send(hello("tts", text=TURN.text))
        await receive_until(ws, got, "turn_done")
        await assert_quiet(ws)
    return got


async def converse(url: str, turns: int = 2) -> Received:
    got = Received()
    async with connect(url) as ws:
        await ws.send(hello("e2e"))
        await receive_until(ws, got, "ready")
        for index in range(turns):
            await play_turn(ws, index)
            with pytest.raises(TimeoutError):  # nothing may be said while the caller's turn plays
                await asyncio.wait_for(ws.recv(), timeout=0.3)
            await ws.send(json.dumps({"type": "end_of_utterance"}))
            await receive_until(ws, got, "turn_done")
        await assert_quiet(ws)
    return got


async def play_turn(ws: ClientConnection, index: int) -> None:
    turn = {"type": "turn", "index": index, "text": TURN.text, "expect_interruption": False}
    await ws.send(json.dumps(turn, ensure_ascii=False))
    for _ in range(3):
        await ws.send(FRAME)


async def assert_quiet(ws: ClientConnection) -> None:
    """After turn_done the turn is over: nothing more may arrive for it."""
    with pytest.raises(TimeoutError):
        message = await asyncio.wait_for(ws.recv(), timeout=0.3)
        raise AssertionError(f"after turn_done the server still sent {message!r:.80}")


def assert_speech(got: Received, index: int) -> None:
    """speaking, then whole-sample binary frames no longer than a frame, then exactly one turn_done."""
    kinds = [item if isinstance(item, int) else item["type"] for _, item in got.items]
    texts = [item for _, item in got.items if isinstance(item, dict)]
    speaking = kinds.index("speaking")
    assert texts[-1] == {"type": "turn_done", "index": index}
    assert [t for t in texts if t["type"] == "speaking"] == [{"type": "speaking", "index": index}]
    assert sum(t["type"] == "turn_done" for t in texts) == 1
    frames = kinds[speaking + 1 : -1]
    assert frames, "no audio between speaking and turn_done"
    assert all(isinstance(n, int) and 0 < n <= AUDIO.frame_bytes and n % 2 == 0 for n in frames)


@pytest.mark.parametrize("pillar", ["asr", "llm"])
def test_recognition_and_reasoning_answer_once_on_every_connection_at_once(
    server: KitServer, pillar: str
) -> None:
    async def clips() -> list[Received]:
        return list(await asyncio.gather(*(recognise(server.url, pillar) for _ in range(CONCURRENCY))))

    for got in run(clips()):
        texts = got.texts()
        assert texts[0] == {"type": "ready", "accept": AUDIO.encoding}
        assert [t["type"] for t in texts[1:]] == ["transcript"] and texts[1]["text"]


def test_speech_streams_between_speaking_and_one_turn_done_on_every_connection_at_once(
    server: KitServer,
) -> None:
    async def clips() -> list[Received]:
        return list(await asyncio.gather(*(synthesise(server.url) for _ in range(CONCURRENCY))))

    for got in run(clips()):
        assert got.texts()[0] == {"type": "ready", "accept": AUDIO.encoding}
        assert_speech(Received(got.items[1:]), CONFIG.protocol.tts_turn_index)


def test_conversation_answers_each_turn_after_end_of_utterance_with_its_index_at_once(
    server: KitServer,
) -> None:
    async def conversations() -> list[Received]:
        return list(await asyncio.gather(*(converse(server.url) for _ in range(CONCURRENCY))))

    for got in run(conversations()):
        items = got.items[1:]
        done = [
            i for i, (_, item) in enumerate(items) if isinstance(item, dict) and item["type"] == "turn_done"
        ]
        assert_speech(Received(items[: done[0] + 1]), 0)
        assert_speech(Received(items[done[0] + 1 :]), 1)


def test_a_thinking_model_does_not_hold_up_another_connections_handshake(
    one_second_server: KitServer,
) -> None:
    async def measure() -> float:
        async with connect(one_second_server.url) as busy:
            await busy.send(hello("asr"))
            await busy.recv()
            await busy.send(json.dumps({"type": "end_of_utterance"}))  # the model now thinks for a second
            await asyncio.sleep(0.1)
            started = time.monotonic()
            async with connect(one_second_server.url) as other:
                await other.send(hello("asr"))
                assert json.loads(await asyncio.wait_for(other.recv(), timeout=WAIT_S))["type"] == "ready"
                handshake = time.monotonic() - started
            assert json.loads(await asyncio.wait_for(busy.recv(), timeout=WAIT_S))["type"] == "transcript"
            return handshake

    # Generous: a blocked event loop makes this the model's whole second.
    assert run(measure()) < 0.5


def test_speaking_arrives_as_the_first_audio_is_produced(one_second_server: KitServer) -> None:
    before = len(one_second_server.trace_ns())
    got = run(synthesise(one_second_server.url))
    produced = one_second_server.trace_ns()[before:]
    assert len(produced) == 1
    speaking = got.first("speaking")
    # The server's own trace and this client read the same monotonic clock (CLOCK_MONOTONIC on Linux). Order,
    # not a wall-clock bound (a loaded machine stretches every gap; bench/kit.py measures the time): speaking
    # follows the first audio the model produced, precedes every audio frame, and comes long before the end.
    assert speaking >= produced[0]
    assert all(t > speaking for t in got.audio_times())
    assert got.first("turn_done") - speaking > SPEAKING_WITHIN_NS  # speech streamed, not batched at the end


def test_conversation_yields_within_the_threshold_and_sends_one_turn_done(
    one_second_server: KitServer,
) -> None:
    async def interrupted() -> tuple[Received, int]:
        got = Received()
        async with connect(one_second_server.url) as ws:
            await ws.send(hello("e2e"))
            await receive_until(ws, got, "ready")
            await play_turn(ws, TURN.index)
            await ws.send(json.dumps({"type": "end_of_utterance"}))
            await receive_until(ws, got, "speaking")
            for _ in range(2):  # let it speak a little
                assert isinstance(await receive(ws, got), int)
            barged = time.monotonic_ns()
            await ws.send(json.dumps({"type": "barge_in", "index": TURN.index}))
            await receive_until(ws, got, "turn_done")
            # A barge_in for a turn already finished stops nothing and sends nothing.
            await ws.send(json.dumps({"type": "barge_in", "index": TURN.index}))
            await assert_quiet(ws)
        return got, barged

    before = len(one_second_server.trace_ns())
    got, barged = run(interrupted())
    produced = one_second_server.trace_ns()[before:]
    assert got.first("speaking") >= produced[0]
    turn_done = got.first("turn_done")
    # The yield is judged by what was sent after barge_in, not by the wall clock (bench/kit.py times it):
    # at most the frame already on the wire when barge_in arrived.
    assert len(got.audio_between(barged, turn_done)) <= 1
    assert [t for t in got.texts() if t["type"] == "turn_done"] == [
        {"type": "turn_done", "index": TURN.index}
    ]


HELLO_ASR = hello("asr")
MALFORMED: list[tuple[str, list[str | bytes]]] = [
    ("text that is not JSON", ["debug: hello?"]),
    ("a JSON array", ["[]"]),
    ("JSON null", ["null"]),
    ("an object with no type", ['{"pillar": "asr"}']),
    ("a type that is not a string", ['{"type": 7}']),
    ("an unknown type", ['{"type": "goodbye"}']),
    ("end_of_utterance before hello", ['{"type": "end_of_utterance"}']),
    ("audio before hello", [FRAME]),
    ("a frame the endpoint sends, sent to it", ['{"type": "ready", "accept": "x"}']),
    ("hello for an unknown pillar", [hello("vision")]),
    ("hello with a number for a pillar", ['{"type": "hello", "pillar": 3}']),
    ("speech hello without text", [hello("tts")]),
    ("a second hello", [HELLO_ASR, HELLO_ASR]),
    ("a turn on the recognition pillar", [HELLO_ASR, '{"type": "turn", "index": 0, "text": "x"}']),
    ("a turn without an index", [hello("e2e"), '{"type": "turn", "text": "x"}']),
    ("a barge_in with a string index", [hello("e2e"), '{"type": "barge_in", "index": "2"}']),
    ("a barge_in with a boolean index", [hello("e2e"), '{"type": "barge_in", "index": true}']),
    ("end_of_utterance before any turn", [hello("e2e"), '{"type": "end_of_utterance"}']),
]


@pytest.mark.parametrize(("case", "frames"), MALFORMED, ids=[case for case, _ in MALFORMED])
def test_malformed_frames_get_a_log_line_and_a_close_code_and_the_server_carries_on(
    server: KitServer, case: str, frames: list[str | bytes]
) -> None:
    async def send_bad() -> tuple[int | None, list[Any]]:
        received: list[Any] = []
        async with connect(server.url) as ws:
            for frame in frames:
                await ws.send(frame)
            try:
                while True:
                    received.append(await asyncio.wait_for(ws.recv(), timeout=WAIT_S))
            except ConnectionClosed:
                pass
            return ws.close_code, received

    lines_before = server.log().count("\n")
    code, received = run(send_bad())
    assert code == KIT.close_codes.bad_frame
    assert all(json.loads(text)["type"] == "ready" for text in received), received  # no text but ready
    assert server.log().count("\n") > lines_before
    assert server.process.poll() is None
    assert run(recognise(server.url, "asr")).texts()[-1]["type"] == "transcript"


def test_a_client_that_is_not_websocket_gets_one_log_line_and_the_server_carries_on(
    server: KitServer,
) -> None:
    # What a port probe and a load balancer's HTTP health check do; the fixture's own start-up probe is one.
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT_S):
        pass
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT_S) as plain:
        plain.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert plain.recv(64).startswith(f"HTTP/1.1 {KIT.plain_http_status} ".encode())
    assert run(recognise(server.url, "asr")).texts()[-1]["type"] == "transcript"
    assert "Traceback" not in server.log(), server.log()[-3000:]


def test_a_message_over_the_limit_is_closed_with_its_code(server: KitServer) -> None:
    async def send_big() -> int | None:
        async with connect(server.url, max_size=None) as ws:
            await ws.send(HELLO_ASR)
            await ws.recv()
            await ws.send(bytes(KIT.limits.max_message_bytes + 2))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), timeout=WAIT_S)
            return ws.close_code

    assert run(send_big()) == KIT.close_codes.too_large
    assert server.process.poll() is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_with_a_secret_only_its_path_is_served(language: str, tmp_path: Path) -> None:
    secret = "s3cret-path"
    with kit_server(language, tmp_path, env={"SECRET": secret}) as running:
        with pytest.raises(InvalidStatus):
            run(recognise(f"ws://127.0.0.1:{running.port}/wrong", "asr"))
        with pytest.raises(InvalidStatus):
            run(recognise(f"ws://127.0.0.1:{running.port}/", "asr"))
        assert run(recognise(running.url, "asr")).texts()[-1]["type"] == "transcript"


@pytest.mark.parametrize("language", LANGUAGES)
def test_sigterm_lets_the_clip_under_way_finish_then_exits_cleanly(language: str, tmp_path: Path) -> None:
    with kit_server(language, tmp_path, env={"STUB_DELAY_S": "1"}) as running:

        async def clip_across_shutdown() -> str:
            async with connect(running.url) as ws:
                await ws.send(hello("asr"))
                await ws.recv()
                await ws.send(json.dumps({"type": "end_of_utterance"}))
                await asyncio.sleep(0.2)
                running.process.send_signal(signal.SIGTERM)  # while the model thinks
                return str(json.loads(await asyncio.wait_for(ws.recv(), timeout=WAIT_S))["type"])

        assert run(clip_across_shutdown()) == "transcript"
        assert running.process.wait(timeout=WAIT_S) == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_serves_wss_with_cert_and_key(language: str, tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=127.0.0.1",
            ),
            *("-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    context = ssl.create_default_context(cafile=str(cert))
    with kit_server(language, tmp_path, args=("--cert", str(cert), "--key", str(key))) as running:

        async def over_tls() -> str:
            async with connect(f"wss://127.0.0.1:{running.port}/", ssl=context) as ws:
                await ws.send(hello("asr"))
                return str(json.loads(await asyncio.wait_for(ws.recv(), timeout=WAIT_S))["type"])

        assert run(over_tls()) == "ready"
