"""Simulated entrant endpoints on loopback, for tests, the bench and the example board: a correct endpoint whose
model returns the reference with errors injected at a set rate and answers after a latency drawn from a set
distribution, or one with a single deliberate flaw. Every choice is seeded by the item's run_item_id, so the
same run gives the same transcripts on any machine.

The server counts the connections it holds at once: the tests measure the runner's concurrency here, at the
server, not in the runner's own gauges.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import math
import random
import threading
import time
import wave
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.server import ServerConnection, serve

from runner.jobs import PoolEntry, load_pool
from runner.shell import RunSettings
from starter_kit.protocol.settings import Settings

# The flaws a simulated endpoint can have, each failing an item as the integration page names it.
FLAWS = ("late", "silent", "wrong_index", "closes_early", "drops_once", "drops_always")
# A filler character the error model substitutes and inserts; any CJK character outside the references works.
_FILLER = "嘅"


@dataclass(frozen=True, kw_only=True)
class Model:
    """How the simulated entrant behaves: character error rate, latency (mean and spread, in ms), a flaw."""

    error_rate: float = 0.0
    latency_ms: float = 0.0
    latency_sd_ms: float = 0.0
    # Latencies drawn are rounded to a whole multiple of this (0: not rounded). A measured latency is the drawn
    # one plus what the machine adds, so one floored to the grain is the drawn one again as long as the machine
    # adds less than a grain: the example board's timings are reproducible that way (tools/make_example_results.py).
    latency_grain_ms: float = 0.0
    flaw: str | None = None
    seed: str = "simulated"
    # Served in the runner's own event loop (as in tests), the first hello blocks that loop this long: a stall of
    # the platform's clock, which the runner must take as its own fault.
    block_loop_ms: float = 0.0

    def __post_init__(self) -> None:
        if self.latency_grain_ms < 0:
            raise ValueError("the latency grain cannot be negative")
        if self.flaw is not None and self.flaw not in FLAWS:
            raise ValueError(f"unknown flaw {self.flaw!r}; the flaws are {', '.join(FLAWS)}")


@dataclass
class ServerStats:
    open_now: int = 0
    most: int = 0
    connections: int = 0
    by_item: dict[str, int] = field(default_factory=dict)
    # Per URL path (each entrant may be served on a path of its own): connections open now and at most.
    open_by_path: dict[str, int] = field(default_factory=dict)
    most_by_path: dict[str, int] = field(default_factory=dict)
    # Told the number of connections so far as each one opens (a test stops a run at a set point with it).
    on_connect: Callable[[int], None] | None = None


def _rng(model: Model, run_item_id: str) -> random.Random:
    digest = hashlib.sha256(f"{model.seed}\x00{run_item_id}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def transcript_for(reference: str, *, model: Model, run_item_id: str) -> str:
    """The reference with each character substituted, deleted or followed by an insertion at the error rate."""
    rng = _rng(model, run_item_id)
    out: list[str] = []
    for ch in reference:
        if rng.random() < model.error_rate:
            kind = rng.choice(("S", "D", "I"))
            out.append({"S": _FILLER, "D": "", "I": ch + _FILLER}[kind])
        else:
            out.append(ch)
    return "".join(out)


def latency_s(model: Model, run_item_id: str) -> float:
    rng = _rng(model, run_item_id + "\x00latency")
    drawn = max(0.0, rng.gauss(model.latency_ms, model.latency_sd_ms))
    if model.latency_grain_ms > 0:
        drawn = round(drawn / model.latency_grain_ms) * model.latency_grain_ms
    return drawn / 1000


def speech(settings: Settings, text: str) -> bytes:
    """A tone at a normal level, a tenth of a second per spoken character: plausibly long for `text`."""
    return _speech(settings.sample_rate_hz, max(1, sum(1 for c in text if c.isalnum())))


@functools.cache
def _speech(rate: int, characters: int) -> bytes:
    amplitude = 32767 * 0.1
    count = round(0.1 * characters * rate)
    samples = (round(amplitude * math.sin(2 * math.pi * 220 * n / rate)) for n in range(count))
    return b"".join(s.to_bytes(2, "little", signed=True) for s in samples)


def _frame(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields}, ensure_ascii=False)


async def _endpoint(
    ws: ServerConnection, *, settings: Settings, texts: Mapping[str, str], model: Model, stats: ServerStats
) -> None:
    hello: dict[str, Any] = {}
    turn: dict[str, Any] = {}
    stop = asyncio.Event()
    speaking: asyncio.Task[None] | None = None
    item = ""

    async def speak(index: int, text: str, *, turn: bool) -> None:
        # A conversation's turns each draw their own latency; speech has the one turn.
        await asyncio.sleep(latency_s(model, f"{item}\x00turn {index}" if turn else item))
        await ws.send(_frame("speaking", index=index))
        pcm = speech(settings, text)
        step = settings.frame_bytes
        for start in range(0, len(pcm), step):
            if stop.is_set():
                break
            await ws.send(pcm[start : start + step])
            await asyncio.sleep(0.002)
        await ws.send(_frame("turn_done", index=index))

    async for message in ws:
        if isinstance(message, bytes):
            continue
        frame = json.loads(message)
        kind = frame["type"]
        if kind == "hello":
            hello = frame
            item = str(frame["run_item_id"])
            stats.by_item[item] = stats.by_item.get(item, 0) + 1
            if model.block_loop_ms and sum(stats.by_item.values()) == 1:
                time.sleep(model.block_loop_ms / 1000)  # blocks on purpose: the stall is what is simulated
            if model.flaw == "closes_early":
                await ws.close()
                return
            if model.flaw == "drops_always" or (model.flaw == "drops_once" and stats.by_item[item] == 1):
                ws.transport.abort()  # the TCP connection breaks: no close frame, as a network fault looks
                return
            await ws.send(_frame("ready", accept=settings.encoding))
            if hello["pillar"] == "tts":
                speaking = asyncio.create_task(speak(settings.tts_turn_index, str(hello["text"]), turn=False))
        elif kind == "turn":
            turn = frame
            stop.clear()
        elif kind == "end_of_utterance":
            pillar = hello["pillar"]
            clip_id = item.split("-", 1)[1]
            if pillar in ("asr", "llm"):
                if model.flaw == "silent":
                    continue
                wait = latency_s(model, item)
                if model.flaw == "late":
                    wait += hello["deadline_ms"] / 1000
                await asyncio.sleep(wait)
                text = transcript_for(texts.get(clip_id, ""), model=model, run_item_id=item)
                await ws.send(_frame("transcript", text=text))
            else:
                index = int(turn["index"]) + (1 if model.flaw == "wrong_index" else 0)
                speaking = asyncio.create_task(speak(index, str(turn.get("text", "")), turn=True))
        elif kind == "barge_in":
            stop.set()
    if speaking is not None:
        speaking.cancel()


@asynccontextmanager
async def simulated_endpoint(
    *, settings: Settings, texts: Mapping[str, str], model: Model, stats: ServerStats | None = None
) -> AsyncIterator[tuple[str, ServerStats]]:
    """Serve a simulated entrant on 127.0.0.1; yield its ws:// URL and its connection counts."""
    stats = stats or ServerStats()

    async def handler(ws: ServerConnection) -> None:
        stats.open_now += 1
        stats.connections += 1
        stats.most = max(stats.most, stats.open_now)
        path = ws.request.path if ws.request is not None else "/"
        stats.open_by_path[path] = stats.open_by_path.get(path, 0) + 1
        stats.most_by_path[path] = max(stats.most_by_path.get(path, 0), stats.open_by_path[path])
        if stats.on_connect is not None:
            stats.on_connect(stats.connections)
        try:
            # The runner gives up on a flawed endpoint first; a late send then finds the socket gone.
            with contextlib.suppress(websockets.ConnectionClosed):
                await _endpoint(ws, settings=settings, texts=texts, model=model, stats=stats)
        finally:
            stats.open_now -= 1
            stats.open_by_path[path] -= 1

    async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None, max_size=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}", stats


@contextlib.contextmanager
def served_in_thread(
    *, settings: Settings, endpoints: Mapping[str, tuple[Mapping[str, str], Model]], timeout_s: float = 30.0
) -> Iterator[tuple[dict[str, str], dict[str, ServerStats]]]:
    """Several simulated entrants (name: (texts, model)) on one loop in a thread of their own, for runs made in
    another thread or process; yields each one's URL and connection counts."""
    loop = asyncio.new_event_loop()
    ready: concurrent.futures.Future[tuple[dict[str, str], dict[str, ServerStats]]] = (
        concurrent.futures.Future()
    )
    stop = asyncio.Event()

    async def main() -> None:
        async with contextlib.AsyncExitStack() as stack:
            urls, stats = {}, {}
            for name, (texts, model) in endpoints.items():
                urls[name], stats[name] = await stack.enter_async_context(
                    simulated_endpoint(settings=settings, texts=texts, model=model)
                )
            ready.set_result((urls, stats))
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    try:
        yield ready.result(timeout=timeout_s)
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=timeout_s)
        loop.close()


# Short sentences for tone pools: the simulated endpoint answers with the reference, so any text serves.
POOL_TEXTS = ("你好呀", "我想問保單", "唔該晒", "請等一等", "幾多錢呀", "係咪真㗎")


def tone(settings: Settings, seconds: float, *, hz: float) -> bytes:
    """A sine at a normal speaking level (peak a tenth of full scale), as protocol PCM."""
    rate = settings.sample_rate_hz
    amplitude = 32767 * 0.1
    samples = (round(amplitude * math.sin(2 * math.pi * hz * n / rate)) for n in range(round(seconds * rate)))
    return b"".join(s.to_bytes(2, "little", signed=True) for s in samples)


def tone_pool(
    folder: Path, *, run: RunSettings, round_id: str, extra: int = 2, seconds: float | None = None
) -> dict[str, PoolEntry]:
    """A round's pool for tests and the bench: pools/<round>.jsonl and short tone WAVs in audio/, each tier the
    draw's count plus `extra` clips (a run draws most of the pool). `seconds`: every clip's length (default: a
    few hundredths of a second, so runs are fast)."""
    settings = run.settings
    counts = {t: round(float(share) * run.draw_size) + extra for t, share in run.strata.items()}
    audio = folder / "audio"
    audio.mkdir(parents=True, exist_ok=True)
    lines = []
    k = 0
    for tier, n in sorted(counts.items()):
        for j in range(n):
            clip_id = f"{round_id}-{tier}-{j:02d}"
            with wave.open(str(audio / f"{clip_id}.wav"), "wb") as wav:
                wav.setnchannels(settings.channels)
                wav.setsampwidth(settings.sample_bits // 8)
                wav.setframerate(settings.sample_rate_hz)
                wav.writeframes(tone(settings, seconds or 0.06 + 0.02 * (k % 3), hz=300 + 10 * k))
            row = {"id": clip_id, "tier": tier, "audio": f"../audio/{clip_id}.wav", "text": POOL_TEXTS[k % 6]}
            lines.append(json.dumps(row, ensure_ascii=False))
            k += 1
    pools = folder / "pools"
    pools.mkdir(exist_ok=True)
    path = pools / f"{round_id}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_pool(path, tiers=sorted(run.strata))
