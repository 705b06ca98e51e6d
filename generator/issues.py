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
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from generator.atomic import swap_in
from generator.config import Config, ConfigError, load_config
from generator.issue_state import PLATFORM_FILE, config_sha256
from generator.paths import Layout

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
    config_sha256: str | None = None
    commit: str | None = None


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
    if issue.config_sha256:
        lines.append(f"    config_sha256: {json.dumps(issue.config_sha256)}")
    if issue.commit:
        lines.append(f"    commit: {json.dumps(issue.commit)}")
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


GLOSSARY_FILE = "glossary.yaml"


def with_summary_zh(text: str, index: int, summary_zh: str) -> str:
    """glossary.yaml with the Chinese sentence of issue `index`'s summary beside the earlier issues' ones: the
    Chinese changelog shows it, and the config's hash (which the record pins) covers it."""
    key = f"platform.issues[{index}].summary"
    if f"  {key}:" in text:
        raise IssueError(f"glossary.yaml already has a Chinese summary for issue {index} ({key}).")
    lines = text.splitlines(keepends=True)
    earlier = [n for n, line in enumerate(lines) if re.match(r"  platform\.issues\[\d+\]\.summary:", line)]
    if not earlier:
        raise IssueError(
            "glossary.yaml has no Chinese summary of an earlier issue (platform.issues[N].summary under "
            "zh_text) to put the new one beside."
        )
    line = f"  {key}: {json.dumps(summary_zh.strip(), ensure_ascii=False)}\n"
    at = earlier[-1] + 1
    return "".join([*lines[:at], line, *lines[at:]])


def _config_copy(config_dir: Path, texts: dict[str, str], into: Path) -> Path:
    folder = into / "config"
    shutil.copytree(config_dir, folder)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def issue_folder(layout: Layout, issued: str) -> Path:
    return layout.root / "build" / "issues" / issued


# The one line each version lives on: protocol.yaml's `version` and scoring.yaml's `current_scoring_version`.
VERSION_LINES = {
    "protocol": ("protocol.yaml", "version"),
    "scoring": ("scoring.yaml", "current_scoring_version"),
}


def with_version(text: str, key: str, version: str) -> str:
    """A file's text with its top-level `key:` line set to `version`; every other line is kept as it was."""
    pattern = re.compile(rf"^{re.escape(key)}:.*$", re.MULTILINE)
    if not pattern.search(text):
        raise IssueError(f"There is no top-level `{key}:` line to set to {version!r}.")
    return pattern.sub(f"{key}: {json.dumps(version)}", text, count=1)


def version_in(text: str, key: str) -> str:
    """The version a file's text names on its `key:` line (read as YAML, so quoting does not matter)."""
    match = re.search(rf"^{re.escape(key)}:.*$", text, re.MULTILINE)
    if match is None:
        raise IssueError(f"There is no top-level `{key}:` line.")
    return str(yaml.safe_load(match.group(0))[key])


def dirty_files(root: Path) -> list[str]:
    """Files git would commit or has not been told to ignore: an issue cut from these is not reproducible."""
    status = _git(root, "status", "--porcelain", "--untracked-files=all")
    return [line[3:] for line in status.splitlines() if line.strip()]


def commit_command(files: list[str], issued: str, summary: str) -> str:
    """The exact command that commits everything a cut wrote, and nothing else. The subject names the issue
    (short, as CONTRIBUTING.md asks of every subject); the summary is the body."""
    quoted = " ".join(shlex.quote(f) for f in files)
    subject = shlex.quote(f"Issue {issued}")
    body = shlex.quote(summary)
    return f"git add {quoted} && git commit -m {subject} -m {body} -- {quoted}"


@dataclass(frozen=True)
class Cut:
    issue: NewIssue
    written: list[str]  # the repository files the cut wrote, relative to its root
    command: str  # the commit command covering exactly those


def cut_issue(
    layout: Layout,
    *,
    issued_text: str,
    summary: str,
    summary_zh: str | None = None,
    config_dir: Path | None = None,
    protocol: str | None = None,
    scoring_version: str | None = None,
) -> Cut:
    """Add the issue to platform.yaml (and set a new protocol or scoring version, if given, in the same cut),
    print its PDFs into build/issues/DATE/, and say how to commit it. Refused from a working tree with changes:
    the record pins the commit, so the tree must be that commit. Nothing changes on error."""
    from generator.pdf.issue import build_issue_pdfs

    folder = (config_dir or layout.config).resolve()
    issued = parse_date(issued_text)
    dirty = dirty_files(layout.root)
    if dirty:
        shown = ", ".join(dirty[:10]) + (f" and {len(dirty) - 10} more" if len(dirty) > 10 else "")
        raise IssueError(
            f"The working tree has changes ({shown}); commit or remove them first, so the issue is cut from a "
            "commit and can be printed again from it."
        )
    head = _git(layout.root, "rev-parse", "HEAD").strip()
    texts = {
        name: (folder / name).read_text(encoding="utf-8")
        for name in (PLATFORM_FILE, "protocol.yaml", "scoring.yaml", GLOSSARY_FILE)
    }
    for (name, key), version in (
        (VERSION_LINES["protocol"], protocol),
        (VERSION_LINES["scoring"], scoring_version),
    ):
        if version is not None:
            if not version.strip():
                raise IssueError(f"The new version for {name} is empty.")
            texts[name] = with_version(texts[name], key, version.strip())
    record = NewIssue(
        issued,
        version_in(texts["protocol.yaml"], "version"),
        version_in(texts["scoring.yaml"], "current_scoring_version"),
        summary.strip(),
        {},
        commit=head,
    )
    if not record.summary:
        raise IssueError("The new issue needs a summary of what changed (--summary).")
    recorded = (yaml.safe_load(texts[PLATFORM_FILE]) or {}).get("issues") or []
    latest = recorded[-1].get("issued") if recorded and isinstance(recorded[-1], dict) else None
    if isinstance(latest, dt.date) and issued <= latest:
        raise IssueError(
            f"The new issue must be dated after the latest issue ({latest.isoformat()}), "
            f"and {issued.isoformat()} is not."
        )
    if summary_zh is not None:
        if not summary_zh.strip():
            raise IssueError("The new issue's Chinese summary (--summary-zh) is empty.")
        texts[GLOSSARY_FILE] = with_summary_zh(texts[GLOSSARY_FILE], len(recorded), summary_zh)
    original = texts[PLATFORM_FILE]
    out = issue_folder(layout, issued.isoformat())
    with tempfile.TemporaryDirectory(prefix="cvb-issue-") as tmp:
        draft_texts = {**texts, PLATFORM_FILE: with_issue(original, record)}
        # The record as the organiser will see it must load before anything is printed (a version bump loads
        # only with its record: that is why both are made here, together).
        draft = load_config(_config_copy(folder, draft_texts, Path(tmp) / "draft"))
        record = replace(record, config_sha256=config_sha256(draft))
        draft_dir = _config_copy(
            folder, {**texts, PLATFORM_FILE: with_issue(original, record)}, Path(tmp) / "pinned"
        )
        printed = Path(tmp) / "pdf"
        artefacts = build_issue_pdfs(layout, printed, config_dir=draft_dir)
        record = replace(record, pdfs={a.name: a.sha256 for a in artefacts})
        final = {**texts, PLATFORM_FILE: with_issue(original, record)}
        load_config(_config_copy(folder, final, Path(tmp) / "final"))
        out.parent.mkdir(parents=True, exist_ok=True)
        staged = Path(tempfile.mkdtemp(prefix=".issue-", dir=out.parent))
        for artefact in artefacts:
            shutil.copy2(artefact.path, staged / artefact.name)
        swap_in(staged, out)
        # Last: the files are written only once the PDFs exist, each replaced whole.
        written = []
        for name, text in final.items():
            if text == (folder / name).read_text(encoding="utf-8"):
                continue
            partial = folder / f".{name}.new"
            partial.write_text(text, encoding="utf-8")
            partial.replace(folder / name)
            written.append(_shown(layout.root, folder / name))
    return Cut(record, written, commit_command(written, issued.isoformat(), record.summary))


def _shown(root: Path, path: Path) -> str:
    return str(path.relative_to(root.resolve())) if path.is_relative_to(root.resolve()) else str(path)


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


def cutting_commit(root: Path, issued: str, pdfs: dict[str, str]) -> str:
    """The first commit whose platform.yaml holds the issue record dated `issued` with these PDF hashes (an
    issue first recorded without hashes got them in a later commit, which is the one its PDFs come from)."""
    found = _git(
        root,
        "log",
        "--reverse",
        "--format=%H",
        "-S",
        sorted(pdfs.values())[0],
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
    commit = cutting_commit(layout.root, issued, record.pdfs)
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
