"""Write the example run records the site ships with (results/example/): fictional entrants, synthetic counts.

Each round of platform.yaml gets its own fictional pool (pools/<round>.jsonl, no clip in two of them, as the
rounds draw from separate pools). Every record is made from a seeded draw of its round's pool with the config's
draw size and strata, exactly as a real run would be recorded, so the build's checks (the draw its seed
reconstructs from that round's pool, clip counts, finality) apply to them unchanged. The example runs are all in
the last round, the one that produces the published standing. The folder says it is example data (entrants.yaml:
``example: true``), so a board built from it (only on request: ``cvb build --results results/example``) carries
an example-data banner on every page. Re-run after changing the draw in platform_config/rounds.yaml or the rounds
in platform_config/platform.yaml:

    .venv/bin/python tools/make_example_results.py
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cvb_scorer.draw import PoolClip, draw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.config import load_config  # noqa: E402

OUT = ROOT / "results" / "example"
WINDOWS = ("example-window-a", "example-window-b", "example-window-c")
# Tiers of the fictional pool: enough of each tier for any draw the shipped config allows.
POOL_TIERS = {"easy": 12, "normal": 22, "hard": 22}
DIFFICULTY = {"easy": 0.6, "normal": 1.0, "hard": 1.5}


@dataclass(frozen=True)
class Example:
    id: str
    codename: str
    name: str | None
    error_rate: float  # recognition skill
    judge: float  # mean judge score
    delivery: float
    tone: float
    latency_ms: float
    runs: int
    e2e_final: bool
    anchor: float | None


EXAMPLES = (
    Example("ex-01", "Amber Finch", None, 0.10, 82, 92, 78, 420, 3, True, 0.05),
    Example("ex-02", "Birch Heron", None, 0.11, 80, 90, 74, 520, 3, True, 0.06),
    Example("ex-03", "Cedar Wren", "Example Lab", 0.13, 77, 88, 70, 640, 3, False, 0.07),
    Example("ex-04", "Delta Kite", None, 0.22, 70, 85, 60, 900, 2, True, None),
    Example("ex-05", "Ember Crane", None, 0.35, 62, 80, 55, 1200, 2, True, 0.18),
    Example("ex-06", "Fjord Lark", None, 0.55, 50, 70, 0, 1500, 1, True, 0.30),
)


def _asr(rng: random.Random, ex: Example, clip: PoolClip) -> dict[str, Any]:
    n = rng.randint(20, 80)
    rate = min(0.95, ex.error_rate * DIFFICULTY[clip.tier] * rng.uniform(0.6, 1.4))
    errors = round(n * rate)
    s = round(errors * 0.6)
    d = round(errors * 0.25)
    i = errors - s - d
    m_n = max(1, n - rng.randint(0, 4))
    m_err = min(m_n, max(0, errors - rng.randint(0, 2)))
    return {
        "id": clip.id,
        "S": s,
        "D": d,
        "I": i,
        "N": n,
        "mer_counts": {"S": m_err, "D": 0, "I": 0, "N": m_n},
    }


def _clip(rng: random.Random, ex: Example, pillar: str, clip: PoolClip) -> dict[str, Any]:
    hard = DIFFICULTY[clip.tier]
    if pillar == "asr":
        return _asr(rng, ex, clip)
    if pillar == "llm":
        return {"id": clip.id, "score": round(max(0.0, min(100.0, rng.gauss(ex.judge / hard**0.3, 12))), 1)}
    if pillar == "tts":
        return {
            "id": clip.id,
            "delivery": round(max(0.0, min(100.0, rng.gauss(ex.delivery, 6))), 1),
            "tone_survival": round(max(0.0, min(100.0, rng.gauss(ex.tone, 10))), 1) if ex.tone else 0.0,
            "tones_recovered": rng.randint(3, 6) if ex.tone else 0,
        }
    return {
        "id": clip.id,
        "latencies_ms": [round(max(50.0, rng.gauss(ex.latency_ms * hard**0.5, 120))) for _ in range(4)],
        "yield_ms": [round(max(0.0, rng.gauss(350 if ex.latency_ms < 1000 else 700, 150)))],
        "turns_completed": 4 if rng.random() < 0.9 else 3,
        "turns_attempted": 4,
    }


def main() -> int:
    config = load_config(ROOT / "platform_config")
    rounds = config.rounds.draw
    strata = {t: str(f) for t, f in rounds.strata.items()}
    version = config.scoring.current_scoring_version
    rng = random.Random(20261201)
    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "runs").mkdir(parents=True)
    (OUT / "pools").mkdir()
    pools = {}
    for r in config.platform.rounds:
        # The round's id in every clip id keeps the pools apart.
        pools[r.id] = [
            PoolClip(f"example-{r.id}-{tier}-{k:02d}", tier)
            for tier, n in POOL_TIERS.items()
            for k in range(1, n + 1)
        ]
        (OUT / "pools" / f"{r.id}.jsonl").write_text(
            "".join(json.dumps({"id": c.id, "tier": c.tier}) + "\n" for c in pools[r.id]), encoding="utf-8"
        )
    round_id = config.platform.rounds[-1].id
    pool = pools[round_id]
    entrants = [
        "# Fictional entrants for the example board; none of them exists. A board built from this folder says on",
        "# every page that it shows example data, and asks search engines not to index it.",
        "example: true",
        "entrants:",
    ]
    for ex in EXAMPLES:
        entrants.append(f"  - id: {ex.id}\n    codename: {ex.codename}")
        if ex.name:
            entrants.append(f"    name: {ex.name}\n    publish_name: true")
    (OUT / "entrants.yaml").write_text("\n".join(entrants) + "\n", encoding="utf-8")
    for ex in EXAMPLES:
        for pillar in ("asr", "llm", "tts", "e2e"):
            runs = ex.runs if pillar == "asr" else max(1, ex.runs - 1)
            for run in range(1, runs + 1):
                seed = f"example-{ex.id}-{pillar}-{run}"
                window = WINDOWS[run - 1]
                drawn = draw(pool, size=rounds.size, strata=strata, seed=seed, window=window)
                record: dict[str, Any] = {
                    "entrant": ex.id,
                    "round": round_id,
                    "pillar": pillar,
                    "run": run,
                    "scoring_version": version,
                    "final": ex.e2e_final or pillar != "e2e",
                    "draw": {"seed": seed, "window": window, "clips": list(drawn.ids)},
                }
                if pillar == "asr" and ex.anchor is not None:
                    record["cross_anchor"] = {
                        "benchmark": config.scoring.cross_anchor.benchmark,
                        "cer": ex.anchor,
                    }
                clips = [_clip(rng, ex, pillar, c) for c in drawn.clips]
                head = json.dumps(record, ensure_ascii=False)[:-1]
                body = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in clips)
                (OUT / "runs" / f"{ex.id}-{pillar}-{run}.json").write_text(
                    f'{head}, "clips": [\n{body}\n]}}\n', encoding="utf-8"
                )
    print(f"Wrote the example records to {OUT.relative_to(ROOT)}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
