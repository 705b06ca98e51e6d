"""Where the project's inputs and build products live, relative to the repository root."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Layout:
    root: Path = ROOT

    @property
    def config(self) -> Path:
        return self.root / "platform_config"

    @property
    def templates(self) -> Path:
        return self.root / "docs" / "templates"

    @property
    def static_assets(self) -> Path:
        return self.root / "docs" / "assets"

    @property
    def kit_templates(self) -> Path:
        return self.root / "starter_kit" / "templates"

    @property
    def editor_web(self) -> Path:
        return self.root / "scorer_wasm" / "web"

    @property
    def editor_examples(self) -> Path:
        return self.root / "docs" / "examples"

    @property
    def mkdocs_config(self) -> Path:
        return self.root / "mkdocs.yml"

    @property
    def wheels(self) -> Path:
        return self.root / "build" / "wheels"

    @property
    def clips(self) -> Path:
        return self.root / "build" / "clips"

    @property
    def pyodide(self) -> Path:
        return self.root / "build" / "pyodide"

    @property
    def snapshot(self) -> Path:
        return self.root / "build" / "snapshot"

    @property
    def site(self) -> Path:
        return self.root / "site"

    @property
    def precompressed_cache(self) -> Path:
        return self.root / "build" / "cache" / "precompressed"

    def template_dirs(self) -> list[Path]:
        return [self.templates, self.kit_templates, self.editor_web]
