"""Errors that point at the file, line and key an organiser has to fix."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

KeyPath = tuple[str | int, ...]


def dotted(key: KeyPath) -> str:
    """Render a key path the way an organiser reads YAML: `pillars.asr.weight`, `issues[0].issued`."""
    out = ""
    for part in key:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or "(top level)"


@dataclass(frozen=True)
class ConfigProblem:
    file: Path
    line: int | None
    key: KeyPath
    message: str

    def __str__(self) -> str:
        where = f"{self.file}, line {self.line}" if self.line is not None else str(self.file)
        return f"{where}, key {dotted(self.key)}: {self.message}"


class ConfigError(Exception):
    """One or more problems in platform_config/; nothing is built while any remain."""

    def __init__(self, problems: list[ConfigProblem]) -> None:
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"The platform config has {len(problems)} {noun}; fix and rebuild:\n{lines}")
