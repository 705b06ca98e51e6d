"""`cvb run --queue`: many jobs at once within the total budget and each entrant's declared concurrency (both
measured at the server), with progress; `--shard i/n` splits the queue so that the shards' records together are
the records of the whole queue run at once; bad input is refused with a sentence."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

from generator.cli import main
from runner.jobs import Endpoint, Job, JobError, load_queue, parse_shard, select_shard, shard_of
from runner.shell import run_jobs
from runner.simulate import Model
from tests.runner.support import (
    ROUND,
    RUN,
    SMALL,
    board,
    endpoint,
    in_own_thread,
    run_async,
    served,
    write_endpoints,
    write_entrants,
    write_pool,
)

ENTRANTS = {f"ex-{k:02d}": k % 2 + 1 for k in range(1, 6)}  # declared concurrency 2, 1, 2, 1, 2
BUDGET = 5


def _queue(path: Path) -> Path:
    jobs = [
        {"entrant": e, "pillar": p, "round": ROUND, "run": 1, "seed": f"{e}-{p}", "window": "w1"}
        for e in ENTRANTS
        for p in ("asr", "llm", "tts")
    ]
    jobs += [
        {"entrant": e, "pillar": "asr", "round": ROUND, "run": 2, "seed": f"{e}-2", "window": "w2"}
        for e in ENTRANTS
    ]
    assert len(jobs) == 20
    path.write_text("".join(json.dumps(j) + "\n" for j in jobs), encoding="utf-8")
    return path


def _outputs(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for sub in ("runs", "awaiting")
        for p in (folder / sub).glob("*.json")
    }


def _run_queue(folder: Path, jobs: list[Job], endpoints: dict[str, Endpoint], **options: Any) -> None:
    pool = write_pool(folder)
    run_async(
        run_jobs(
            jobs, endpoints=endpoints, pools={ROUND: pool}, out=folder, run=SMALL, budget=BUDGET, **options
        )
    )


def test_a_sharded_queue_gives_the_records_of_the_whole_queue_within_every_limit(tmp_path: Path) -> None:
    texts = {cid: e.text for cid, e in write_pool(tmp_path / "one").items()}
    jobs = load_queue(
        _queue(tmp_path / "queue.jsonl"), rounds=SMALL.rounds, runs_per_round=SMALL.runs_per_round
    )
    seen: list[tuple[str, int, int]] = []
    with served(texts, Model(error_rate=0.1, seed="queue")) as (url, stats):
        endpoints = {e: endpoint(e, f"{url}/{e}", concurrency=n) for e, n in ENTRANTS.items()}
        _run_queue(
            tmp_path / "one",
            jobs,
            endpoints,
            progress=lambda job, done, total: seen.append((job.name, done, total)),
        )
        # Concurrency measured at the server: never above each entrant's declared number, nor the budget.
        assert stats.most == BUDGET  # the budget, not the declared numbers (8 in all), was the limit
        assert all(stats.most_by_path[f"/{e}"] <= n for e, n in ENTRANTS.items())
        for shard in ((1, 2), (2, 2)):
            _run_queue(tmp_path / "two", select_shard(jobs, shard), endpoints)
    one, two = _outputs(tmp_path / "one"), _outputs(tmp_path / "two")
    assert len(one) == 20 and one == two
    # Progress: every job from none done to all done, one step per finished item.
    for job in jobs:
        steps = [done for name, done, total in seen if name == job.name]
        assert steps == list(range(SMALL.draw_size + 1))


def test_cvb_run_runs_a_queue_and_says_its_progress(tmp_path: Path) -> None:
    texts = {cid: e.text for cid, e in write_pool(tmp_path).items()}
    write_entrants(tmp_path, ["ex-01"])
    queue = tmp_path / "queue.jsonl"
    queue.write_text(
        "".join(
            json.dumps(
                {
                    "entrant": "ex-01",
                    "pillar": "asr",
                    "round": ROUND,
                    "run": r,
                    "seed": f"s{r}",
                    "window": "w",
                }
            )
            + "\n"
            for r in (1, 2)
        ),
        encoding="utf-8",
    )
    with served(texts, Model(error_rate=0.1, seed="cli")) as (url, stats):
        endpoints = write_endpoints(tmp_path / "endpoints.yaml", {"ex-01": (url, 3)})
        err = io.StringIO()
        argv = ["run", "--out", str(tmp_path), "--endpoints", str(endpoints), "--queue", str(queue)]
        with redirect_stderr(err):
            # `cvb run` calls asyncio.run, as it does from a shell: off this thread, which may hold a loop.
            code = in_own_thread(lambda: main([*argv, "--fast", "--insecure"]))
        assert code == 0, err.getvalue()
        assert stats.most == 3
    lines = err.getvalue().splitlines()
    total = 2 * RUN.draw_size
    # Not a terminal here: one line per update, the last one with every item and job done.
    assert lines[-2].startswith(f"[{'#' * 20}] {total}/{total} items, 2/2 jobs | ")
    assert len(lines) == 2 * (RUN.draw_size + 1) + 1
    assert lines[-1] == "Connections open at once: at most 3 (budget 64)."
    loaded = board(tmp_path)
    assert loaded.problems == () and len(loaded.records) == 2


def _jobs(n: int) -> list[Job]:
    return [Job(entrant=f"e{k}", pillar="asr", round=ROUND, run=1, seed=f"s{k}") for k in range(n)]


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_shards_split_a_queue_into_disjoint_parts_whatever_its_order(n: int) -> None:
    jobs = _jobs(40)
    parts = [select_shard(jobs, (i, n)) for i in range(1, n + 1)]
    assert sorted(j.name for part in parts for j in part) == sorted(j.name for j in jobs)
    assert [select_shard(list(reversed(jobs)), (i, n)) for i in range(1, n + 1)] == [
        list(reversed(p)) for p in parts
    ]
    assert all(shard_of(j, n) == i for i, part in enumerate(parts) for j in part)


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_a_bad_shard_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(JobError, match="--shard must be i/n"):
        parse_shard(text)


def test_a_run_beyond_the_quota_or_an_unknown_round_is_refused(tmp_path: Path) -> None:
    write_endpoints(tmp_path / "endpoints.yaml", {"ex-01": ("ws://127.0.0.1:9/", 1)})
    base = ["run", "--out", str(tmp_path), "--endpoints", str(tmp_path / "endpoints.yaml"), "--insecure"]
    job = ["--entrant", "ex-01", "--pillar", "asr", "--seed", "s"]
    for extra, said in [
        (["--run", "4"], "run 4 is outside the quota; rounds.yaml allows runs 1 to 3."),
        (["--run", "1", "--round", "nowhere"], "round 'nowhere' is not a round of platform.yaml"),
        (["--run", "1", "--shard", "1/2"], "--shard splits a queue; give --queue FILE with it."),
    ]:
        err = io.StringIO()
        with redirect_stderr(err):
            assert main([*base, *job, *extra]) == 2
        assert said in err.getvalue() and "Traceback" not in err.getvalue()
