"""The third net of the provenance check: what templates compute.

The static-text scan skips everything inside `{{ }}` and `{% %}`, and arithmetic on tracked values keeps their
sources, so `{{ cfg.rounds.pool_size + 45 }}` would print a bracketed, "tracked" number that no config key
holds. Here every template is parsed with jinja's own parser and every arithmetic operator and every literal
number in an expression is reported with file and line: derived values belong in the page model
(generator/pages/derive.py), where they are computed once and tested.

Literal numbers that only format a value (a filter's argument: `indent(4)`, `percent(1)`) or pick an item
(`range[0]`) are not printed and are allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2 import nodes

_ARITHMETIC: dict[type[nodes.Node], str] = {
    nodes.Add: "+",
    nodes.Sub: "-",
    nodes.Mul: "*",
    nodes.Div: "/",
    nodes.FloorDiv: "//",
    nodes.Mod: "%",
    nodes.Pow: "**",
    nodes.Neg: "unary -",
    nodes.Pos: "unary +",
}

# Template lines whose literal numbers are layout, not platform numbers, each with the reason it may stay.
ALLOWED_EXPRESSIONS: tuple[tuple[str, str, str], ...] = (
    ("editor.html.j2", r'rows="\{\{ 2 if compact else 4 \}\}"', "a text box's height in lines"),
)


@dataclass(frozen=True)
class ExpressionProblem:
    where: str
    line: int
    excerpt: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}, line {self.line}: {self.message}: {self.excerpt!r}"


def _is_number(node: nodes.Node) -> bool:
    return (
        isinstance(node, nodes.Const)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    )


def _findings(node: nodes.Node, *, allowed_const: bool = False) -> Iterator[tuple[int, str]]:
    if type(node) in _ARITHMETIC:
        yield (
            node.lineno,
            f"arithmetic ({_ARITHMETIC[type(node)]}) in a template expression; compute it in the page model",
        )
    if _is_number(node) and not allowed_const:
        yield (
            node.lineno,
            "a literal number in a template expression; take it from the config or the page model",
        )
    formatting: set[int] = set()
    if isinstance(node, nodes.Filter | nodes.Test | nodes.Call):
        formatting = {id(a) for a in node.args} | {id(k.value) for k in node.kwargs}
    elif isinstance(node, nodes.Getitem):
        formatting = {id(node.arg)}
    for child in node.iter_child_nodes():
        yield from _findings(child, allowed_const=id(child) in formatting)


def scan_expressions(env: jinja2.Environment, path: Path, shown: str) -> Iterator[ExpressionProblem]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    allowed = [re.compile(pattern) for name, pattern, _ in ALLOWED_EXPRESSIONS if name == path.name]
    tree = env.parse(source, name=path.name, filename=str(path))
    seen: set[tuple[int, str]] = set()
    for line, message in _findings(tree):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if (line, message) in seen or any(a.search(text) for a in allowed):
            continue
        seen.add((line, message))
        yield ExpressionProblem(shown, line, text.strip()[:160], message)
