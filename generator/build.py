"""`cvb build`: the stages of generator/site_build/ run in order, into a temporary folder swapped in whole."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator import scorer_bridge
from generator.atomic import swap_in
from generator.pages.editions import EN, ZH
from generator.paths import ROOT, Layout
from generator.pdf.issue import download_rows, print_issue
from generator.precompress import precompress_tree
from generator.rules_export import scoring_rules_json
from generator.site_build.assets import StaleSnapshotError, StaleWheelError, start_up_snapshot
from generator.site_build.docs_tree import write_pages, write_root_docs
from generator.site_build.markdown import Rendered, load_sources, render_all
from generator.site_build.mkdocs_run import SiteGeneratorError, run_mkdocs
from generator.site_build.plugin import SitePlugin
from generator.site_build.search import SYNONYMS, SynonymsError, load_synonyms, search_groups, search_words
from generator.site_build.standings import BadRecordsError

# What the commands and the tests import from here: the build's entry point and the errors it reports.
__all__ = [
    "BadRecordsError",
    "Rendered",
    "SiteGeneratorError",
    "StaleSnapshotError",
    "StaleWheelError",
    "SynonymsError",
    "build_site",
    "render_all",
    "search_words",
    "start_up_snapshot",
]


def build_site(
    layout: Layout,
    *,
    out: Path | None = None,
    config_dir: Path | None = None,
    site_url: str | None = None,
    results: Path | None = None,
    without_bad_records: bool | None = None,
    phases: dict[str, float] | None = None,
    cache: bool = True,
) -> Path:
    """Build the whole site into a fresh folder and swap it in; on any error `out` is left as it was.

    `site_url` defaults to the config's public base URL. Serving the site elsewhere (a loopback port) needs that
    address instead: mkdocs-material keeps site_url's port when it decides which links are the site's own.
    `phases`, when given, receives each stage's wall time in seconds, by name (bench/build.py reads them).
    With `cache`, an edition whose mkdocs inputs are unchanged is copied from build/cache/mkdocs/.
    """
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    target = (out or layout.site).resolve()

    @contextmanager
    def phase(name: str) -> Iterator[None]:
        started = time.perf_counter()
        yield
        if phases is not None:
            phases[name] = time.perf_counter() - started

    # The config read and the kit rendered once; the pages rendered from them for print, then for the web.
    with phase("sources"):
        sources = load_sources(layout, config_dir=config_dir)
    # The PDFs are printed first: the changelog lists them with their sizes and hashes.
    with phase("pdfs"):
        pdfs = print_issue(layout, sources=sources)
    with phase("markdown"):
        rendered = render_all(
            layout,
            sources=sources,
            issue_pdfs=download_rows(pdfs),
            pdf_files=pdfs,
            results=results,
            without_bad_records=without_bad_records,
        )
    assert rendered.wheel is not None  # rendered for the web, so the wheel was found
    stale = scorer_bridge.stale_wheel_problem(rendered.wheel, scoring_rules_json(rendered.config))
    if stale:
        raise StaleWheelError(stale)
    snapshot = start_up_snapshot(layout, rendered.wheel)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".cvb-build-", dir=target.parent))
    try:
        with phase("docs"):
            write_root_docs(layout, work / "docs", rendered, snapshot)
            write_pages(work / "docs-zh", rendered.zh_pages)
        dictionary = search_words(rendered.config, [*rendered.pages.values(), *rendered.zh_pages.values()])
        synonyms = load_synonyms(
            SYNONYMS.read_text(encoding="utf-8"),
            source=SYNONYMS.relative_to(ROOT).as_posix(),
            editions=(EN.code, ZH.code),
        )
        base_url = site_url or rendered.config.platform.urls.base + "/"
        # Each edition's pages as rendered (the standings and entrants' pages come from the records).
        outputs = {EN.code: tuple(rendered.pages), ZH.code: tuple(rendered.zh_pages)}
        site = work / "site"
        editions_cache = layout.root / "build" / "cache" / "mkdocs" if cache else None
        with phase("mkdocs:en"):
            run_mkdocs(
                layout,
                edition=EN,
                docs=work / "docs",
                site=site,
                site_name=rendered.config.platform.programme.name,
                site_url=base_url,
                outputs=outputs,
                plugin=SitePlugin(
                    edition=EN,
                    search_dictionary=dictionary,
                    not_found_markdown=None,
                    search_groups=search_groups(rendered.config, edition=EN.code, synonyms=synonyms),
                ),
                cache=editions_cache,
            )
        with phase("mkdocs:zh"):
            run_mkdocs(
                layout,
                edition=ZH,
                docs=work / "docs-zh",
                site=site / ZH.prefix.rstrip("/"),
                site_name=rendered.config.glossary.zh_text.get(
                    "platform.programme.name", rendered.config.platform.programme.name
                ),
                site_url=base_url + ZH.prefix,
                outputs=outputs,
                plugin=SitePlugin(
                    edition=ZH,
                    search_dictionary=dictionary,
                    not_found_markdown=rendered.zh_not_found,
                    search_groups=search_groups(rendered.config, edition=ZH.code, synonyms=synonyms),
                ),
                cache=editions_cache,
            )
        with phase("precompress"):
            precompress_tree(site, cache=layout.precompressed_cache)
        with phase("swap"):
            swap_in(site, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target
