"""Printed pages speak as print: what a page asks of a screen reader (change the hypothesis, paste, open a folded
listing) has a paper wording (docs/print/wording.yaml), and none of the screen-only phrases reaches a PDF of
either edition, read back with pdftotext (tests/generator/draft_pdfs.py)."""

from __future__ import annotations

import functools
import re

import pytest

from generator.build import Rendered, render_all
from generator.config import load_config
from generator.pages.wording import Wording, WordingError, load_wordings, parse_wordings, sayer, wording_path
from generator.paths import Layout
from generator.pdf.editions import EDITIONS
from generator.pdf.issue import render_for_print
from tests.generator.draft_pdfs import draft_texts

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
WORDINGS = load_wordings(LAYOUT.root, CONFIG)
LANGUAGES = {"en": "", "zh": "zh/"}


def flat(text: str, language: str) -> str:
    """Text as a reader sees it: Markdown links' targets and HTML tags dropped; whitespace one space (English)
    or none (Chinese), as a line break in a PDF or a template falls anywhere."""
    text = re.sub(r"<[^>]+>", "", re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text))
    return re.sub(r"\s+", "", text) if language == "zh" else re.sub(r"\s+", " ", text)


def phrases(language: str) -> list[tuple[str, str]]:
    return [(key, p) for key, w in WORDINGS.items() for p in w.screen_only[language]]


def found_in(texts: dict[str, str], language: str) -> dict[str, list[str]]:
    return {
        name: [p for _, p in phrases(language) if flat(p, language) in text]
        for name, text in texts.items()
        if any(flat(p, language) in text for _, p in phrases(language))
    }


@functools.cache
def web() -> Rendered:
    return render_all(LAYOUT)


@functools.cache
def paper() -> Rendered:
    return render_for_print(LAYOUT)


def pages(rendered: Rendered, language: str) -> dict[str, str]:
    chosen = rendered.pages if language == "en" else rendered.zh_pages
    return {name: flat(text, language) for name, text in chosen.items()}


def test_the_wording_file_is_read_and_bad_entries_get_a_sentence() -> None:
    assert WORDINGS and all(isinstance(w, Wording) for w in WORDINGS.values())
    text = wording_path(LAYOUT.root).read_text(encoding="utf-8")
    shown = "docs/print/wording.yaml"
    broken = {
        "a typed digit": (
            text.replace("made when this issue was printed", "made on 3 March"),
            "types a digit",
        ),
        "a phrase left on paper": (
            text.replace("The drawing below is static:", "Change the hypothesis below:"),
            "the paper wording (en) still says 'Change the hypothesis below'",
        ),
        "a phrase the screen lacks": (
            text.replace("[open to read them]", "[click here]"),
            "lacks its phrase 'click here'",
        ),
        "an unknown address": (text.replace("{url.methodology}", "{url.nowhere}", 1), "no 'nowhere'"),
        "a language missing": (text.replace("      zh: [按此展開]\n", ""), "`screen_only` needs exactly"),
        "broken YAML": (text.replace("  delete_to_agree:", "  delete_to_agree: [", 1), "not valid YAML"),
    }
    for case, (changed, said) in broken.items():
        assert changed != text, case
        with pytest.raises(WordingError) as caught:
            parse_wordings(changed, shown=shown, config=CONFIG)
        assert said in str(caught.value) and shown in str(caught.value), case


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_web_pages_ask_and_the_printed_pages_do_not(language: str) -> None:
    screen = found_in(pages(web(), language), language)
    # Every screen-only phrase is on some web page (so this test can fail), and on no page rendered for print.
    assert {p for said in screen.values() for p in said} == {p for _, p in phrases(language)}
    assert found_in(pages(paper(), language), language) == {}
    # And each paper wording is printed in their place.
    printed = " ".join(pages(paper(), language).values())
    say = sayer(WORDINGS, CONFIG, language=language, on_paper=True)
    assert [key for key in WORDINGS if flat(str(say(key)), language) not in printed] == []


@pytest.mark.slow
@pytest.mark.xdist_group("pdf")
def test_no_screen_only_phrase_reaches_a_pdf_of_either_edition() -> None:
    drafts = draft_texts()
    for draft in drafts:
        assert found_in({draft.document.slug: draft.text}, draft.language) == {}, draft.edition.code
        # What paper says instead is there: the drawing is static, and the web page is named.
        if "index.md" in draft.document.pages:
            static = {"en": "The drawing below is static", "zh": "下面的圖是靜態的"}[draft.language]
            assert flat(static, draft.language) in draft.text, draft.edition.code
    assert {d.edition.code for d in drafts} == {e.code for e in EDITIONS}
    assert "book" in {d.document.slug for d in drafts}
