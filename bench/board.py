"""Building the standings board for 200 entrants x 4 pillars x 3 runs: wall time of each phase and the
profile's top functions, so the figure says what dominates. Writes bench/results/board.json.

    .venv/bin/python bench/board.py [--entrants N] [--runs R]

Records are synthetic (seeded), all in the config's last round, written to a temporary results folder with that
round's pool and read back the way `cvb build` reads them, so loading and the draw reconstruction of every record
are in the figure. The page model is handed the aggregation, as the build hands it, so its figure is its own.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cvb_scorer.draw import PoolClip, draw  # noqa: E402
from cvb_scorer.rules import rules_from_json  # noqa: E402

from bench.publish import publish  # noqa: E402
from generator.config import load_config  # noqa: E402
from generator.pages.board import board_model  # noqa: E402
from generator.render import environment, render  # noqa: E402
from generator.results.aggregate import rows  # noqa: E402
from generator.results.records import draw_spec, load_folder  # noqa: E402
from generator.rules_export import scoring_rules_json  # noqa: E402

PILLARS = ("asr", "llm", "tts", "e2e")


def _clip(rng: random.Random, pillar: str, cid: str) -> dict[str, Any]:
    if pillar == "asr":
        n = rng.randint(20, 80)
        e = rng.randint(0, n // 3)
        return {"id": cid, "S": e, "D": 0, "I": 0, "N": n, "mer_counts": {"S": e, "D": 0, "I": 0, "N": n}}
    if pillar == "llm":
        return {"id": cid, "score": round(rng.uniform(40, 95), 1)}
    if pillar == "tts":
        return {"id": cid, "delivery": round(rng.uniform(60, 100), 1), "tone_survival": round(rng.uniform(30, 90), 1), "tones_recovered": rng.randint(0, 6)}  # fmt: skip
    return {
        "id": cid,
        "latencies_ms": [round(rng.uniform(200, 1500)) for _ in range(4)],
        "yield_ms": [round(rng.uniform(0, 900))],
        "turns_completed": 4,
        "turns_attempted": 4,
    }


def write_records(
    folder: Path,
    *,
    entrants: int,
    runs: int,
    size: int,
    strata: Mapping[str, str],
    version: str,
    round_id: str,
) -> None:
    rng = random.Random(7)
    pool = [
        PoolClip(f"{t}-{k:03d}", t) for t, n in (("easy", 20), ("normal", 40), ("hard", 40)) for k in range(n)
    ]
    (folder / "runs").mkdir(parents=True)
    (folder / "pools").mkdir()
    (folder / "pools" / f"{round_id}.jsonl").write_text(
        "".join(json.dumps({"id": c.id, "tier": c.tier}) + "\n" for c in pool)
    )
    (folder / "entrants.yaml").write_text(
        "entrants:\n" + "".join(f"  - {{id: e{k:03d}, codename: Bench {k:03d}}}\n" for k in range(entrants))
    )
    for k in range(entrants):
        for pillar in PILLARS:
            for run in range(1, runs + 1):
                seed = f"bench-{k}-{pillar}-{run}"
                ids = draw(pool, size=size, strata=strata, seed=seed, window="w").ids
                record = {
                    "entrant": f"e{k:03d}",
                    "round": round_id,
                    "pillar": pillar,
                    "run": run,
                    "scoring_version": version,
                    "final": True,
                    "draw": {"seed": seed, "window": "w", "clips": list(ids)},
                    "clips": [_clip(rng, pillar, cid) for cid in ids],
                }
                (folder / "runs" / f"e{k:03d}-{pillar}-{run}.json").write_text(json.dumps(record))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    config = load_config(ROOT / "platform_config")
    rules = rules_from_json(scoring_rules_json(config))
    spec = draw_spec(config)
    timings: dict[str, float] = {}
    # CPU seconds beside the wall time: on a shared machine the wall time mostly measures the neighbours.
    cpu_times: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "results"
        write_records(folder, entrants=args.entrants, runs=args.runs, size=spec.size, strata=spec.strata, version=rules.scoring_version, round_id=spec.rounds[-1])  # fmt: skip
        started, cpu = time.perf_counter(), time.process_time()
        loaded = load_folder(folder, rules=rules, spec=spec)
        timings["load_and_validate_s"] = time.perf_counter() - started
        cpu_times["load_and_validate_cpu_s"] = time.process_time() - cpu
        assert not loaded.problems, loaded.problems[:3]
        profile = cProfile.Profile()
        started, cpu = time.perf_counter(), time.process_time()
        grouped = rows(loaded.records, loaded.entrants, rules=rules)
        timings["aggregate_s"] = time.perf_counter() - started
        cpu_times["aggregate_cpu_s"] = time.process_time() - cpu
        started, cpu = time.perf_counter(), time.process_time()
        # As the build does: the page model gets the aggregation instead of computing it again.
        model = board_model(config, loaded, rules=rules, grouped=grouped)
        timings["page_model_s"] = time.perf_counter() - started
        cpu_times["page_model_cpu_s"] = time.process_time() - cpu
        env = environment([ROOT / "docs" / "templates"], mark=False)
        context = {
            "cfg": __import__("generator.pages.derive", fromlist=["tracked"]).tracked(config),
            "board": model,
        }
        started, cpu = time.perf_counter(), time.process_time()
        render(env, "standings.md.j2", context)
        for page in model.entrants:
            render(env, "entrant.md.j2", {**context, "page": page})
        timings["render_s"] = time.perf_counter() - started
        cpu_times["render_cpu_s"] = time.process_time() - cpu
        # The profile of one pillar per kind on a tenth of the entrants says which statistic dominates.
        sample = [r for r in loaded.records if int(r.run.entrant[1:]) % 10 == 0]
        profile.enable()
        rows(sample, loaded.entrants, rules=rules)
        profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(8)
    top = [
        line.strip() for line in out.getvalue().splitlines() if line.strip() and line.strip()[0].isdigit()
    ][:8]
    results = {
        "entrants": args.entrants,
        "pillars": len(PILLARS),
        "runs": args.runs,
        "clips_per_run": spec.size,
        "resamples": rules.bootstrap.resamples,
        "rows": sum(len(v) for v in grouped.values()),
        "timings": {k: round(v, 2) for k, v in timings.items()},
        "cpu_times": {k: round(v, 2) for k, v in cpu_times.items()},
        "profile_top_by_own_time_tenth_of_entrants": top,
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }
    publish(ROOT / "bench" / "results" / "board.json", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
