"""How long `cvb build` takes as an organiser meets it: a build with nothing changed, and a build after one
config value changed (pages and PDFs), each with its phases. Writes bench/results/build_time.json.

    .venv/bin/python bench/build_time.py [--runs N]

The builds run in a throwaway project copy (the config copied, the rest linked), so the repository's site and
config are untouched. The copy has caches of its own for the PDFs and the mkdocs editions, filled by a first
build of the settings as shipped (as an organiser's machine has them), and shares only the cache of compressed
copies (the editor's runtime, which no setting changes). The one change is the deadline floor (protocol.yaml),
which appears on the pages and in every PDF, so every PDF of both editions is printed again: the worst case of
one value. The copy's issue record is pinned to the changed settings, as `cvb issue new` would pin them, so the
PDFs are printed rather than withheld as unreleased. Each measured one-change build sets a value no earlier
build of this run used, and the values start from one drawn at random, so no cache holds its pages or PDFs.

Each build reports `stages` (generator/build.py's own phases, by its names) and `calls` (wall time inside the
functions it calls, timed by wrapping them in this process; `print_jobs` renders and composes the documents,
`print_all` prints those the cache lacks), the CPU time of the build's process and of its worker processes,
and the load average before it started: the machine is shared, and the CPU time is what does not depend on it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.publish import publish  # noqa: E402
from generator import build  # noqa: E402
from generator.config import load_config  # noqa: E402
from generator.issue_state import config_sha256  # noqa: E402
from generator.paths import Layout  # noqa: E402
from generator.pdf import issue  # noqa: E402

# The functions the build calls, by module, as they name them.
PHASES: tuple[tuple[Any, str], ...] = (
    (build, "load_sources"),
    (build, "print_issue"),
    (issue, "print_jobs"),
    (issue, "print_all"),
    (build, "render_all"),
    (build, "start_up_snapshot"),
    (build, "write_root_docs"),
    (build, "search_words"),
    (build, "run_mkdocs"),
    (build, "precompress_tree"),
    (build, "swap_in"),
)


@contextmanager
def timed_phases(spent: dict[str, float]) -> Iterator[None]:
    """Wrap each phase function so its wall time adds up in `spent`."""
    originals = {(module, name): getattr(module, name) for module, name in PHASES}

    def wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - started

        return timed

    for (module, name), function in originals.items():
        setattr(module, name, wrap(name, function))
    try:
        yield
    finally:
        for (module, name), function in originals.items():
            setattr(module, name, function)


def project_copy(tmp: Path) -> Layout:
    root = tmp / "project"
    root.mkdir()
    for name in ("platform_config", "docs", "starter_kit", "scorer_wasm", "mkdocs.yml", "results"):
        if name == "platform_config":
            shutil.copytree(ROOT / name, root / name)
        else:
            (root / name).symlink_to(ROOT / name)
    # build/: the wheels, clips and runtime linked; the PDF and mkdocs caches the copy's own (the PDFs' a copy:
    # its keys are the documents' whole HTML, which the one change alters).
    (root / "build" / "cache").mkdir(parents=True)
    for part in (ROOT / "build").iterdir():
        if part.name == "pdf-cache":
            shutil.copytree(part, root / "build" / part.name)
        elif part.name != "cache":
            (root / "build" / part.name).symlink_to(part)
    for part in (ROOT / "build" / "cache").iterdir():
        if part.name != "mkdocs":
            (root / "build" / "cache" / part.name).symlink_to(part)
    return Layout(root=root)


def set_floor(layout: Layout, floor: int) -> None:
    """Set the deadline floor and pin the issue record to the settings that result (as a cut would)."""
    protocol = layout.config / "protocol.yaml"
    text = protocol.read_text(encoding="utf-8")
    current = load_config(layout.config).protocol.deadline.floor_ms
    protocol.write_text(text.replace(f"floor_ms: {current}", f"floor_ms: {floor}", 1), encoding="utf-8")
    platform_file = layout.config / "platform.yaml"
    config = load_config(layout.config)
    pinned = config.platform.issues[-1].config_sha256
    if pinned is not None:
        text = platform_file.read_text(encoding="utf-8")
        platform_file.write_text(text.replace(pinned, config_sha256(config)), encoding="utf-8")


def _cpu_seconds() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def one_build(layout: Layout, out: Path) -> dict[str, Any]:
    spent: dict[str, float] = {}
    stages: dict[str, float] = {}
    load = os.getloadavg()[0]
    cpu = _cpu_seconds()
    started = time.perf_counter()
    with timed_phases(spent):
        build.build_site(layout, out=out, phases=stages)
    total = time.perf_counter() - started
    cpu_self, cpu_children = (after - before for after, before in zip(_cpu_seconds(), cpu, strict=True))
    return {
        "total_s": round(total, 2),
        "load_average_1min_before": round(load, 2),
        # CPU time (user + system) of this process and of the worker processes it waited for: what the build
        # costs whatever else the machine runs.
        "cpu_s": {"build_process": round(cpu_self, 2), "worker_processes": round(cpu_children, 2)},
        "stages_s": {k: round(v, 2) for k, v in stages.items()},
        "calls_s": {k: round(v, 2) for k, v in spent.items()},
    }


def _medians(builds: list[dict[str, Any]], field: str) -> dict[str, float]:
    names = list(dict.fromkeys(name for b in builds for name in b[field]))
    return {name: round(statistics.median(b[field].get(name, 0.0) for b in builds), 2) for name in names}


def summary(builds: list[dict[str, Any]]) -> dict[str, Any]:
    totals = [b["total_s"] for b in builds]
    return {
        "runs": len(builds),
        "median_s": round(statistics.median(totals), 2),
        "worst_s": max(totals),
        "median_cpu_s": {
            part: round(statistics.median(b["cpu_s"][part] for b in builds), 2)
            for part in ("build_process", "worker_processes")
        },
        "median_stages_s": _medians(builds, "stages_s"),
        "median_calls_s": _medians(builds, "calls_s"),
        "builds": builds,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2, help="measured builds per case (default 2)")
    args = parser.parse_args()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with tempfile.TemporaryDirectory(prefix="cvb-bench-build-") as tmp:
        layout = project_copy(Path(tmp))
        out = Path(tmp) / "site"
        floor = load_config(layout.config).protocol.deadline.floor_ms
        one_build(layout, out)  # warm: caches for the settings as shipped
        unchanged = [one_build(layout, out) for _ in range(args.runs)]
        changed = []
        start = random.SystemRandom().randrange(1, 1000)
        for run in range(args.runs):
            set_floor(layout, floor + start + run)
            changed.append(one_build(layout, out))
    results = {
        "what": "cvb build wall time: nothing changed, and one config value changed (pages and PDFs)",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "one_change_value": "protocol.deadline.floor_ms (on every page that states the deadline and in every PDF)",
        "no_change": summary(unchanged),
        "one_change": summary(changed),
    }
    publish(ROOT / "bench" / "results" / "build_time.json", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
