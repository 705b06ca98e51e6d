"""The glossary's Hong Kong term list (glossary.yaml `hong_kong_terms`) holds on every Chinese page (as rendered,
as built HTML, as the print documents and as any Chinese PDF the build printed), in the editor's Chinese strings
and in the drawing's Chinese words: no Taiwanese or Mainland form it replaces."""

from __future__ import annotations

import functools
import html
import re
import subprocess
from pathlib import Path

import pytest

from generator.build import Rendered, render_all
from generator.config import load_config
from generator.paths import Layout
from generator.pdf.editions import CHINESE
from generator.pdf.issue import compose, render_for_print

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
FORBIDDEN = {form: term.use for term in CONFIG.glossary.hong_kong_terms for form in term.instead_of}


@functools.cache
def rendered() -> Rendered:
    return render_all(LAYOUT)


def offences(text: str) -> list[str]:
    return [f"{form} (write {use})" for form, use in FORBIDDEN.items() if form in text]


_TAG = re.compile(r"<script\b.*?</script>|<style\b.*?</style>|<[^>]+>", re.S)


def visible_text(markup: str) -> str:
    return html.unescape(_TAG.sub(" ", markup))


def test_the_list_names_the_terms_the_issue_found() -> None:
    assert {"訊框", "權杖", "建置", "迴送", "運行", "緩存", "程序"} <= set(FORBIDDEN)
    assert {"有號", "並發", "客戶端", "主辦單位", "轉寫", "文字稿", "生成", "環回", "線程", "音框"} <= set(
        FORBIDDEN
    )
    for term in CONFIG.glossary.hong_kong_terms:
        assert term.reason.strip() and term.meaning.strip() and term.source.strip(), term.use
        assert not set(term.instead_of) & set(FORBIDDEN.values()), term.use


def test_no_chinese_page_uses_a_form_the_list_replaces() -> None:
    pages = rendered().zh_pages
    assert {"index.md", "standings.md"} <= set(pages)
    found = {name: offences(text) for name, text in pages.items() if offences(text)}
    assert not found, found


def test_no_built_chinese_page_or_pdf_uses_a_form_the_list_replaces(built_site: Path) -> None:
    pages = sorted((built_site / "zh").rglob("*.html"))
    assert built_site / "zh" / "index.html" in pages
    found = {
        str(path.relative_to(built_site)): offences(visible_text(path.read_text(encoding="utf-8")))
        for path in pages
    }
    # The PDFs are printed only while the settings are those of the issue in force; read whichever were printed.
    for pdf in sorted((built_site / "pdf").glob("cvb-*-zh-*.pdf")):
        text = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        found[pdf.name] = offences(text)
    assert not {name: forms for name, forms in found.items() if forms}


def test_every_chinese_print_document_uses_the_list() -> None:
    # The documents the Chinese PDFs print, composed whether or not the settings allow a dated print.
    rendered = render_for_print(LAYOUT)
    found = {
        document.slug: offences(visible_text(compose(LAYOUT, rendered, CHINESE, document)))
        for document in CHINESE.documents
    }
    assert {"book", "grading-pipeline"} <= set(found)
    assert not {slug: forms for slug, forms in found.items() if forms}


def test_the_chinese_404_page_and_theme_strings_use_the_list() -> None:
    for path in (
        LAYOUT.templates / "zh" / "404.md.j2",
        LAYOUT.root / "docs/overrides/partials/languages/zh-HK.html",
    ):
        assert not offences(path.read_text(encoding="utf-8")), path


def test_the_editors_chinese_strings_use_the_list() -> None:
    texts = [pair.zh for pair in CONFIG.glossary.interface.values()]
    texts += [str(value) for value in CONFIG.glossary.zh_view.values()]
    found = [(text, offences(text)) for text in texts if offences(text)]
    assert not found, found


@pytest.mark.parametrize(
    ("form", "sentence"),
    [
        ("訊框", "以二進位訊框傳送"),
        ("運行", "伺服器正在運行"),
        ("並發", "佔着一個並發連線名額"),
        ("轉寫", "不要送回轉寫"),
    ],
)
def test_a_forbidden_form_is_caught(form: str, sentence: str) -> None:
    assert offences(sentence) and form in offences(sentence)[0]
