"""Scored runs at the scale of a round: ENTRANTS entrants x 4 pillars x the config's runs per round, each job
the config's draw, through the runner's own shell (runner.shell.run_jobs) against simulated endpoints on loopback,
with --fast pacing. Writes bench/results/run.json.

This machine is shared, so by default only a slice of the round is run (--run-entrants of --entrants, every
pillar and run of each) and the rest is projected from it:
- throughput: items (clips; a conversation is one item of two turns) per second, fast pacing, runner and
  simulated endpoints in one process, so the endpoints' CPU counts against the runner;
- peak connections: the most open at once, measured at the server, against the budget;
- memory: the process's peak resident set;
- projected wall time of a real-time round: the largest of three bounds. Each entrant's items in real time
  (every item holds a connection for its clip's length, plus the reply; a conversation twice) over its declared
  concurrency; all items' connection-seconds over the total budget; and the CPU seconds measured per item here,
  times all items, over this machine's cores.

    nice .venv/bin/python bench/run.py [--entrants 200 --run-entrants 4 --clip-seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from publish import publish  # noqa: E402

from generator.config import load_config  # noqa: E402
from generator.paths import Layout  # noqa: E402
from runner.from_config import run_settings  # noqa: E402
from runner.jobs import Endpoint, Job  # noqa: E402
from runner.shell import run_jobs  # noqa: E402
from runner.simulate import Model, simulated_endpoint, tone_pool  # noqa: E402
from starter_kit.protocol.machine import PILLARS  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "run.json"
# The stall sentence's measure (runner.attribution.stall): how late our loop woke.
STALL = re.compile(r"it ran (\d+) ms late")
CONFIG = load_config(Layout().config)
RUN = run_settings(CONFIG, paced=False, insecure=True)
ROUND = CONFIG.platform.rounds[-1].id


async def _bench(folder: Path, *, entrants: int, declared: int, budget: int) -> dict[str, Any]:
    pool = tone_pool(folder, run=RUN, round_id=ROUND)
    texts = {cid: e.text for cid, e in pool.items()}
    names = [f"bench-{k:03d}" for k in range(entrants)]
    jobs = [
        Job(entrant=e, pillar=p, round=ROUND, run=r, seed=f"{e}-{p}-{r}", window=f"w{r}")
        for e in names
        for p in PILLARS
        for r in range(1, RUN.runs_per_round + 1)
    ]
    model = Model(error_rate=0.1, latency_ms=50, latency_sd_ms=20, seed="bench")
    async with simulated_endpoint(settings=RUN.settings, texts=texts, model=model) as (url, stats):
        endpoints = {
            e: Endpoint(entrant=e, concurrency=declared, urls={p: url for p in PILLARS}) for e in names
        }
        cpu, wall = time.process_time(), time.perf_counter()
        _, slots = await run_jobs(
            jobs, endpoints=endpoints, pools={ROUND: pool}, out=folder, run=RUN, budget=budget
        )
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
    items = len(jobs) * RUN.draw_size
    # Attempts run again (ours or the network's), by code, with one detail each: under load, our own stalls.
    reruns: dict[str, int] = {}
    details: dict[str, str] = {}
    worst_stall_ms = 0
    for path in (folder / "evidence").glob("*.json"):
        for item in json.loads(path.read_text(encoding="utf-8"))["items"]:
            for attempt in item["attempts"]:
                if attempt["outcome"] != "scored":
                    code = attempt["failure"]["code"]
                    reruns[code] = reruns.get(code, 0) + 1
                    details.setdefault(code, attempt["detail"])
                    late = STALL.search(attempt["detail"])
                    worst_stall_ms = max(worst_stall_ms, int(late.group(1)) if late else 0)
    return {
        "reruns": reruns,
        "rerun_details": details,
        # Every attempt holds a connection: above 1, the machine spent connections on runs of our own fault.
        "attempts_per_item": round(stats.connections / items, 2),
        "worst_stall_ms": worst_stall_ms,
        "jobs": len(jobs),
        "items": items,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "items_per_s": round(items / wall, 1),
        "cpu_ms_per_item": round(cpu / items * 1000, 2),
        "peak_connections_at_server": stats.most,
        "peak_connections_in_runner": slots.total_most,
        "connections": stats.connections,
    }


def project(
    *, entrants: int, declared: int, budget: int, clip_s: float, reply_s: float, cpu_ms_per_item: float
) -> dict[str, float]:
    """The real-time round's wall time: the largest of the per-entrant, budget and CPU bounds (seconds)."""
    runs, size = RUN.runs_per_round, RUN.draw_size
    # Connection-seconds per entrant: three pillars hold a connection for the clip and the reply; a conversation
    # plays the clip twice, each turn answered.
    per_entrant = runs * size * (3 * (clip_s + reply_s) + 2 * (clip_s + reply_s))
    items = entrants * len(PILLARS) * runs * size
    bounds = {
        "entrant_bound_s": per_entrant / declared,
        "budget_bound_s": entrants * per_entrant / budget,
        "cpu_bound_s": items * cpu_ms_per_item / 1000 / (os.cpu_count() or 1),
    }
    return {**{k: round(v) for k, v in bounds.items()}, "projected_wall_s": round(max(bounds.values()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=200, help="entrants in the projected round")
    parser.add_argument(
        "--run-entrants",
        type=int,
        default=4,
        help="entrants actually run here (--entrants for the whole round, if the machine has the time)",
    )
    parser.add_argument("--declared", type=int, default=4, help="each entrant's declared concurrency")
    parser.add_argument("--budget", type=int, default=256, help="total connections the runner may hold")
    parser.add_argument(
        "--clip-seconds", type=float, default=20.0, help="assumed mean clip length (real pool)"
    )
    parser.add_argument(
        "--out", type=Path, default=OUT, help="the JSON to write (default: bench/results/run.json)"
    )
    parser.add_argument("--reply-seconds", type=float, default=2.0, help="assumed mean end-of-turn to reply")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-run-") as folder:
        measured = asyncio.run(
            _bench(Path(folder), entrants=args.run_entrants, declared=args.declared, budget=args.budget)
        )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    projection = project(
        entrants=args.entrants,
        declared=args.declared,
        budget=args.budget,
        clip_s=args.clip_seconds,
        reply_s=args.reply_seconds,
        cpu_ms_per_item=float(measured["cpu_ms_per_item"]),
    )
    publish(
        args.out,
        {
            "what": (
                f"{args.run_entrants} of {args.entrants} entrants run here, each {len(PILLARS)} pillars x "
                f"{RUN.runs_per_round} runs x {RUN.draw_size} clips, --fast, simulated endpoints in-process"
            ),
            "declared_concurrency": args.declared,
            "budget": args.budget,
            "measured": measured,
            "peak_rss_mb": round(peak_mb, 1),
            "assumed": {"clip_seconds": args.clip_seconds, "reply_seconds": args.reply_seconds},
            "projection_real_time_round": projection,
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "cpus": os.cpu_count(),
        },
    )


if __name__ == "__main__":
    main()
