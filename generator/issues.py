"""Cutting an issue and regenerating a past one.

`cvb issue new` adds a dated record to platform.yaml (the protocol and scoring versions in force, the summary,
and the sha256 of each PDF it printed); `cvb issue pdf DATE` prints that issue again from the repository as it
stood at the commit that added the record, and compares the bytes with the record.

The text edit of platform.yaml is pure (`with_issue`); git, the printer and the file system are in the shell.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.atomic import swap_in
from generator.config import Config, ConfigError, load_config
from generator.paths import Layout

PLATFORM_FILE = "platform.yaml"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class IssueError(Exception):
    """An organiser's request that cannot be carried out; the message is one sentence saying why."""


@dataclass(frozen=True)
class NewIssue:
    issued: dt.date
    protocol: str
    scoring_version: str
    summary: str
    pdfs: dict[str, str]


def parse_date(text: str) -> dt.date:
    if not _DATE.match(text):
        raise IssueError(f"The issue date {text!r} is not a date written YYYY-MM-DD, such as 2026-10-01.")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise IssueError(f"The issue date {text!r} is not a day of the calendar.") from None


def check_new(config: Config, issued: dt.date, summary: str) -> None:
    """Refuse a new issue that is not dated after every issue already cut, or has no summary."""
    latest = config.platform.issues[-1].issued
    if issued <= latest:
        raise IssueError(
            f"The new issue must be dated after the latest issue ({latest.isoformat()}), "
            f"and {issued.isoformat()} is not."
        )
    if not summary.strip():
        raise IssueError("The new issue needs a summary of what changed (--summary).")


def entry_text(issue: NewIssue) -> str:
    """The YAML of one issue record, in the layout of platform.yaml (strings double-quoted, JSON-style)."""
    lines = [
        f"  - issued: {issue.issued.isoformat()}",
        f"    protocol: {json.dumps(issue.protocol)}",
        f"    scoring_version: {json.dumps(issue.scoring_version)}",
        f"    summary: {json.dumps(issue.summary, ensure_ascii=False)}",
    ]
    if issue.pdfs:
        lines.append("    pdfs:")
        lines += [f"      {name}: {json.dumps(digest)}" for name, digest in sorted(issue.pdfs.items())]
    return "\n".join(lines) + "\n"


def with_issue(text: str, issue: NewIssue) -> str:
    """platform.yaml's text with one issue appended to its `issues:` list; every other line is kept as it was."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("issues:")), None)
    if start is None:
        raise IssueError(f"{PLATFORM_FILE} has no top-level `issues:` list to add the issue to.")
    end = len(lines)
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if line.strip() and not line.startswith((" ", "-", "#")):
            end = i
            break
    # Blank lines and comments just above the next key belong to that key.
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    if lines[end - 1] and not lines[end - 1].endswith("\n"):
        lines[end - 1] += "\n"
    return "".join([*lines[:end], entry_text(issue), *lines[end:]])


def _config_copy(config_dir: Path, text: str, into: Path) -> Path:
    folder = into / "config"
    shutil.copytree(config_dir, folder)
    (folder / PLATFORM_FILE).write_text(text, encoding="utf-8")
    return folder


def issue_folder(layout: Layout, issued: str) -> Path:
    return layout.root / "build" / "issues" / issued


def cut_issue(layout: Layout, *, issued_text: str, summary: str, config_dir: Path | None = None) -> NewIssue:
    """Add the issue to platform.yaml and print its PDFs into build/issues/DATE/; nothing changes on error."""
    from generator.pdf.issue import build_issue_pdfs

    folder = config_dir or layout.config
    config = load_config(folder)
    issued = parse_date(issued_text)
    check_new(config, issued, summary)
    issue = NewIssue(
        issued, config.protocol.version, config.scoring.current_scoring_version, summary.strip(), {}
    )
    original = (folder / PLATFORM_FILE).read_text(encoding="utf-8")
    out = issue_folder(layout, issued.isoformat())
    with tempfile.TemporaryDirectory(prefix="cvb-issue-") as tmp:
        draft = _config_copy(folder, with_issue(original, issue), Path(tmp))
        load_config(draft)  # the record as the organiser will see it must load before anything is printed
        printed = Path(tmp) / "pdf"
        artefacts = build_issue_pdfs(layout, printed, config_dir=draft)
        issue = NewIssue(**{**issue.__dict__, "pdfs": {a.name: a.sha256 for a in artefacts}})
        final = with_issue(original, issue)
        load_config(_config_copy(folder, final, Path(tmp) / "final"))
        out.parent.mkdir(parents=True, exist_ok=True)
        staged = Path(tempfile.mkdtemp(prefix=".issue-", dir=out.parent))
        for artefact in artefacts:
            shutil.copy2(artefact.path, staged / artefact.name)
        swap_in(staged, out)
        # Last: the record is written only once its PDFs exist.
        partial = folder / f".{PLATFORM_FILE}.new"
        partial.write_text(final, encoding="utf-8")
        partial.replace(folder / PLATFORM_FILE)
    return issue


@dataclass(frozen=True)
class Regenerated:
    name: str
    recorded: str
    sha256: str
    path: Path

    @property
    def matches(self) -> bool:
        return self.recorded == self.sha256


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise IssueError(
            f"git {' '.join(args[:2])} failed in {root}: {done.stderr.strip() or done.stdout.strip()}"
        )
    return done.stdout


def cutting_commit(root: Path, issued: str) -> str:
    """The first commit whose platform.yaml holds the issue record dated `issued`."""
    found = _git(
        root,
        "log",
        "--reverse",
        "--format=%H",
        "-S",
        f"issued: {issued}",
        "--",
        f"platform_config/{PLATFORM_FILE}",
    ).split()
    if not found:
        raise IssueError(
            f"No commit adds the issue dated {issued} to platform_config/{PLATFORM_FILE}; commit the cut first."
        )
    return found[0]


def regenerate(layout: Layout, issued_text: str, *, out: Path | None = None) -> list[Regenerated]:
    """Print a past issue again from the commit that cut it; compare each file with the recorded sha256."""
    issued = parse_date(issued_text).isoformat()
    config = load_config(layout.config)
    record = next((i for i in config.platform.issues if i.issued.isoformat() == issued), None)
    if record is None:
        known = ", ".join(i.issued.isoformat() for i in config.platform.issues)
        raise IssueError(f"There is no issue dated {issued}; the issues are {known}.")
    if not record.pdfs:
        raise IssueError(
            f"The issue dated {issued} was cut before PDFs were recorded, so there is nothing to match."
        )
    commit = cutting_commit(layout.root, issued)
    target = out or issue_folder(layout, issued)
    with tempfile.TemporaryDirectory(prefix="cvb-issue-pdf-") as tmp:
        tree = Path(tmp) / "tree"
        _git(layout.root, "worktree", "add", "--detach", "--quiet", str(tree), commit)
        try:
            printed = _print_in(tree, Path(tmp))
        finally:
            _git(layout.root, "worktree", "remove", "--force", str(tree))
        target.mkdir(parents=True, exist_ok=True)
        for name in sorted(record.pdfs):
            if not (printed / name).is_file():
                raise IssueError(
                    f"The build at {commit[:12]} printed no {name}, which the issue record lists."
                )
            shutil.copy2(printed / name, target / name)
    return compare_with_record(record.pdfs, target)


def compare_with_record(pdfs: dict[str, str], folder: Path) -> list[Regenerated]:
    """Each recorded PDF (name: sha256) beside the sha256 of the file of that name in ``folder``, in name
    order; a mismatch is reported in the result (``matches``), never hidden."""
    from generator.pdf.issue import Artefact

    return [
        Regenerated(name, recorded, Artefact.of(folder / name).sha256, folder / name)
        for name, recorded in sorted(pdfs.items())
    ]


def _print_in(tree: Path, tmp: Path) -> Path:
    """Run that commit's own printer in a fresh process: its generator, its scorer source and its rules."""
    packages = tmp / "packages"
    shutil.copytree(tree / "scorer_wasm" / "cvb_scorer", packages / "cvb_scorer")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(packages), str(tree)])}
    env.pop("PYTHONHOME", None)
    rules = packages / "cvb_scorer" / "scoring_rules.json"
    out = tmp / "printed"
    steps = (
        ["generator.cli", "rules", "--out", str(rules)],
        # The integration page states the kit zip's size and sha256, and the zip carries the built-in clips:
        # that commit's clips are made again (espeak-ng and sox give the same bytes) before anything is printed.
        ["starter_kit.clips", str(tree / "build" / "clips")],
        ["generator.cli", "issue", "print", "--out", str(out)],
    )
    for args in steps:
        done = subprocess.run(
            [sys.executable, "-m", *args], cwd=tree, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise IssueError(f"Printing at {tree.name} failed: {(done.stderr or done.stdout).strip()}")
    return out


__all__ = ["ConfigError", "IssueError", "compare_with_record", "cut_issue", "regenerate"]
