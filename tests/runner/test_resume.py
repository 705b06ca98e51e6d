"""A run killed mid-way (SIGKILL to the `cvb run` process) resumes from its journal without running a
finished item again, never leaves half a record, and finishes with the record an uninterrupted run writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.paths import Layout
from runner.simulate import Model
from tests.runner.support import ROUND, RUN, job, served, write_endpoints, write_pool

MODEL = Model(error_rate=0.2, latency_ms=30, seed="resume")
KILL_AT = 12  # connections: the run is killed as the twelfth opens


def _command(folder: Path, endpoints: Path) -> list[str]:
    return [
        sys.executable, "-m", "generator.cli", "run", "--out", str(folder), "--endpoints", str(endpoints),
        "--entrant", "ex-01", "--pillar", "asr", "--round", ROUND, "--run", "1", "--seed", "s1",
        "--window", "w1", "--fast", "--insecure", "--quiet",
    ]  # fmt: skip


@pytest.mark.slow
def test_a_killed_run_resumes_and_writes_the_record_an_uninterrupted_run_writes(tmp_path: Path) -> None:
    root = Layout().root
    name = job().name
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    texts = {cid: e.text for cid, e in write_pool(whole).items()}
    write_pool(killed)
    with served(texts, MODEL) as (url, _):
        endpoints = write_endpoints(tmp_path / "endpoints.yaml", {"ex-01": (url, 1)})
        done = subprocess.run(
            _command(whole, endpoints), cwd=root, capture_output=True, timeout=120, check=False
        )
        assert done.returncode == 0, done.stderr.decode()

    process: subprocess.Popen[bytes] | None = None

    def kill(connections: int) -> None:
        if connections == KILL_AT and process is not None:
            os.kill(process.pid, signal.SIGKILL)

    with served(texts, MODEL) as (url, stats):
        stats.on_connect = kill
        endpoints = write_endpoints(tmp_path / "endpoints.yaml", {"ex-01": (url, 1)})
        process = subprocess.Popen(_command(killed, endpoints), cwd=root, stderr=subprocess.PIPE)
        process.wait(timeout=120)
        assert process.returncode == -signal.SIGKILL
        journal = killed / "journal" / f"{name}.jsonl"
        finished = [json.loads(line)["clip"] for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
        assert 0 < len(finished) < KILL_AT
        assert not (killed / "runs").exists() or not any((killed / "runs").iterdir())  # no half record
        before = dict(stats.by_item)
        stats.on_connect = None
        done = subprocess.run(
            _command(killed, endpoints), cwd=root, capture_output=True, timeout=120, check=False
        )
        assert done.returncode == 0, done.stderr.decode()
    # The resumed run opened no connection for an item the journal had finished, and one for every other.
    again = {item: n - before.get(item, 0) for item, n in stats.by_item.items() if n - before.get(item, 0)}
    drawn = json.loads((whole / "runs" / f"{name}.json").read_text(encoding="utf-8"))["draw"]["clips"]
    assert set(again) == {f"asr-{cid}" for cid in drawn if cid not in finished}
    assert (killed / "runs" / f"{name}.json").read_bytes() == (whole / "runs" / f"{name}.json").read_bytes()
    assert not journal.exists()
    evidence = json.loads((killed / "evidence" / f"{name}.json").read_text(encoding="utf-8"))
    assert [i["clip"] for i in evidence["items"]] == drawn
    assert len(drawn) == RUN.draw_size
