"""The editor's MER drawing: every MER error counted in the figures is a token in one of its runs, on a table
of code-switched and digit cases where the character drawing hides them."""

from __future__ import annotations

import pytest
from cvb_scorer.align import Op
from cvb_scorer.metrics import score_clip
from cvb_scorer.view import TOKEN_GAP, mer_ops, render_view

CASES = [
    ("9876 5432", "九八七六五四三二"),
    ("我想send個e-mail俾你", "我想send個email俾你"),
    ("Wi-Fi密碼係乜", "WiFi密碼係乜"),
    ("okay冇問題", "ok冇問題"),
    ("e-mail Wi-Fi okay", "email WiFi ok"),
    ("保單號碼HK2048173", "保單號碼HK2048174"),
    ("一千二百蚊", "1200蚊"),
    ("", "hello 123"),
    ("我想claim", ""),
    ("call我 at 3點", "call我at三點"),
]


@pytest.mark.parametrize(("reference", "hypothesis"), CASES)
def test_every_mer_error_is_a_token_in_the_mer_drawing(reference: str, hypothesis: str) -> None:
    clip = score_clip("c", reference, hypothesis)
    tally = {Op.SUBSTITUTE: 0, Op.DELETE: 0, Op.INSERT: 0, Op.MATCH: 0}
    for op, ref, hyp in mer_ops(clip):
        tally[op] += len(ref) if op is not Op.INSERT else len(hyp)
        if op is Op.SUBSTITUTE:
            assert len(ref) == len(hyp)
    m = clip.mer_counts
    assert (tally[Op.SUBSTITUTE], tally[Op.DELETE], tally[Op.INSERT]) == (m.S, m.D, m.I)
    assert tally[Op.SUBSTITUTE] + tally[Op.DELETE] + tally[Op.MATCH] == m.N
    view = render_view(reference=reference, hypothesis=hypothesis, mer=True)
    drawn = "".join(view.alignment)
    for op, ref, hyp in mer_ops(clip):
        if op is not Op.MATCH:
            assert TOKEN_GAP.join(ref or hyp) in drawn
    assert view.figures == render_view(reference=reference, hypothesis=hypothesis).figures


def test_latin_words_split_differently_are_drawn_as_mer_errors_where_the_character_drawing_shows_none() -> (
    None
):
    cer = render_view(reference="wifi 9876 5432", hypothesis="wi fi 九八七六五四三二")
    mer = render_view(reference="wifi 9876 5432", hypothesis="wi fi 九八七六五四三二", mer=True)
    assert (
        mer.figures["counts"]["mer"]["D"]
        + mer.figures["counts"]["mer"]["S"]
        + mer.figures["counts"]["mer"]["I"]
        > 0
    )
    assert all('data-op="match"' in run for run in cer.alignment)
    assert any('data-op="match"' not in run for run in mer.alignment)
