"""Shared pieces of the runner's tests: a small spoken-style pool of tone clips laid out as the runner reads it
(pools/<round>.jsonl with audio and text), a results folder the board can load, and a loop in its own thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import json
import wave
from collections.abc import Coroutine, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from cvb_scorer.rules import rules_from_json

from generator.config import load_config
from generator.paths import Layout
from generator.results.records import Loaded, draw_spec, load_folder
from generator.rules_export import scoring_rules_json
from runner.from_config import run_settings
from runner.jobs import Endpoint, Job, PoolEntry, load_pool
from runner.simulate import Model, ServerStats, served_in_thread
from tests.starter_kit.protocol_support import tone

T = TypeVar("T")
CONFIG = load_config(Layout().config)
RUN = run_settings(CONFIG, paced=False, insecure=True)
SETTINGS = RUN.settings
ROUND = CONFIG.platform.rounds[-1].id
# A draw of five (one easy, two each normal and hard), for tests about runs rather than about records the board
# accepts: it keeps slow flaws (a deadline, a late-reply wait) and long queues short.
SMALL = dataclasses.replace(RUN, draw_size=5)
# Enough clips of each tier for the config's draw, and no more: a run draws most of the pool.
TEXTS = ["你好呀", "我想問保單", "唔該晒", "請等一等", "幾多錢呀", "係咪真㗎"]


def write_pool(
    folder: Path, *, round_id: str = ROUND, extra: int = 2, seconds: float | None = None
) -> dict[str, PoolEntry]:
    """pools/<round>.jsonl plus short WAVs: each tier the draw's count plus `extra` clips."""
    counts = {t: round(float(share) * RUN.draw_size) + extra for t, share in RUN.strata.items()}
    audio = folder / "audio"
    audio.mkdir(parents=True, exist_ok=True)
    lines = []
    k = 0
    for tier, n in sorted(counts.items()):
        for j in range(n):
            clip_id = f"{round_id}-{tier}-{j:02d}"
            with wave.open(str(audio / f"{clip_id}.wav"), "wb") as wav:
                wav.setnchannels(SETTINGS.channels)
                wav.setsampwidth(SETTINGS.sample_bits // 8)
                wav.setframerate(SETTINGS.sample_rate_hz)
                wav.writeframes(tone(seconds or 0.06 + 0.02 * (k % 3), hz=300 + 10 * k))
            text = TEXTS[k % len(TEXTS)]
            lines.append(
                json.dumps({"id": clip_id, "tier": tier, "audio": f"../audio/{clip_id}.wav", "text": text})
            )
            k += 1
    pools = folder / "pools"
    pools.mkdir(exist_ok=True)
    path = pools / f"{round_id}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_pool(path, tiers=sorted(RUN.strata))


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


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    # In a thread of its own: another test in this process (Playwright's sync API) may own a running loop.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=300)


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
