"""Fixtures for the editor's browser tests: one built site per session, served on loopback; one Chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import editor_site

from tests.shared_build import cache_filling

VIEWPORT = {"width": 1400, "height": 900}


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[editor_site.Site]:
    reason = editor_site.missing_prerequisites()
    if reason:
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("editor") / "site"
    # The other worker may be filling the same caches (a cold build): wait, then read what it made.
    with cache_filling():
        port = editor_site.free_port()
        editor_site.build(out, port)
    with editor_site.served(out, port) as served:
        yield served


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=editor_site.CHROMIUM, args=editor_site.CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@dataclass
class PageLog:
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


# Records CSP violations from the first byte of every document, including after instant navigation.
RECORD_VIOLATIONS = """
window.__cvbViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__cvbViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${where})`);
});
"""


@pytest.fixture
def log() -> PageLog:
    return PageLog()


def open_context(browser: Any, log: PageLog, **options: Any) -> Any:
    context = browser.new_context(**{"viewport": VIEWPORT, **options})
    context.add_init_script(RECORD_VIOLATIONS)
    # Workers' requests reach the context's "request" event too, so the worker's Pyodide fetches are counted.
    context.on("request", lambda request: log.requests.append(request.url))
    context.on("requestfailed", lambda request: log.failed.append(f"{request.url}: {request.failure}"))

    def on_page(page: Any) -> None:
        page.on("pageerror", lambda error: log.errors.append(str(error)))
        page.on("console", lambda m: m.type == "error" and log.errors.append(m.text))

        def on_dialog(dialog: Any) -> None:
            log.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)

    context.on("page", on_page)
    return context


@pytest.fixture
def context(browser: Any, log: PageLog) -> Iterator[Any]:
    context = open_context(browser, log)
    yield context
    context.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


def wait_live(page: Any, selector: str = "[data-cvb-editor]:not(.cvb-editor--compact)") -> Any:
    root = page.locator(selector).first
    root.scroll_into_view_if_needed()
    # Python loads on intent only (a focus, click or drop on the editor): focusing a box is the reader's intent.
    root.locator("[data-cvb-hyp]").focus()
    page.wait_for_selector(f'{selector}[data-cvb-state="live"]', timeout=60_000)
    return root


def search(page: Any, query: str) -> Any:
    """Search the site with the theme's box for ``query`` and wait for a result; returns the results' links."""
    box = page.locator("input[data-md-component='search-query']")
    box.click()
    # Chinese arrives as inserted text (an input method commits a word), which fires no key events; the theme
    # searches on a key event, so a key follows, as the reader's next keystroke would.
    box.fill(query)
    box.press("End")
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=20_000)
    return results


def off_origin(log: PageLog, site: editor_site.Site) -> list[str]:
    return [url for url in log.requests if not url.startswith((site.base, "data:", "blob:"))]
