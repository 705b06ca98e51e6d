"""Every published number against the config: pages, PDFs, the kit, example frames, the wheel and its rules.

Each family is one function from (what is published, what the config gives) to drifts, so families can be
added without touching the others. The expected side is rendered from the config with every tracked value
bracketed with its keys; the published side is read from a folder or a URL.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import html as html_lib
import io
import json
import re
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]

from generator import scorer_bridge
from generator.build import Rendered, render_all
from generator.config import Config
from generator.pages.editions import EDITIONS as SITE_EDITIONS
from generator.pages.editions import EN
from generator.pages.editions import Edition as SiteEdition
from generator.pages.frames import frame_problems
from generator.paths import Layout
from generator.pdf.editions import EDITIONS
from generator.pdf.html import markdown_html, site_address
from generator.pdf.issue import PDF_FOLDER, PrintJob, compose, download_rows, pdf_cache, render_for_print
from generator.pdf.printer import print_all
from generator.precompress import COMPRESSIBLE
from generator.publication.rendering import broken_identifiers, markdown_leftovers
from generator.publication.sources import Folder, Published, html_text
from generator.publication.tokens import Drift, Token, drifts, keyed_tokens, plain_tokens, transfer_keys
from generator.rules_export import scoring_rules_json

# The servers the site offers on their own; the same files, and the rest of the kit, are checked inside the zip.
KIT_FILES = {"server.py": "assets/kit/server.py", "server.mjs": "assets/kit/server.mjs"}
MANIFEST = "assets/wheels/manifest.json"
REBUILD = "(the build's precompressed copy: rebuild with make site)"


@dataclass(frozen=True)
class ExpectedPdf:
    job: PrintJob
    data: bytes
    keyed: list[Token]


@dataclass(frozen=True)
class Expected:
    """What the config says the site publishes, with each number's keys."""

    config: Config
    pages: dict[str, str]  # rendered Markdown with keyed brackets
    zh_pages: dict[str, str]  # the Chinese edition's, the same way
    kit: dict[str, str]
    pdfs: list[ExpectedPdf]
    wheel: scorer_bridge.ScorerWheel


def expected(layout: Layout, *, config_dir: Path | None = None, results: Path | None = None) -> Expected:
    from generator.pdf.issue import PrintedPdf, print_jobs

    jobs = print_jobs(layout, config_dir=config_dir)
    pdfs: list[ExpectedPdf] = []
    printed: list[PrintedPdf] = []
    keyed_docs: dict[tuple[str, str], list[Token]] = {}
    marked = render_for_print(layout, config_dir=config_dir, keys=True)
    for edition in EDITIONS:
        for document in edition.documents:
            keyed_docs[edition.code, document.slug] = keyed_tokens(
                html_text(compose(layout, marked, edition, document))
            )
    for job, pdf in zip(jobs, print_all([job.html for job in jobs], cache=pdf_cache(layout)), strict=True):
        printed.append(PrintedPdf(job.filename, pdf.data))
        pdfs.append(ExpectedPdf(job, pdf.data, keyed_docs[job.edition.code, job.document.slug]))
    rendered: Rendered = render_all(
        layout,
        config_dir=config_dir,
        mark=True,
        keys=True,
        issue_pdfs=download_rows(printed),
        pdf_files=printed,
        results=results,
    )
    assert rendered.wheel is not None
    return Expected(rendered.config, rendered.pages, rendered.zh_pages, rendered.kit, pdfs, rendered.wheel)


def page_path(page: str, *, edition: SiteEdition = EN) -> str:
    """The path a rendered page is served at, relative to the site root (directory URLs)."""
    return edition.prefix + site_address(page, "").lstrip("/")


def edition_pages(exp: Expected) -> Iterator[tuple[SiteEdition, str, str]]:
    """Every page of every edition: (edition, rendered page name, its keyed Markdown)."""
    for edition in SITE_EDITIONS:
        pages = exp.pages if edition.code == EN.code else exp.zh_pages
        for page, markdown_text in pages.items():
            yield edition, page, markdown_text


def page_drifts(data: bytes, markdown_text: str, *, where: str) -> list[Drift]:
    """A served page's text against the text its keyed Markdown gives."""
    return list(_page_drifts(data, markdown_text, where))


# A function of its arguments alone, kept for a site's pages: a process that checks several copies of a site
# (the tests plant one change in each) reads each unchanged page once.
@functools.lru_cache(maxsize=256)
def _page_drifts(data: bytes, markdown_text: str, where: str) -> tuple[Drift, ...]:
    html, _ = markdown_html(markdown_text, anchor_prefix="")
    want = keyed_tokens(html_text(html))
    got = plain_tokens(html_text(data.decode("utf-8"), article_only=True))
    return tuple(drifts(got, want, where=where))


def check_pages(published: Published, exp: Expected) -> Iterator[Drift]:
    for edition, page, markdown_text in edition_pages(exp):
        path = page_path(page, edition=edition)
        where = f"{edition.code} page /{path}"
        data = published.read(path)
        if data is None:
            yield Drift(where, "the page itself", "(missing)", page, "(the build's page list)")
            continue
        yield from page_drifts(data, markdown_text, where=where)


def _decompress(suffix: str, data: bytes) -> bytes | None:
    try:
        return gzip.decompress(data) if suffix == ".gz" else bytes(brotli.decompress(data))
    except (OSError, EOFError, brotli.error):
        return None


def check_precompressed(published: Published, exp: Expected) -> Iterator[Drift]:
    """Each .gz and .br copy a host may send instead of its original decompresses to that original; a copy of a
    page that does not is read as the page it stands for, so its numbers are reported like the page's."""
    if not isinstance(published, Folder):
        return  # a URL serves whichever copy the host picks; the original's check covers what it sends
    pages = {page_path(page, edition=edition): (edition, md) for edition, page, md in edition_pages(exp)}
    for copy in sorted([*published.root.rglob("*.gz"), *published.root.rglob("*.br")]):
        original = copy.with_suffix("")
        if original.suffix not in COMPRESSIBLE:
            continue  # a file served as it is (the gzipped start-up snapshot), not a copy of another
        shown = str(copy.relative_to(published.root))
        where = f"precompressed /{shown}"
        inflated = _decompress(copy.suffix, copy.read_bytes())
        if inflated is None:
            yield Drift(where, f"a {copy.suffix} copy that does not decompress", "(corrupt)", "", REBUILD)
            continue
        if not original.is_file():
            yield Drift(where, "a compressed copy of no file", shown, "(nothing)", REBUILD)
            continue
        if inflated == original.read_bytes():
            continue
        relative = str(original.relative_to(published.root))
        page = pages.get(relative.removesuffix("index.html"))
        found = page_drifts(inflated, page[1], where=f"{page[0].code} page /{shown}") if page else []
        yield from found
        if not found:
            yield Drift(
                where,
                f"decompresses to other bytes than /{relative}",
                hashlib.sha256(inflated).hexdigest(),
                hashlib.sha256(original.read_bytes()).hexdigest(),
                REBUILD,
            )


_FOOTER = re.compile(r"^\s*\S+ \d+ \S+ \d+\s*$")
_LEADER_PAGE = re.compile(r"(?:\. ?){2,}[\s\d]*$")


@functools.lru_cache(maxsize=16)
def pdf_text(data: bytes) -> str:
    """pdftotext's text without what only paginates (page footers, page numbers of the contents).

    A function of the bytes alone, kept for the issue's documents: a process that checks several copies of a site
    (the tests plant one change in each) converts each PDF once."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        text = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", handle.name, "-"], capture_output=True, check=True
        ).stdout.decode("utf-8")
    lines = [line for line in text.splitlines() if not _FOOTER.match(line)]
    return "\n".join(_LEADER_PAGE.sub("", line) for line in lines)


def check_issue_records(published: Published, exp: Expected) -> Iterator[Drift]:
    """A published PDF of a recorded issue has the bytes its record pins: an issue never changes."""
    issues = exp.config.platform.issues
    if isinstance(published, Folder):
        names = sorted(p.name for p in (published.root / PDF_FOLDER).glob("*.pdf"))
    else:
        names = sorted({name for issue in issues for name in issue.pdfs or {}})
    for index, issue in enumerate(issues):
        day = issue.issued.isoformat()
        for name in names:
            if not name.endswith(f"-{day}.pdf") or issue.pdfs is None:
                continue
            data = published.read(f"{PDF_FOLDER}/{name}")
            if data is None:
                continue
            where = f"{'zh' if '-zh-' in name else 'en'} PDF {name}"
            recorded = issue.pdfs.get(name)
            digest = hashlib.sha256(data).hexdigest()
            if recorded is None:
                yield Drift(
                    where,
                    f"a PDF the issue of {day} does not list",
                    name,
                    "",
                    f"platform.issues[{index}].pdfs",
                )
            elif digest != recorded:
                yield Drift(
                    where,
                    f"sha256 of the PDF, against the record of the issue of {day}",
                    digest,
                    recorded,
                    f"platform.issues[{index}].pdfs.{name}",
                )


def check_pdfs(published: Published, exp: Expected) -> Iterator[Drift]:
    if isinstance(published, Folder):
        # A folder can be listed (a URL cannot): a PDF of another issue left beside these is reported too.
        current = {pdf.job.filename for pdf in exp.pdfs}
        issued = exp.config.platform.issues[-1].issued.isoformat()
        for extra in sorted((published.root / PDF_FOLDER).glob("*.pdf")):
            if extra.name not in current:
                yield Drift(
                    f"PDF {extra.name}",
                    "a PDF that is not of the issue in force",
                    extra.name,
                    issued,
                    "platform.issues[-1].issued",
                )
    for pdf in exp.pdfs:
        name = pdf.job.filename
        where = f"{pdf.job.edition.code} PDF {name}"
        data = published.read(f"{PDF_FOLDER}/{name}")
        if data is None:
            issued = exp.config.platform.issues[-1].issued.isoformat()
            yield Drift(
                where, "the PDF of the issue in force", "(missing)", issued, "platform.issues[-1].issued"
            )
            continue
        if hashlib.sha256(data).digest() == hashlib.sha256(pdf.data).digest():
            continue
        want = transfer_keys(plain_tokens(pdf_text(pdf.data)), pdf.keyed)
        found = list(drifts(plain_tokens(pdf_text(data)), want, where=where))
        yield from found
        if not found:
            yield Drift(
                where,
                "bytes differ though every number agrees",
                hashlib.sha256(data).hexdigest(),
                hashlib.sha256(pdf.data).hexdigest(),
                "(rebuild the PDFs: make site)",
            )


def check_kit(published: Published, exp: Expected) -> Iterator[Drift]:
    for name, path in KIT_FILES.items():
        data = published.read(path)
        where = f"kit /{path}"
        if data is None:
            yield Drift(where, "the starter-kit file", "(missing)", path, "(the build's kit)")
            continue
        yield from drifts(plain_tokens(data.decode("utf-8")), keyed_tokens(exp.kit[name]), where=where)
    zip_path = f"assets/kit/{exp.config.site.starter_kit.zip_name}"
    data = published.read(zip_path)
    if data is None:
        yield Drift(f"kit /{zip_path}", "the starter kit", "(missing)", zip_path, "(the build's kit)")
        return
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = set(archive.namelist())
        for name in sorted(exp.kit):
            where = f"kit /{zip_path}: {name}"
            if name not in members:
                yield Drift(where, "a file of the kit", "(missing)", name, "(the build's kit)")
                continue
            text = archive.read(name).decode("utf-8")
            yield from drifts(plain_tokens(text), keyed_tokens(exp.kit[name]), where=where)


# Code blocks inside list items lose their language class, so every <pre> is tried as JSON.
_JSON_BLOCK = re.compile(r"<pre[^>]*>(.*?)</pre>", re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


def published_frames(html: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, match in enumerate(_JSON_BLOCK.finditer(html), start=1):
        text = html_lib.unescape(_TAGS.sub("", match.group(1)))
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            yield number, value


def check_frames(published: Published, exp: Expected) -> Iterator[Drift]:
    """Each example frame on a page conforms to its schema (frames.yaml) for at least one of its pillars."""
    frames = exp.config.frames.root
    for edition, page, _ in edition_pages(exp):
        data = published.read(page_path(page, edition=edition))
        if data is None:
            continue
        for number, frame in published_frames(data.decode("utf-8")):
            kind = frame["type"]
            where = (
                f"{edition.code} page /{page_path(page, edition=edition)}, example frame {number} ({kind})"
            )
            schema = frames.get(kind)
            if schema is None:
                yield Drift(where, "a frame type the schemas do not define", kind, "", "frames")
                continue
            attempts = [
                frame_problems(schema.fields, frame, pillar=pillar, where=kind) for pillar in schema.pillars
            ]
            best = min(attempts, key=len)
            for problem in best:
                field = re.search(r"field '([^']+)'", problem)
                key = f"frames.{kind}.fields.{field.group(1)}" if field else f"frames.{kind}"
                shown = json.dumps(frame.get(field.group(1)) if field else frame, ensure_ascii=False)
                yield Drift(where, problem, shown, "a value of the type the schema names", key)


def check_wheel(published: Published, exp: Expected) -> Iterator[Drift]:
    """The wheel the editor loads is the wheel the server installs, and carries the config's scoring rules."""
    server = exp.wheel
    raw = published.read(MANIFEST)
    if raw is None:
        yield Drift(
            f"/{MANIFEST}", "the editor's wheel manifest", "(missing)", server.path.name, "(build/wheels)"
        )
        return
    manifest = json.loads(raw)
    name = manifest["scorer"]
    where = f"editor wheel /assets/wheels/{name}"
    data = published.read(f"assets/wheels/{name}")
    if data is None:
        yield Drift(where, "the wheel the manifest names", "(missing)", server.path.name, "(build/wheels)")
        return
    digest = hashlib.sha256(data).hexdigest()
    if digest != manifest["sha256"]:
        yield Drift(
            where, "the manifest's sha256 of the wheel", manifest["sha256"], digest, "(the wheel's bytes)"
        )
    if digest != server.sha256:
        yield Drift(
            where,
            "sha256 of the wheel the editor loads",
            digest,
            server.sha256,
            "the wheel the server installs",
        )
    yield from check_rules(data, exp.config, where=where)


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def check_rules(wheel: bytes, config: Config, *, where: str) -> Iterator[Drift]:
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        try:
            carried = json.loads(archive.read(scorer_bridge.PACKAGED_RULES))
        except KeyError:
            yield Drift(
                where, "the scoring rules it carries", "(none)", scorer_bridge.PACKAGED_RULES, "scoring"
            )
            return
    want = dict(_leaves(json.loads(scoring_rules_json(config))))
    got = dict(_leaves(carried))
    for path in sorted(set(want) | set(got)):
        if want.get(path) != got.get(path):
            yield Drift(
                where,
                f"scoring rules carried by the wheel, {path}",
                json.dumps(got.get(path)),
                json.dumps(want.get(path)),
                f"scoring rules: {path}",
            )


def protocol_identifiers(config: Config) -> set[str]:
    """The protocol's names a reader types or matches on: frame types, their field names, failure codes."""
    frames = config.frames.root
    names = set(frames) | {field for frame in frames.values() for field in frame.fields}
    return names | {failure.code for failure in config.failures.root}


RENDERING = "(rendering: fix the template or docs/print/print.css)"


def _code_listings(html: str) -> list[str]:
    return [html_lib.unescape(_TAGS.sub("", m.group(1))) for m in _CODE.finditer(html)]


_CODE = re.compile(r"<(?:pre|code)[^>]*>(.*?)</(?:pre|code)>", re.DOTALL)


def check_rendering(published: Published, exp: Expected) -> Iterator[Drift]:
    """No Markdown left as text on any page or in any PDF, and no protocol identifier broken in a PDF."""
    for edition, page, _ in edition_pages(exp):
        path = page_path(page, edition=edition)
        data = published.read(path)
        if data is not None:
            text = html_text(data.decode("utf-8"), article_only=True, code=False)
            for found in markdown_leftovers(text):
                yield Drift(f"{edition.code} page /{path}", found.text, found.what, "(layout)", RENDERING)
    names = protocol_identifiers(exp.config)
    for pdf in exp.pdfs:
        data = published.read(f"{PDF_FOLDER}/{pdf.job.filename}")
        if data is None:
            continue  # check_pdfs reports it
        where = f"{pdf.job.edition.code} PDF {pdf.job.filename}"
        text = pdf_text(data)
        for found in markdown_leftovers(text, skip=_code_listings(pdf.job.html)):
            yield Drift(where, found.text, found.what, "(layout)", RENDERING)
        for found in broken_identifiers(text, names):
            yield Drift(where, found.text, found.what, "(one line)", RENDERING)


FAMILIES: tuple[Callable[[Published, Expected], Iterator[Drift]], ...] = (
    check_pages,
    check_precompressed,
    check_pdfs,
    check_issue_records,
    check_kit,
    check_frames,
    check_wheel,
    check_rendering,
)


def publication_drifts(
    layout: Layout,
    published: Published,
    *,
    config_dir: Path | None = None,
    results: Path | None = None,
    against: Expected | None = None,
) -> list[Drift]:
    """Every drift of `published` from the config (`against`: what expected() gave for the same arguments)."""
    exp = against or expected(layout, config_dir=config_dir, results=results)
    return [drift for family in FAMILIES for drift in family(published, exp)]
