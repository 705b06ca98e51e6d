"""pyproject.toml declares what the project's packages import, and nothing they do not.

The packages are the ones the project's wheel holds (``[tool.hatch.build.targets.wheel]``); their imports are
read from the source (``ast``), every one of them, at the top and inside functions. An import is mapped to the
distribution that provides it in this environment (``importlib.metadata.packages_distributions``). A pin in
pyproject.toml is the same as the one in requirements/site.txt, which `make site` installs.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGES: list[str] = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
# Files that run in another Python than the project's, with only what that Python has: their imports are not
# the project's dependencies.
ELSEWHERE = {
    # The causality probe runs with the reviewer's chosen Python (the submission's environment), which supplies
    # numpy to the submitted function.
    Path("generator/review/probe_worker.py"),
}
# Declared but never imported, each with the place that loads it by name.
LOADED_BY_NAME = {
    # mkdocs loads the theme named in mkdocs.yml (`theme: name: material`) through its entry point.
    "mkdocs-material": ("mkdocs.yml", "name: material"),
}


def canonical(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, requirement
    return canonical(match.group(0))


def top_level_imports(source: str) -> set[str]:
    """The top-level names of every absolute import in `source`, wherever it stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def third_party_imports() -> dict[str, set[Path]]:
    """Each third-party top-level module the packages import -> the files importing it."""
    found: dict[str, set[Path]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative in ELSEWHERE:
                continue
            for name in top_level_imports(path.read_text(encoding="utf-8")):
                if name in sys.stdlib_module_names or name in PACKAGES or name == "__future__":
                    continue
                found.setdefault(name, set()).add(relative)
    return found


def declared() -> dict[str, str]:
    """Each declared distribution (canonical name) -> its requirement as written."""
    return {requirement_name(r): r for r in PYPROJECT["project"]["dependencies"]}


def test_the_import_reader_sees_imports_inside_functions_and_leaves_out_relative_ones() -> None:
    source = "import os.path\nfrom a.b import c\nfrom . import d\ndef f():\n    import e.f\n"
    assert top_level_imports(source) == {"os", "a", "e"}


def test_every_third_party_import_of_the_packages_is_a_declared_dependency() -> None:
    providers = importlib.metadata.packages_distributions()
    missing = []
    for name, files in sorted(third_party_imports().items()):
        distributions = {canonical(d) for d in providers.get(name, [])}
        assert distributions, f"{name} (imported by {sorted(map(str, files))}) is not installed here"
        if not distributions & set(declared()):
            missing.append(
                f"{name} ({'/'.join(sorted(distributions))}), imported by {sorted(map(str, files))}"
            )
    assert missing == [], "imported but not in pyproject.toml's dependencies:\n" + "\n".join(missing)


def test_every_declared_dependency_is_imported_or_loaded_by_name() -> None:
    providers = importlib.metadata.packages_distributions()
    imported = {canonical(d) for name in third_party_imports() for d in providers.get(name, [])}
    for name, (file, words) in LOADED_BY_NAME.items():
        assert words in (ROOT / file).read_text(encoding="utf-8"), f"{file} no longer loads {name}"
    unused = sorted(set(declared()) - imported - set(LOADED_BY_NAME))
    assert unused == [], f"declared in pyproject.toml but imported nowhere: {unused}"


def test_a_pinned_dependency_has_the_pin_make_site_installs() -> None:
    pins = {}
    for line in (ROOT / "requirements" / "site.txt").read_text(encoding="utf-8").splitlines():
        requirement = line.split("#")[0].strip()
        if "==" in requirement:
            pins[requirement_name(requirement)] = requirement.split("==")[1].split(";")[0].strip()
    for name, requirement in declared().items():
        pinned = re.search(r"==\s*([^\s;,]+)", requirement)
        if pinned:
            assert pins.get(name) == pinned.group(1), (requirement, pins.get(name))
