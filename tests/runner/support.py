"""Shared pieces of the runner's tests: a small spoken-style pool of tone clips laid out as the runner reads it
(pools/<round>.jsonl with audio and text), a results folder the board can load, and a loop in its own thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
from collections.abc import Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from cvb_scorer.rules import rules_from_json

from generator.config import load_config
from generator.paths import Layout
from generator.results.records import Loaded, draw_spec, load_folder
from generator.rules_export import scoring_rules_json
from runner.from_config import run_settings
from runner.jobs import Endpoint, Job, PoolEntry
from runner.simulate import Model, ServerStats, served_in_thread, tone_pool

T = TypeVar("T")
CONFIG = load_config(Layout().config)
# Our clock counts as stalled only past five seconds here: on a machine shared by many test processes the loop can be
# held up for half a second (bench/run.py saw it), and a test about verdicts must not turn into one about stalls.
# The stall rule has tests of its own (test_attribution.py, and test_faults.py with a stall on purpose).
_CONFIGURED = run_settings(CONFIG, paced=False, insecure=True)
RUN = dataclasses.replace(_CONFIGURED, policy=dataclasses.replace(_CONFIGURED.policy, stall_ms=5000))
SETTINGS = RUN.settings
ROUND = CONFIG.platform.rounds[-1].id
# A draw of five (one easy, two each normal and hard), for tests about runs rather than about records the board
# accepts: it keeps slow flaws (a deadline, a late-reply wait) and long queues short.
SMALL = dataclasses.replace(RUN, draw_size=5)


def write_pool(
    folder: Path, *, round_id: str = ROUND, extra: int = 2, seconds: float | None = None
) -> dict[str, PoolEntry]:
    """pools/<round>.jsonl plus short tone WAVs: each tier the draw's count plus `extra` clips."""
    return tone_pool(folder, run=RUN, round_id=round_id, extra=extra, seconds=seconds)


def write_entrants(folder: Path, entrants: list[str]) -> None:
    rows = "".join(f"  - id: {e}\n    codename: Codename {e}\n" for e in entrants)
    (folder / "entrants.yaml").write_text(f"entrants:\n{rows}", encoding="utf-8")


def endpoint(entrant: str, url: str, *, concurrency: int) -> Endpoint:
    return Endpoint(
        entrant=entrant, concurrency=concurrency, urls={p: url for p in ("asr", "llm", "tts", "e2e")}
    )


def job(entrant: str = "ex-01", pillar: str = "asr", run: int = 1, seed: str = "s1") -> Job:
    return Job(entrant=entrant, pillar=pillar, round=ROUND, run=run, seed=seed, window="w1")


def board(folder: Path) -> Loaded:
    return load_folder(folder, rules=rules_from_json(scoring_rules_json(CONFIG)), spec=draw_spec(CONFIG))


def in_own_thread(call: Callable[[], T]) -> T:
    """call() in a thread of its own. The test worker's main thread may hold a running event loop, where
    asyncio.run refuses to start: Playwright's sync API keeps one there for as long as tests/web's session-wide
    browser fixture is open, and pytest-xdist may have run a browser test in this worker before."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result(timeout=300)


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    return in_own_thread(lambda: asyncio.run(coroutine))


@contextmanager
def served(texts: Mapping[str, str], model: Model) -> Iterator[tuple[str, ServerStats]]:
    """A simulated endpoint on a loop in a thread of its own, for runs in another thread or process."""
    with served_in_thread(settings=SETTINGS, endpoints={"one": (texts, model)}) as (urls, stats):
        yield urls["one"], stats["one"]


def write_endpoints(path: Path, entrants: Mapping[str, tuple[str, int]]) -> Path:
    """endpoints.yaml: each entrant's URL (every pillar) and declared concurrency."""
    rows = "".join(
        f"  - id: {e}\n    concurrency: {n}\n    urls: {{asr: '{u}', llm: '{u}', tts: '{u}', e2e: '{u}'}}\n"
        for e, (u, n) in entrants.items()
    )
    path.write_text(f"entrants:\n{rows}", encoding="utf-8")
    return path
