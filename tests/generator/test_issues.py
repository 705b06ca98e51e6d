"""Cutting an issue: validated record, dated PDFs with recorded hashes, and a past issue printed again from the
commit that cut it gives the same bytes."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.config import load_config
from generator.issues import (
    IssueError,
    NewIssue,
    check_new,
    compare_with_record,
    cut_issue,
    entry_text,
    parse_date,
    regenerate,
    with_issue,
)
from generator.paths import Layout

REPO = Layout().root
GIT_ENV = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("2026-13-01", "not a day of the calendar"),
        ("1 October 2026", "YYYY-MM-DD"),
        ("2026-02-30", "not a day of the calendar"),
        ("", "YYYY-MM-DD"),
    ],
)
def test_a_bad_date_gets_a_sentence(text: str, says: str) -> None:
    with pytest.raises(IssueError, match=says):
        parse_date(text)


def test_a_new_issue_must_come_after_the_latest() -> None:
    config = load_config(REPO / "platform_config")
    latest = config.platform.issues[-1].issued
    for day in (latest, latest - dt.timedelta(days=1)):
        with pytest.raises(IssueError, match="must be dated after the latest issue"):
            check_new(config, day, "A summary.")
    with pytest.raises(IssueError, match="summary"):
        check_new(config, latest + dt.timedelta(days=1), "  ")
    check_new(config, latest + dt.timedelta(days=1), "A summary.")


def test_the_record_is_appended_and_every_other_line_kept() -> None:
    text = (REPO / "platform_config" / "platform.yaml").read_text(encoding="utf-8")
    issue = NewIssue(
        dt.date(2031, 1, 2), "1.2", "2026-1", 'Quotes "and" colons: kept.', {"cvb-x-2031-01-02.pdf": "a" * 64}
    )
    new = with_issue(text, issue)
    before, after = yaml.safe_load(text), yaml.safe_load(new)
    assert after["issues"][:-1] == before["issues"]
    assert after["issues"][-1] == {
        "issued": dt.date(2031, 1, 2),
        "protocol": "1.2",
        "scoring_version": "2026-1",
        "summary": 'Quotes "and" colons: kept.',
        "pdfs": {"cvb-x-2031-01-02.pdf": "a" * 64},
    }
    assert {k: v for k, v in after.items() if k != "issues"} == {
        k: v for k, v in before.items() if k != "issues"
    }
    assert new.replace(entry_text(issue), "", 1) == text


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env={**os.environ, **GIT_ENV})


@pytest.fixture
def repo_copy(tmp_path: Path) -> Layout:
    """A git repository holding the project's tracked files (the scorer's wheel is not needed to print)."""
    root = tmp_path / "repo"
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        source = REPO / name
        if source.is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "the project")
    # The kit zip the pages describe carries the built-in clips, which `make clips` writes (not tracked).
    shutil.copytree(REPO / "build" / "clips", root / "build" / "clips")
    return Layout(root=root)


@pytest.mark.slow
def test_a_past_issue_printed_again_from_its_commit_matches_its_record(repo_copy: Layout) -> None:
    layout = repo_copy
    config = load_config(layout.config)
    day = (config.platform.issues[-1].issued + dt.timedelta(days=7)).isoformat()
    issue = cut_issue(layout, issued_text=day, summary="A test issue.")
    record = load_config(layout.config).platform.issues[-1]
    assert record.issued.isoformat() == day
    assert record.protocol == config.protocol.version
    assert record.scoring_version == config.scoring.current_scoring_version
    assert record.pdfs == issue.pdfs and len(issue.pdfs) >= 4
    assert all(day in name for name in issue.pdfs)
    _git(layout.root, "commit", "-qam", f"cut the issue of {day}")
    # A later change to a page must not change the past issue printed from its commit.
    guide = layout.templates / "index.md.j2"
    guide.write_text(guide.read_text(encoding="utf-8") + "\nA later sentence.\n", encoding="utf-8")
    _git(layout.root, "commit", "-qam", "a later page change")
    results = regenerate(layout, day, out=layout.root / "again")
    assert [r.name for r in results] == sorted(issue.pdfs)
    assert all(r.matches for r in results), [(r.name, r.recorded, r.sha256) for r in results]
    # A record that does not match is reported, not hidden (the comparison regenerate ends with, on the files
    # it printed: printing them a third time would only take longer).
    first = sorted(issue.pdfs)[0]
    changed = compare_with_record({**issue.pdfs, first: "ab" * 32}, layout.root / "again")
    assert [r.name for r in changed if not r.matches] == [first]
    assert [r.sha256 for r in changed] == [r.sha256 for r in results]


def test_an_issue_not_in_the_record_gets_a_sentence(repo_copy: Layout) -> None:
    with pytest.raises(IssueError, match="There is no issue dated 2020-01-01"):
        regenerate(repo_copy, "2020-01-01")
    first = load_config(repo_copy.config).platform.issues[0].issued.isoformat()
    with pytest.raises(IssueError, match="cut before PDFs were recorded"):
        regenerate(repo_copy, first)
