"""The built site read as an entrant reads it: every page opens offline, search works, themes switch, code
samples have copy buttons and Python/Node tabs, and no request leaves the origin."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import PageLog, off_origin, open_context

from generator.pages.markup import cjk_runs_outside_hk_lang, page_lang

pytestmark = pytest.mark.browser

PAGES = ("", "integration/", "methodology/", "grading-pipeline/", "changelog/")
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 480, "height": 900}
HK_LANG = r"^(zh|yue)(-Hant)?-HK$"


def english_pages(root: Path) -> list[Path]:
    return [
        p
        for p in sorted(root.rglob("*.html"))
        if page_lang(p.read_text(encoding="utf-8")).lower().startswith("en")
    ]


def test_every_page_opens_with_no_request_leaving_the_origin(site: Any, page: Any, log: PageLog) -> None:
    for path in PAGES:
        # Opened at "load", not "networkidle": once the first page has registered the site's worker, it crawls
        # the edition to keep it offline and an editor's page may start its scorer, so the network is never
        # quiet for long on a loaded machine. Every request of the page, its workers and the service worker
        # reaches the log, whenever it is made; the fonts, fetched only once text is laid out, are waited for.
        response = page.goto(site.url(path), wait_until="load")
        assert response is not None and response.status == 200, path
        assert page.locator("h1").first.inner_text().strip(), f"{path} has no heading"
        page.evaluate("() => document.fonts.ready.then(() => true)")
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
    # The full servers are folded so the failure table follows closely; a reader opens them to read them.
    page.locator("details.cvb-fold > summary").first.click()
    labels = page.locator(".tabbed-labels label").all_inner_texts()
    assert "Python" in labels and "Node" in labels
    # mkdocs-material 9.8 renders the copy control as a code button titled for the clipboard. The theme's
    # script adds it after load, so wait for it to appear rather than count at once (a busy CI machine
    # once counted before the script had run).
    copy_button = "button.md-code__button[title*='clipboard' i], button.md-clipboard"
    page.wait_for_selector(copy_button, state="attached", timeout=15_000)
    page.locator(".tabbed-labels label", has_text="Node").first.click()
    assert "WebSocketServer" in page.locator(".tabbed-block:visible").first.inner_text()


def test_every_download_is_the_file_it_describes(site: Any, page: Any) -> None:
    page.goto(site.url(""), wait_until="load")
    items = page.locator(".cvb-downloads li")
    assert items.count() > 0, "the guide lists no downloads"
    for index in range(items.count()):
        item = items.nth(index)
        # The theme's instant navigation rewrites links to absolute URLs; the file is what the URL names.
        href = (item.locator("a").first.get_attribute("href") or "").removeprefix(site.base)
        path = site.root / href
        assert path.is_file(), f"the Downloads section links to {href}, which the build did not write"
        data = path.read_bytes()
        size = int(item.locator(".cvb-size").inner_text().replace(",", ""))
        sha256 = item.locator("code").inner_text().strip()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (size, sha256), href


def test_every_chinese_run_on_an_english_page_is_tagged_hong_kong_chinese(site: Any, context: Any) -> None:
    pages = english_pages(site.root)
    assert len(pages) >= len(PAGES)
    for path in pages:
        assert cjk_runs_outside_hk_lang(path.read_text(encoding="utf-8")) == [], path
    # The same question asked of the DOM the browser built, after the theme's scripts have run.
    page = context.new_page()
    for path in pages:
        page.goto(
            site.url(path.relative_to(site.root).as_posix().removesuffix("index.html")), wait_until="load"
        )
        untagged = page.evaluate(
            """(pattern) => {
                 const hk = new RegExp(pattern, "i"), cjk = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
                 const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                 const bad = [];
                 for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                   if (!cjk.test(n.data) || n.parentElement.closest("script, style")) continue;
                   const tagged = n.parentElement.closest("[lang]");
                   if (!tagged || !hk.test(tagged.getAttribute("lang"))) bad.push(n.data.trim().slice(0, 30));
                 }
                 return bad;
               }""",
            HK_LANG,
        )
        assert untagged == [], (path, untagged)


def test_tables_scroll_inside_a_named_region_the_keyboard_reaches(
    site: Any, browser: Any, log: PageLog
) -> None:
    # Wider than a phone, where tables stack instead (test_phone.py), narrower than the widest tables.
    context = open_context(browser, log, viewport=TABLET)
    page = context.new_page()
    page.goto(site.url("integration/"), wait_until="load")
    regions = page.evaluate(
        """() => [...document.querySelectorAll("article table")].map(t => {
             const box = t.closest(".cvb-table");
             return box && {role: box.getAttribute("role"), tabindex: box.getAttribute("tabindex"),
               label: box.getAttribute("aria-label"), scrolls: box.scrollWidth > box.clientWidth,
               overflow: getComputedStyle(box).overflowX, cue: getComputedStyle(box).backgroundImage};
           })"""
    )
    assert regions and all(regions), "a table is not inside a scroll region"
    assert all(r["role"] == "region" and r["tabindex"] == "0" and r["label"] for r in regions)
    assert len({r["label"] for r in regions}) == len(regions), "two table regions share a name"
    assert any(r["scrolls"] for r in regions), "no table overflows this screen, so this test proves nothing"
    assert all(r["overflow"] == "auto" and "gradient" in r["cue"] for r in regions)
    # A keyboard user reaches a table that is wider than the screen and scrolls it with the arrow keys.
    wide = (
        page.locator(".cvb-table")
        .filter(has=page.locator("table"))
        .nth(next(i for i, r in enumerate(regions) if r["scrolls"]))
    )
    wide.focus()
    assert page.evaluate("() => document.activeElement.classList.contains('cvb-table')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.activeElement.scrollLeft > 0")
    context.close()


def test_identifiers_break_at_underscores_and_long_frames_are_indented(site: Any) -> None:
    text = (site.root / "integration" / "index.html").read_text(encoding="utf-8")
    inline = re.findall(r"(?<!<pre>)<code>([^<]*(?:<wbr>[^<]*)*)</code>", text)
    with_underscore = [c for c in inline if "_" in c]
    assert with_underscore, "no identifier with an underscore found in inline code"
    assert all(c.count("_") == c.count("_<wbr>") for c in with_underscore), with_underscore[:3]
    # The hello frame is long, so it is shown one field a line; the ready frame is short and stays whole.
    assert re.search(
        r'"type"</span><span class="p">:</span><span class="w"> </span><span class="s2">"hello"', text
    )
    assert '"ready"</span><span class="p">,</span><span class="nt">"accept"' in text


def test_the_copy_button_sits_clear_of_the_code_on_a_phone(site: Any, browser: Any, log: PageLog) -> None:
    context = open_context(browser, log, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    for path in ("", "integration/"):
        page.goto(site.url(path), wait_until="load")
        page.wait_for_selector("nav.md-code__nav")
        overlaps = page.evaluate(
            """() => [...document.querySelectorAll("pre")].filter(pre => pre.querySelector("nav.md-code__nav"))
                 .map(pre => {
                   const nav = pre.querySelector("nav.md-code__nav").getBoundingClientRect();
                   const code = pre.querySelector("code");
                   const range = document.createRange();
                   range.selectNodeContents(code);
                   const first = [...range.getClientRects()].find(r => r.width > 0);
                   return first && first.top < nav.bottom && first.right > nav.left ? pre.id : null;
                 }).filter(Boolean)"""
        )
        assert overlaps == [], (path, overlaps)
    context.close()


def test_the_404_page_runs_under_the_csp_and_follows_the_dark_scheme(
    site: Any, browser: Any, log: PageLog
) -> None:
    context = open_context(browser, log, color_scheme="dark")
    page = context.new_page()
    page.goto(site.url("404.html"), wait_until="load")
    assert page.evaluate("() => window.__cvbViolations") == []
    assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == "slate"
    assert page.evaluate("() => typeof __md_scope") == "object"
    context.close()
