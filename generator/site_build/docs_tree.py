"""The docs-folder stage: each edition's rendered Markdown written where mkdocs reads it; beside the English
pages (the site root), the editor's assets and every download."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from generator.paths import Layout
from generator.site_build.assets import StartUpSnapshot, copy_assets
from generator.site_build.markdown import Rendered


def write_pages(docs: Path, pages: Mapping[str, str]) -> None:
    docs.mkdir()
    for name, text in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")


def write_root_docs(layout: Layout, docs: Path, rendered: Rendered, snapshot: StartUpSnapshot) -> None:
    """The English edition's folder, which becomes the site root: its pages, the shared assets, the downloads."""
    assert rendered.wheel is not None  # rendered for the web, so the wheel was found
    write_pages(docs, rendered.pages)
    copy_assets(layout, docs / "assets", rendered.wheel, snapshot)
    for artefact in rendered.artefacts:
        destination = docs / artefact.path
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(artefact.data)
