"""The mkdocs stage: one edition's Markdown folder → its HTML folder, with mkdocs.yml's settings and this
edition's overrides passed to mkdocs' own `load_config`, and the project plugin on its events."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from generator.pages.editions import EDITIONS, Edition
from generator.paths import Layout
from generator.site_build.edition_cache import cached_build, edition_key
from generator.site_build.plugin import SitePlugin


class SiteGeneratorError(RuntimeError):
    """mkdocs refused the rendered Markdown; the message carries its warnings."""


def run_mkdocs(
    layout: Layout,
    *,
    edition: Edition,
    docs: Path,
    site: Path,
    site_name: str,
    site_url: str,
    outputs: Mapping[str, Sequence[str]],
    plugin: SitePlugin,
    cache: Path | None = None,
) -> bool:
    """Build one edition into `site` (which must not exist). `outputs`: each edition's rendered pages by
    edition code (what the nav and the language switcher may link). With a `cache` folder, an edition whose
    inputs are those of a kept build is copied from it (edition_cache.py); True when it was."""
    overrides = edition_overrides(layout, edition, outputs)
    if cache is None:
        _build(
            layout,
            docs=docs,
            site=site,
            site_name=site_name,
            site_url=site_url,
            overrides=overrides,
            plugin=plugin,
        )
        return False
    key = edition_key(
        docs=docs,
        theme=Path(overrides["theme"]["custom_dir"]),
        settings={
            "mkdocs.yml": layout.mkdocs_config.read_text(encoding="utf-8"),
            "site_name": site_name,
            "site_url": site_url,
            "overrides": overrides,
        },
        plugin={
            "edition": plugin.edition.code,
            "search_dictionary": plugin.search_dictionary,
            "not_found_markdown": plugin.not_found_markdown,
            "search_groups": plugin.search_groups,
        },
    )
    return cached_build(
        cache,
        edition=edition.code,
        key=key,
        site=site,
        build=lambda into: _build(
            layout,
            docs=docs,
            site=into,
            site_name=site_name,
            site_url=site_url,
            overrides=overrides,
            plugin=plugin,
        ),
    )


def _build(
    layout: Layout,
    *,
    docs: Path,
    site: Path,
    site_name: str,
    site_url: str,
    overrides: dict[str, Any],
    plugin: SitePlugin,
) -> None:
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    collected = _Collect()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collected)
    try:
        config = load_config(
            str(layout.mkdocs_config),
            site_name=site_name,
            site_url=site_url,
            docs_dir=str(docs),
            site_dir=str(site),
            **overrides,
        )
        config.plugins["cvb-site"] = plugin
        build(config)
    except Abort as exc:
        warnings = "\n".join(f"  {m}" for m in collected.messages) or f"  {exc}"
        raise SiteGeneratorError(
            f"mkdocs refused the rendered pages, so site/ was left as it was; fix the template concerned:\n{warnings}"
        ) from None
    finally:
        mkdocs_log.removeHandler(collected)


def edition_overrides(
    layout: Layout, edition: Edition, outputs: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """mkdocs.yml's settings that differ by edition: the theme's language, the shared assets' addresses, the
    switcher to the other editions and the navigation of the pages this edition has."""
    settings: dict[str, Any] = yaml.safe_load(layout.mkdocs_config.read_text(encoding="utf-8"))
    theme = dict(settings["theme"])
    theme["custom_dir"] = str(layout.root / theme["custom_dir"])
    theme["language"] = edition.lang
    # Shared assets live once, at the site root; an edition below it reaches them one level up per folder.
    up = "../" * edition.prefix.count("/")
    extra_css = [up + path for path in settings.get("extra_css", [])]
    extra_css.append(up + "assets/editor/editor.css")
    # After the theme's and the site's own styles: Hong Kong glyph shapes wherever a page marks Chinese zh-HK.
    extra_css.append(up + "assets/hk-fonts.css")
    # The site's own scripts live at the root too; an edition below it reaches them one level further up.
    extra_javascript: list[Any] = [
        up + entry if isinstance(entry, str) else entry for entry in settings.get("extra_javascript", [])
    ]
    extra_javascript.append({"path": up + "assets/editor/editor.js", "type": "module"})
    alternate = [
        {
            "name": other.name,
            # Relative to this edition's root; the switcher (docs/overrides/partials/alternate.html) appends
            # the page's own path, so each link goes to the same page in the other edition.
            "link": "../" * edition.prefix.count("/") + other.prefix,
            "lang": other.lang,
            # The page addresses the other edition has; a page it lacks links its home.
            "pages": [
                "" if output == "index.md" else output.removesuffix(".md") + "/"
                for output in outputs[other.code]
            ],
        }
        for other in EDITIONS
    ]
    own = set(outputs[edition.code])
    return {
        "theme": theme,
        "extra_css": extra_css,
        "extra_javascript": extra_javascript,
        "extra": {**settings.get("extra", {}), "alternate": alternate},
        # The navigation lists the pages this edition has.
        "nav": [entry for entry in settings.get("nav", []) if not isinstance(entry, str) or entry in own],
    }


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
