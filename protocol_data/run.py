"""What a scored run reads from the config, as plain values: the draw, the rounds and how many runs each allows,
the scoring version its records carry, and the re-run settings (protocol.yaml's `scored_run`).

`run_data` takes the config as plain data ({"protocol", "rounds", "platform", "scoring"}, as the YAML files hold
them) or any object with those four attributes that can dump itself to plain data (the generator's validated
Config). It sits below both `generator` and `runner`, so the runner takes its settings from the config without
importing the site builder, while `cvb run` (generator/cli.py) hands it the Config it has loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol_data.settings import ProtocolDataError

RUN_PARTS = ("protocol", "rounds", "platform", "scoring")


@dataclass(frozen=True, kw_only=True)
class RunData:
    draw_size: int
    # Tier -> its share of the draw, as the config writes it (the draw reads shares as exact decimals).
    strata: Mapping[str, str]
    rounds: tuple[str, ...]
    standing_round: str
    runs_per_round: int
    scoring_version: str
    max_attempts: int
    stall_ms: int


def _parts(config: Any) -> dict[str, Any]:
    if isinstance(config, Mapping):
        return {part: config[part] for part in RUN_PARTS}
    parts: dict[str, Any] = {}
    for part in RUN_PARTS:
        value = getattr(config, part)
        dump = getattr(value, "model_dump", None)
        parts[part] = dump(mode="json") if callable(dump) else value
    return parts


def _get(data: Mapping[str, Any], part: str, dotted: str) -> Any:
    value: Any = data[part]
    for key in dotted.split("."):
        if not isinstance(value, Mapping) or key not in value:
            raise ProtocolDataError(f"{part}.yaml: {dotted} is needed by a scored run and is missing.")
        value = value[key]
    return value


def _int(data: Mapping[str, Any], part: str, dotted: str) -> int:
    value = _get(data, part, dotted)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ProtocolDataError(f"{part}.yaml: {dotted} must be a positive whole number, not {value!r}.")
    number: int = value
    return number


def _text(data: Mapping[str, Any], part: str, dotted: str) -> str:
    value = _get(data, part, dotted)
    if not isinstance(value, str) or not value:
        raise ProtocolDataError(f"{part}.yaml: {dotted} must be text, not {value!r}.")
    return value


def run_data(config: Any) -> RunData:
    """The run's settings from the config (see the module docstring for what `config` may be)."""
    data = _parts(config)
    strata = _get(data, "rounds", "draw.strata")
    if not isinstance(strata, Mapping) or not all(
        isinstance(share, int | float) and not isinstance(share, bool) for share in strata.values()
    ):
        raise ProtocolDataError("rounds.yaml: draw.strata must map each tier to its share of the draw.")
    rounds = data["platform"].get("rounds") if isinstance(data["platform"], Mapping) else None
    if not isinstance(rounds, list) or not all(isinstance(r, Mapping) and "id" in r for r in rounds):
        raise ProtocolDataError("platform.yaml: rounds must be a list of rounds, each with its id.")
    standing = [str(r["id"]) for r in rounds if r.get("standing")]
    if len(standing) != 1:
        raise ProtocolDataError("platform.yaml: exactly one round must be marked standing: true.")
    return RunData(
        draw_size=_int(data, "rounds", "draw.size"),
        strata={str(tier): str(share) for tier, share in strata.items()},
        rounds=tuple(str(r["id"]) for r in rounds),
        standing_round=standing[0],
        runs_per_round=_int(data, "rounds", "runs_per_round"),
        scoring_version=_text(data, "scoring", "current_scoring_version"),
        max_attempts=_int(data, "protocol", "scored_run.max_attempts"),
        stall_ms=_int(data, "protocol", "scored_run.stall_ms"),
    )
