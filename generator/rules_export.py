"""The scoring rules the scorer wheel carries, exported from the config (the scorer never hard-codes them)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from generator.config import Config
from generator.config.models import PartialDate

SCHEMA = 2


def _date_or_none(value: PartialDate) -> str | None:
    if value == "to be announced":
        return None
    return value.isoformat() if isinstance(value, dt.date) else value


def _announced(value: str) -> str | None:
    return None if value == "to be announced" else value


def scoring_rules(config: Config) -> dict[str, Any]:
    scoring = config.scoring
    history = scoring.error_rate_floor_history
    pillars: dict[str, Any] = {}
    for pid, p in scoring.pillars.items():
        entry: dict[str, Any] = {"weight": p.weight, "core": p.core}
        if p.sub_weights is not None:
            entry["sub_weights"] = dict(p.sub_weights)
        if p.no_tone_cap_rating is not None:
            entry["no_tone_cap_rating"] = p.no_tone_cap_rating
        if p.machine_weights is not None:
            entry["machine_weights"] = dict(p.machine_weights)
        if p.rated_weights is not None:
            entry["rated_weights"] = dict(p.rated_weights)
        if p.latency_ms is not None:
            entry["latency_ms"] = p.latency_ms.model_dump()
        if p.yield_within_ms is not None:
            entry["yield_within_ms"] = p.yield_within_ms
        pillars[pid] = entry
    return {
        "schema": SCHEMA,
        "scoring_version": scoring.current_scoring_version,
        "score_scale": scoring.score_scale.model_dump(),
        "rating_scale": scoring.rating_scale.model_dump(),
        "error_rate_floor": {
            "current": history[-1].floor,
            "history": [
                {
                    "scoring_version": _announced(e.scoring_version),
                    "floor": e.floor,
                    "effective_from": _date_or_none(e.effective_from),
                    # An entry is in force until the next one takes over.
                    "effective_until": _date_or_none(history[i + 1].effective_from)
                    if i + 1 < len(history)
                    else None,
                }
                for i, e in enumerate(history)
            ],
        },
        "bootstrap": {
            "resamples": scoring.statistics.bootstrap_resamples,
            "interval": scoring.statistics.interval,
            "seed": scoring.statistics.bootstrap_seed,
            "min_clips": scoring.statistics.min_clips_for_interval,
        },
        "input": {"max_text_chars": scoring.scorer_input.max_text_chars},
        "pillars": pillars,
    }


def scoring_rules_json(config: Config) -> str:
    return json.dumps(scoring_rules(config), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_rules(config: Config, out: Path) -> None:
    """Write the rules file, rewriting only on change so make and the wheel see an unchanged file as unchanged."""
    text = scoring_rules_json(config)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text(encoding="utf-8") != text:
        out.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """`python -m generator.rules_export --out FILE`: the first step of building the scorer wheel.

    It runs before any scorer is installed, so it imports nothing but the config models (`cvb rules` loads the
    whole generator, which uses the scorer)."""
    import argparse
    import sys

    from generator.config import ConfigError, load_config
    from generator.paths import Layout

    parser = argparse.ArgumentParser(prog="python -m generator.rules_export")
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        write_rules(load_config(args.config or Layout().config), args.out)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
