"""The timings the starter kit shows, Python and Node alternating round by round, written to
bench/results/kit.json.

With the shipped slow stub: handshake (connect to ready), end_of_utterance to transcript, hello to speaking and
to turn_done, a conversation's end_of_utterance to speaking, barge_in to turn_done. With a one-second model
speaking in real time: speaking after the model's first audio frame (the server's own monotonic trace), barge_in
to turn_done and the audio frames sent after barge_in, and a second connection's handshake while the first
connection's model thinks. Medians in milliseconds, with the load average before and after.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from publish import publish  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from generator.kit_servers import (  # noqa: E402
    AUDIO,
    CONFIG,
    LANGUAGES,
    KitServer,
    Received,
    hello,
    kit_server,
    receive,
    receive_until,
    run,
)

OUT = Path(__file__).resolve().parent / "results" / "kit.json"
ROUNDS = 7
FRAME = bytes(AUDIO.frame_bytes)
MS = 1e6


async def recognition(url: str) -> dict[str, float]:
    started = time.monotonic_ns()
    async with connect(url) as ws:
        await ws.send(hello("asr"))
        await ws.recv()
        ready = time.monotonic_ns()
        for _ in range(3):
            await ws.send(FRAME)
        sent = time.monotonic_ns()
        await ws.send(json.dumps({"type": "end_of_utterance"}))
        await ws.recv()
        return {
            "handshake_ms": (ready - started) / MS,
            "end_of_utterance_to_transcript_ms": (time.monotonic_ns() - sent) / MS,
        }


async def speech(url: str) -> dict[str, float]:
    got = Received()
    async with connect(url) as ws:
        sent = time.monotonic_ns()
        await ws.send(hello("tts", text=CONFIG.protocol.examples.turn.text))
        await receive_until(ws, got, "turn_done")
    return {
        "hello_to_speaking_ms": (got.first("speaking") - sent) / MS,
        "hello_to_turn_done_ms": (got.first("turn_done") - sent) / MS,
    }


async def conversation(url: str) -> dict[str, float]:
    got = Received()
    async with connect(url) as ws:
        await ws.send(hello("e2e"))
        await receive_until(ws, got, "ready")
        await ws.send(json.dumps({"type": "turn", "index": 0, "text": "x", "expect_interruption": True}))
        sent = time.monotonic_ns()
        await ws.send(json.dumps({"type": "end_of_utterance"}))
        await receive_until(ws, got, "speaking")
        await receive(ws, got)
        barged = time.monotonic_ns()
        await ws.send(json.dumps({"type": "barge_in", "index": 0}))
        await receive_until(ws, got, "turn_done")
    done = got.first("turn_done")
    return {
        "conversation_end_of_utterance_to_speaking_ms": (got.first("speaking") - sent) / MS,
        "barge_in_to_turn_done_ms": (done - barged) / MS,
        "frames_after_barge_in": len(got.audio_between(barged, done)),
    }


async def one_second_model(server: KitServer) -> dict[str, float]:
    figures = await conversation(server.url)
    before = len(server.trace_ns())
    got = Received()
    async with connect(server.url) as ws:
        await ws.send(hello("tts", text="x"))
        await receive_until(ws, got, "speaking")
    # The server's trace and this client read the same monotonic clock.
    produced = server.trace_ns()[before]
    figures["speaking_after_first_audio_produced_ms"] = (got.first("speaking") - produced) / MS
    async with connect(server.url) as busy:
        await busy.send(hello("asr"))
        await busy.recv()
        await busy.send(json.dumps({"type": "end_of_utterance"}))
        await asyncio.sleep(0.1)
        started = time.monotonic_ns()
        async with connect(server.url) as other:
            await other.send(hello("asr"))
            await other.recv()
            figures["handshake_while_another_model_thinks_ms"] = (time.monotonic_ns() - started) / MS
        await busy.recv()
    return figures


def medians(samples: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.median(s[key] for s in samples), 2) for key in samples[0]}


def main() -> None:
    load_before = os.getloadavg()
    slow: dict[str, list[dict[str, float]]] = {language: [] for language in LANGUAGES}
    second: dict[str, list[dict[str, float]]] = {language: [] for language in LANGUAGES}
    one_second = {"STUB_DELAY_S": "1", "STUB_SPEED": "1", "STUB_SPEECH_S": "3", "KIT_TRACE": "1"}
    with tempfile.TemporaryDirectory() as folder:
        servers: dict[tuple[str, bool], Any] = {}
        stack: list[Callable[[], None]] = []
        try:
            for language in LANGUAGES:
                for is_slow, env in ((True, {}), (False, one_second)):
                    place = Path(folder) / f"{language}-{is_slow}"
                    place.mkdir()
                    context = kit_server(language, place, env=env)
                    servers[language, is_slow] = context.__enter__()
                    stack.append(lambda c=context: c.__exit__(None, None, None))
            for _ in range(ROUNDS):
                for language in LANGUAGES:  # alternating, so a slow spell of a shared machine hits both
                    url = servers[language, True].url
                    slow[language].append(
                        {**run(recognition(url)), **run(speech(url)), **run(conversation(url))}
                    )
                    second[language].append(run(one_second_model(servers[language, False])))
        finally:
            for close in reversed(stack):
                close()
    publish(
        OUT,
        {
            "rounds": ROUNDS,
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "slow_stub": {
                "settings": CONFIG.site.starter_kit.stub.model_dump(),
                **{language: medians(slow[language]) for language in LANGUAGES},
            },
            "one_second_model": {language: medians(second[language]) for language in LANGUAGES},
        },
    )


if __name__ == "__main__":
    main()
