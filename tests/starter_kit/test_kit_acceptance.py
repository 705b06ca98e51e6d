"""Issue 9's acceptance: the kit's Python and Node servers, unpacked from the very zip the site offers and running
the slow stub models they ship with, pass the real connection-test client on every pillar with the built-in
clips the zip carries, at a declared concurrency above one, paced and unpaced. The connections are counted on
the server's side of the wire (a loopback relay in front of the server), not by the client under test. The
client is also run from the unpacked zip with nothing but `websockets` on its path."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import websockets

from generator.kit_servers import LANGUAGES, WAIT_S, KitServer, kit_server, run
from starter_kit.connection_test.client import RunResult, run_items
from starter_kit.connection_test.clips import load_clips
from starter_kit.protocol.machine import PILLARS, Item
from tests.starter_kit.protocol_support import SETTINGS

pytestmark = pytest.mark.xdist_group("kit-servers")

S = SETTINGS
DECLARED = (2, 3)  # both above one; the paced run uses the larger
RELAY_CHUNK = 65536


@dataclass
class Count:
    open_now: int = 0
    most: int = 0
    connections: int = 0


@contextlib.asynccontextmanager
async def counting_relay(port: int) -> AsyncIterator[tuple[str, Count]]:
    """A TCP relay on loopback in front of `port`, counting the connections open through it at once."""
    count = Count()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(RELAY_CHUNK):
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()

    async def relay(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        count.open_now += 1
        count.connections += 1
        count.most = max(count.most, count.open_now)
        try:
            server_reader, server_writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port), WAIT_S
            )
            await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
        finally:
            count.open_now -= 1

    server = await asyncio.start_server(relay, "127.0.0.1", 0)
    async with server:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}", count


@pytest.fixture(scope="module", params=LANGUAGES)
def shipped(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[KitServer]:
    """The kit as downloaded: unpacked from the zip, started with its defaults (the slow stub models)."""
    with kit_server(request.param, tmp_path_factory.mktemp(request.param)) as running:
        yield running


def builtin_items(server: KitServer) -> list[Item]:
    """Every pillar on the clips the unpacked zip carries, chosen as the kit's own client chooses them."""
    folder = server.log_path.parent / "clips"
    clips = load_clips(folder, settings=S, shortest=S.connection_test_clips)
    assert len(clips) == S.connection_test_clips
    return [Item(pillar, clip) for pillar in PILLARS for clip in clips]


def through_relay(
    server: KitServer, *, concurrency: int, paced: bool, items: list[Item] | None = None
) -> tuple[RunResult, Count]:
    """The connection test's run of `items` (every pillar on the built-in clips unless given) through the relay."""

    async def go() -> tuple[RunResult, Count]:
        async with counting_relay(server.port) as (url, count):
            result = await run_items(
                builtin_items(server) if items is None else items,
                url,
                settings=S,
                concurrency=concurrency,
                paced=paced,
                insecure=True,
            )
            return result, count

    return run(go())


def failures(result: RunResult) -> list[tuple[str, str, str | None, str]]:
    return [
        (v.pillar, v.clip_id, v.failure.code if v.failure else None, v.detail)
        for v in result.verdicts
        if not v.passed
    ]


@pytest.mark.parametrize(
    ("concurrency", "paced"), [(DECLARED[0], False), (DECLARED[1], True)], ids=["fast", "paced"]
)
def test_the_shipped_server_passes_the_connection_test_on_every_pillar_within_the_declared_concurrency(
    shipped: KitServer, concurrency: int, paced: bool
) -> None:
    result, count = through_relay(shipped, concurrency=concurrency, paced=paced)
    assert result.passed, (failures(result), shipped.log()[-2000:])
    items = builtin_items(shipped)
    # One verdict per clip and pillar, and one per turn of a conversation.
    extra_turns = len(S.conversation_barge_in_after_ms) - 1
    assert len(result.verdicts) == len(items) + extra_turns * sum(item.pillar == "e2e" for item in items)
    assert count.connections == len(items)
    # Never above the declaration, and the declaration was really used: more items than slots were queued.
    assert count.most <= concurrency and result.max_open <= concurrency
    assert count.most > 1
    for verdict in result.verdicts:
        t = verdict.timings
        assert t.response_ms is not None and t.deadline_ms is not None and t.response_ms <= t.deadline_ms
        if verdict.pillar == "tts":
            assert verdict.delivery is not None and verdict.delivery.failure is None
        if verdict.turn is not None and S.conversation_barge_in_after_ms[verdict.turn] is not None:
            assert t.barge_in_to_turn_done_ms is not None and t.barge_in_to_turn_done_ms <= S.yield_within_ms


def test_the_client_inside_the_zip_runs_with_only_websockets_against_the_shipped_server(
    shipped: KitServer, tmp_path: Path
) -> None:
    folder = shipped.log_path.parent
    # Only websockets beside the standard library: no site-packages, no repository, no cvb_scorer wheel.
    deps = tmp_path / "deps"
    deps.mkdir()
    (deps / "websockets").symlink_to(Path(websockets.__file__).parent)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(deps)}
    command = [sys.executable, "-S", "connection_test.py", shipped.url, "--pillar", "all", "--fast", "--json",
               "--insecure", "--concurrency", str(DECLARED[0])]  # fmt: skip
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=WAIT_S * 12)
    assert done.returncode == 0, done.stderr + done.stdout
    report = json.loads(done.stdout)
    assert report["passed"] and report["max_open_connections"] <= DECLARED[0]
    assert report["not_measured"] == list(S.not_measured)
    listed = json.loads((folder / "clips" / "clips.json").read_text(encoding="utf-8"))
    assert {r["clip_id"] for r in report["results"]} == {entry["id"] for entry in listed}
    assert {r["pillar"] for r in report["results"]} == set(PILLARS)
