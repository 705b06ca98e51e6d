"""tools/make_example_results.py makes the example board the site ships with (results/example/) by runs: spoken
clips, simulated entrants, `cvb run --queue`, then only what no run gives filled in. A slice of it (one entrant, the
first run of each pillar) made again here gives the shipped records of those runs byte for byte, so the shipped
board is what the runs produce under the current config and draw; and its recognition counts are the scorer's
counts of the transcripts the runs received."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from cvb_scorer.metrics import score_clip

from generator.paths import Layout
from tests.runner.support import board, in_own_thread

SHIPPED = Layout().root / "results" / "example"


def _tool() -> ModuleType:
    path = Layout().root / "tools" / "make_example_results.py"
    spec = importlib.util.spec_from_file_location("make_example_results", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_slice_of_the_example_board_made_again_by_runs_is_the_shipped_bytes(tmp_path: Path) -> None:
    tool = _tool()
    out = tmp_path / "example"
    examples = tool.EXAMPLES[:1]
    # The tool runs `cvb run`, which calls asyncio.run: off this thread, which may hold a loop.
    texts = in_own_thread(
        lambda: tool.make(Layout().config, out, examples=examples, max_runs=1, keep_evidence=True)
    )
    made = sorted(p.name for p in (out / "runs").iterdir())
    assert made == sorted(
        f"{examples[0].id}-{r}-{p}-1.json" for r in ("online_challenge",) for p in tool.PILLARS
    )
    stale = "results/example is stale for the config or the draw: run tools/make_example_results.py"
    for name in made:
        assert (out / "runs" / name).read_bytes() == (SHIPPED / "runs" / name).read_bytes(), (
            f"{name}: {stale}"
        )
    for pool in (out / "pools").iterdir():
        assert pool.read_bytes() == (SHIPPED / "pools" / pool.name).read_bytes(), f"{pool.name}: {stale}"
    loaded = board(out)
    assert loaded.problems == ()
    # Recognition: the record's counts are the scorer's, of the transcript the run received.
    for record in (r.run for r in loaded.records if r.run.pillar == "asr"):
        evidence = json.loads((out / "evidence" / f"{record.entrant}-{record.round}-asr-1.json").read_text())
        items = {i["clip"]: i for i in evidence["items"]}
        errors = 0
        for clip in record.clips:
            item = items[clip.id]
            assert item["attempts"][-1]["failure"] is None
            counts = score_clip(clip.id, texts[clip.id], item["transcript"]).cer_counts
            assert (clip.S, clip.D, clip.I, clip.N) == (counts.S, counts.D, counts.I, counts.N)
            errors += clip.S + clip.D + clip.I
        assert errors > 0  # the simulated entrant's error rate reached the counts
        assert record.cross_anchor is not None


def test_the_shipped_example_is_every_run_of_every_example_entrant_and_nothing_else() -> None:
    tool = _tool()
    assert sorted(p.name for p in SHIPPED.iterdir()) == ["entrants.yaml", "pools", "runs"]
    expected = sorted(
        f"{j.entrant}-online_challenge-{j.pillar}-{j.run}.json" for j in tool.example_jobs(tool.EXAMPLES)
    )
    assert sorted(p.name for p in (SHIPPED / "runs").iterdir()) == expected
    assert (SHIPPED / "entrants.yaml").read_text(encoding="utf-8") == tool._entrants(tool.EXAMPLES)
