"""Print the current issue's PDFs: every document of every edition, named with the issue date.

The shell around html.py (pure) and printer.py (WeasyPrint): it renders the pages for print, composes each
document, prints it (through the cache) and reports what it wrote.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator import scorer_bridge
from generator.config import Config, load_config
from generator.issue_state import unreleased
from generator.pages.derive import tracked
from generator.paths import Layout
from generator.pdf.editions import EDITIONS, Document, Edition
from generator.pdf.html import Section, anchor_prefixes, listings_once, section

# Re-exported: the publication check reads them here.
from generator.pdf.printed import PDF_FOLDER as PDF_FOLDER
from generator.pdf.printed import PrintedPdf as PrintedPdf
from generator.pdf.printer import print_all
from generator.provenance import Num, Text
from generator.site_build.markdown import Rendered, Sources, load_sources, render_print

PRINT_TEMPLATES = ("document.html.j2", "editor.html.j2")


@dataclass(frozen=True)
class Artefact:
    """One built file the site offers for download; the Downloads list and the changelog show these."""

    path: Path
    size: int
    sha256: str

    @property
    def name(self) -> str:
        return self.path.name

    @classmethod
    def of(cls, path: Path) -> Artefact:
        data = path.read_bytes()
        return cls(path, len(data), hashlib.sha256(data).hexdigest())


@dataclass(frozen=True)
class PrintJob:
    edition: Edition
    document: Document
    filename: str
    html: str


def print_dir(layout: Layout) -> Path:
    return layout.root / "docs" / "print"


def _html_env(layout: Layout) -> jinja2.Environment:
    def finalize(value: object) -> object:
        return str(value) if isinstance(value, Num | Text) else value

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(print_dir(layout))),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
    )
    env.filters["css_string"] = css_string
    return env


def css_string(value: object) -> Markup:
    """A quoted CSS string (HTML escaping does not apply inside <style>); `<` is escaped so no value ends it."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", " ")
    return Markup(f'"{text}"')


def render_for_print(
    layout: Layout,
    *,
    config_dir: Path | None = None,
    keys: bool = False,
    sources: Sources | None = None,
) -> Rendered:
    """The site's own pages of both editions, each with the interactive editor replaced by its build-time
    drawing and a note, in that edition's words, of where the web edition is (from `sources` when given: the
    build's, which its web pages are rendered from too). One render serves every document of every edition."""
    env = _html_env(layout)
    notes = {edition.code: edition.web_note for edition in EDITIONS}

    def editors(config: Config, sample: scorer_bridge.EditorSample, language: str) -> tuple[str, str]:
        def one(compact: bool) -> str:
            return env.get_template("editor.html.j2").render(
                web_note=notes[language],
                address=config.platform.urls.methodology,
                view_html=sample.html,
                compact=compact,
            )

        return one(False), one(True)

    return render_print(sources or load_sources(layout, config_dir=config_dir, mark=keys, keys=keys), editors)


def current_issue(config: Config) -> Any:
    return tracked(config).platform.issues[len(config.platform.issues) - 1]


def compose(layout: Layout, rendered: Rendered, edition: Edition, document: Document) -> str:
    """The full HTML of one document: cover, contents with page numbers, then each page."""
    config = rendered.config
    pages = tuple(edition.prefix + page for page in document.pages)
    # The Chinese edition's pages are the render's zh_pages, under the same names.
    source = rendered.zh_pages if edition.prefix else rendered.pages
    anchors = anchor_prefixes(pages)
    base = config.platform.urls.base
    sections: list[Section] = listings_once(
        [
            section(
                source[page.removeprefix(edition.prefix)],
                page=page,
                anchors=anchors,
                base=base,
                lang=edition.lang,
            )
            for page in pages
        ],
        note=edition.listing_above,
    )
    stylesheet = (print_dir(layout) / "print.css").read_text(encoding="utf-8")
    return (
        _html_env(layout)
        .get_template("document.html.j2")
        .render(
            edition=edition,
            document=document,
            programme=tracked(config).platform.programme,
            issue=current_issue(config),
            sections=sections,
            stylesheet=stylesheet,
        )
    )


def print_jobs(
    layout: Layout, *, config_dir: Path | None = None, sources: Sources | None = None
) -> list[PrintJob]:
    """The documents of the issue in force; none when the settings have changed since it was cut (an issue's
    PDFs never change under its date: the changelog says so, and the changes wait for the next issue)."""
    config = sources.config if sources is not None else load_config(config_dir or layout.config)
    if unreleased(config):
        return []
    jobs: list[PrintJob] = []
    rendered = render_for_print(layout, config_dir=config_dir, sources=sources)
    issued = str(rendered.config.platform.issues[-1].issued)
    for edition in EDITIONS:
        for document in edition.documents:
            html = compose(layout, rendered, edition, document)
            jobs.append(PrintJob(edition, document, edition.filename(document, issued), html))
    return jobs


def pdf_cache(layout: Layout) -> Path:
    return layout.root / "build" / "pdf-cache"


def print_issue(
    layout: Layout, *, config_dir: Path | None = None, cache: bool = True, sources: Sources | None = None
) -> list[PrintedPdf]:
    """Every PDF of the current issue, in memory (through the cache unless cache=False); those not cached are
    printed concurrently (printer.print_all)."""
    jobs = print_jobs(layout, config_dir=config_dir, sources=sources)
    printed = print_all([job.html for job in jobs], cache=pdf_cache(layout) if cache else None)
    return [PrintedPdf(job.filename, pdf.data) for job, pdf in zip(jobs, printed, strict=True)]


def build_issue_pdfs(
    layout: Layout, out: Path, *, config_dir: Path | None = None, cache: bool = True
) -> list[Artefact]:
    """Write the current issue's PDFs into `out` and return them with their sizes and hashes."""
    out.mkdir(parents=True, exist_ok=True)
    # A PDF of another issue left here would be served as if it were current.
    for old in out.glob("cvb-*.pdf"):
        old.unlink()
    artefacts = []
    for pdf in print_issue(layout, config_dir=config_dir, cache=cache):
        path = out / pdf.name
        path.write_bytes(pdf.data)
        artefacts.append(Artefact(path, pdf.size, pdf.sha256))
    return artefacts


def size_text(size: int) -> str:
    return f"{size / 1000:,.0f} kB" if size >= 1000 else f"{size} bytes"


def download_rows(artefacts: Sequence[Artefact | PrintedPdf]) -> list[dict[str, str]]:
    """What a page shows of each PDF: a link, its size and its sha256 (the page links it relative to the root)."""
    return [
        {"name": a.name, "href": f"{PDF_FOLDER}/{a.name}", "size": size_text(a.size), "sha256": a.sha256}
        for a in artefacts
    ]
