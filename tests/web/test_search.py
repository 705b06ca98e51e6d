"""Search as an entrant types it, in Chromium against the built site: the words readers use (截止 where the
pages say 時限, plurals, English protocol words on the Chinese edition, Chinese words on the English one) lead
to the page that answers them, and a code listing never tops a search for a prose word."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from conftest import PageLog, off_origin

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

EDITION_PREFIX = {"en": "", "zh": "zh/"}
HOME, INTEGRATION, METHODOLOGY = "", "integration/", "methodology/"
# The two sections titled for the deadline (the guide's and the integration page's).
DEADLINE = frozenset({HOME, INTEGRATION})


@dataclass(frozen=True)
class Row:
    edition: str
    query: str
    # The pages of which one must be the first result.
    top: frozenset[str]

    @property
    def id(self) -> str:
        return f"{self.edition}-{self.query}"


def row(edition: str, query: str, *top: str) -> Row:
    return Row(edition, query, frozenset(top))


TABLE = (
    # The Chinese edition says 時限; readers also type 截止, 限期, 死線.
    row("zh", "時限", *DEADLINE),
    row("zh", "截止", *DEADLINE),
    row("zh", "限期", *DEADLINE),
    row("zh", "死線", *DEADLINE),
    # The rate by its English abbreviation and by its short Chinese name.
    row("zh", "CER", METHODOLOGY),
    row("zh", "字錯誤率", METHODOLOGY),
    row("zh", "字錯率", METHODOLOGY),
    # Protocol words in English on the Chinese edition.
    row("zh", "hello", INTEGRATION),
    row("zh", "ready", INTEGRATION),
    row("zh", "end_of_utterance", INTEGRATION),
    row("zh", "frames", INTEGRATION),
    row("zh", "timeout", *DEADLINE),
    # English: a plural finds the singular's pages.
    row("en", "deadline", *DEADLINE),
    row("en", "deadlines", *DEADLINE),
    row("en", "CER", METHODOLOGY),
    row("en", "character error rate", METHODOLOGY),
    row("en", "字錯誤率", METHODOLOGY),
    row("en", "字錯率", METHODOLOGY),
    row("en", "ready", INTEGRATION),
    row("en", "end_of_utterance", INTEGRATION),
    row("en", "frames", INTEGRATION),
    row("en", "timeout", INTEGRATION),
    # Chinese words on the English edition: the language and the place its examples are in.
    row("en", "粵語", HOME),
    row("en", "香港", HOME),
    # A Chinese word of the examples: the prose example first, not the server listing that also holds it.
    row("en", "保單", HOME, METHODOLOGY),
)

# The sections that hold the kit's server listings, in each edition.
LISTINGS = ("#a-server-that-already-works", "#一個現成可用的伺服器")

# The result list as shown: for each page (a group), its address and its sections' addresses, in order.
RESULTS = """
() => [...document.querySelectorAll(".md-search-result__item")].map((item) =>
  [...item.querySelectorAll("a")].map((a) => a.getAttribute("href")))
"""


def results(page: Any, query: str) -> list[list[str]]:
    """Type `query` into the theme's box and return the result groups once the theme has answered."""
    translations = json.loads(page.locator("#__config").text_content())["translations"]
    meta = page.locator(".md-search-result__meta")
    # Before the theme answers, its line says the index is being made (as the page came) or asks for a word.
    waiting = sorted({(meta.text_content() or "").strip(), translations["search.result.placeholder"], ""})
    box = page.locator("input[data-md-component='search-query']")
    box.click()
    # Chinese arrives as inserted text (an input method commits a word), which fires no key events; the theme
    # searches on a key event, so a key follows, as the reader's next keystroke would.
    box.fill(query)
    box.press("End")
    page.wait_for_function(
        "([selector, waiting]) => !waiting.includes(document.querySelector(selector).textContent.trim())",
        arg=[".md-search-result__meta", waiting],
        timeout=20_000,
    )
    return list(page.evaluate(RESULTS))


def edition_path(page_url: str, href: str, prefix: str) -> str:
    path = unquote(urlsplit(urljoin(page_url, href)).path)
    return path.removeprefix("/" + prefix).lstrip("/")


@pytest.mark.parametrize("case", TABLE, ids=[case.id for case in TABLE])
def test_search_tops_the_page_that_answers(site: Any, page: Any, log: PageLog, case: Row) -> None:
    prefix = EDITION_PREFIX[case.edition]
    page.goto(site.url(prefix), wait_until="networkidle")
    groups = results(page, case.query)
    shown = [[edition_path(page.url, href, prefix) for href in group] for group in groups]
    assert shown, f"{case.query!r} found nothing on the {case.edition} edition"
    assert shown[0][0] in case.top, (case.query, case.edition, shown[:3])
    # The best section of the first page, when it has one, is prose: a code listing is no hit for a word.
    best = shown[0][1:2]
    assert not any(section.endswith(LISTINGS) for section in best), (case.query, case.edition, shown[:3])
    assert off_origin(log, site) == []
