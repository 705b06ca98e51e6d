"""`cvb review scan | accept | causality`: the shells' command-line faces."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from generator.config import load_config
from generator.review.causality import ProbeError
from generator.review.detect import ScanRules
from generator.review.findings import Acceptance, AcceptanceError, acceptances_json
from generator.review.probe import probe
from generator.review.probe import report_text as probe_text
from generator.review.scan import ScanError, acceptance_file, load_acceptances, scan
from generator.review.scan import report_text as scan_text


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    review = sub.add_parser("review", help="automatic pre-review of a voice-endpointing submission")
    actions = review.add_subparsers(dest="review_command", required=True)
    s = actions.add_parser(
        "scan", help="find prohibited sources, held-out ids and split reads in a submission"
    )
    s.add_argument("submission", type=Path)
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    a = actions.add_parser("accept", help="accept a finding with a note; the next scan honours it")
    a.add_argument("submission", type=Path)
    a.add_argument("finding", help="the finding's id, as a scan prints it")
    a.add_argument("--note", required=True, help="why the finding is accepted")
    c = actions.add_parser("causality", help="check that frame probabilities never depend on later audio")
    c.add_argument("target", help="MODULE:FUNCTION, called as FUNCTION(audio, sample_rate)")
    c.add_argument("audio", type=Path, help="a two-channel PCM WAV file")
    c.add_argument("--hop", type=float, required=True, help="seconds per frame")
    c.add_argument("--path", type=Path, action="append", default=[], help="folder to import the module from")
    c.add_argument("--cuts", type=int, default=None, help="cut points (default: the config's)")
    c.add_argument(
        "--time-limit", type=float, default=None, help="seconds for all runs (default: the config's)"
    )
    c.add_argument("--python", default=sys.executable, help="the Python that runs the function")
    c.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace, config_dir: Path) -> int:
    config = load_config(config_dir)
    try:
        if args.review_command == "scan":
            report = scan(args.submission, ScanRules.from_config(config.endpointing))
            print(
                json.dumps(report.as_dict(), ensure_ascii=False, indent=2) if args.json else scan_text(report)
            )
            return report.exit_code()
        if args.review_command == "accept":
            return _accept(args, ScanRules.from_config(config.endpointing))
        settings = config.endpointing.causality
        result = probe(
            args.target,
            args.audio,
            hop_s=args.hop,
            cut_points=args.cuts or settings.cut_points,
            tolerance=settings.tolerance,
            time_limit_s=args.time_limit or settings.time_limit_seconds,
            paths=args.path or [Path.cwd()],
            python=args.python,
        )
        print(json.dumps(result.as_dict(), indent=2) if args.json else probe_text(result), end="")
        return 0 if result.causal else 1
    except (ScanError, AcceptanceError, ProbeError) as exc:
        print(f"cvb review {args.review_command}: {exc}", file=sys.stderr)
        return 2


def _accept(args: argparse.Namespace, rules: ScanRules) -> int:
    root: Path = args.submission
    if not args.note.strip():
        raise AcceptanceError("--note must say why the finding is accepted.")
    report = scan(root, rules)
    if not any(f.id == args.finding for f in report.findings):
        raise ScanError(f"no finding {args.finding} in the latest scan of {root}; run cvb review scan first.")
    accepted = load_acceptances(root)
    accepted[args.finding] = Acceptance(args.finding, args.note.strip())
    target = acceptance_file(root)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(acceptances_json(accepted), encoding="utf-8")
    tmp.replace(target)  # never a half-written acceptance file
    print(f"Accepted {args.finding} in {target}.")
    return 0
