"""Benchmark one long pair: peak memory and time of ``align`` (edit script) and ``edit_counts`` on a
200,000-character pair, each in a fresh process so that its peak is its own; writes
bench/results/align_memory.json. Target: under 1 GB (keeping every column took 7.7 GB and 38 s).

Run with ``.venv/bin/python bench/align_memory.py`` (it imports the installed wheel); a pair takes tens of
seconds, so this is a benchmark, not a test (tests/scorer/test_align_harness.py bounds a 50,000-character pair).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from publish import publish

OUT = Path(__file__).resolve().parent / "results" / "align_memory.json"
SIZES = (50_000, 200_000)
TARGET_MB = 1024

# Run in a child: HKCanCor text with 10% errors (a third each substituted, deleted, doubled).
_PROBE = """
import json, random, resource, sys, time
import pycantonese
from cvb_scorer.align import align, edit_counts
size, what = int(sys.argv[1]), sys.argv[2]
text = "".join("".join(w) for w in pycantonese.hkcancor().words(by_utterance=True))
rng = random.Random(20260924)
alphabet = sorted(set(text))
ref = (text * (size // len(text) + 1))[:size]
hyp = []
for ch in ref:
    roll = rng.random()
    if roll < 0.1 / 3:
        hyp.append(rng.choice(alphabet))
    elif roll < 0.2 / 3:
        continue
    elif roll < 0.1:
        hyp.extend((ch, rng.choice(alphabet)))
    else:
        hyp.append(ch)
hyp = "".join(hyp)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
counts = align(ref, hyp).counts if what == "align" else edit_counts(ref, hyp)
seconds = time.perf_counter() - start
print(json.dumps({
    "seconds": round(seconds, 2),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    "rss_before_alignment_mb": round(before / 1024, 1),
    "counts": counts._asdict(),
}))
"""


def main() -> int:
    results: dict[str, Any] = {
        "python": sys.version.split()[0],
        "unit": "seconds and MB (peak resident set of the process), one run each",
        "target_peak_rss_mb": TARGET_MB,
        # Wall-clock figures on a shared 2-core machine: the load says how much else was running.
        "load_average_1min_at_start": round(os.getloadavg()[0], 2),
    }
    for size in SIZES:
        for what in ("edit_counts", "align"):
            out = subprocess.run(
                [sys.executable, "-c", _PROBE, str(size), what], capture_output=True, text=True, check=True
            )
            row = json.loads(out.stdout)
            row["within_target"] = row["peak_rss_mb"] < TARGET_MB
            results[f"{what}_{size}_chars"] = row
    results["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    publish(OUT, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
