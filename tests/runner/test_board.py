"""The board built from runner records equals the board recomputed from the runs' own per-item results: each
transcript in the evidence, scored against its reference by the scorer's corpus function, and the scorer's
bootstrap of those counts, give the board's recognition figures exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cvb_scorer.metrics import score_corpus
from cvb_scorer.rules import rules_from_json
from cvb_scorer.scores import error_rate_score
from cvb_scorer.stats import bootstrap_rates

from generator.results.aggregate import rows
from generator.rules_export import scoring_rules_json
from runner.jobs import Job
from runner.shell import run_jobs
from runner.simulate import Model, simulated_endpoint
from tests.runner.support import CONFIG, ROUND, RUN, board, endpoint, run_async, write_entrants, write_pool

JOBS = [
    Job(entrant="ex-01", pillar="asr", round=ROUND, run=1, seed="a1", window="w1"),
    Job(entrant="ex-01", pillar="asr", round=ROUND, run=2, seed="a2", window="w2"),
    Job(entrant="ex-02", pillar="asr", round=ROUND, run=1, seed="b1", window="w1"),
]


def test_the_board_from_runner_records_is_the_board_recomputed_from_their_per_item_results(
    tmp_path: Path,
) -> None:
    pool = write_pool(tmp_path)
    write_entrants(tmp_path, ["ex-01", "ex-02"])
    texts = {cid: e.text for cid, e in pool.items()}

    async def go() -> None:
        async with simulated_endpoint(
            settings=RUN.settings, texts=texts, model=Model(error_rate=0.3, seed="b")
        ) as (
            url,
            _,
        ):
            endpoints = {e: endpoint(e, url, concurrency=4) for e in ("ex-01", "ex-02")}
            await run_jobs(JOBS, endpoints=endpoints, pools={ROUND: pool}, out=tmp_path, run=RUN, budget=8)

    run_async(go())
    loaded = board(tmp_path)
    assert loaded.problems == () and len(loaded.records) == len(JOBS)
    rules = rules_from_json(scoring_rules_json(CONFIG))
    version = RUN.scoring_version
    by_entrant = {row.entrant.id: row for row in rows(loaded.records, loaded.entrants, rules=rules)[version]}
    for entrant in ("ex-01", "ex-02"):
        # The per-item results in the order the board pools runs: by run, each run's clips by id.
        triples = []
        for job in sorted((j for j in JOBS if j.entrant == entrant), key=lambda j: j.run):
            evidence = json.loads((tmp_path / "evidence" / f"{job.name}.json").read_text(encoding="utf-8"))
            for item in sorted(evidence["items"], key=lambda i: i["clip"]):
                passed = all(v["passed"] for v in item["attempts"][-1]["verdicts"])
                triples.append((item["clip"], texts[item["clip"]], item["transcript"] if passed else None))
        corpus = score_corpus(triples)
        assert corpus.cer > 0
        cer_ci, mer_ci = bootstrap_rates(
            [[c.cer_counts.errors for c in corpus.clips], [c.mer_counts.errors for c in corpus.clips]],
            [[c.cer_counts.N for c in corpus.clips], [c.mer_counts.N for c in corpus.clips]],
            resamples=rules.bootstrap.resamples,
            seed=rules.bootstrap.seed,
            interval=rules.bootstrap.interval,
        )
        result = by_entrant[entrant].pillars["asr"]
        assert result.clips == len(triples)
        assert result.cer is not None and result.mer is not None
        assert (result.cer.value, result.cer.low, result.cer.high) == pytest.approx(
            (corpus.cer, cer_ci.low, cer_ci.high)
        )
        assert (result.mer.value, result.mer.low, result.mer.high) == pytest.approx(
            (corpus.mer, mer_ci.low, mer_ci.high)
        )
        assert result.score.value == pytest.approx(
            error_rate_score(corpus.cer, rules=rules, scoring_version=version)
        )
