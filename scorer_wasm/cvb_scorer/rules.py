"""The platform's scoring numbers, parsed from ``scoring_rules.json`` into frozen dataclasses.

None of these numbers is a constant in the scorer: the lead's generator exports them from the platform config
(``cvb rules``) and the wheel packages that file. Library functions take a ``ScoringRules`` as a keyword
argument; ``load_packaged_rules()`` gives the one shipped with the wheel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

RULES_SCHEMA = 1


class RulesError(ValueError):
    """The scoring rules file is malformed; the message says which field and what was expected."""


@dataclass(frozen=True)
class FloorEntry:
    """One floor in the history. ``None`` means the config leaves that field to be announced."""

    scoring_version: str | None
    floor: float
    effective_from: str | None
    effective_until: str | None


@dataclass(frozen=True)
class Floors:
    current: float
    history: tuple[FloorEntry, ...]

    def for_version(self, scoring_version: str) -> float | None:
        """The floor a scoring version used, or None when the history does not name that version."""
        for entry in self.history:
            if entry.scoring_version == scoring_version:
                return entry.floor
        return None


@dataclass(frozen=True)
class BootstrapRules:
    resamples: int
    interval: float
    seed: int


@dataclass(frozen=True)
class LatencyRules:
    flat_below_ms: float
    zero_at_ms: float
    percentile: float


@dataclass(frozen=True)
class PillarRules:
    name: str
    weight: float
    core: bool
    sub_weights: Mapping[str, float] | None = None
    no_tone_cap_rating: float | None = None
    machine_weights: Mapping[str, float] | None = None
    rated_weights: Mapping[str, float] | None = None
    latency: LatencyRules | None = None
    yield_within_ms: float | None = None


@dataclass(frozen=True)
class ScoringRules:
    schema: int
    scoring_version: str
    score_min: float
    score_max: float
    rating_min: float
    rating_max: float
    floors: Floors
    bootstrap: BootstrapRules
    pillars: Mapping[str, PillarRules]

    def pillar(self, name: str) -> PillarRules:
        try:
            return self.pillars[name]
        except KeyError:
            known = ", ".join(sorted(self.pillars))
            raise RulesError(f"The scoring rules define no pillar {name!r}; they define: {known}.") from None


def _get(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise RulesError(f"The scoring rules lack `{where}{key}`; regenerate them with `cvb rules`.")
    return obj[key]


def _num(obj: Mapping[str, Any], key: str, where: str) -> float:
    value = _get(obj, key, where)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RulesError(f"The scoring rules field `{where}{key}` must be a number, not {value!r}.")
    return float(value)


def _opt_str(obj: Mapping[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key) if isinstance(obj, Mapping) else None
    if value is not None and not isinstance(value, str):
        raise RulesError(f"The scoring rules field `{where}{key}` must be a string or null, not {value!r}.")
    return value


def _weights(obj: Mapping[str, Any], key: str, where: str) -> Mapping[str, float] | None:
    if key not in obj:
        return None
    raw = _get(obj, key, where)
    if not isinstance(raw, Mapping):
        raise RulesError(f"The scoring rules field `{where}{key}` must be an object of weights.")
    return {str(k): _num(raw, k, f"{where}{key}.") for k in raw}


def rules_from_mapping(data: Mapping[str, Any]) -> ScoringRules:
    """Parse the rules JSON (already loaded) into ``ScoringRules``, checking every field it uses."""
    schema = int(_num(data, "schema", ""))
    if schema != RULES_SCHEMA:
        raise RulesError(
            f"The scoring rules have schema {schema}, but this scorer reads schema {RULES_SCHEMA}; "
            "install the scorer that matches the platform config."
        )
    version = _get(data, "scoring_version", "")
    if not isinstance(version, str) or not version:
        raise RulesError("The scoring rules field `scoring_version` must be a non-empty string.")
    floor_raw = _get(data, "error_rate_floor", "")
    history = tuple(
        FloorEntry(
            scoring_version=_opt_str(e, "scoring_version", "error_rate_floor.history[]."),
            floor=_num(e, "floor", "error_rate_floor.history[]."),
            effective_from=_opt_str(e, "effective_from", "error_rate_floor.history[]."),
            effective_until=_opt_str(e, "effective_until", "error_rate_floor.history[]."),
        )
        for e in _get(floor_raw, "history", "error_rate_floor.")
    )
    floors = Floors(current=_num(floor_raw, "current", "error_rate_floor."), history=history)
    if not floors.current > 0:
        raise RulesError("The scoring rules field `error_rate_floor.current` must be above 0.")
    boot_raw = _get(data, "bootstrap", "")
    bootstrap = BootstrapRules(
        resamples=int(_num(boot_raw, "resamples", "bootstrap.")),
        interval=_num(boot_raw, "interval", "bootstrap."),
        seed=int(_num(boot_raw, "seed", "bootstrap.")),
    )
    if bootstrap.resamples < 1 or not 0 < bootstrap.interval < 1:
        raise RulesError(
            "The scoring rules need `bootstrap.resamples` >= 1 and 0 < `bootstrap.interval` < 1."
        )
    pillars: dict[str, PillarRules] = {}
    for name, raw in _get(data, "pillars", "").items():
        where = f"pillars.{name}."
        lat_raw = raw.get("latency_ms")
        latency = (
            LatencyRules(
                flat_below_ms=_num(lat_raw, "flat_below", f"{where}latency_ms."),
                zero_at_ms=_num(lat_raw, "zero_at", f"{where}latency_ms."),
                percentile=_num(lat_raw, "percentile", f"{where}latency_ms."),
            )
            if lat_raw is not None
            else None
        )
        pillars[name] = PillarRules(
            name=name,
            weight=_num(raw, "weight", where),
            core=bool(_get(raw, "core", where)),
            sub_weights=_weights(raw, "sub_weights", where),
            no_tone_cap_rating=_num(raw, "no_tone_cap_rating", where)
            if "no_tone_cap_rating" in raw
            else None,
            machine_weights=_weights(raw, "machine_weights", where),
            rated_weights=_weights(raw, "rated_weights", where),
            latency=latency,
            yield_within_ms=_num(raw, "yield_within_ms", where) if "yield_within_ms" in raw else None,
        )
    score = _get(data, "score_scale", "")
    rating = _get(data, "rating_scale", "")
    return ScoringRules(
        schema=schema,
        scoring_version=version,
        score_min=_num(score, "min", "score_scale."),
        score_max=_num(score, "max", "score_scale."),
        rating_min=_num(rating, "min", "rating_scale."),
        rating_max=_num(rating, "max", "rating_scale."),
        floors=floors,
        bootstrap=bootstrap,
        pillars=pillars,
    )


def rules_from_json(text: str, *, source: str = "the scoring rules") -> ScoringRules:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError(f"{source} is not valid JSON (line {exc.lineno}: {exc.msg}).") from None
    if not isinstance(data, Mapping):
        raise RulesError(f"{source} must hold one JSON object.")
    return rules_from_mapping(data)


@cache
def load_packaged_rules() -> ScoringRules:
    """The rules packaged in the wheel (``cvb_scorer/scoring_rules.json``, exported from the platform config)."""
    try:
        text = resources.files("cvb_scorer").joinpath("scoring_rules.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError(
            "This cvb_scorer install has no packaged scoring_rules.json; build the wheel with `make wheel`, "
            "or pass a rules file explicitly."
        ) from None
    return rules_from_json(text, source="The packaged scoring_rules.json")
