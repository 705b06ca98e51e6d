"""The glossary's Hong Kong term list (glossary.yaml `hong_kong_terms`) holds on every Chinese page, in the
editor's Chinese strings and in the drawing's Chinese words: no Taiwanese or Mainland form it replaces."""

from __future__ import annotations

import functools

import pytest

from generator.build import Rendered, render_all
from generator.config import load_config
from generator.paths import Layout

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
FORBIDDEN = {form: term.use for term in CONFIG.glossary.hong_kong_terms for form in term.instead_of}


@functools.cache
def rendered() -> Rendered:
    return render_all(LAYOUT)


def offences(text: str) -> list[str]:
    return [f"{form} (write {use})" for form, use in FORBIDDEN.items() if form in text]


def test_the_list_names_the_terms_the_issue_found() -> None:
    assert {"訊框", "權杖", "建置", "迴送", "運行", "緩存", "程序"} <= set(FORBIDDEN)
    for term in CONFIG.glossary.hong_kong_terms:
        assert term.reason.strip() and term.meaning.strip(), term.use
        assert not set(term.instead_of) & set(FORBIDDEN.values()), term.use


def test_no_chinese_page_uses_a_form_the_list_replaces() -> None:
    pages = rendered().zh_pages
    assert {"index.md", "standings.md"} <= set(pages)
    found = {name: offences(text) for name, text in pages.items() if offences(text)}
    assert not found, found


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


@pytest.mark.parametrize(("form", "sentence"), [("訊框", "以二進位訊框傳送"), ("運行", "伺服器正在運行")])
def test_a_forbidden_form_is_caught(form: str, sentence: str) -> None:
    assert offences(sentence) and form in offences(sentence)[0]
