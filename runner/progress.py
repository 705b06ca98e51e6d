"""`cvb run`'s progress as text, pure: a bar per job and one overall, from each job's items done and drawn.

The shell (runner/cli.py) redraws the whole block in place on a terminal and, anywhere else (a log, a pipe),
writes one line per update: the overall bar and the job that moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FULL, EMPTY = "#", "."


@dataclass(frozen=True, kw_only=True)
class JobProgress:
    name: str
    done: int
    # Items the job's draw holds; 0 until the job has drawn them.
    total: int

    @property
    def finished(self) -> bool:
        return self.total > 0 and self.done >= self.total


def bar(done: int, total: int, *, width: int) -> str:
    """`[###.......]`: `width` cells, a cell full for each whole share of `total` done (none while total is 0)."""
    filled = 0 if total <= 0 else min(width, done * width // total)
    return "[" + FULL * filled + EMPTY * (width - filled) + "]"


def overall_line(jobs: Sequence[JobProgress], *, width: int) -> str:
    """The overall bar: items done of all items drawn so far, and jobs finished of all jobs."""
    done = sum(j.done for j in jobs)
    total = sum(j.total for j in jobs)
    finished = sum(1 for j in jobs if j.finished)
    return f"{bar(done, total, width=width)} {done}/{total} items, {finished}/{len(jobs)} jobs"


def job_line(job: JobProgress, *, width: int) -> str:
    count = f"{job.done}/{job.total}" if job.total else "drawing"
    return f"{bar(job.done, job.total, width=width)} {count} {job.name}"


def block(jobs: Sequence[JobProgress], *, width: int = 20) -> list[str]:
    """What a terminal shows: the overall line, then one line per job, in the queue's order."""
    return [overall_line(jobs, width=width), *(job_line(j, width=width) for j in jobs)]


def update_line(jobs: Sequence[JobProgress], moved: JobProgress, *, width: int = 20) -> str:
    """One update for a log: the overall bar, then the job that moved."""
    return f"{overall_line(jobs, width=width)} | {job_line(moved, width=width)}"
