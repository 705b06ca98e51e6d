"""What a reader sees: no Markdown left as text on a page or in a PDF, no protocol identifier broken over two
lines of a PDF, each long listing once per printed document."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from generator.check import check
from generator.pdf.glyphs import LOOK_ALIKE_RULES, visible_examples
from generator.pdf.html import Section, listings_once
from generator.publication.rendering import broken_identifiers, markdown_leftovers
from generator.publication.sources import html_text
from tests.generator.conftest import project_copy


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("| Round | Purpose | Opens | Closes |", "a table row written in pipes"),
        ("Times are HKT. |---|---|", "a table row written in pipes"),
        ("a **bold** claim", "bold marks (**)"),
        ("opens {{ r.opens }}", "a template expression ({{ or {%)"),
        ("send `ready` first", "a backtick"),
        ("- an item", "a list marker at the start of a line"),
        ("  * an item", "a list marker at the start of a line"),
        ("## The dates", "a heading's hashes"),
        ('!!! note "Read"', "an admonition's marker (!!!)"),
    ],
)
def test_markdown_left_as_text_is_found(line: str, what: str) -> None:
    assert [(f.line, f.what) for f in markdown_leftovers(f"Fine text.\n{line}\n")] == [(2, what)]


@pytest.mark.parametrize(
    "line",
    ["3 − 1 = 2", "a-b and c - d", "Rank 1 ◆", "x * y", "Round | Purpose", "—— a dash"],
)
def test_ordinary_text_is_not_markdown(line: str) -> None:
    assert list(markdown_leftovers(line)) == []


def test_lines_of_a_code_listing_are_left_out_even_wrapped() -> None:
    listing = "# pass it on, e.g. `-v /etc/x:/etc/x:ro` --key long-random-string\n"
    printed = "# pass it on, e.g. `-v /etc/x:/etc/x:ro` --key long-\nrandom-string\n"
    assert list(markdown_leftovers(printed, skip=[listing])) == []
    assert list(markdown_leftovers(printed)) != []


def test_code_on_a_page_is_not_its_text() -> None:
    html = "<article><p>Send <code>`x`</code> then</p><pre><code>| a | b |\n**kw</code></pre></article>"
    assert list(markdown_leftovers(html_text(html, article_only=True, code=False))) == []


NAMES = {"closed_before_response", "run_item_id", "end_of_utterance", "hello"}


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("code\nclosed_before\n_response\n", "closed_before_response"),
        ("run_item_i\nstring\nthe id\n\nd\n", "run_item_id"),
        ("end_of_uttera\n\nfirst response\nbyte\n\nnce\n", "end_of_utterance"),
    ],
)
def test_an_identifier_broken_over_lines_is_found(text: str, broken: str) -> None:
    assert [f.what for f in broken_identifiers(text, NAMES)] == [
        f"the identifier {broken} is broken over two lines"
    ]


def test_whole_identifiers_are_not_broken() -> None:
    text = "closed_before_response\nhello\nend_of_utterance\nrun_item_id and\nid\n"
    assert list(broken_identifiers(text, NAMES)) == []


def test_a_long_listing_is_printed_once_per_document() -> None:
    listing = "<pre><code>" + "line\n" * 30 + "</code></pre>"
    short = '<pre><code>{"type": "ready"}\n</code></pre>'
    sections = [
        Section("guide", f"<p>a</p>{listing}{short}", ()),
        Section("integration", f"{listing}{short}", ()),
    ]
    out = listings_once(sections, note="Printed earlier")
    assert out[0].html.count("line\n") == 30 and 'id="guide--listing-1"' in out[0].html
    assert "line" not in out[1].html
    assert '<a href="#guide--listing-1">Printed earlier</a>' in out[1].html
    assert out[1].html.count('"ready"') == 1  # a short example stays where its paragraph needs it


def test_the_raw_dates_table_planted_again_fails_the_check(tmp_path: Path) -> None:
    """The home pages' dates table once followed its paragraph with no blank line (an `{% endif %}` ate the
    newline), so both editions showed the table as pipes; the check must say so on each edition's page."""
    layout = project_copy(tmp_path, copy=("docs",))
    for template in (layout.templates / "index.md.j2", layout.templates / "zh" / "index.md.j2"):
        text = template.read_text(encoding="utf-8")
        assert "{% endif +%}" in text, f"{template} no longer keeps the newline after its condition"
        template.write_text(text.replace("{% endif +%}", "{% endif %}", 1), encoding="utf-8")
    found = [p for p in check(layout) if "table row written in pipes" in p.message]
    assert {p.where for p in found} == {"rendered page index.md", "rendered Chinese page index.md"}


def test_the_shipped_pages_render_without_markdown_left() -> None:
    from generator.paths import Layout

    assert [p for p in check(Layout()) if "the page shows Markdown" in p.message] == []


@pytest.mark.parametrize(
    ("rule", "examples", "shown"),
    [
        (
            "glyph-variants",
            "説話 → 說話; 户口 → 戶口",
            "説話 (U+8AAC) → 說話 (U+8AAA); 户口 (U+6237) → 戶口 (U+6236)",
        ),
        ("unicode-cleanup", "你\u200b好\x00 → 你好", "你⟨U+200B⟩好⟨U+0000⟩ → 你好"),
        # Sides a reader tells apart stay as they are, and so does an example that keeps its text on purpose.
        ("reference-fold", "个人 → 個人", "个人 → 個人"),
        ("fillers", "呢個呀嘛 → 呢個呀嘛", "呢個呀嘛 → 呢個呀嘛"),
    ],
)
def test_examples_that_look_alike_show_their_code_points(rule: str, examples: str, shown: str) -> None:
    assert visible_examples(rule, examples) == shown


def test_the_published_normalisation_examples_never_read_x_to_x() -> None:
    """Every example row the pages and PDFs print: its two sides differ to the eye, or are equal on purpose."""
    from generator.scorer_bridge import normalisation_rows

    for row in normalisation_rows():
        for example in row["examples"].split("; "):
            if " → " not in example:
                continue
            before, after = example.split(" → ", 1)
            assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in before + after), example
            if row["name"] in LOOK_ALIKE_RULES:
                assert "U+" in before and "U+" in after, example


@pytest.mark.parametrize("edition", ["", "zh/"])
def test_each_prohibited_source_is_its_own_list_item(built_site: Path, edition: str) -> None:
    from generator.config import load_config
    from generator.paths import Layout

    page = (built_site / edition / "grading-pipeline" / "index.html").read_text(encoding="utf-8")
    items = page.split("<li>")
    for source in load_config(Layout().config).endpointing.release.prohibited_sources:
        holding = [item for item in items if f"<code>{source}</code>" in item.replace("<wbr>", "")]
        assert len(holding) == 1, source
        assert holding[0].split("</li>")[0].count("<code>") <= 2, f"{source} runs into the next item"
