"""The kit's Python and Node servers, rendered from the config, answer every pillar's exchange correctly over
real WebSocket connections on loopback."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from generator.build import render_all
from generator.config import load_config
from generator.paths import Layout

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
AUDIO = CONFIG.protocol.audio
TURN = CONFIG.protocol.examples.turn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"the server exited early: {process.stderr.read().decode() if process.stderr else ''}"
            )
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listened on port {port}")


@pytest.fixture(scope="module", params=["python", "node"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    kit = render_all(LAYOUT).kit
    folder = tmp_path_factory.mktemp(request.param)
    if request.param == "python":
        (folder / "server.py").write_text(kit["python_server"], encoding="utf-8")
        command = [sys.executable, "server.py"]
    else:
        (folder / "server.mjs").write_text(kit["node_server"], encoding="utf-8")
        (folder / "node_modules").symlink_to(LAYOUT.root / "node_modules")
        command = ["node", "server.mjs"]
    port = free_port()
    process = subprocess.Popen(
        command, cwd=folder, env={"PORT": str(port), "PATH": "/usr/bin:/bin"}, stderr=subprocess.PIPE
    )
    try:
        wait_for_port(port, process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def hello(pillar: str, **extra: Any) -> str:
    clip = {
        "sample_rate": AUDIO.sample_rate_hz,
        "encoding": AUDIO.encoding,
        "duration_ms": AUDIO.frame_ms * 3,
    }
    frame = {"type": "hello", "protocol": CONFIG.protocol.version, "run_item_id": "t", "pillar": pillar}
    if pillar != "tts":
        frame["clip"] = clip
    return json.dumps(
        {**frame, **extra, "deadline_ms": CONFIG.protocol.deadline.floor_ms, "formats": [AUDIO.encoding]}
    )


async def text_frames(ws: Any, count: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while len(frames) < count:
        message = await asyncio.wait_for(ws.recv(), timeout=5)
        if isinstance(message, str):
            frames.append(json.loads(message))
    return frames


def run(coroutine: Any) -> Any:
    # In a thread of its own: another test in this process (Playwright's sync API) may own a running loop.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize("pillar", ["asr", "llm"])
def test_recognition_and_reasoning_answer_with_one_transcript(server: int, pillar: str) -> None:
    async def exchange() -> dict[str, Any]:
        async with connect(f"ws://127.0.0.1:{server}") as ws:
            await ws.send(hello(pillar, **({"task": CONFIG.protocol.llm_task} if pillar == "llm" else {})))
            assert json.loads(await ws.recv()) == {"type": "ready", "accept": AUDIO.encoding}
            for _ in range(3):
                await ws.send(bytes(AUDIO.frame_bytes))
            await ws.send(json.dumps({"type": "end_of_utterance"}))
            return json.loads(await asyncio.wait_for(ws.recv(), timeout=5))

    reply = run(exchange())
    assert reply["type"] == "transcript" and reply["text"]


def test_speech_announces_speaking_before_audio_and_ends_with_turn_done(server: int) -> None:
    async def exchange() -> list[Any]:
        async with connect(f"ws://127.0.0.1:{server}") as ws:
            await ws.send(hello("tts", text="你好"))
            received = []
            while True:
                message = await asyncio.wait_for(ws.recv(), timeout=5)
                received.append(json.loads(message) if isinstance(message, str) else len(message))
                if isinstance(message, str) and json.loads(message)["type"] == "turn_done":
                    return received

    received = run(exchange())
    index = CONFIG.protocol.tts_turn_index
    assert received[0] == {"type": "ready", "accept": AUDIO.encoding}
    assert received[1] == {"type": "speaking", "index": index}
    assert all(isinstance(chunk, int) and 0 < chunk <= AUDIO.frame_bytes for chunk in received[2:-1])
    assert len(received) > 3
    assert received[-1] == {"type": "turn_done", "index": index}


def test_conversation_waits_for_end_of_utterance_and_carries_the_turn_index_back(server: int) -> None:
    async def exchange() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with connect(f"ws://127.0.0.1:{server}") as ws:
            await ws.send(hello("e2e"))
            await text_frames(ws, 1)
            turn = {"type": "turn", "index": TURN.index, "text": TURN.text, "expect_interruption": False}
            await ws.send(json.dumps(turn))
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(ws.recv(), timeout=0.3)  # nothing may be said during the turn
            await ws.send(json.dumps({"type": "end_of_utterance"}))
            answer = await text_frames(ws, 2)
            await ws.send(json.dumps({"type": "barge_in", "index": TURN.index}))
            yielded = await text_frames(ws, 1)
            return answer, yielded

    answer, yielded = run(exchange())
    assert answer == [{"type": "speaking", "index": TURN.index}, {"type": "turn_done", "index": TURN.index}]
    assert yielded == [{"type": "turn_done", "index": TURN.index}]
