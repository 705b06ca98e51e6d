"""`cvb run`: one job from options, or a queue of jobs (optionally one shard of it), within a total connection
budget and each entrant's declared concurrency, with a progress bar per job and overall (runner/progress.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from cvb_scorer.draw import DrawError

from protocol_data.run import RunData
from runner.jobs import (
    Job,
    JobError,
    check_job,
    load_endpoints,
    load_pool,
    load_queue,
    parse_shard,
    select_shard,
)
from runner.progress import JobProgress, block, update_line

DESCRIPTION = (
    "Run scored runs: draw each job's clips with its seed and window from the round's pool, run them against "
    "the entrant's registered endpoint as the integration page describes, and write the run record, its "
    "evidence and, while running, its journal (an interrupted run resumes from it)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, help="the results folder the records go to")
    parser.add_argument(
        "--endpoints",
        type=Path,
        required=True,
        help="entrants' endpoints: {id, concurrency, urls per pillar}",
    )
    parser.add_argument(
        "--pools", type=Path, default=None, help="folder of <round>.jsonl pools (default: OUT/pools)"
    )
    parser.add_argument("--queue", type=Path, default=None, help="JSON lines of jobs, instead of one job")
    parser.add_argument("--shard", default=None, help="i/n: run only the i-th of n shards of the queue")
    parser.add_argument("--entrant", default=None)
    parser.add_argument("--pillar", default=None)
    parser.add_argument("--round", default=None, help="the round (default: the standing round's)")
    parser.add_argument("--run", type=int, default=None, help="which of the round's runs this is")
    parser.add_argument("--seed", default=None, help="the window's draw seed")
    parser.add_argument("--window", default=None, help="the window the seed belongs to")
    parser.add_argument(
        "--budget",
        type=int,
        default=64,
        help="connections open at once in total, over every job (default 64)",
    )
    parser.add_argument("--fast", action="store_true", help="send audio at once instead of in real time")
    parser.add_argument(
        "--insecure", action="store_true", help="allow ws:// or an unverified certificate, loopback only"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")


class ProgressShell:
    """Prints runner.progress's text as jobs move: on a terminal, the whole block (a bar per job and one overall)
    redrawn in place; anywhere else, one line per update, so a log reads top to bottom."""

    def __init__(self, jobs: Sequence[Job], *, stream: TextIO) -> None:
        self.stream = stream
        self.terminal = stream.isatty()
        self.jobs = {job.name: JobProgress(name=job.name, done=0, total=0) for job in jobs}
        self.drawn = 0  # lines of the block on the terminal now

    def __call__(self, job: Job, done: int, total: int) -> None:
        moved = self.jobs[job.name] = JobProgress(name=job.name, done=done, total=total)
        states = list(self.jobs.values())
        if not self.terminal:
            self.stream.write(update_line(states, moved) + "\n")
        else:
            # Up to the block's first line, then each line cleared and written again.
            up = f"\x1b[{self.drawn}F" if self.drawn else ""
            lines = block(states)
            self.stream.write(up + "".join(f"\x1b[2K{line}\n" for line in lines))
            self.drawn = len(lines)
        self.stream.flush()


def _jobs(args: argparse.Namespace, data: RunData) -> list[Job]:
    rounds, runs = list(data.rounds), data.runs_per_round
    if args.queue is not None:
        single = [o for o in ("entrant", "pillar", "round", "run", "seed", "window") if getattr(args, o)]
        if single:
            raise JobError(f"--queue lists the jobs; leave out --{', --'.join(single)}.")
        jobs = load_queue(args.queue, rounds=rounds, runs_per_round=runs)
        return jobs if args.shard is None else select_shard(jobs, parse_shard(args.shard))
    if args.shard is not None:
        raise JobError("--shard splits a queue; give --queue FILE with it.")
    missing = [o for o in ("entrant", "pillar", "run", "seed") if getattr(args, o) is None]
    if missing:
        raise JobError(f"a single job needs --{', --'.join(missing)} (or give --queue FILE).")
    job = Job(
        entrant=args.entrant,
        pillar=args.pillar,
        round=args.round or data.standing_round,
        run=args.run,
        seed=args.seed,
        window=args.window,
    )
    return [check_job(job, where="the job", rounds=rounds, runs_per_round=runs)]


def run(args: argparse.Namespace, *, config: Any, stderr: TextIO | None = None) -> int:
    """`cvb run` with parsed options and the config (the generator's validated Config, or the config files' plain
    data: see protocol_data.run): 0 when every job's record is written, 2 when the input is refused (said in one
    sentence)."""
    # Imported here so that `cvb` commands that open no socket need neither websockets nor the scorer's metrics.
    from protocol_data.run import run_data
    from runner.from_config import run_settings
    from runner.shell import run_jobs
    from starter_kit.connection_test.client import UsageError

    stderr = stderr or sys.stderr
    settings = run_settings(config, paced=not args.fast, insecure=args.insecure)
    try:
        jobs = _jobs(args, run_data(config))
        endpoints = load_endpoints(args.endpoints)
        pools_dir = args.pools or args.out / "pools"
        pools = {
            r: load_pool(pools_dir / f"{r}.jsonl", tiers=sorted(settings.strata))
            for r in sorted({job.round for job in jobs})
        }
        progress = None if args.quiet else ProgressShell(jobs, stream=stderr)
        paths, slots = asyncio.run(
            run_jobs(
                jobs,
                endpoints=endpoints,
                pools=pools,
                out=args.out,
                run=settings,
                budget=args.budget,
                progress=progress,
            )
        )
    except (JobError, UsageError, DrawError) as exc:
        print(f"cvb run: {exc}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "cvb run: interrupted; finished items are in the journal and the run resumes from it.",
            file=stderr,
        )
        return 130
    for path in paths:
        print(f"Wrote {path}")
    if not args.quiet:
        print(f"Connections open at once: at most {slots.total_most} (budget {args.budget}).", file=stderr)
    return 0
