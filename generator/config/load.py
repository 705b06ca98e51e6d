"""Load platform_config/ into one validated Config, or refuse it with every problem located."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from generator.config.errors import (
    DATE_KINDS,
    ConfigError,
    ConfigProblem,
    KeyPath,
    one_per_key,
    quoted_date,
)
from generator.config.invariants import find_problems
from generator.config.models import (
    EndpointingFile,
    FailuresFile,
    FramesFile,
    GlossaryFile,
    MethodologyFile,
    PlatformFile,
    ProtocolFile,
    RoundsFile,
    ScoringFile,
    SiteFile,
)
from generator.config.source import SourceFile, read_yaml
from generator.config.validated import Config

M = TypeVar("M", bound=BaseModel)

# One model per file: the file an organiser opens is the file an error names.
FILES: dict[str, type[BaseModel]] = {
    "platform.yaml": PlatformFile,
    "protocol.yaml": ProtocolFile,
    "frames.yaml": FramesFile,
    "scoring.yaml": ScoringFile,
    "rounds.yaml": RoundsFile,
    "failures.yaml": FailuresFile,
    "endpointing.yaml": EndpointingFile,
    "methodology.yaml": MethodologyFile,
    "site.yaml": SiteFile,
    "glossary.yaml": GlossaryFile,
}


def load_config(directory: Path) -> Config:
    """Read and validate every file; raise ConfigError naming file, line and key for each problem."""
    sources: dict[str, SourceFile] = {}
    models: dict[str, BaseModel] = {}
    problems: list[ConfigProblem] = []
    if not directory.is_dir():
        raise ConfigError([ConfigProblem(directory, None, (), "the config folder does not exist.")])
    known = set(FILES)
    for extra in sorted(p.name for p in directory.glob("*.y*ml") if p.name not in known):
        problems.append(
            ConfigProblem(
                directory / extra, None, (), f"this file is not read; known files: {sorted(known)}."
            )
        )
    for name, model in FILES.items():
        try:
            source = read_yaml(directory / name)
        except ConfigError as exc:
            problems.extend(exc.problems)
            continue
        sources[name] = source
        try:
            models[name] = model.model_validate(source.data)
        except ValidationError as exc:
            problems.extend(_located(source, error) for error in exc.errors())
    if problems:
        raise ConfigError(one_per_key(problems))
    config = Config(
        platform=_as(models["platform.yaml"], PlatformFile),
        protocol=_as(models["protocol.yaml"], ProtocolFile),
        frames=_as(models["frames.yaml"], FramesFile),
        scoring=_as(models["scoring.yaml"], ScoringFile),
        rounds=_as(models["rounds.yaml"], RoundsFile),
        failures=_as(models["failures.yaml"], FailuresFile),
        endpointing=_as(models["endpointing.yaml"], EndpointingFile),
        methodology=_as(models["methodology.yaml"], MethodologyFile),
        site=_as(models["site.yaml"], SiteFile),
        glossary=_as(models["glossary.yaml"], GlossaryFile),
        sources=sources,
    )
    found = find_problems(config)
    if found:
        raise ConfigError([p.located(sources) for p in found])
    return config


def _as(model: BaseModel, kind: type[M]) -> M:
    assert isinstance(model, kind)
    return model


# Pydantic adds the tried union member to the location ("date", "literal['to be announced']"); an organiser
# needs the YAML key, so keep only the parts that exist in the file (and list indexes).
def _yaml_key(source: SourceFile, loc: tuple[int | str, ...]) -> KeyPath:
    key: list[str | int] = []
    for part in loc:
        candidate = (*key, part)
        if candidate in source.lines or (isinstance(part, str) and not _is_union_tag(part)):
            key.append(part)
    return tuple(key)


def _is_union_tag(part: str) -> bool:
    return part in {"date", "datetime", "str", "int", "float", "bool", "list"} or part.startswith(
        ("literal[", "constrained-str", "function-", "list[", "dict[", "nullable[")
    )


def _located(source: SourceFile, error: Any) -> ConfigProblem:
    key = _yaml_key(source, tuple(error["loc"]))
    kind = error["type"]
    if kind == "missing":
        message = "this required key is missing; add it."
    elif kind == "extra_forbidden":
        message = "this key is not known here; check its spelling or remove it."
    else:
        found = error.get("input")
        quoted = quoted_date(found) if kind in DATE_KINDS else None
        message = quoted or f"{error['msg'].rstrip('.')} (found {found!r})."
    return ConfigProblem(source.path, source.line_of(key), key, message)
