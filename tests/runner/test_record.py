"""The journal a run resumes from: complete lines only, a line torn by a crash dropped and mended, and a journal
of another job or draw refused with a sentence rather than mixed in."""

from __future__ import annotations

from pathlib import Path

import pytest
from cvb_scorer.draw import Draw, PoolClip

from runner.jobs import JobError
from runner.record import Journal, write_atomic
from tests.runner.support import job

DRAW = Draw("s1", "w1", (PoolClip("a", "easy"), PoolClip("b", "hard")))


def test_a_journal_keeps_finished_items_and_drops_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "journal" / "j.jsonl"
    journal = Journal(path, job=job(), drawn=DRAW)
    assert journal.finished() == {}
    journal.append({"clip": "a", "outcome": "scored"})
    with path.open("a", encoding="utf-8") as out:
        out.write('{"clip": "b", "outc')  # the crash came mid-line
    assert journal.finished() == {"a": {"clip": "a", "outcome": "scored"}}
    journal.append({"clip": "b", "outcome": "scored"})
    assert set(journal.finished()) == {"a", "b"}
    assert path.read_text(encoding="utf-8").count("\n") == 3  # header and two items, the torn text gone


@pytest.mark.parametrize(
    "other", [Draw("s2", "w1", DRAW.clips), Draw("s1", "w1", DRAW.clips[:1])], ids=["seed", "clips"]
)
def test_a_journal_of_another_draw_is_refused(tmp_path: Path, other: Draw) -> None:
    path = tmp_path / "j.jsonl"
    Journal(path, job=job(), drawn=DRAW).append({"clip": "a"})
    with pytest.raises(JobError, match="is the journal of another job or draw; remove it"):
        Journal(path, job=job(), drawn=other).finished()


def test_a_write_that_fails_leaves_the_old_record_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "runs" / "r.json"
    write_atomic(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "new \ud800\n")  # a lone surrogate cannot be written as UTF-8
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["r.json"]
