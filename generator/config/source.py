"""Read a YAML file into plain data plus the line of every key, so errors can say where."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.config.errors import ConfigError, ConfigProblem, KeyPath, calendar_problem

TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


@dataclass(frozen=True)
class SourceFile:
    path: Path
    data: Any
    lines: dict[KeyPath, int]

    def line_of(self, key: KeyPath) -> int | None:
        """The line of the deepest part of `key` that exists (a missing key points at its parent)."""
        for cut in range(len(key), -1, -1):
            line = self.lines.get(key[:cut])
            if line is not None:
                return line
        return None


def read_yaml(path: Path, *, shown_as: Path | None = None) -> SourceFile:
    shown = shown_as or path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError([ConfigProblem(shown, None, (), "this file is missing; restore it.")]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            [ConfigProblem(shown, None, (), f"this file is not UTF-8 ({exc.reason}).")]
        ) from None
    if FAST_LOADER is not None:
        try:
            return _read(text, shown, FAST_LOADER)
        except yaml.YAMLError:
            pass  # read again below, so that the problem is reported as the pure-Python parser words it
    return _read(text, shown, yaml.SafeLoader)


# libyaml's parser (PyYAML's C binding) gives the same nodes, lines and data as the pure-Python one, many times
# faster: the config is read by every build, check and command, and thousands of times by the tests.
FAST_LOADER: type[yaml.SafeLoader] | None = getattr(yaml, "CSafeLoader", None)


def _read(text: str, shown: Path, loader_class: type[yaml.SafeLoader]) -> SourceFile:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ConfigError([ConfigProblem(shown, 1, (), "this file is empty; it must hold a mapping.")])
        lines: dict[KeyPath, int] = {}
        problems: list[ConfigProblem] = []
        _index(node, (), lines, problems, shown)
        if problems:
            raise ConfigError(problems)
        data = loader.construct_document(node)  # type: ignore[no-untyped-call]
    except yaml.MarkedYAMLError as exc:
        if loader_class is not yaml.SafeLoader:
            raise
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        reason = exc.problem or "the YAML could not be read"
        raise ConfigError([ConfigProblem(shown, line, (), f"this is not valid YAML: {reason}.")]) from None
    finally:
        loader.dispose()  # type: ignore[no-untyped-call]
    return SourceFile(path=shown, data=data, lines=lines)


def _index(
    node: yaml.Node, key: KeyPath, lines: dict[KeyPath, int], problems: list[ConfigProblem], shown: Path
) -> None:
    lines.setdefault(key, node.start_mark.line + 1)
    if isinstance(node, yaml.ScalarNode) and node.tag == TIMESTAMP_TAG:
        # YAML reads an unquoted date itself, and an impossible one (2026-02-30) stops it with a traceback.
        wrong = calendar_problem(str(node.value))
        if wrong:
            problems.append(ConfigProblem(shown, node.start_mark.line + 1, key, wrong))
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            name = str(key_node.value)
            if name in seen:
                # PyYAML keeps the last duplicate silently; an organiser editing one copy would see no effect.
                problems.append(
                    ConfigProblem(
                        shown, key_node.start_mark.line + 1, (*key, name), "this key appears twice."
                    )
                )
            seen.add(name)
            lines[(*key, name)] = key_node.start_mark.line + 1
            _index(value_node, (*key, name), lines, problems, shown)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _index(item, (*key, index), lines, problems, shown)
