"""The editor's keystroke payload: the drawing in two parts that rebuild the whole fragment exactly."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from cvb_scorer.view import render_view

PAIRS = [
    ("唔該埋單", "該唔埋單"),
    ("我想問下份policy幾時到期", "我想问下份保單幾時到期"),
    ("一千二百蚊", "1200"),
    ("", ""),
    ("<b>&", "<i>'"),
]


class _TopLevel(HTMLParser):
    """Counts the top-level elements of a fragment and any text outside them."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.elements = 0
        self.loose_text = ""

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if self.depth == 0:
            self.elements += 1
        self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth == 0:
            self.loose_text += data


@pytest.mark.parametrize(("reference", "hypothesis"), PAIRS)
def test_alignment_and_details_rebuild_the_whole_drawing(reference: str, hypothesis: str) -> None:
    view = render_view(reference=reference, hypothesis=hypothesis)
    alignment = "".join(view.alignment)
    assert view.html.endswith(f"{alignment}</p>{view.details}</div>")
    assert view.html.startswith('<div class="cvb-view"')
    assert json.loads(view.to_json())["html"] == view.html


@pytest.mark.parametrize(("reference", "hypothesis"), PAIRS)
def test_each_run_is_one_element_so_the_page_can_swap_runs_by_position(
    reference: str, hypothesis: str
) -> None:
    for run in render_view(reference=reference, hypothesis=hypothesis).alignment:
        parser = _TopLevel()
        parser.feed(run)
        assert (parser.elements, parser.loose_text) == (1, ""), run


def test_editor_payload_carries_the_drawing_figures_and_signature_only() -> None:
    view = render_view(reference="我想問下份policy", hypothesis="我想问下份policy")
    payload = json.loads(view.to_editor_json())
    assert sorted(payload) == ["alignment", "details", "figures", "signature"]
    assert payload["alignment"] == list(view.alignment)
    assert payload["figures"] == json.loads(view.to_json())["figures"]
