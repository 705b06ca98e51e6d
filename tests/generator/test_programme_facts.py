"""The programme's statements (tools/programme_facts.yaml) on both editions' pages and in the printed PDFs: each
fact the programme made is stated, each statement it never made is absent."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
import yaml

from generator.build import Rendered, render_all
from generator.paths import Layout
from tests.generator.draft_pdfs import draft_texts

LAYOUT = Layout()
FACTS: list[dict[str, Any]] = yaml.safe_load(
    (LAYOUT.root / "tools" / "programme_facts.yaml").read_text(encoding="utf-8")
)["facts"]
SEEDS = LAYOUT.root.parent.parent / "shared" / "seeds"
EDITIONS = {"en": "", "zh": "zh/"}


@functools.cache
def rendered() -> Rendered:
    return render_all(LAYOUT)


def flat(text: str, language: str) -> str:
    """The text as the patterns are written: runs of whitespace one space (English) or none (Chinese)."""
    return re.sub(r"\s+", "", text) if language == "zh" else re.sub(r"\s+", " ", text)


def page_text(language: str, page: str) -> str:
    result = rendered()
    pages = result.pages if language == "en" else result.zh_pages
    return flat(pages[page], language)


def problems(fact: dict[str, Any], language: str, text: str, where: str) -> list[str]:
    found = [p for p in fact[language] if re.search(p, text)]
    if fact.get("absent"):
        return [f"{fact['id']}: {where} says what the programme never said ({found})"] if found else []
    return [] if found else [f"{fact['id']}: {where} lacks it ({fact[language]})"]


def test_the_fact_list_is_well_formed() -> None:
    ids = [f["id"] for f in FACTS]
    assert len(ids) == len(set(ids))
    for fact in FACTS:
        assert {"id", "seed", "quote", "pages", "en", "zh"} <= set(fact), fact["id"]
        for pattern in fact["en"] + fact["zh"]:
            re.compile(pattern)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the programme's seed pages are not on this machine")
def test_each_fact_quotes_its_seed() -> None:
    for fact in FACTS:
        seed = flat((SEEDS / fact["seed"]).read_text(encoding="utf-8"), "en")
        assert fact["quote"] in seed, fact["id"]


@pytest.mark.parametrize("language", EDITIONS)
def test_both_editions_keep_the_programmes_statements(language: str) -> None:
    found = [
        problem
        for fact in FACTS
        for page in fact["pages"]
        for problem in problems(fact, language, page_text(language, page), f"{language} {page}")
    ]
    assert not found, "\n".join(found)


def test_a_dropped_statement_is_caught() -> None:
    fact = next(f for f in FACTS if f["id"] == "sine_wave")
    text = page_text("en", "methodology.md").replace("sine wave", "tone")
    assert problems(fact, "en", text, "en methodology.md")
    invented = next(f for f in FACTS if f["id"] == "no_reissue_promise")
    assert problems(invented, "en", "this page is reissued when they do.", "en index.md")


@pytest.mark.slow
@pytest.mark.xdist_group("pdf")
def test_the_pdfs_keep_the_programmes_statements() -> None:
    """The PDFs as the current settings print them (tests/generator/draft_pdfs.py), so a statement a change
    drops is caught on paper before the next issue is cut, not after."""
    found: list[str] = []
    drafts = draft_texts()
    for draft in drafts:
        for fact in FACTS:
            if any(page in draft.document.pages for page in fact["pages"]):
                found += problems(
                    fact, draft.language, draft.text, f"{draft.edition.code} {draft.document.slug}"
                )
    assert not found, "\n".join(found)
    printed = {page for d in drafts for page in d.document.pages}
    assert {page for fact in FACTS for page in fact["pages"]} <= printed
