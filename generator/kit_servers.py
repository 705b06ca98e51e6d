"""Start the kit's servers, unpacked from the very zip the site offers, on loopback; and a minimal recording client.

Not the connection-test client (starter_kit/connection_test/ is that): this one only records what arrives and
when, on the monotonic clock the servers' trace lines use, so the tests can judge the servers' timing and
bench/kit.py and bench/connection_test.py can measure it (package code: the benchmarks import no tests).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Coroutine, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection

from generator.config import load_config
from generator.paths import Layout
from generator.site_build.markdown import Rendered, render_all

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
AUDIO = CONFIG.protocol.audio
KIT = CONFIG.site.starter_kit
LANGUAGES = ("python", "node")
# Every wait in these tests is bounded by this, so no case can hang the suite.
WAIT_S = 10.0

T = TypeVar("T")


@cache
def rendered() -> Rendered:
    return render_all(LAYOUT)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class KitServer:
    language: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path
    secret: str = ""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/{self.secret}"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def trace_ns(self) -> list[int]:
        """The monotonic times (ns) at which the stub produced each reply's first audio frame."""
        return [int(m) for m in re.findall(r"trace first_audio_produced_ns=(\d+)", self.log())]


def unpack_kit(folder: Path) -> None:
    with zipfile.ZipFile(io.BytesIO(rendered().kit_zip)) as archive:
        archive.extractall(folder)
    # The zip's package.json pins the same ws the project installs (a test checks it); reuse that install.
    (folder / "node_modules").symlink_to(LAYOUT.root / "node_modules")


@contextmanager
def kit_server(
    language: str, folder: Path, *, env: Mapping[str, str] | None = None, args: tuple[str, ...] = ()
) -> Iterator[KitServer]:
    if not (folder / "server.py").exists():
        unpack_kit(folder)
    command = [sys.executable, "server.py"] if language == "python" else ["node", "server.mjs"]
    port = free_port()
    log_path = folder / f"{language}-{port}.log"
    environment = {"PORT": str(port), "HOST": "127.0.0.1", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    environment.update(env or {})
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [*command, *args], cwd=folder, env=environment, stdout=log_file, stderr=log_file
        )
    server = KitServer(language, port, process, log_path, environment.get("SECRET", ""))
    try:
        wait_for_port(server)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=WAIT_S)


def wait_for_port(server: KitServer) -> None:
    deadline = time.monotonic() + WAIT_S * 2
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise AssertionError(f"the {server.language} server exited early:\n{server.log()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", server.port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listened on port {server.port}")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    # In a thread of its own: another test in this process (Playwright's sync API) may own a running loop.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=WAIT_S * 6)


def hello(pillar: str, **extra: Any) -> str:
    frame: dict[str, Any] = {
        "type": "hello",
        "protocol": CONFIG.protocol.version,
        "run_item_id": "test",
        "pillar": pillar,
    }
    if pillar != "tts":
        frame["clip"] = {
            "sample_rate": AUDIO.sample_rate_hz,
            "encoding": AUDIO.encoding,
            "duration_ms": AUDIO.frame_ms * 3,
        }
    if pillar == "llm":
        frame["task"] = CONFIG.protocol.llm_task
    frame.update(extra)
    frame.update({"deadline_ms": CONFIG.protocol.deadline.floor_ms, "formats": [AUDIO.encoding]})
    return json.dumps(frame, ensure_ascii=False)


@dataclass
class Received:
    """What arrived, in order, each with the monotonic time (ns) it arrived."""

    items: list[tuple[int, dict[str, Any] | int]] = field(default_factory=list)

    def texts(self) -> list[dict[str, Any]]:
        return [item for _, item in self.items if isinstance(item, dict)]

    def first(self, kind: str, index: int | None = None) -> int:
        for at, item in self.items:
            if (
                isinstance(item, dict)
                and item["type"] == kind
                and (index is None or item.get("index") == index)
            ):
                return at
        raise AssertionError(f"no {kind} arrived: {self.texts()}")

    def audio_times(self) -> list[int]:
        return [at for at, item in self.items if isinstance(item, int)]

    def audio_between(self, start_ns: int, end_ns: int) -> list[int]:
        return [item for at, item in self.items if isinstance(item, int) and start_ns <= at <= end_ns]


async def receive(ws: ClientConnection, into: Received) -> dict[str, Any] | int:
    message = await asyncio.wait_for(ws.recv(), timeout=WAIT_S)
    item: dict[str, Any] | int = json.loads(message) if isinstance(message, str) else len(message)
    into.items.append((time.monotonic_ns(), item))
    return item


async def receive_until(ws: ClientConnection, into: Received, kind: str) -> None:
    while True:
        item = await receive(ws, into)
        if isinstance(item, dict) and item["type"] == kind:
            return
