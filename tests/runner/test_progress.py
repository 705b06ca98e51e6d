"""`cvb run --queue`'s progress: the pure text (a bar per job and one overall) by table, and the shell that prints
it, redrawn in place on a real terminal (a pseudo-terminal here) and one line per update anywhere else."""

from __future__ import annotations

import contextlib
import io
import os
import threading

import pytest

from runner.cli import ProgressShell
from runner.jobs import Job
from runner.progress import JobProgress, bar, block, update_line


@pytest.mark.parametrize(
    ("done", "total", "width", "expected"),
    [
        (0, 0, 4, "[....]"),  # not drawn yet
        (0, 30, 10, "[..........]"),
        (2, 30, 10, "[..........]"),  # less than one cell
        (3, 30, 10, "[#.........]"),
        (29, 30, 10, "[#########.]"),  # full only when finished
        (30, 30, 10, "[##########]"),
        (5, 4, 4, "[####]"),  # never past full
    ],
)
def test_a_bar_fills_a_cell_for_each_whole_share_done(
    done: int, total: int, width: int, expected: str
) -> None:
    assert bar(done, total, width=width) == expected


A = JobProgress(name="ex-01-r-asr-1", done=30, total=30)
B = JobProgress(name="ex-01-r-llm-1", done=5, total=30)
C = JobProgress(name="ex-02-r-asr-1", done=0, total=0)


@pytest.mark.parametrize(
    ("jobs", "expected"),
    [
        (
            [A, B, C],
            [
                "[#####.....] 35/60 items, 1/3 jobs",
                "[##########] 30/30 ex-01-r-asr-1",
                "[#.........] 5/30 ex-01-r-llm-1",
                "[..........] drawing ex-02-r-asr-1",
            ],
        ),
        ([C], ["[..........] 0/0 items, 0/1 jobs", "[..........] drawing ex-02-r-asr-1"]),
        ([A], ["[##########] 30/30 items, 1/1 jobs", "[##########] 30/30 ex-01-r-asr-1"]),
    ],
)
def test_the_block_is_the_overall_bar_then_one_bar_per_job(
    jobs: list[JobProgress], expected: list[str]
) -> None:
    assert block(jobs, width=10) == expected


def test_an_update_for_a_log_is_the_overall_bar_and_the_job_that_moved() -> None:
    assert update_line([A, B, C], B, width=10) == (
        "[#####.....] 35/60 items, 1/3 jobs | [#.........] 5/30 ex-01-r-llm-1"
    )


JOBS = [Job(entrant="ex-01", pillar=p, round="r", run=1, seed="s") for p in ("asr", "llm")]


def test_off_a_terminal_each_update_is_one_line() -> None:
    out = io.StringIO()
    shell = ProgressShell(JOBS, stream=out)
    shell(JOBS[0], 0, 2)
    shell(JOBS[1], 0, 2)
    shell(JOBS[0], 1, 2)
    assert out.getvalue().splitlines() == [
        "[....................] 0/2 items, 0/2 jobs | [....................] 0/2 ex-01-r-asr-1",
        "[....................] 0/4 items, 0/2 jobs | [....................] 0/2 ex-01-r-llm-1",
        "[#####...............] 1/4 items, 0/2 jobs | [##########..........] 1/2 ex-01-r-asr-1",
    ]


def test_on_a_terminal_the_block_is_redrawn_in_place() -> None:
    master, slave = os.openpty()
    read: list[bytes] = []

    def drain() -> None:
        # Linux's pseudo-terminal answers EIO once the terminal side is closed and everything is read.
        with contextlib.suppress(OSError):
            while chunk := os.read(master, 4096):
                read.append(chunk)

    with os.fdopen(slave, "w", encoding="utf-8") as terminal:
        reader = threading.Thread(target=drain)
        reader.start()
        shell = ProgressShell(JOBS, stream=terminal)
        assert shell.terminal
        shell(JOBS[0], 0, 2)
        shell(JOBS[0], 2, 2)
    try:
        reader.join(timeout=10)
    finally:
        os.close(master)
    # The terminal turns each \n into \r\n.
    text = b"".join(read).decode("utf-8").replace("\r\n", "\n")
    first = "".join(
        f"\x1b[2K{line}\n"
        for line in block(
            [JobProgress(name=j.name, done=0, total=t) for j, t in zip(JOBS, (2, 0), strict=True)]
        )
    )
    second = "".join(
        f"\x1b[2K{line}\n"
        for line in block(
            [JobProgress(name=JOBS[0].name, done=2, total=2), JobProgress(name=JOBS[1].name, done=0, total=0)]
        )
    )
    assert text == first + "\x1b[3F" + second
