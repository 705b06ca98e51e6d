"""A model that computes stays correct: with the stub computing for two seconds instead of sleeping (STUB_CPU_S,
seconds of the clock in both kits), the Python kit with MODEL_PROCESSES and the Node kit with MODEL_THREADS pass
every pillar at concurrency 3, one built-in clip per pillar (bench/kit.py --cpu-bound measures the times over all
of them). Without the process pool the Python kit's models share one core: their trace lines show the three burns
overlapping while their CPU time adds up to one core's worth of the time they spanned, so each got about a third
of the computing a model in a process of its own gets. No assertion reads a duration against a bound."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.kit_servers import KIT, KitServer, kit_server, run
from starter_kit.connection_test.client import run_items
from starter_kit.connection_test.clips import load_clips
from starter_kit.protocol.machine import Item
from tests.starter_kit.protocol_support import SETTINGS as S
from tests.starter_kit.test_kit_acceptance import failures, through_relay

pytestmark = pytest.mark.xdist_group("kit-servers")

CONCURRENCY = 3
CPU_S = "2"
OFF_THE_LOOP = {"python": {"MODEL_PROCESSES": str(CONCURRENCY)}, "node": {"MODEL_THREADS": str(CONCURRENCY)}}
ONE_CORE_AND_A_HALF = 1.5
# The conversation first: its turns run one after another, so the other pillars run beside it.
ORDER = ("e2e", "asr", "llm", "tts")


@dataclass(frozen=True)
class Burn:
    pid: int
    start_ns: int
    end_ns: int
    cpu_ns: int


def burns(server: KitServer) -> list[Burn]:
    """The Python stub's trace lines (KIT_TRACE): each burn's process, span on the monotonic clock, CPU time."""
    found = re.findall(r"trace burn pid=(\d+) start_ns=(\d+) end_ns=(\d+) cpu_ns=(\d+)", server.log())
    return [Burn(*(int(value) for value in row)) for row in found]


def most_at_once(spans: list[Burn]) -> int:
    edges = sorted([(b.start_ns, 1) for b in spans] + [(b.end_ns, -1) for b in spans])
    most = now = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


def union_ns(spans: list[Burn]) -> int:
    total, reach = 0, 0
    for b in sorted(spans, key=lambda b: b.start_ns):
        start = max(b.start_ns, reach)
        if b.end_ns > start:
            total += b.end_ns - start
        reach = max(reach, b.end_ns)
    return total


def one_clip_per_pillar(server: KitServer) -> list[Item]:
    clip = load_clips(server.log_path.parent / "clips", settings=S, shortest=1)[0]
    return [Item(pillar, clip) for pillar in ORDER]


@pytest.fixture(scope="module", params=sorted(OFF_THE_LOOP))
def computing(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[KitServer]:
    env = {"STUB_CPU_S": CPU_S, "KIT_TRACE": "1", **OFF_THE_LOOP[request.param]}
    with kit_server(request.param, tmp_path_factory.mktemp(f"cpu-{request.param}"), env=env) as running:
        yield running


def test_a_two_second_cpu_bound_model_off_the_event_loop_passes_every_pillar_at_concurrency_three(
    computing: KitServer,
) -> None:
    items = one_clip_per_pillar(computing)
    result, count = through_relay(computing, concurrency=CONCURRENCY, paced=False, items=items)
    assert result.passed, failures(result)
    assert {v.pillar for v in result.verdicts} == set(ORDER)
    assert count.most == CONCURRENCY  # the clips really overlapped
    if computing.language == "node":
        assert "worker threads" in computing.log()
        return
    assert f"{CONCURRENCY} worker processes" in computing.log()
    # Every burn ran in a worker process, never in the server's own, and the pool's processes shared them.
    pids = {b.pid for b in burns(computing)}
    assert len(burns(computing)) == len(result.verdicts) and computing.process.pid not in pids
    assert 1 < len(pids) <= CONCURRENCY
    # The pool's processes compute below the event loop's priority.
    assert {os.getpriority(os.PRIO_PROCESS, pid) for pid in pids} == {KIT.model_nice}
    assert os.getpriority(os.PRIO_PROCESS, computing.process.pid) == 0


def test_without_the_process_pool_the_python_models_share_one_core(tmp_path: Path) -> None:
    env = {"STUB_CPU_S": CPU_S, "KIT_TRACE": "1"}
    with kit_server("python", tmp_path, env=env) as server:
        run(
            run_items(
                one_clip_per_pillar(server)[1:],
                server.url,
                settings=S,
                concurrency=CONCURRENCY,
                paced=False,
                insecure=True,
            )
        )
        spans = burns(server)
    assert "worker threads" in server.log()
    assert len(spans) == CONCURRENCY and {b.pid for b in spans} == {server.process.pid}
    # The three models computed at once, by the clock, yet their CPU time adds up to one core's worth of the
    # time they spanned, the GIL's (half a core more is room for the threads' hand-overs of it, which the
    # counts can overlap by). In the pool each has a process, and on enough cores thrice the CPU time.
    assert most_at_once(spans) == CONCURRENCY
    assert sum(b.cpu_ns for b in spans) < union_ns(spans) * ONE_CORE_AND_A_HALF, spans


def test_a_model_computing_on_the_event_loop_is_named_in_the_late_answer(tmp_path: Path) -> None:
    # The Node kit's default: models on the event loop. A synchronous burn past the deadline but within the grace
    # answers late, and the pongs the blocked loop could not send say why.
    burn_s = (S.deadline_floor_ms + S.late_reply_wait_ms / 2) / 1000
    with kit_server("node", tmp_path, env={"STUB_CPU_S": str(burn_s)}) as server:
        clip = load_clips(tmp_path / "clips", settings=S, shortest=1)[0]
        result = run(
            run_items([Item("asr", clip)], server.url, settings=S, concurrency=1, paced=False, insecure=True)
        )
    [verdict] = result.verdicts
    assert verdict.failure is not None and verdict.failure.code == "deadline_exceeded", verdict
    assert (
        "the first response came" in verdict.detail
        and f"the deadline was {S.deadline_floor_ms} ms" in verdict.detail
    )
    assert "so the server's event loop was blocked" in verdict.detail
