"""The programme's statements (tools/programme_facts.yaml) on both editions' pages and in the printed PDFs: each
fact the programme made is stated, each statement it never made is absent."""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.build import Rendered, render_all
from generator.issue_state import unreleased
from generator.paths import Layout
from generator.pdf.editions import EDITIONS as PDF_EDITIONS
from generator.pdf.issue import build_issue_pdfs

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
def test_the_pdfs_keep_the_programmes_statements(tmp_path: Path) -> None:
    if unreleased(rendered().config):
        pytest.skip("the settings changed since the issue in force was cut: no PDF is printed until the next")
    artefacts = {a.name: a for a in build_issue_pdfs(LAYOUT, tmp_path)}
    issued = str(rendered().config.platform.issues[-1].issued)
    found: list[str] = []
    for edition in PDF_EDITIONS:
        language = "zh" if edition.code.startswith("zh") else "en"
        for document in edition.documents:
            name = edition.filename(document, issued)
            raw = subprocess.run(
                ["pdftotext", "-raw", "-enc", "UTF-8", str(artefacts[name].path), "-"],
                capture_output=True,
                check=True,
            ).stdout.decode("utf-8")
            # A line that ends in a hyphen is joined to the next twice: as a word the printer hyphenated
            # (the hyphen dropped) and as a hyphenated word or address that was broken there (kept).
            text = "\n".join(
                flat(re.sub(r"(\w)-\n(\w)", joined, raw), language) for joined in (r"\1\2", r"\1-\2")
            )
            for fact in FACTS:
                if any(page in document.pages for page in fact["pages"]):
                    found += problems(fact, language, text, name)
    assert not found, "\n".join(found)
