"""How long `cvb build` takes as an organiser meets it: a build with nothing changed, and a build after one
config value changed (pages and PDFs), each with its phases. Writes bench/results/build_time.json.

    .venv/bin/python bench/build_time.py [--runs N]

The builds run in a throwaway project copy (the config copied, the rest linked), so the repository's site and
config are untouched. The one change is the deadline floor (protocol.yaml), which appears on the pages and in
every PDF; the copy's issue record is pinned to the changed settings, as `cvb issue new` would pin them, so the
PDFs are printed rather than withheld as unreleased. Each build before a measured one-change build uses another
value, so no cache holds the measured one's pages or PDFs. Phases are the build's own steps (generator/build.py),
timed by wrapping the names it calls in this process; build.py itself is not changed.
"""

from __future__ import annotations

import argparse
import os
import platform
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

# The build's steps, as generator/build.py names them.
PHASES = (
    "load_sources",
    "print_issue",
    "render_all",
    "start_up_snapshot",
    "write_root_docs",
    "search_words",
    "run_mkdocs",
    "precompress_tree",
    "swap_in",
)


@contextmanager
def timed_phases(spent: dict[str, float]) -> Iterator[None]:
    """Wrap each phase function build.py calls so its wall time adds up in `spent`."""
    originals = {name: getattr(build, name) for name in PHASES}

    def wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - started

        return timed

    for name, function in originals.items():
        setattr(build, name, wrap(name, function))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(build, name, function)


def project_copy(tmp: Path) -> Layout:
    root = tmp / "project"
    root.mkdir()
    for name in ("platform_config", "docs", "starter_kit", "scorer_wasm", "mkdocs.yml", "build", "results"):
        if name == "platform_config":
            shutil.copytree(ROOT / name, root / name)
        else:
            (root / name).symlink_to(ROOT / name)
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


def one_build(layout: Layout, out: Path) -> dict[str, Any]:
    spent: dict[str, float] = {}
    started = time.perf_counter()
    with timed_phases(spent):
        build.build_site(layout, out=out)
    total = time.perf_counter() - started
    return {"total_s": round(total, 2), "phases_s": {k: round(v, 2) for k, v in spent.items()}}


def summary(builds: list[dict[str, Any]]) -> dict[str, Any]:
    totals = [b["total_s"] for b in builds]
    phases = {
        name: round(statistics.median(b["phases_s"].get(name, 0.0) for b in builds), 2)
        for name in PHASES
        if any(name in b["phases_s"] for b in builds)
    }
    return {
        "runs": len(builds),
        "median_s": round(statistics.median(totals), 2),
        "worst_s": max(totals),
        "median_phases_s": phases,
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
        for run in range(args.runs):
            set_floor(layout, floor + 100 * (run + 1))
            changed.append(one_build(layout, out))
    results = {
        "what": "cvb build wall time: nothing changed, and one config value changed (pages and PDFs)",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "no_change": summary(unchanged),
        "one_change": summary(changed),
    }
    publish(ROOT / "bench" / "results" / "build_time.json", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
