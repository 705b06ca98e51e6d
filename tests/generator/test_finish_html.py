"""The built HTML's finishing step (generator/pages/markup.py): language tags on Chinese runs, break points in
identifiers, tables in named scroll regions. Checked against a plain walker, and on generated pages."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.pages.markup import cjk_runs_outside_hk_lang, finish_page

PAGE = '<html lang="en"><body>{}</body></html>'


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("<p>Say 你好 please</p>", '<p>Say <span lang="zh-HK">你好</span> please</p>'),
        # A code-switched run stays one span, Latin and digits included.
        (
            "<p>你好，我想claim返個醫療費 now</p>",
            '<p><span lang="zh-HK">你好，我想claim返個醫療費</span> now</p>',
        ),
        ('<p lang="zh-HK">保單</p>', '<p lang="zh-HK">保單</p>'),
        ('<p lang="yue-Hant-HK">保單</p>', '<p lang="yue-Hant-HK">保單</p>'),
        ("<p>English only</p>", "<p>English only</p>"),
        ("<script>var s = '保單';</script>", "<script>var s = '保單';</script>"),
        ("<textarea>保單</textarea>", '<textarea lang="zh-HK">保單</textarea>'),
        ("<p><code>deadline_ms</code></p>", "<p><code>deadline_<wbr>ms</code></p>"),
        ("<pre><code>a_b</code></pre>", '<pre><code tabindex="0">a_b</code></pre>'),
        ("<td>2026-09-24</td>", '<td><span class="cvb-date">2026-09-24</span></td>'),
        ("<p>v2026-1</p>", "<p>v2026-1</p>"),
    ],
)
def test_finishing_a_page(body: str, expected: str) -> None:
    assert finish_page(PAGE.format(body)) == PAGE.format(expected)


def test_tables_get_a_named_focusable_scroll_region_each_named_once() -> None:
    body = '<h2>Frames<a class="headerlink">¶</a></h2><table><tr><td>a</td></tr></table><table></table>'
    out = finish_page(PAGE.format(body))
    labels = re.findall(
        r'<div class="cvb-table" role="region" tabindex="0" aria-label="([^"]+)"><table>', out
    )
    assert labels == ["Frames", "Frames (table 2)"]
    assert out.count("</table></div>") == 2


def test_a_table_the_theme_styles_itself_is_left_alone() -> None:
    body = '<table class="highlighttable"><tr><td>x</td></tr></table>'
    assert finish_page(PAGE.format(body)) == PAGE.format(body)


def test_the_walker_finds_untagged_runs() -> None:
    assert cjk_runs_outside_hk_lang(PAGE.format("<p>a 保單 b <span>醫療費</span></p>")) == ["保單", "醫療費"]


TEXT = st.sampled_from(
    ["a_b", " ", "保單", "你好claim", "3250", "。", "text", "&amp;", "醫療費", "send咗份 form"]
)
TAGS = st.sampled_from(["p", "code", "em", "h3", "table", 'span lang="zh-HK"', "td", "pre"])
# Balanced markup, as mkdocs writes it: the step is only ever given well-formed pages.
BODIES = st.recursive(
    TEXT,
    lambda inner: st.tuples(TAGS, st.lists(inner, max_size=4)).map(
        lambda t: f"<{t[0]}>{''.join(t[1])}</{t[0].split()[0]}>"
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(BODIES)
def test_after_finishing_no_chinese_run_is_untagged_and_only_markup_was_added(body: str) -> None:
    page = PAGE.format(body)
    out = finish_page(page)
    assert cjk_runs_outside_hk_lang(out) == []
    added = re.compile(
        r'<span lang="zh-HK">|<span class="cvb-date">|<wbr>|<div class="cvb-table"[^>]*>| tabindex="0"|</span>|</div>'
    )
    # Take away every kind of markup the step adds, from both sides: what is left must be the page as it was.
    assert added.sub("", out) == added.sub("", page)
    # And every wrapper it opened, it closed.
    new_spans = out.count("<span ") - page.count("<span ")
    assert out.count("</span>") - page.count("</span>") == new_spans
    assert out.count("</div>") - page.count("</div>") == out.count('<div class="cvb-table"')


def test_each_cell_of_a_content_table_carries_its_columns_heading() -> None:
    page = (
        "<h2>Pillars</h2><table><thead><tr><th>Pillar</th><th>Weight <code>w</code></th></tr></thead>"
        '<tbody><tr><td>Recognition</td><td align="right">20%</td></tr><tr><td>Speech &amp; more</td>'
        "<td>30%</td></tr></tbody></table>"
        '<table class="cvb-editor__table"><tr><th>A</th></tr><tr><td>x</td></tr></table>'
    )
    finished = finish_page(page)
    assert re.findall(r'<td data-label="([^"]*)"', finished) == ["Pillar", "Weight w", "Pillar", "Weight w"]
    # A table the theme or the editor styles itself is not a content table: its cells are left alone.
    assert "<td>x</td>" in finished
