"""`cvb build` with nothing changed, as an organiser runs it: each stage's wall time (the names build_site
records: sources, pdfs, markdown, docs, mkdocs:en, mkdocs:zh, precompress, swap) and the whole process beside
them, medians and worst over fresh processes. Writes bench/results/build.json.

    nice .venv/bin/python bench/build.py [--rounds 5]

The anchor is the whole `cvb build` process (imports included), timed from outside; the stages are timed inside
an identical process. Every round builds into the same temporary folder, after one build that warms the caches
(the PDFs', the precompressed copies'), so each round is a build of a site already up to date. Issue 32 asks
for a no-change build within 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.publish import publish  # noqa: E402

OUT = ROOT / "bench" / "results" / "build.json"
PYTHON = str(ROOT / ".venv" / "bin" / "python")
CVB = str(ROOT / ".venv" / "bin" / "cvb")
STAGES = (
    "import json, sys; from pathlib import Path; from generator.build import build_site; "
    "from generator.paths import Layout; phases = {}; "
    "build_site(Layout(), out=Path(sys.argv[1]), site_url='http://127.0.0.1:8000/', phases=phases); "
    "print(json.dumps(phases))"
)


def summary(values: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(values), 3), "worst_s": round(max(values), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "site")
        command = [CVB, "build", "--out", out, "--site-url", "http://127.0.0.1:8000/"]
        subprocess.run(command, check=True, cwd=ROOT, env=env, capture_output=True)
        whole: list[float] = []
        stages: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            started = time.perf_counter()
            subprocess.run(command, check=True, cwd=ROOT, env=env, capture_output=True)
            whole.append(time.perf_counter() - started)
            run = subprocess.run(
                [PYTHON, "-c", STAGES, out], check=True, cwd=ROOT, env=env, capture_output=True
            )
            for name, seconds in json.loads(run.stdout.decode().splitlines()[-1]).items():
                stages.setdefault(name, []).append(seconds)
    results: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()},
        "rounds": args.rounds,
        "cvb_build_process": summary(whole),
        "stages": {name: summary(values) for name, values in stages.items()},
    }
    publish(OUT, results)


if __name__ == "__main__":
    main()
