"""``cvb-score --json`` on a small fixed corpus, byte for byte against its recorded output.

The corpus (tests/scorer/golden/cli_ref.jsonl, cli_hyp.jsonl: 32 short clips) has alignment ties under the
published rule (ab/ba, 保單/單保), numbers written both ways, Latin words, mixed code, an empty hypothesis and a
missing one, and clips of different lengths, listed out of id order, so a changed tie rule moves the S/D/I counts, a changed weighting
moves the corpus rates (errors summed over clips over reference tokens summed over clips), and a changed
bootstrap seed, draw or clip order of resampling moves the interval. A deliberate change of the scorer (its normalisation, its rules, its
signature) changes the output too: check the difference is the one intended, then record the new output from the
repository's root with

    .venv/bin/cvb-score tests/scorer/golden/cli_ref.jsonl tests/scorer/golden/cli_hyp.jsonl --json > tests/scorer/golden/cli_report.json
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from tests.scorer.conftest import ROOT

GOLDEN = "tests/scorer/golden"
COMMAND = [
    str(ROOT / ".venv" / "bin" / "cvb-score"),
    f"{GOLDEN}/cli_ref.jsonl",
    f"{GOLDEN}/cli_hyp.jsonl",
    "--json",
]


def differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where two JSON values differ, as paths with both values (for a readable failure)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return [
            line
            for key in sorted(set(expected) | set(actual))
            for line in differences(expected.get(key), actual.get(key), f"{where}.{key}")
        ]
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [
            line
            for i, pair in enumerate(zip(expected, actual, strict=True))
            for line in differences(*pair, f"{where}[{i}]")
        ]
    return [] if expected == actual else [f"{where or '.'}: recorded {expected!r}, now {actual!r}"]


def test_the_json_report_of_the_fixed_corpus_is_the_recorded_one() -> None:
    run = subprocess.run(COMMAND, cwd=ROOT, capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    recorded = (ROOT / GOLDEN / "cli_report.json").read_bytes()
    if run.stdout != recorded:
        found = differences(json.loads(recorded), json.loads(run.stdout))
        raise AssertionError(
            "cvb-score --json differs from tests/scorer/golden/cli_report.json (see this module's docstring):\n"
            + "\n".join(found[:20] or ["the same values, written differently"])
        )


def test_the_corpus_holds_what_the_recorded_output_guards() -> None:
    report = json.loads((ROOT / GOLDEN / "cli_report.json").read_bytes())
    clips = {clip["id"]: clip for clip in report["clips"]}
    # A tie the published rule (diagonal before deletion before insertion) settles as two substitutions.
    assert (clips["c01"]["S"], clips["c01"]["D"], clips["c01"]["I"]) == (2, 0, 0)
    # The corpus rate weights clips by their reference length: not the mean of the clips' rates.
    counts = report["counts"]
    assert report["cer"] == (counts["S"] + counts["D"] + counts["I"]) / counts["N"]
    assert report["cer"] != sum(clip["cer"] for clip in clips.values()) / len(clips)
    # Enough clips, of enough different rates, that another seed draws another interval.
    assert len({clip["cer"] for clip in clips.values()}) >= 10
