"""The built site read as an entrant reads it: every page opens offline, search works, themes switch, code
samples have copy buttons and Python/Node tabs, and no request leaves the origin."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import PageLog, off_origin

pytestmark = pytest.mark.browser

PAGES = ("", "integration/", "methodology/", "grading-pipeline/", "changelog/")


def test_every_page_opens_with_no_request_leaving_the_origin(site: Any, page: Any, log: PageLog) -> None:
    for path in PAGES:
        response = page.goto(site.url(path), wait_until="networkidle")
        assert response is not None and response.status == 200, path
        assert page.locator("h1").first.inner_text().strip(), f"{path} has no heading"
    assert off_origin(log, site) == []
    assert not [e for e in log.errors if "favicon" not in e], log.errors


def test_each_page_states_its_own_facts(site: Any, page: Any) -> None:
    page.goto(site.url("integration/"))
    text = page.locator("article").inner_text()
    assert '"type":"hello"' in text.replace(" ", "")
    page.goto(site.url("grading-pipeline/"))
    assert "causal_frame_probabilities" in page.locator("article").inner_text()


def test_search_finds_a_page_offline(site: Any, page: Any, log: PageLog) -> None:
    page.goto(site.url(""), wait_until="networkidle")
    query = page.locator("input[data-md-component='search-query']")
    query.click()
    # Typed, not filled: the theme searches on key events, as it does for a person.
    query.press_sequentially("barge_in", delay=20)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=20_000)
    assert re.search(r"integration", results.first.locator("a").first.get_attribute("href") or "")
    assert off_origin(log, site) == []


def test_chinese_text_is_on_the_page_in_a_cjk_font(site: Any, page: Any) -> None:
    page.goto(site.url("integration/"), wait_until="networkidle")
    # The example transcript is Cantonese; Chromium must find a local font with the glyphs (fonts-noto-cjk).
    has_glyphs = page.evaluate(
        """() => document.fonts.check('16px "Noto Sans CJK HK", sans-serif', '醫療費')"""
    )
    assert has_glyphs
    assert "醫療費" in page.locator("article").inner_text()


def test_light_and_dark_themes_switch(site: Any, page: Any) -> None:
    page.goto(site.url(""), wait_until="networkidle")
    scheme = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    flipped = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    assert {scheme, flipped} == {"default", "slate"}


def test_code_samples_have_copy_buttons_and_language_tabs(site: Any, page: Any) -> None:
    page.goto(site.url("integration/"), wait_until="networkidle")
    labels = page.locator(".tabbed-labels label").all_inner_texts()
    assert "Python" in labels and "Node" in labels
    # mkdocs-material 9.8 renders the copy control as a code button titled for the clipboard.
    assert page.locator("button.md-code__button[title*='clipboard' i], button.md-clipboard").count() > 0
    page.locator(".tabbed-labels label", has_text="Node").first.click()
    assert "WebSocketServer" in page.locator(".tabbed-block:visible").first.inner_text()
