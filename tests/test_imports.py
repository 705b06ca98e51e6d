"""Imports run one way: no module of the project imports a module that imports it back, however far round.

The imports are read from the source (``ast``), every one of them: at the top, inside functions (where a circle
is usually hidden) and under ``TYPE_CHECKING``. A module here is a file of generator/, the scorer
(scorer_wasm/cvb_scorer/), starter_kit/, protocol_data/, runner/ or bench/; importing ``a.b`` from ``a.b.c``
counts as importing the package's ``__init__`` only when a name is taken from it (``from a.b import Name``),
as Python runs it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Top-level package name -> its folder.
PACKAGES = {
    "generator": ROOT / "generator",
    "cvb_scorer": ROOT / "scorer_wasm" / "cvb_scorer",
    "starter_kit": ROOT / "starter_kit",
    "protocol_data": ROOT / "protocol_data",
    "runner": ROOT / "runner",
    "bench": ROOT / "bench",
}
# Package-level arrows that run both ways today (no module circle: different modules at each end), each to be
# removed by moving what both ends need below them. None now: the runner reads the config through protocol_data/,
# as the kit does, and only the generator's `cvb run` calls into the runner.
PACKAGE_CIRCLES_BEING_REMOVED: set[frozenset[str]] = set()


def module_files(packages: Mapping[str, Path]) -> dict[str, Path]:
    """Every module's dotted name -> its file (a package is named by its ``__init__.py``)."""
    modules: dict[str, Path] = {}
    for name, folder in packages.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [name, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported(name: str, source: str, *, is_package: bool, known: Iterable[str]) -> set[str]:
    """The project modules that module `name` imports anywhere in `source`."""
    modules = set(known)

    def project_module(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(m for alias in node.names if (m := project_module(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                target = submodule if submodule in modules else project_module(base)
                if target:
                    found.add(target)
    found.discard(name)
    return found


def import_graph(packages: Mapping[str, Path]) -> dict[str, set[str]]:
    files = module_files(packages)
    return {
        name: imported(
            name, path.read_text(encoding="utf-8"), is_package=path.name == "__init__.py", known=files
        )
        for name, path in files.items()
    }


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one node (each one a circle), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        # Tarjan's algorithm, iterative: (node, its successors still to visit).
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        # The config's old circle: load -> invariants -> localise -> load.
        (
            {"load": {"invariants"}, "invariants": {"localise"}, "localise": {"load"}},
            [["invariants", "load", "localise"]],
        ),
        ({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"e"}, "e": {"d"}}, [["d", "e"]]),
    ],
)
def test_circles_are_found_however_far_round(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert circles(graph) == expected


def test_imports_inside_functions_relative_ones_and_names_from_packages_count() -> None:
    known = ["p", "p.a", "p.b", "p.c", "p.sub", "p.sub.d"]
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from p import c\n"  # a submodule
        "from p.sub import Name\n"  # a name from a package: its __init__ runs
        "if TYPE_CHECKING:\n    import p.b\n"
        "def f():\n    from .sub.d import g\n"
        "import os, json\n"
    )
    assert imported("p.a", source, is_package=False, known=known) == {"p.c", "p.sub", "p.b", "p.sub.d"}


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    found = circles(import_graph(PACKAGES))
    assert found == [], (
        "imports that run in a circle (move what both need to a module of its own):\n"
        + "\n".join(" <-> ".join(circle) for circle in found)
    )


def test_packages_import_one_way_but_for_the_named_exception() -> None:
    graph = import_graph(PACKAGES)
    packages: dict[str, set[str]] = {top: set() for top in PACKAGES}
    for module, targets in graph.items():
        top = module.split(".")[0]
        packages[top].update(t.split(".")[0] for t in targets if t.split(".")[0] != top)
    found = {frozenset(c) for c in circles(packages)} - PACKAGE_CIRCLES_BEING_REMOVED
    assert found == set()


def test_the_benchmarks_import_package_code_only() -> None:
    """bench/ measures the project's code; helpers it shares with the tests live in the packages."""
    files = sorted(p for p in (ROOT / "bench").glob("*.py"))
    assert files
    for path in files:
        tops = {
            alias.name.split(".")[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            (node.module or "").split(".")[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and not node.level
        }
        assert "tests" not in tops, f"{path.relative_to(ROOT)} imports the tests"
