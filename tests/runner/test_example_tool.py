"""tools/make_example_by_runs.py makes an example board by runs: spoken clips, simulated entrants, `cvb run
--queue`, then only the judge's scores filled in. Here on a small pool, two entrants and one run each, in a temp
folder: a folder the board loads without a refusal, whose recognition counts are the runs' own."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from cvb_scorer.metrics import score_clip
from cvb_scorer.rules import rules_from_json

from generator.results.aggregate import rows
from generator.rules_export import scoring_rules_json
from tests.runner.support import CONFIG, RUN, board, in_own_thread


def _tool() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "make_example_by_runs.py"
    spec = importlib.util.spec_from_file_location("make_example_by_runs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_example_board_is_made_by_runs(tmp_path: Path) -> None:
    tool = _tool()
    out = tmp_path / "example"
    examples = tool.EXAMPLES[:2]
    tiers = {t: round(float(f) * RUN.draw_size) + 1 for t, f in RUN.strata.items()}
    # The tool runs `cvb run`, which calls asyncio.run: off this thread, which may hold a loop.
    texts = in_own_thread(
        lambda: tool.make(CONFIG, out, examples=examples, tiers=tiers, latency_scale=0.02, max_runs=1)
    )
    assert sorted(p.name for p in out.iterdir()) == ["entrants.yaml", "evidence", "pools", "runs"]
    loaded = board(out)
    assert loaded.problems == ()
    assert sorted((r.run.entrant, r.run.pillar) for r in loaded.records) == sorted(
        (ex.id, p) for ex in examples for p in ("asr", "llm", "tts", "e2e")
    )
    rules = rules_from_json(scoring_rules_json(CONFIG))
    table = rows(loaded.records, loaded.entrants, rules=rules)[RUN.scoring_version]
    assert [row.entrant.id for row in table] == [ex.id for ex in examples]
    assert all(set(row.pillars) == {"asr", "llm", "tts", "e2e"} for row in table)
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
    assert all(
        line.keys() == {"id", "tier"}
        for p in (out / "pools").glob("*.jsonl")
        for line in map(json.loads, p.read_text().splitlines())
    )
