"""What a reader sees, checked for what only a writer should: Markdown syntax that did not become layout, and
protocol identifiers broken over two lines of a PDF. Pure: text in, findings out.

A page's text here is its visible text without code (code may hold any of these characters on purpose); a
PDF's text is pdftotext's, without the lines its code listings print.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# Each pattern is Markdown (or the templates' Jinja) that a renderer would have turned into layout.
LEFTOVERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a table row written in pipes", re.compile(r"^\s*\|.*\|\s*$|\|\s*:?-{3,}:?\s*\|")),
    ("bold marks (**)", re.compile(r"\*\*")),
    ("a template expression ({{ or {%)", re.compile(r"\{\{|\{%|%\}|\}\}")),
    ("a backtick", re.compile(r"`")),
    ("a list marker at the start of a line", re.compile(r"^\s*[-*+] \S")),
    ("a heading's hashes", re.compile(r"^\s*#{1,6} \S")),
    ("an admonition's marker (!!!)", re.compile(r"^\s*!!! ")),
)


def _squeeze(text: str) -> str:
    return re.sub(r"[\s\-]+", "", text)


@dataclass(frozen=True)
class Finding:
    line: int
    text: str
    what: str


def markdown_leftovers(text: str, *, skip: Iterable[str] = ()) -> Iterator[Finding]:
    """Lines of `text` that show Markdown syntax; a line found in one of `skip` (code listings) is left out."""
    # pdftotext wraps a listing's long lines and drops the hyphen it broke at: compare without either.
    code = _squeeze("\n".join(skip))
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or (code and _squeeze(line) in code):
            continue
        for what, pattern in LEFTOVERS:
            if pattern.search(line):
                yield Finding(number, line.strip()[:160], what)
                break


_WORD_END = re.compile(r"([A-Za-z0-9_]+)$")
_WORD_START = re.compile(r"^([A-Za-z0-9_]+)")


# pdftotext reads a table row cell by cell, so the rest of a word broken in one cell may come a few lines on.
REACH = 6


def broken_identifiers(text: str, identifiers: Iterable[str]) -> Iterator[Finding]:
    """Identifiers printed with a line break inside them: a line ends with their head (not a whole identifier)
    and one of the next lines begins with the rest."""
    names = {name for name in identifiers if len(name) > 1}
    heads = {name[:k] for name in names for k in range(1, len(name))} - names
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        head = _WORD_END.search(line.rstrip())
        if not head or head.group(1) not in heads:
            continue
        for following in lines[number : number + REACH]:
            tail = _WORD_START.search(following.lstrip())
            if tail and head.group(1) + tail.group(1) in names:
                yield Finding(
                    number,
                    f"{line.strip()[-60:]} / {following.strip()[:60]}",
                    f"the identifier {head.group(1) + tail.group(1)} is broken over two lines",
                )
                break
