"""The editor's markup template as the generator renders it: Markdown-safe, escaped, usable without JavaScript."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import editor_site
import jinja2
import pytest

from generator.config.load import load_config
from generator.pages.editions import interface_strings

INPUTS = {
    "reference": "我想claim",
    "hypothesis": "我想clean",
    "view_html": '<div class="cvb-view">drawn</div>',
    "signature": "cvb-scorer:1.0.0|test",
    "wheel_sha256": "0" * 64,
    "wheel_name": "cvb_scorer-1.0.0-py3-none-any.whl",
    "asset_base": "../assets",
    "max_chars": 20000,
    # The drawing's words as JSON, or None on a page in the scorer's English (no attribute at all).
    "view_text": None,
    # Every label and message comes from the config; the template types none.
    "ui": interface_strings(load_config(editor_site.ROOT / "platform_config"), "en"),
}


def render(**overrides: object) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(editor_site.WEB), undefined=jinja2.StrictUndefined, autoescape=True
    )
    return env.get_template("editor.html.j2").render(**{**INPUTS, "compact": False, **overrides})


@pytest.mark.parametrize("compact", [False, True])
def test_markup_is_one_markdown_html_block(compact: bool) -> None:
    lines = render(compact=compact).strip("\n").split("\n")
    assert lines[0].startswith('<div class="cvb-editor') and lines[-1] == "</div>"
    assert all(line.strip() for line in lines), "a blank line would end the HTML block in Markdown"
    assert not [line for line in lines if line.startswith((" ", "\t"))], "indented lines read as code"


def test_user_text_is_escaped_and_the_drawing_is_not() -> None:
    html = render(
        reference="</textarea><script>alert(1)</script>", hypothesis='"><img src=x onerror=alert(2)>'
    )
    assert "<script>" not in html and "<img" not in html
    assert "&lt;/textarea&gt;&lt;script&gt;" in html
    assert '<div class="cvb-view">drawn</div>' in html


def test_the_drawings_words_are_an_escaped_attribute_only_when_given() -> None:
    assert "data-cvb-view-text" not in render()
    words = json.dumps({"legend_match": "相同 \"<b>\" & 'x'"}, ensure_ascii=False)
    found = re.search(r'data-cvb-view-text="([^"]*)"', render(view_text=words))
    assert found is not None and "<b>" not in found.group(1)
    assert html.unescape(found.group(1)) == words


class _Names(HTMLParser):
    """Each form control and progress bar with its accessible name: the text of the label around it, else its
    aria-label (the template uses no `for`/`id` pairs: see the id assertion below)."""

    CONTROLS = ("textarea", "input", "progress")

    def __init__(self) -> None:
        super().__init__()
        self.labels: list[list[str]] = []  # the text gathered so far in each open label
        self.controls: list[tuple[str, dict[str, str | None], list[str] | None]] = []
        self.in_box = False  # a textarea's text is its value, not its label's words

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "label":
            self.labels.append([])
        elif tag in self.CONTROLS:
            self.controls.append((tag, dict(attrs), self.labels[-1] if self.labels else None))
            self.in_box = tag == "textarea"

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.labels.pop()
        elif tag == "textarea":
            self.in_box = False

    def handle_data(self, data: str) -> None:
        for label in [] if self.in_box else self.labels:
            label.append(data)

    def named(self) -> list[tuple[str, str]]:
        return [
            (tag, "".join(label).strip() if label is not None else (attrs.get("aria-label") or "").strip())
            for tag, attrs, label in self.controls
        ]


def test_boxes_are_labelled_and_read_only_until_the_script_mounts() -> None:
    html = render()
    names = _Names()
    names.feed(html)
    controls = names.named()
    # Two text boxes, two file choosers, and two progress bars: the runtime's loading bar and the files' run.
    assert sorted(tag for tag, _ in controls) == [
        "input",
        "input",
        "progress",
        "progress",
        "textarea",
        "textarea",
    ]
    # Every one of them has a name a screen reader announces: its label's words, or its aria-label.
    assert all(name for _, name in controls), controls
    assert not names.labels, "every label is closed"
    assert html.count(" readonly") == 2
    assert 'aria-live="polite"' in html and 'role="status"' in html
    assert "data-cvb-editor" in html and ' id="' not in html


def test_every_input_is_required() -> None:
    for name in INPUTS:
        # `ui` is first read by the tojson filter, which reports an undefined value as a TypeError.
        with pytest.raises((jinja2.UndefinedError, TypeError) if name == "ui" else jinja2.UndefinedError):
            render(**{name: jinja2.StrictUndefined(name=name)})
