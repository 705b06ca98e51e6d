"""The PDFs as the current settings print them, read back with pdftotext: for the checks of what the printed text
says (tests/generator/test_programme_facts.py, test_print_wording.py). Printed whether or not the settings have
changed since the issue in force was cut (the issued PDFs themselves are test_pdf's), so a change is checked on
paper before the next issue; the fewest documents that hold every printed page, each once per process."""

from __future__ import annotations

import functools
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.paths import Layout
from generator.pdf.editions import EDITIONS, Document, Edition
from generator.pdf.issue import compose, pdf_cache, render_for_print
from generator.pdf.printer import print_cached
from tests.shared_build import cache_filling


@dataclass(frozen=True)
class DraftText:
    edition: Edition
    document: Document
    language: str  # "en" or "zh"
    text: str  # flat(): whitespace one space (English) or none (Chinese)


def flat(text: str, language: str) -> str:
    return re.sub(r"\s+", "", text) if language == "zh" else re.sub(r"\s+", " ", text)


def covering_documents(edition: Edition) -> list[Document]:
    """The fewest of the edition's documents that print every page some document prints (the book holds three)."""
    chosen: list[Document] = []
    covered: set[str] = set()
    for document in sorted(edition.documents, key=lambda d: -len(d.pages)):
        if not set(document.pages) <= covered:
            chosen.append(document)
            covered |= set(document.pages)
    return chosen


@functools.cache
def draft_texts() -> tuple[DraftText, ...]:
    layout = Layout()
    out = Path(tempfile.mkdtemp(prefix="cvb-draft-pdfs-"))
    found = []
    rendered = render_for_print(layout)
    for edition in EDITIONS:
        language = "zh" if edition.code.startswith("zh") else "en"
        for document in covering_documents(edition):
            path = out / edition.filename(document, "draft")
            # Through the build's cache, whose key is the whole HTML: while the settings are those of the issue in
            # force these are the issue's own documents, which the build has printed already.
            with cache_filling():
                printed = print_cached(compose(layout, rendered, edition, document), cache=pdf_cache(layout))
            path.write_bytes(printed.data)
            raw = subprocess.run(
                ["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True
            ).stdout.decode("utf-8")
            # A line that ends in a hyphen is joined to the next twice: as a word the printer hyphenated (the
            # hyphen dropped) and as a hyphenated word or address that was broken there (kept).
            text = "\n".join(
                flat(re.sub(r"(\w)-\n(\w)", joined, raw), language) for joined in (r"\1\2", r"\1-\2")
            )
            found.append(DraftText(edition, document, language, text))
    return tuple(found)
