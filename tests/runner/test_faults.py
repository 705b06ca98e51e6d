"""Runs against broken endpoints and our own injected faults: each item's verdict, its attribution (entrant,
network, platform) and its evidence are as the integration page's failure tables and the attribution rule
(runner/attribution.py) say; what is our fault runs again, marked, costing no quota, and nothing else does."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from runner.shell import FaultPlan, RunSettings, Slots, run_job
from runner.simulate import Model, simulated_endpoint
from tests.runner.support import RUN, SMALL, board, endpoint, job, run_async, write_entrants, write_pool


def _run(
    folder: Path,
    *,
    pillar: str = "asr",
    model: Model,
    run: RunSettings = SMALL,
    faults: FaultPlan | None = None,
    concurrency: int = 5,
) -> tuple[Path, dict[str, Any]]:
    pool = write_pool(folder)
    write_entrants(folder, ["ex-01"])
    texts = {cid: e.text for cid, e in pool.items()}

    async def go() -> Path:
        async with simulated_endpoint(settings=RUN.settings, texts=texts, model=model) as (url, _):
            return await run_job(
                job(pillar=pillar),
                endpoint=endpoint("ex-01", url, concurrency=concurrency),
                pool=pool,
                out=folder,
                run=run,
                slots=Slots(64, {"ex-01": concurrency}),
                faults=faults,
            )

    path = run_async(go())
    evidence = json.loads(
        (folder / "evidence" / f"{job(pillar=pillar).name}.json").read_text(encoding="utf-8")
    )
    return path, evidence


BROKEN = [
    ("late", "asr", "deadline_exceeded"),
    ("silent", "asr", "no_response"),
    ("closes_early", "asr", "closed_before_response"),
    ("wrong_index", "e2e", "turn_index_mismatch"),
]


@pytest.mark.parametrize(("flaw", "pillar", "code"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_endpoint_fails_every_item_with_its_code_sentence_and_party(
    tmp_path: Path, flaw: str, pillar: str, code: str
) -> None:
    path, evidence = _run(tmp_path, pillar=pillar, model=Model(flaw=flaw))
    failure = RUN.settings.failure(code)
    assert len(evidence["items"]) == SMALL.draw_size
    for item in evidence["items"]:
        (attempt,) = item["attempts"]  # the entrant's fault: never run again
        assert item["outcome"] == "scored" and attempt["costs_quota"]
        assert attempt["failure"] == {"code": code, "attributed_to": "entrant", "message": failure.message}
        assert item["attributed_to"] == "entrant"
        failing = next(v for v in attempt["verdicts"] if not v["passed"])
        assert failing["failure"]["code"] == code and failing["detail"] == attempt["detail"] != ""
        close = attempt["connection"]["close"]
        timings = failing["timings"]
        if flaw == "late":
            assert timings["response_ms"] > timings["deadline_ms"] == attempt["deadline_ms"]
        if flaw == "closes_early":
            assert close["by"] == "entrant" and close["close_frame"] and close["code"] == 1000
        else:
            assert close["by"] == "platform"
    record = json.loads(path.read_text(encoding="utf-8"))
    if pillar == "asr":
        # A failed clip is scored with no transcript: every reference character deleted.
        assert all(c["D"] == c["N"] > 0 and c["S"] == c["I"] == 0 for c in record["clips"])
    else:
        assert all(c["turns_completed"] == 0 and c["latencies_ms"] == [] for c in record["clips"])


def _board_record(folder: Path) -> str:
    return (folder / "runs" / f"{job().name}.json").read_text(encoding="utf-8")


def test_a_platform_fault_reruns_the_item_marked_at_no_cost_and_the_record_is_unchanged(
    tmp_path: Path,
) -> None:
    model = Model(error_rate=0.2, seed="m")
    _run(tmp_path / "clean", model=model, run=RUN, concurrency=8)
    faulted = {f"asr-{cid}" for cid in json.loads(_board_record(tmp_path / "clean"))["draw"]["clips"][::4]}
    _, evidence = _run(
        tmp_path / "faulted", model=model, run=RUN, concurrency=8, faults=lambda i, n: i in faulted and n == 1
    )
    assert _board_record(tmp_path / "faulted") == _board_record(tmp_path / "clean")
    assert board(tmp_path / "faulted").problems == ()
    error = RUN.settings.failure("platform_error")
    assert evidence["attempts_not_counted"] == len(faulted)
    for item in evidence["items"]:
        attempts = item["attempts"]
        if item["run_item_id"] in faulted:
            first, second = attempts
            assert first["outcome"] == "rerun" and not first["costs_quota"]
            assert first["failure"] == {
                "code": "platform_error",
                "attributed_to": "platform",
                "message": error.message,
            }
            assert (
                first["connection"]["close"]["by"] == "platform"
                and first["connection"]["close"]["code"] == 1011
            )
            assert second["outcome"] == "scored" and second["failure"] is None
        else:
            assert [a["outcome"] for a in attempts] == ["scored"]
        assert item["attributed_to"] is None


def test_our_fault_on_every_attempt_leaves_the_item_out_and_the_record_not_final(tmp_path: Path) -> None:
    drawn = set(json.loads(_run(tmp_path / "clean", model=Model(), run=RUN)[0].read_text())["draw"]["clips"])
    victim = sorted(drawn)[0]
    path, evidence = _run(
        tmp_path / "broken", model=Model(), run=RUN, faults=lambda i, n: i == f"asr-{victim}"
    )
    record = json.loads(path.read_text(encoding="utf-8"))
    assert not record["final"] and victim not in {c["id"] for c in record["clips"]}
    assert len(record["clips"]) == RUN.draw_size - 1
    item = next(i for i in evidence["items"] if i["clip"] == victim)
    assert item["outcome"] == "unresolved" and item["attributed_to"] == "platform"
    assert [a["outcome"] for a in item["attempts"]] == ["rerun"] * (RUN.policy.max_attempts - 1) + [
        "unresolved"
    ]
    assert not any(a["costs_quota"] for a in item["attempts"])
    assert board(tmp_path / "broken").problems == ()  # a run not final may lack clips


@pytest.mark.parametrize("flaw", ["drops_once", "drops_always"])
def test_a_dropped_connection_is_the_networks_and_stands_as_a_failed_item(tmp_path: Path, flaw: str) -> None:
    """No re-run for the network: the one attempt is the item's result, failed, attributed to the network with
    that connection's evidence, and the record scores the clip as it scores any failed clip."""
    path, evidence = _run(tmp_path / "dropped", model=Model(flaw=flaw))
    message = RUN.settings.failure("network_interrupted").message
    assert evidence["items"]
    for item in evidence["items"]:
        (only,) = item["attempts"]
        assert only["failure"] == {
            "code": "network_interrupted",
            "attributed_to": "network",
            "message": message,
        }
        assert only["outcome"] == "scored" and only["costs_quota"]
        assert only["detail"].startswith("the connection ended with no close frame from the endpoint while ")
        assert only["connection"]["close"] | {"t": 0} == {
            "code": None,
            "reason": "",
            "close_frame": False,
            "by": "network",
            "t": 0,
        }
        assert only["connection"]["frames"]  # the frames up to the drop are kept
        assert [v["failure"]["code"] for v in only["verdicts"]] == ["network_interrupted"]
        assert item["outcome"] == "scored" and item["attributed_to"] == "network"
    # Failed as any clip is: recognition scores it with no hypothesis, every reference character deleted.
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["final"] and len(record["clips"]) == len(evidence["items"])
    assert all(c["D"] == c["N"] and c["S"] == c["I"] == 0 for c in record["clips"])


def test_a_stall_of_our_clock_reruns_every_item_it_held_up_at_no_cost(tmp_path: Path) -> None:
    """The endpoint shares the runner's loop here, so blocking it stalls our own clock: each attempt open during
    the stall is ours (platform_error) and runs again; the record is the one a run without the stall writes."""
    policy = dataclasses.replace(RUN.policy, stall_ms=200)
    model = Model(error_rate=0.2, seed="m")
    _run(tmp_path / "clean", model=model, run=dataclasses.replace(RUN, policy=policy), concurrency=8)
    _, evidence = _run(
        tmp_path / "stalled",
        model=dataclasses.replace(model, block_loop_ms=400),
        run=dataclasses.replace(RUN, policy=policy),
        concurrency=8,
    )
    assert _board_record(tmp_path / "stalled") == _board_record(tmp_path / "clean")
    held_up = [i for i in evidence["items"] if len(i["attempts"]) > 1]
    assert held_up  # the first connection at least
    for item in held_up:
        first = item["attempts"][0]
        assert first["failure"]["code"] == "platform_error" and not first["costs_quota"]
        assert re.fullmatch(
            r"our client's clock stalled: it ran \d+ ms late; the stall threshold is 200 ms", first["detail"]
        )
    assert all(i["outcome"] == "scored" and i["attributed_to"] is None for i in evidence["items"])
