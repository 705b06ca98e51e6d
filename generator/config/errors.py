"""Errors that point at the file, line and key an organiser has to fix."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


_DATE_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.+\-Z]+)?$")
DATE_KINDS = frozenset(
    {"date_type", "datetime_type", "date_parsing", "datetime_parsing", "date_from_datetime_parsing"}
)


def calendar_problem(text: str) -> str | None:
    """Why an unquoted YYYY-MM-DD is not a date (2026-02-30), or None when it is one."""
    try:
        dt.date.fromisoformat(text[:10])
    except ValueError:
        return f"{text} is not a day of the calendar; write a date that exists, as YYYY-MM-DD."
    return None


def quoted_date(found: Any) -> str | None:
    """The one sentence for a date written in quotes (YAML reads it as text, which a date key refuses)."""
    if isinstance(found, str) and _DATE_TEXT.match(found.strip()):
        return f"write the date without quotes ({found.strip()}, not {found!r}); in quotes it is text."
    return None


def one_per_key(problems: list[ConfigProblem]) -> list[ConfigProblem]:
    """A key a union type refused once per member (a date, a datetime, 'to be announced') gets one message:
    the first that says something, the quoted-date sentence if any."""
    out: list[ConfigProblem] = []
    seen: dict[tuple[Path, KeyPath], int] = {}
    for problem in problems:
        slot = (problem.file, problem.key)
        if slot in seen:
            if "without quotes" in problem.message:
                out[seen[slot]] = problem
            continue
        seen[slot] = len(out)
        out.append(problem)
    return out
