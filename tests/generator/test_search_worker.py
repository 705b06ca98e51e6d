"""The theme version the site's search worker (docs/overrides/assets/javascripts/workers/search.cvb.js) relies
on: its browser behaviour is tests/web/test_search.py's."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import material

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
