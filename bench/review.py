"""Benchmark `cvb review scan` as a reviewer runs it: the whole command on a submission tree of about 2 GB, and
write bench/results/review.json.

The tree is what a real submission looks like by volume: a few large binary files (weights, audio, caches) and a
few hundred megabytes of text (code, configs, manifests, logs), with planted violations. Each run is timed as a
separate process; the figure to beat is one minute. The tree is made once in a temporary folder and removed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

from publish import publish

OUT = Path(__file__).resolve().parent / "results" / "review.json"
CVB = Path(sys.executable).with_name("cvb")
BINARY_FILES, BINARY_MB = 18, 100
TEXT_MB = 200
RUNS = 3


def make_tree(root: Path) -> int:
    rng = random.Random(14)
    block = os.urandom(1 << 20)
    for i in range(
        BINARY_FILES
    ):  # weights and audio: random bytes with a NUL near the start, as real ones have
        with _new(root / "weights" / f"shard-{i:02d}.bin") as f:
            for _ in range(BINARY_MB):
                f.write(b"\0" + block[1:])
    words = [
        "loss",
        "step",
        "epoch",
        "lr",
        "grad",
        "eval",
        "turn",
        "frame",
        "prob",
        "speaker",
        "audio",
        "batch",
    ]
    line_count = 0
    for part in range(TEXT_MB // 10):
        lines = []
        size = 0
        while size < 10 << 20:
            line = f"{rng.choice(words)} {rng.randint(0, 500)} {rng.random():.4f} " + " ".join(
                rng.sample(words, 5)
            )
            lines.append(line)
            size += len(line) + 1
        if part == 3:
            lines[1000] = "loaded conversation_id=105 from cache"
        path = root / "logs" / f"train-{part:02d}.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        line_count += len(lines)
    (root / "train").mkdir()
    (root / "train" / "train.py").write_text(
        "ds = load_dataset('mundo-ai/turn-benchmark-dev')\n", encoding="utf-8"
    )
    return line_count


def _new(path: Path) -> BinaryIO:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("wb")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="cvb-review-bench-") as tmp:
        root = Path(tmp) / "submission"
        root.mkdir()
        made = time.perf_counter()
        lines = make_tree(root)
        made = time.perf_counter() - made
        total = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
        times, report = [], {}
        for _ in range(RUNS):
            started = time.perf_counter()
            done = subprocess.run(
                [str(CVB), "review", "scan", str(root), "--json"], capture_output=True, text=True
            )
            times.append(time.perf_counter() - started)
            report = json.loads(done.stdout)
        shutil.rmtree(root)
    publish(
        OUT,
        {
            "tree_bytes": total,
            "text_lines": lines,
            "made_in_s": round(made, 1),
            "scan_s_median": round(statistics.median(times), 2),
            "scan_s_worst": round(max(times), 2),
            "bytes_read": report["bytes_read"],
            "files_read": report["files_read"],
            "binary_files_skipped": report["binary_files_skipped"],
            "findings": [(f["path"], f["line"], f["rule"]) for f in report["findings"]],
            "load_average_1min": round(os.getloadavg()[0], 2),
            "target_s": 60,
        },
    )


if __name__ == "__main__":
    main()
