"""`cvb issue ...`: the thin shell of generator/issues.py."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from generator.issues import IssueError, cut_issue, issue_folder, regenerate
from generator.paths import Layout


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    issue = sub.add_parser("issue", help="cut a dated issue, or print a past one again")
    actions = issue.add_subparsers(dest="action", required=True)
    new = actions.add_parser("new", help="add an issue to platform.yaml and print its PDFs")
    new.add_argument("--date", required=True, help="the issue date, YYYY-MM-DD")
    new.add_argument("--summary", required=True, help="one sentence: what changed")
    new.add_argument(
        "--summary-zh",
        required=True,
        help="the same sentence in Hong Kong written Chinese, for the Chinese changelog (glossary.yaml)",
    )
    new.add_argument(
        "--protocol", default=None, help="cut the issue with this new protocol version (sets protocol.yaml)"
    )
    new.add_argument(
        "--scoring-version",
        default=None,
        help="cut the issue with this new scoring version (sets scoring.yaml's current_scoring_version)",
    )
    pdf = actions.add_parser(
        "pdf", help="print a past issue from the commit that cut it and check its hashes"
    )
    pdf.add_argument("date", help="the issue date, YYYY-MM-DD")
    pdf.add_argument(
        "--out", type=Path, default=None, help="where to write them (default: build/issues/DATE/)"
    )
    # Used by `issue pdf` inside the worktree of an old commit: print the issue in force there.
    printing = actions.add_parser("print", help="print the current issue's PDFs into a folder")
    printing.add_argument("--out", type=Path, required=True)


def run(args: argparse.Namespace, layout: Layout) -> int:
    try:
        if args.action == "new":
            return _new(args, layout)
        if args.action == "pdf":
            return _pdf(args, layout)
        return _print(args, layout)
    except IssueError as exc:
        print(f"cvb issue {args.action}: {exc}", file=sys.stderr)
        return 2


def _new(args: argparse.Namespace, layout: Layout) -> int:
    cut = cut_issue(
        layout,
        issued_text=args.date,
        summary=args.summary,
        summary_zh=args.summary_zh,
        config_dir=args.config,
        protocol=args.protocol,
        scoring_version=args.scoring_version,
    )
    issue = cut.issue
    folder = issue_folder(layout, issue.issued.isoformat())
    print(
        f"Issue {issue.issued.isoformat()} added (protocol v{issue.protocol}, scoring version "
        f"{issue.scoring_version}); its PDFs are in {folder}:"
    )
    for name, digest in sorted(issue.pdfs.items()):
        print(f"  {name}  sha256 {digest}")
    print(
        f"It wrote {', '.join(cut.written)}. Commit exactly these now (that commit is the one `cvb issue pdf` "
        "prints the issue again from):"
    )
    print(f"  {cut.command}")
    return 0


def _pdf(args: argparse.Namespace, layout: Layout) -> int:
    started = time.perf_counter()
    results = regenerate(layout, args.date, out=args.out)
    for r in results:
        verdict = "matches the record" if r.matches else f"DIFFERS from the record ({r.recorded})"
        print(f"  {r.name}  sha256 {r.sha256}  {verdict}")
    bad = [r for r in results if not r.matches]
    took = time.perf_counter() - started
    if bad:
        print(
            f"cvb issue pdf: {len(bad)} of {len(results)} PDF(s) differ from the issue record.",
            file=sys.stderr,
        )
        return 1
    print(f"cvb issue pdf: all {len(results)} PDFs of {args.date} rebuilt byte-identical in {took:.1f} s.")
    return 0


def _print(args: argparse.Namespace, layout: Layout) -> int:
    from generator.pdf.issue import build_issue_pdfs

    for artefact in build_issue_pdfs(layout, args.out, config_dir=args.config, cache=False):
        print(f"{artefact.name} {artefact.size} {artefact.sha256}")
    return 0
