"""The theme version the site's search worker (docs/overrides/assets/javascripts/workers/search.cvb.js) relies
on: its browser behaviour is tests/web/test_search.py's."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
from pathlib import Path

import material
import pytest

from generator.paths import Layout

ROOT = Layout().root
WORKER = ROOT / "docs" / "overrides" / "assets" / "javascripts" / "workers" / "search.cvb.js"
THEME = Path(material.__file__).parent / "templates"


def test_the_search_worker_names_the_pinned_themes_worker() -> None:
    """search.cvb.js runs mkdocs-material's own worker and relies on its internals (its comment says which):
    another version of the theme must be read against it before the pin moves."""
    pinned = re.search(r"^mkdocs-material==(\S+)$", (ROOT / "requirements" / "site.txt").read_text(), re.M)
    assert pinned and pinned.group(1) == "9.8.2" == importlib.metadata.version("mkdocs-material")
    assert "mkdocs-material 9.8.2" in WORKER.read_text(encoding="utf-8")
    theme_worker = re.search(r'const THEME_WORKER = "([^"]+)"', WORKER.read_text(encoding="utf-8"))
    assert theme_worker and (THEME / "assets" / "javascripts" / "workers" / theme_worker.group(1)).is_file()
    # docs/overrides/main.html swaps the theme's worker address for the site's in the theme's settings block.
    named = f'"search": "assets/javascripts/workers/{theme_worker.group(1)}" | url'
    assert named in (THEME / "base.html").read_text(encoding="utf-8")
    assert f'"assets/javascripts/workers/{theme_worker.group(1)}" | url' in (
        ROOT / "docs" / "overrides" / "main.html"
    ).read_text(encoding="utf-8")


def test_the_search_worker_parses_and_names_no_other_origin() -> None:
    text = WORKER.read_text(encoding="utf-8")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE)
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: run `make node` (or install Node 20)")
    # A classic worker script (importScripts), as the browser starts it.
    result = subprocess.run([node, "--check", str(WORKER)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_editors_early_start_still_defers_the_site_search_worker() -> None:
    """early.js holds the theme's search worker back while Python starts, recognising it by its address."""
    early = (ROOT / "scorer_wasm" / "web" / "early.js").read_text(encoding="utf-8")
    found = re.search(r"const SEARCH_WORKER = /(.+)/;", early)
    assert found, "early.js no longer names the search worker's address"
    assert re.search(found.group(1).replace("\\/", "/"), "/zh/assets/javascripts/workers/" + WORKER.name)
