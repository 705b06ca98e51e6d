"""Every page of both editions on a 390 px phone in Chromium: no table cell and nothing else off the screen's
right edge, the site's title whole, and every control a finger presses at least 44 px each way."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import PageLog, open_context
from test_editions_site import EDITIONS, edition_pages

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TOUCH = 44

MEASURE = """(touch) => {
  const width = document.documentElement.clientWidth;
  const visible = (e) => {
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && !e.closest("[hidden], .md-search, details:not([open]) > :not(summary)");
  };
  const name = (e) => `${e.tagName.toLowerCase()}${e.className ? "." + String(e.className).split(" ")[0] : ""} "${(e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
  // A heading row a phone hides visually (kept for screen readers, the cells carry their headings) is not read.
  const shown = (c) => !c.closest("thead") || getComputedStyle(c.closest("thead")).position !== "absolute";
  const cells = [...document.querySelectorAll("article td, article th")].filter(visible).filter(shown)
    .filter((c) => { const r = c.getBoundingClientRect(); return r.right > width + 1 || r.left < -1; })
    .map((c) => `${name(c)} at ${Math.round(c.getBoundingClientRect().left)}-${Math.round(c.getBoundingClientRect().right)}`);
  const title = document.querySelector(".md-header__title .md-header__topic .md-ellipsis");
  const cut = title && title.scrollWidth > title.clientWidth + 1 ? title.textContent.trim() : null;
  const controls = [...document.querySelectorAll(
    "button, summary, select, input[type=button], input[type=submit], .md-header__button, .tabbed-labels > label"
  )].filter(visible)
    .filter((e) => { const r = e.getBoundingClientRect(); return r.height < touch - 0.5 || r.width < touch - 0.5; })
    .map((e) => `${name(e)} ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}`);
  return {cells, cut, controls, pageWidth: document.documentElement.scrollWidth, width};
}"""


# Without script is also how a page looks before the theme's script has run, which on a loaded machine is a
# moment a reader sees: the search button is hidden until then and the language button sits at the edge.
@pytest.mark.parametrize("script", [True, False], ids=["with script", "before script"])
@pytest.mark.parametrize("prefix", EDITIONS.values(), ids=EDITIONS.keys())
def test_every_page_fits_a_phone(site: Any, browser: Any, log: PageLog, prefix: str, script: bool) -> None:
    context = open_context(
        browser, log, viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=script
    )
    page = context.new_page()
    problems: dict[str, Any] = {}
    measured = 0
    for relative in edition_pages(site.root, prefix):
        path = prefix + relative.removesuffix("index.html")
        page.goto(site.url(path), wait_until="load")
        found = page.evaluate(MEASURE, TOUCH)
        measured += 1
        wide = found["pageWidth"] > found["width"] + 1
        if found["cells"] or found["cut"] or found["controls"] or wide:
            problems[path] = found
    context.close()
    assert measured > 5
    assert not problems, problems
