"""Shared pieces of the protocol and connection-test tests: settings from the real config, synthetic clips and
a loopback WebSocket server that counts its open connections."""

from __future__ import annotations

import asyncio
import json
import math
import wave
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

from generator.config import load_config
from generator.paths import Layout
from starter_kit.connection_test.bundle import settings_from_config
from starter_kit.protocol.machine import Clip

CONFIG = load_config(Layout().config)
SETTINGS = settings_from_config(CONFIG)
TEXT = "你好呀"  # three spoken characters


def tone(seconds: float, *, level_dbfs: float = -20.0, hz: float = 440.0) -> bytes:
    """A sine whose RMS sits at `level_dbfs`, as protocol PCM."""
    rate = SETTINGS.sample_rate_hz
    amplitude = 32768 * 10 ** (level_dbfs / 20) * math.sqrt(2)
    samples = [round(amplitude * math.sin(2 * math.pi * hz * n / rate)) for n in range(round(seconds * rate))]
    return b"".join(max(-32768, min(32767, s)).to_bytes(2, "little", signed=True) for s in samples)


def clip(seconds: float = 0.3, *, clip_id: str = "c1", text: str = TEXT) -> Clip:
    pcm = tone(seconds)
    return Clip(clip_id, pcm, text, len(pcm) // 2 * 1000 // SETTINGS.sample_rate_hz)


def write_clips(folder: Path, seconds: list[float]) -> Path:
    """WAVs in the protocol's format plus clips.json, as the built-in set is laid out."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for n, length in enumerate(seconds):
        name = f"clip{n}.wav"
        with wave.open(str(folder / name), "wb") as wav:
            wav.setnchannels(SETTINGS.channels)
            wav.setsampwidth(SETTINGS.sample_bits // 8)
            wav.setframerate(SETTINGS.sample_rate_hz)
            wav.writeframes(tone(length, hz=300 + 100 * n))
        entries.append({"id": f"clip{n}", "file": name, "text": TEXT, "seconds": length})
    (folder / "clips.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    return folder


Handler = Callable[[ServerConnection], Awaitable[None]]


@dataclass
class Counter:
    open_now: int = 0
    most: int = 0
    connections: int = 0


@asynccontextmanager
async def loopback(handler: Handler) -> AsyncIterator[tuple[str, Counter]]:
    """Serve `handler` on 127.0.0.1; yield its ws:// URL and a count of connections open at once."""
    counter = Counter()

    async def counted(ws: ServerConnection) -> None:
        counter.open_now += 1
        counter.connections += 1
        counter.most = max(counter.most, counter.open_now)
        try:
            await handler(ws)
        finally:
            counter.open_now -= 1

    async with serve(counted, "127.0.0.1", 0, compression=None, ping_interval=None, max_size=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}", counter


def frame(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields}, ensure_ascii=False)


async def recv_json(ws: ServerConnection, *, timeout: float = 10.0) -> dict[str, Any]:
    """The next text frame, skipping audio; bounded so no test can hang."""
    while True:
        message = await asyncio.wait_for(ws.recv(), timeout)
        if isinstance(message, str):
            parsed: dict[str, Any] = json.loads(message)
            return parsed
