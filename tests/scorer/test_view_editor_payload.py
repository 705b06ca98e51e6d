"""The editor's keystroke payload: the drawing in two parts that rebuild the whole fragment exactly."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from cvb_scorer.view import render_editor_parts, render_view
from hypothesis import given, settings
from hypothesis import strategies as st

PAIRS = [
    ("唔該埋單", "該唔埋單"),
    ("我想問下份policy幾時到期", "我想问下份保單幾時到期"),
    ("一千二百蚊", "1200"),
    ("", ""),
    ("<b>&", "<i>'"),
]

# Traditional and Simplified forms, numerals a rule reads, Latin words and punctuation: every path of the
# Simplified cost and of the MER tokens.
_ALPHABET = st.sampled_from(list("保單保单我想问問下份policy萬万三1200 ,.，。一千二百蚊OKok這个"))


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


def _parts_merge_into_the_whole(reference: str, hypothesis: str, mer: bool) -> None:
    parts = render_editor_parts(reference=reference, hypothesis=hypothesis, mer=mer)
    first, rest = json.loads(parts.first), json.loads(parts.rest())
    whole = json.loads(render_view(reference=reference, hypothesis=hypothesis, mer=mer).to_editor_json())
    # The first part's figures are the summary's subset of the whole figures, which the second part carries.
    assert first["figures"].items() <= whole["figures"].items()
    assert {**first, **rest} == whole


@pytest.mark.parametrize(("reference", "hypothesis"), PAIRS)
@pytest.mark.parametrize("mer", [False, True])
def test_the_two_part_keystroke_answer_merges_into_the_whole_payload(
    reference: str, hypothesis: str, mer: bool
) -> None:
    _parts_merge_into_the_whole(reference, hypothesis, mer)


@settings(max_examples=150, deadline=None)
@given(st.text(_ALPHABET, max_size=30), st.text(_ALPHABET, max_size=30), st.booleans())
def test_the_two_part_answer_merges_into_the_whole_on_generated_text(
    reference: str, hypothesis: str, mer: bool
) -> None:
    _parts_merge_into_the_whole(reference, hypothesis, mer)


def _kept_hypotheses(reference: str) -> list[object]:
    from cvb_scorer import align

    return [entry.hypothesis for entry in align._recent if entry.reference == reference]


# 万 is read by a numeral rule, so the Simplified cost aligns the reference with a hypothesis folded before
# normalising (the alignment that used to take the place of the keystroke's own columns).
@pytest.mark.parametrize(
    ("reference", "hypothesis"),
    [("三萬五千蚊保費係咪", "三万五千蚊保费系咪"), ("我想問下份保單幾時到期", "我想问下份保单几时到期")],
)
def test_the_details_leave_the_keystrokes_columns_for_the_next_keystroke(
    reference: str, hypothesis: str
) -> None:
    parts = render_editor_parts(reference=reference, hypothesis=hypothesis)
    parts.rest()
    assert parts.clip.hypothesis.cer in _kept_hypotheses(parts.clip.reference.cer)
