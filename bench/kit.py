"""The timings the starter kit shows, Python and Node alternating round by round, written to
bench/results/kit.json.

With the shipped slow stub: handshake (connect to ready), end_of_utterance to transcript, hello to speaking and
to turn_done, a conversation's end_of_utterance to speaking, barge_in to turn_done. With a one-second model
speaking in real time: speaking after the model's first audio frame (the server's own monotonic trace), barge_in
to turn_done and the audio frames sent after barge_in, and a second connection's handshake while the first
connection's model thinks. Medians in milliseconds, with the load average before and after.

`--cpu-bound` instead runs the connection test over the built-in clips (unpaced) against each server with a
stub that computes for CPU_S seconds of the clock (STUB_CPU_S, the same measure in both kits), at concurrency 1
and 3, with the models off the event loop (Python MODEL_PROCESSES=3, Node MODEL_THREADS=3) and on it (the
default: Python's threads, Node's event loop), and reports per pillar and language the response times (end of
utterance, or hello for speech, to the first reply) and the yield times (barge_in to turn_done), median and
worst, with the failures and the machine's cores: bench/results/kit_cpu_bound.json.
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
from starter_kit.connection_test.bundle import settings_from_config  # noqa: E402
from starter_kit.connection_test.client import RunResult, run_items  # noqa: E402
from starter_kit.connection_test.clips import load_clips  # noqa: E402
from starter_kit.protocol.machine import PILLARS, Item  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "kit.json"
CPU_OUT = OUT.with_name("kit_cpu_bound.json")
CPU_S = "2"
CONCURRENCIES = (1, 3)
OFF_THE_LOOP = {"python": {"MODEL_PROCESSES": "3"}, "node": {"MODEL_THREADS": "3"}}
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


def per_pillar(result: RunResult) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    for pillar in PILLARS:
        verdicts = [v for v in result.verdicts if v.pillar == pillar]
        responses = [v.timings.response_ms for v in verdicts if v.timings.response_ms is not None]
        yields = [v.timings.barge_in_to_turn_done_ms for v in verdicts if v.timings.barge_in_to_turn_done_ms]
        figures[pillar] = {
            "passed": f"{sum(v.passed for v in verdicts)}/{len(verdicts)}",
            "failures": sorted({v.failure.code for v in verdicts if v.failure}),
            "response_ms_median": round(statistics.median(responses), 1) if responses else None,
            "response_ms_worst": round(max(responses), 1) if responses else None,
            "yield_ms_median": round(statistics.median(yields), 1) if yields else None,
            "yield_ms_worst": round(max(yields), 1) if yields else None,
        }
    return figures


def cpu_bound() -> None:
    load_before = os.getloadavg()
    settings = settings_from_config(CONFIG)
    out: dict[str, Any] = {
        "stub_cpu_s": float(CPU_S),
        "stub_measure": "seconds of the clock, computing throughout",
        "cores": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
    }
    with tempfile.TemporaryDirectory() as folder:
        for language in LANGUAGES:
            for mode, extra in (("off_the_loop", OFF_THE_LOOP[language]), ("default", {})):
                place = Path(folder) / f"{language}-{mode}"
                place.mkdir()
                with kit_server(language, place, env={"STUB_CPU_S": CPU_S, **extra}) as server:
                    clips = load_clips(
                        place / "clips", settings=settings, shortest=settings.connection_test_clips
                    )
                    items = [Item(pillar, clip) for pillar in PILLARS for clip in clips]
                    for concurrency in CONCURRENCIES:
                        started = time.monotonic()
                        result = asyncio.run(  # no overall timeout: a stalled server is a figure here
                            run_items(
                                items,
                                server.url,
                                settings=settings,
                                concurrency=concurrency,
                                paced=False,
                                insecure=True,
                            )
                        )
                        out[f"{language} {mode} concurrency {concurrency}"] = {
                            "wall_s": round(time.monotonic() - started, 1),
                            **per_pillar(result),
                        }
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    publish(CPU_OUT, out)


def main() -> None:
    if "--cpu-bound" in sys.argv[1:]:
        cpu_bound()
        return
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
