"""Rendered page Markdown → the HTML of one printed document. Pure: strings in, strings out.

The Markdown is the very text the site is built from (site_build.markdown.render_all), so a PDF and its page can
never say different things; only the extensions differ where paper needs another form (tabs laid out one after
the other, code without a highlighter's colours).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import markdown
from markdown.extensions.toc import slugify as _slugify

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_HREF = re.compile(r'href="([^"]*)"')
_ID = re.compile(r'\bid="([^"]*)"')
# Han characters, CJK punctuation and full-width forms: a run of these is Chinese text inside an English page.
_HAN_RUN = re.compile(
    r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]+"
)
_TAG = re.compile(r"(<[^>]*>)")
# A code span that is one identifier (a frame type, field name or failure code): paper prints it on one line.
_IDENTIFIER_CODE = re.compile(r"<code>([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)</code>")
_NO_WRAP_IN = ("textarea", "title", "script", "style")


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    text: str


@dataclass(frozen=True)
class Section:
    """One page inside a printed document: its anchor, its HTML and the headings the contents list."""

    id: str
    html: str
    headings: tuple[Heading, ...]


def page_anchor(page: str) -> str:
    """The anchor of a page's start inside a document: `methodology.md` → `methodology`."""
    return page.rsplit("/", 1)[-1].removesuffix(".md").replace("index", "guide") or "guide"


def site_address(page: str, base: str) -> str:
    """Where the site serves a rendered page (directory URLs): `methodology.md` → `<base>/methodology/`."""
    stem = page.removesuffix(".md")
    if stem == "index":
        return f"{base}/"
    if stem.endswith("/index"):
        return f"{base}/{stem.removesuffix('index')}"
    return f"{base}/{stem}/"


def markdown_html(text: str, *, anchor_prefix: str) -> tuple[str, tuple[Heading, ...]]:
    """Python-Markdown with the site's extensions, ids prefixed so pages can share one document."""
    md = markdown.Markdown(
        extensions=[
            "admonition",
            "attr_list",
            "md_in_html",
            "tables",
            "toc",
            "pymdownx.superfences",
            "pymdownx.highlight",
            "pymdownx.inlinehilite",
            "pymdownx.tabbed",
        ],
        extension_configs={
            "toc": {"slugify": lambda value, sep: anchor_prefix + _slugify(value, sep), "permalink": False},
            # Paper has no colours to spare and no tabs to click: plain code, tabs one after the other.
            "pymdownx.highlight": {"use_pygments": False},
            "pymdownx.tabbed": {"alternate_style": False},
        },
        output_format="html",
    )
    html = md.convert(_FRONT_MATTER.sub("", text, count=1))
    headings: list[Heading] = []

    def walk(tokens: list[dict[str, object]]) -> None:
        for token in tokens:
            headings.append(Heading(int(str(token["level"])), str(token["id"]), str(token["name"])))
            children = token.get("children")
            if isinstance(children, list):
                walk(children)

    walk(getattr(md, "toc_tokens", []))
    return html, tuple(headings)


def rewrite_links(html: str, *, page: str, anchors: Mapping[str, str], base: str) -> str:
    """Links to a page in this document become internal links; links to anything else point at the site.

    `anchors` maps each page printed in the document to its anchor prefix."""
    own = anchors[page]

    def target(match: re.Match[str]) -> str:
        href = match.group(1)
        if href.startswith(("http://", "https://", "mailto:")):
            return match.group(0)
        if href.startswith("#"):
            return f'href="#{own}{href[1:]}"'
        path, _, fragment = href.partition("#")
        if path in anchors:
            prefix = anchors[path]
            return f'href="#{prefix}{fragment}"' if fragment else f'href="#{page_anchor(path)}"'
        address = site_address(path, base) if path.endswith(".md") else f"{base}/{path}"
        return f'href="{address}#{fragment}"' if fragment else f'href="{address}"'

    return _HREF.sub(target, html)


def keep_identifiers_whole(html: str) -> str:
    """Identifiers in code spans are classed so print.css keeps each on one line: a reader matches
    `closed_before_response` as one word, and a table cell broke it anywhere (`closed_before` / `_response`)."""
    return _IDENTIFIER_CODE.sub(r'<code class="cvb-identifier">\1</code>', html)


def mark_chinese(html: str, *, lang: str) -> str:
    """Wrap runs of Chinese text in `lang` so they are set with the Hong Kong forms of Noto CJK."""
    parts = _TAG.split(html)
    out: list[str] = []
    skip: str | None = None
    for part in parts:
        if part.startswith("<"):
            name = part[1:].split(None, 1)[0].rstrip(">/").lower() if len(part) > 2 else ""
            if skip is None and name in _NO_WRAP_IN:
                skip = name
            elif skip is not None and name == f"/{skip}":
                skip = None
            out.append(part)
        elif skip is None:
            out.append(_HAN_RUN.sub(lambda m: f'<span lang="{lang}">{m.group(0)}</span>', part))
        else:
            out.append(part)
    return "".join(out)


def section(markdown_text: str, *, page: str, anchors: Mapping[str, str], base: str, lang: str) -> Section:
    """One page's printable HTML. English editions mark their Chinese runs; Chinese editions are all zh-HK."""
    prefix = anchors[page]
    html, headings = markdown_html(markdown_text, anchor_prefix=prefix)
    html = rewrite_links(html, page=page, anchors=anchors, base=base)
    # Tab sets number their inputs from one on every page; pages sharing a document need their own.
    html = html.replace("__tabbed_", f"__tabbed_{prefix}")
    html = keep_identifiers_whole(html)
    if not lang.startswith("zh"):
        html = mark_chinese(html, lang="zh-HK")
    return Section(id=page_anchor(page), html=html, headings=headings)


_LISTING = re.compile(r"<pre([^>]*)>(.*?)</pre>", re.DOTALL)
# A block shorter than this (an example frame, a command) is part of its paragraph's argument, and stays.
LISTING_LINES = 20


def listings_once(sections: list[Section], *, note: str) -> list[Section]:
    """A document carries each long code listing once: where the same listing comes again (the servers are on
    the guide and on the integration page), a link to the first takes its place, with that page's number."""
    first: dict[str, str] = {}
    out: list[Section] = []
    for part in sections:

        def once(match: re.Match[str], section_id: str = part.id) -> str:
            body = match.group(2)
            if body.count("\n") < LISTING_LINES:
                return match.group(0)
            if body in first:
                return f'<p class="cvb-listing-ref"><a href="#{first[body]}">{note}</a></p>'
            first[body] = f"{section_id}--listing-{len(first) + 1}"
            return f'<pre id="{first[body]}"{match.group(1)}>{body}</pre>'

        out.append(Section(part.id, _LISTING.sub(once, part.html), part.headings))
    return out


def anchor_prefixes(pages: tuple[str, ...]) -> dict[str, str]:
    return {page: f"{page_anchor(page)}--" for page in pages}


def ids_of(html: str) -> set[str]:
    return set(_ID.findall(html))


def internal_targets(html: str) -> set[str]:
    return {href[1:] for href in _HREF.findall(html) if href.startswith("#") and len(href) > 1}
