"""The platform's scoring numbers, parsed from ``scoring_rules.json`` into frozen dataclasses.

None of these numbers is a constant in the scorer: the lead's generator exports them from the platform config
(``cvb rules``) and the wheel packages that file. Library functions take a ``ScoringRules`` as a keyword
argument; ``load_packaged_rules()`` gives the one shipped with the wheel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from cvb_scorer import _data, strict_json

RULES_SCHEMA = 2
# Where the wheel carries the rules, relative to the package (``cvb rules`` writes it; ``cvb check`` compares
# it with the config).
PACKAGED_RULES = "data/scoring_rules.json"


class RulesError(ValueError):
    """The scoring rules file is malformed; the message names the file and key and says what is wrong."""


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
    # Fewer clips than this and the interval is printed with a warning naming the rate.
    min_clips: int


@dataclass(frozen=True)
class InputRules:
    # The longest text (in characters) one clip may hold.
    max_text_chars: int


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
    input: InputRules
    pillars: Mapping[str, PillarRules]

    def pillar(self, name: str) -> PillarRules:
        try:
            return self.pillars[name]
        except KeyError:
            known = ", ".join(sorted(self.pillars))
            raise RulesError(f"The scoring rules define no pillar {name!r}; they define: {known}.") from None


class _Reader:
    """Reads one rules document, naming the file and the dotted key in every refusal, as the config does."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> RulesError:
        where = f"{self.source}, key {key}" if key else self.source
        return RulesError(f"{where}: {problem}.")

    def obj(
        self, value: Any, key: str, known: tuple[str, ...], required: tuple[str, ...]
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be a JSON object, not {_shown(value)}")
        prefix = f"{key}." if key else ""
        for name in value:
            if name not in known:
                raise self.fail(
                    f"{prefix}{name}", "this key is not known here; check its spelling or remove it"
                )
        for name in required:
            if name not in value:
                raise self.fail(
                    f"{prefix}{name}", "this required key is missing; regenerate with `cvb rules`"
                )
        return value

    def number(self, value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise self.fail(key, f"must be a finite number, not {_shown(value)}")
        return float(value)

    def whole(self, value: Any, key: str, *, least: int) -> int:
        # 2.7 is refused, never truncated to 2: a count that is not whole is a typo to fix, not to guess at.
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_shown(value)}")
        if value < least:
            raise self.fail(key, f"must be at least {least}, not {value}")
        return int(value)

    def text(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a non-empty string, not {_shown(value)}")
        return value

    def text_or_null(self, value: Any, key: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a non-empty string or null, not {_shown(value)}")
        return value

    def flag(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {_shown(value)}")
        return value

    def weights(self, value: Any, key: str) -> Mapping[str, float]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be an object of weights, not {_shown(value)}")
        return {name: self.number(w, f"{key}.{name}") for name, w in value.items()}

    def scale(self, value: Any, key: str) -> tuple[float, float]:
        raw = self.obj(value, key, ("min", "max"), ("min", "max"))
        low, high = self.number(raw["min"], f"{key}.min"), self.number(raw["max"], f"{key}.max")
        if not low < high:
            raise self.fail(key, f"needs min below max, not {low:g} and {high:g}")
        return low, high


def _shown(value: Any) -> str:
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = "null" if value is None else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_TOP = (
    "schema",
    "scoring_version",
    "score_scale",
    "rating_scale",
    "error_rate_floor",
    "bootstrap",
    "input",
    "pillars",
)
_HISTORY = ("scoring_version", "floor", "effective_from", "effective_until")
_BOOT = ("resamples", "interval", "seed", "min_clips")
_PILLAR = (
    "weight",
    "core",
    "sub_weights",
    "no_tone_cap_rating",
    "machine_weights",
    "rated_weights",
    "latency_ms",
    "yield_within_ms",
)
_LATENCY = ("flat_below", "zero_at", "percentile")


def _floors(r: _Reader, value: Any) -> Floors:
    raw = r.obj(value, "error_rate_floor", ("current", "history"), ("current", "history"))
    current = r.number(raw["current"], "error_rate_floor.current")
    if not current > 0:
        raise r.fail("error_rate_floor.current", f"must be above 0, not {current:g}")
    if not isinstance(raw["history"], list):
        raise r.fail("error_rate_floor.history", f"must be a list, not {_shown(raw['history'])}")
    history = []
    for i, item in enumerate(raw["history"]):
        key = f"error_rate_floor.history[{i}]"
        e = r.obj(item, key, _HISTORY, _HISTORY)
        history.append(
            FloorEntry(
                scoring_version=r.text_or_null(e["scoring_version"], f"{key}.scoring_version"),
                floor=r.number(e["floor"], f"{key}.floor"),
                effective_from=r.text_or_null(e["effective_from"], f"{key}.effective_from"),
                effective_until=r.text_or_null(e["effective_until"], f"{key}.effective_until"),
            )
        )
    return Floors(current=current, history=tuple(history))


def _bootstrap(r: _Reader, value: Any) -> BootstrapRules:
    raw = r.obj(value, "bootstrap", _BOOT, _BOOT)
    interval = r.number(raw["interval"], "bootstrap.interval")
    if not 0 < interval < 1:
        raise r.fail(
            "bootstrap.interval", f"must lie strictly between 0 and 1 (0.95 for 95%), not {interval:g}"
        )
    return BootstrapRules(
        resamples=r.whole(raw["resamples"], "bootstrap.resamples", least=1),
        interval=interval,
        seed=r.whole(raw["seed"], "bootstrap.seed", least=0),
        min_clips=r.whole(raw["min_clips"], "bootstrap.min_clips", least=1),
    )


def _pillar(r: _Reader, name: str, value: Any) -> PillarRules:
    key = f"pillars.{name}"
    raw = r.obj(value, key, _PILLAR, ("weight", "core"))

    def optional_number(field: str) -> float | None:
        return r.number(raw[field], f"{key}.{field}") if field in raw else None

    def optional_weights(field: str) -> Mapping[str, float] | None:
        return r.weights(raw[field], f"{key}.{field}") if field in raw else None

    latency = None
    if "latency_ms" in raw:
        lat = r.obj(raw["latency_ms"], f"{key}.latency_ms", _LATENCY, _LATENCY)
        latency = LatencyRules(
            flat_below_ms=r.number(lat["flat_below"], f"{key}.latency_ms.flat_below"),
            zero_at_ms=r.number(lat["zero_at"], f"{key}.latency_ms.zero_at"),
            percentile=r.number(lat["percentile"], f"{key}.latency_ms.percentile"),
        )
    return PillarRules(
        name=name,
        weight=r.number(raw["weight"], f"{key}.weight"),
        core=r.flag(raw["core"], f"{key}.core"),
        sub_weights=optional_weights("sub_weights"),
        no_tone_cap_rating=optional_number("no_tone_cap_rating"),
        machine_weights=optional_weights("machine_weights"),
        rated_weights=optional_weights("rated_weights"),
        latency=latency,
        yield_within_ms=optional_number("yield_within_ms"),
    )


def rules_from_mapping(data: Any, *, source: str = "The scoring rules") -> ScoringRules:
    """Parse the rules JSON (already loaded) into ``ScoringRules``, checking every field: a refusal names
    ``source``, the key and what is wrong."""
    r = _Reader(source)
    raw = r.obj(data, "", _TOP, _TOP)
    schema = r.whole(raw["schema"], "schema", least=1)
    if schema != RULES_SCHEMA:
        raise r.fail(
            "schema",
            f"is {schema}, but this scorer reads schema {RULES_SCHEMA}; "
            "install the scorer that matches the platform config",
        )
    version = r.text(raw["scoring_version"], "scoring_version")
    score_min, score_max = r.scale(raw["score_scale"], "score_scale")
    rating_min, rating_max = r.scale(raw["rating_scale"], "rating_scale")
    limits = r.obj(raw["input"], "input", ("max_text_chars",), ("max_text_chars",))
    pillars_raw = raw["pillars"]
    if not isinstance(pillars_raw, Mapping) or not pillars_raw:
        raise r.fail("pillars", f"must be a non-empty object of pillars, not {_shown(pillars_raw)}")
    return ScoringRules(
        schema=schema,
        scoring_version=version,
        score_min=score_min,
        score_max=score_max,
        rating_min=rating_min,
        rating_max=rating_max,
        floors=_floors(r, raw["error_rate_floor"]),
        bootstrap=_bootstrap(r, raw["bootstrap"]),
        input=InputRules(max_text_chars=r.whole(limits["max_text_chars"], "input.max_text_chars", least=1)),
        pillars={name: _pillar(r, name, value) for name, value in pillars_raw.items()},
    )


def rules_from_json(text: str, *, source: str = "The scoring rules") -> ScoringRules:
    try:
        data = strict_json.loads(text)
    except strict_json.JsonProblem as exc:
        raise RulesError(f"{source} is not valid JSON: {exc}.") from None
    return rules_from_mapping(data, source=source)


@cache
def load_packaged_rules() -> ScoringRules:
    """The rules packaged in the wheel (``cvb_scorer/data/scoring_rules.json``, written by ``cvb rules`` from
    the platform config)."""
    try:
        text = _data.read_text(PACKAGED_RULES)
    except FileNotFoundError:
        raise RulesError(
            f"This cvb_scorer install has no packaged {PACKAGED_RULES}; reinstall the scorer, or pass a rules "
            "file with --rules."
        ) from None
    return rules_from_json(text, source=f"The packaged {PACKAGED_RULES}")
