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

from generator.build import render_all
from generator.config import ConfigError, load_config
from generator.issue_state import config_sha256, unreleased
from generator.issues import (
    IssueError,
    NewIssue,
    check_new,
    compare_with_record,
    cut_issue,
    dirty_files,
    entry_text,
    parse_date,
    regenerate,
    with_issue,
    with_summary_zh,
    with_version,
)
from generator.paths import Layout
from generator.pdf.issue import print_jobs
from tests.generator.conftest import project_copy

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


def test_a_dirty_tree_is_refused_naming_the_files(repo_copy: Layout) -> None:
    layout = repo_copy
    platform = layout.config / "platform.yaml"
    before = platform.read_text(encoding="utf-8")
    (layout.root / "notes.txt").write_text("draft\n", encoding="utf-8")
    rounds = layout.config / "rounds.yaml"
    rounds.write_text(rounds.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    day = (load_config(layout.config).platform.issues[-1].issued + dt.timedelta(days=7)).isoformat()
    with pytest.raises(IssueError) as refused:
        cut_issue(layout, issued_text=day, summary="A test issue.")
    message = str(refused.value)
    assert "platform_config/rounds.yaml" in message and "notes.txt" in message
    assert "commit or remove them first" in message
    assert platform.read_text(encoding="utf-8") == before
    assert not (layout.root / "build" / "issues" / day).exists()


def test_a_version_bump_by_hand_is_refused_with_the_command_that_cuts_it(repo_copy: Layout) -> None:
    protocol = repo_copy.config / "protocol.yaml"
    protocol.write_text(
        with_version(protocol.read_text(encoding="utf-8"), "version", "9.9"), encoding="utf-8"
    )
    with pytest.raises(ConfigError) as refused:
        load_config(repo_copy.config)
    assert "cvb issue new --protocol 9.9" in str(refused.value)


@pytest.mark.slow
def test_a_protocol_bump_is_cut_by_command_and_printed_again_byte_identical(
    repo_copy: Layout, capsys: pytest.CaptureFixture[str]
) -> None:
    layout = repo_copy
    config = load_config(layout.config)
    day = (config.platform.issues[-1].issued + dt.timedelta(days=7)).isoformat()
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=layout.root, check=True, capture_output=True, text=True
    ).stdout.strip()
    assert (
        main_cli(
            [
                *("issue", "new", "--date", day, "--summary", "Protocol 9.9.", "--protocol", "9.9"),
                *("--summary-zh", "協定9.9版。"),
            ],
            layout,
        )
        == 0
    )
    out = capsys.readouterr().out
    record = load_config(layout.config).platform.issues[-1]
    assert load_config(layout.config).protocol.version == "9.9"
    assert record.issued.isoformat() == day and record.protocol == "9.9"
    assert record.scoring_version == config.scoring.current_scoring_version
    assert record.commit == head
    assert record.config_sha256 == config_sha256(load_config(layout.config))
    assert record.pdfs and len(record.pdfs) >= 4 and all(day in name for name in record.pdfs)
    # The printed command commits every file the cut wrote, and leaves the tree clean.
    command = next(line.strip() for line in out.splitlines() if line.strip().startswith("git add "))
    assert "platform_config/platform.yaml" in command and "platform_config/protocol.yaml" in command
    subprocess.run(command, shell=True, cwd=layout.root, check=True, env={**os.environ, **GIT_ENV})
    assert dirty_files(layout.root) == []
    # A later change to a page must not change the past issue printed from its commit.
    guide = layout.templates / "index.md.j2"
    guide.write_text(guide.read_text(encoding="utf-8") + "\nA later sentence.\n", encoding="utf-8")
    _git(layout.root, "commit", "-qam", "a later page change")
    results = regenerate(layout, day, out=layout.root / "again")
    assert [r.name for r in results] == sorted(record.pdfs)
    assert all(r.matches for r in results), [(r.name, r.recorded, r.sha256) for r in results]
    # A record that does not match is reported, not hidden (the comparison regenerate ends with, on the files
    # it printed: printing them a third time would only take longer).
    first = sorted(record.pdfs)[0]
    changed = compare_with_record({**record.pdfs, first: "ab" * 32}, layout.root / "again")
    assert [r.name for r in changed if not r.matches] == [first]
    assert [r.sha256 for r in changed] == [r.sha256 for r in results]


def main_cli(argv: list[str], layout: Layout) -> int:
    """`cvb` run in the repository copy (the CLI takes its project root from the working directory)."""
    import argparse

    from generator import issue_cli

    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=Path, default=None)
    issue_cli.add_parser(parser.add_subparsers(dest="command"))
    return issue_cli.run(parser.parse_args(argv), layout)


def test_settings_changed_after_the_cut_print_no_pdf_and_the_changelog_says_so(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    config = load_config(layout.config)
    assert not unreleased(config) and print_jobs(layout)
    protocol = layout.config / "protocol.yaml"
    floor = config.protocol.deadline.floor_ms
    text = protocol.read_text(encoding="utf-8")
    assert f"floor_ms: {floor}" in text
    protocol.write_text(text.replace(f"floor_ms: {floor}", f"floor_ms: {floor + 500}", 1), encoding="utf-8")
    assert unreleased(load_config(layout.config))
    assert print_jobs(layout) == []
    rendered = render_all(layout)
    day = config.platform.issues[-1].issued.isoformat()
    assert (
        f"The settings have changed since the issue of {day}, which is still in force"
        in rendered.pages["changelog.md"]
    )
    assert f"自 {day} 一期（現時仍然生效）以來，設定已有改動" in rendered.zh_pages["changelog.md"]
    clean = render_all(Layout())
    assert "The settings have changed since" not in clean.pages["changelog.md"]
    assert "設定已有改動" not in clean.zh_pages["changelog.md"]
    # Each edition states the rule itself whatever the settings.
    for page in (
        clean.pages["changelog.md"],
        rendered.pages["changelog.md"],
    ):
        assert "A build from other settings prints no PDF under the issue's date" in page


def test_an_issue_not_in_the_record_gets_a_sentence(repo_copy: Layout) -> None:
    with pytest.raises(IssueError, match="There is no issue dated 2020-01-01"):
        regenerate(repo_copy, "2020-01-01")


def test_the_chinese_summary_is_written_beside_the_earlier_ones() -> None:
    text = "zh_text:\n  platform.issues[0].summary: 第一期。\n  platform.rounds[0].name: 資格賽\n"
    added = with_summary_zh(text, 1, "第二期：協定9.9版。")
    assert added.splitlines()[2] == '  platform.issues[1].summary: "第二期：協定9.9版。"'
    assert yaml.safe_load(added)["zh_text"]["platform.issues[1].summary"] == "第二期：協定9.9版。"
    with pytest.raises(IssueError, match="already has a Chinese summary"):
        with_summary_zh(added, 1, "again")
    with pytest.raises(IssueError, match="no Chinese summary of an earlier issue"):
        with_summary_zh("zh_text: {}\n", 1, "第二期。")
