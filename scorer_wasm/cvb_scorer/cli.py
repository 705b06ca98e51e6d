"""``cvb-score REF.jsonl HYP.jsonl [--json] [--align ID] [--rules FILE]``: corpus CER and MER with intervals,
coverage, per-clip figures and the scoring signature. Errors are sentences naming the file and line; the exit
code is 2 for bad input and 0 on success."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from cvb_scorer.report import InputError, alignment_text, report_json, report_text, score_jsonl
from cvb_scorer.rules import RulesError, ScoringRules, load_packaged_rules, rules_from_json


def _read(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path} does not exist; pass the path of a JSONL file.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory; pass the path of a JSONL file.") from None
    except OSError as exc:
        raise InputError(f"{path} cannot be read ({exc.strerror}).") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path} line {line} is not valid UTF-8; save the file as UTF-8.") from None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cvb-score",
        description="Score hypotheses against references: corpus CER and Mix Error Rate with intervals.",
    )
    p.add_argument("ref", metavar="REF.jsonl", help='references, one {"id": ..., "text": ...} per line')
    p.add_argument(
        "hyp", metavar="HYP.jsonl", help="hypotheses, same format; missing ids count as all deletions"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    p.add_argument("--align", metavar="ID", help="print one clip's alignment, wrapped, with a legend")
    p.add_argument("--rules", metavar="FILE", help="scoring rules JSON to use instead of the packaged ones")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        rules: ScoringRules = (
            rules_from_json(_read(args.rules), source=args.rules) if args.rules else load_packaged_rules()
        )
        report = score_jsonl(
            _read(args.ref), _read(args.hyp), rules=rules, ref_name=args.ref, hyp_name=args.hyp
        )
        if args.align is not None:
            clip = next((c for c in report.corpus.clips if c.id == args.align), None)
            if clip is None:
                raise InputError(f'{args.ref} has no clip with id "{args.align}"; pass an id from that file.')
            sys.stdout.write(alignment_text(clip))
        elif args.json:
            sys.stdout.write(report_json(report) + "\n")
        else:
            sys.stdout.write(report_text(report))
    except (InputError, RulesError) as exc:
        print(f"cvb-score: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
