"""A model that computes stays correct: with the stub burning CPU instead of sleeping (STUB_CPU_S, in the
thread's own CPU time for Python), the Python kit with MODEL_PROCESSES and the Node kit with MODEL_THREADS pass
every pillar at concurrency 3 over the built-in clips. The burn here is shorter than the 2 s of bench/kit.py,
which measures the times, to keep the suite quick on a shared machine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.kit_servers import KitServer, kit_server, run
from starter_kit.connection_test.client import run_items
from starter_kit.connection_test.clips import load_clips
from starter_kit.protocol.machine import Item
from tests.starter_kit.protocol_support import SETTINGS as S
from tests.starter_kit.test_kit_acceptance import failures, through_relay

pytestmark = pytest.mark.xdist_group("kit-servers")

CONCURRENCY = 3
CPU_S = "0.1"
OFF_THE_LOOP = {"python": {"MODEL_PROCESSES": str(CONCURRENCY)}, "node": {"MODEL_THREADS": "1"}}


@pytest.fixture(scope="module", params=sorted(OFF_THE_LOOP))
def computing(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[KitServer]:
    env = {"STUB_CPU_S": CPU_S, **OFF_THE_LOOP[request.param]}
    with kit_server(request.param, tmp_path_factory.mktemp(f"cpu-{request.param}"), env=env) as running:
        yield running


def test_a_cpu_bound_model_off_the_event_loop_passes_every_pillar_at_concurrency_three(
    computing: KitServer,
) -> None:
    result, count = through_relay(computing, concurrency=CONCURRENCY, paced=False)
    assert result.passed, (failures(result), computing.log()[-3000:])
    assert count.most == CONCURRENCY  # the clips really overlapped
    where = "3 worker processes" if computing.language == "python" else "worker threads"
    assert where in computing.log()


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
