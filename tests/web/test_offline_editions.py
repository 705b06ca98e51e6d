"""Offline after one visit: a reader opens one page of an edition, goes offline with the browser's HTTP cache
cleared, and every page of that edition still opens, from the copies the service worker kept (scorer_wasm/web/
sw.js, asked by docs/assets/site.js). The other edition was never visited and is not kept."""

from __future__ import annotations

from typing import Any

import editor_site
import pytest
from conftest import PageLog, open_context
from test_editions_site import EDITIONS, edition_pages

pytestmark = pytest.mark.browser

KEPT = """async (pages) => {
  const cache = await caches.open("cvb-site-v1");
  const missing = [];
  for (const page of pages) if (!(await cache.match(page, {ignoreSearch: true}))) missing.push(page);
  return missing.length === 0;
}"""


@pytest.mark.parametrize("prefix", EDITIONS.values(), ids=EDITIONS.keys())
def test_every_page_of_the_edition_visited_opens_offline(
    site: Any, browser: Any, log: PageLog, prefix: str
) -> None:
    if not (site.root / "sw.js").is_file():
        pytest.skip("the build ships no service worker")
    context = open_context(browser, log)
    page = context.new_page()
    pages = [
        prefix + relative.removesuffix("index.html")
        for relative in edition_pages(site.root, prefix)
        if relative != "404.html"
    ]
    page.goto(site.url(prefix), wait_until="load")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)
    editor_site.until(page, KEPT, [site.url(p) for p in pages])
    context.new_cdp_session(page).send("Network.clearBrowserCache")
    context.set_offline(True)
    unopened = {}
    for path in pages:
        try:
            response = page.goto(site.url(path), wait_until="load")
            heading = page.locator("article h1").first.inner_text(timeout=5_000)
            # The stylesheet came from the kept copy too: the page is styled, not bare HTML.
            header = page.locator(".md-header").evaluate("(h) => getComputedStyle(h).position", timeout=5_000)
            if (
                response is None
                or not response.ok
                or not heading.strip()
                or header not in {"sticky", "fixed"}
            ):
                unopened[path] = response.status if response else "no response"
        except Exception as error:
            unopened[path] = str(error).splitlines()[0]
    context.close()
    assert len(pages) > 5
    assert not unopened, unopened
