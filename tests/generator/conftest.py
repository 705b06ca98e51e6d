from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.paths import Layout
from tests.shared_build import once_per_run

REPO = Layout().root


def project_copy(tmp: Path, *, copy: tuple[str, ...] = ("platform_config",)) -> Layout:
    """A throwaway project root: the parts a test edits are copied, the rest are symlinks to the real tree."""
    root = tmp / "project"
    root.mkdir()
    for name in ("platform_config", "docs", "starter_kit", "scorer_wasm", "mkdocs.yml", "build", "results"):
        source = REPO / name
        if name in copy or any(part.startswith(name + "/") for part in copy):
            if source.is_dir():
                shutil.copytree(source, root / name, symlinks=True)
            else:
                shutil.copy2(source, root / name)
        else:
            (root / name).symlink_to(source)
    return Layout(root=root)


@pytest.fixture
def project(tmp_path: Path) -> Layout:
    return project_copy(tmp_path)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One default build for every test of the run that reads a built site, whichever process runs it; tests
    that edit it work on site_copy()."""
    from generator.build import build_site

    return once_per_run(tmp_path_factory, "built-site", lambda out: build_site(Layout(), out=out))


def site_copy(built: Path, into: Path) -> Path:
    """A copy of a build to plant edits in; the large runtime files are shared, not copied."""
    copy = into / "site"
    shutil.copytree(built, copy, ignore=shutil.ignore_patterns("pyodide", "runtime"))
    for shared in ("pyodide", "runtime"):
        if (built / "assets" / shared).exists():
            (copy / "assets" / shared).symlink_to(built / "assets" / shared)
    return copy
