"""The editor's view: the contract the browser editor consumes, safe HTML, odd input, long input, speed."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import cvb_scorer.align as align_module
import pytest
from cvb_scorer.metrics import score_clip
from cvb_scorer.normalise import normalise_hypothesis, normalise_reference
from cvb_scorer.normalise.charsets import count_simplified_only
from cvb_scorer.view import render_view, render_view_json
from hypothesis import given, settings
from hypothesis import strategies as st

KEYS = {"html", "figures", "ops", "ref_norm", "hyp_norm", "signature"}
ALLOWED_TAGS = {
    "div",
    "p",
    "span",
    "mark",
    "del",
    "ins",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
}
ALLOWED_TAGS |= {"td", "caption", "code"}
XSS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "' onmouseover='alert(1)",
    "&lt;b&gt;",
]


def test_json_has_the_agreed_keys_and_figures() -> None:
    data = json.loads(render_view(reference="唔該埋單", hypothesis="該唔埋單").to_json())
    assert set(data) == KEYS
    fig = data["figures"]
    assert fig["cer"] == 0.5 and fig["mer"] == 0.5
    assert fig["counts"] == {"cer": {"S": 2, "D": 0, "I": 0, "N": 4}, "mer": {"S": 2, "D": 0, "I": 0, "N": 4}}
    assert {"han", "cantonese", "latin", "digit"} <= set(fig["by_class"])
    assert fig["simplified_errors"] == 0
    assert data["ops"] == [["substitute", "唔該", "該唔"], ["match", "埋單", "埋單"]]
    assert data["ref_norm"] == "唔該埋單" and data["signature"].startswith("cvb-scorer:")


def test_html_distinguishes_ops_by_element_symbol_and_class_not_colour() -> None:
    html = render_view(reference="我想買iPhone", hypothesis="我要買iPhonee唔").html
    assert '<mark class="cvb-op cvb-sub" data-op="substitute"><del>想</del>' in html
    assert (
        '<ins class="cvb-op cvb-ins" data-op="insert"><span class="cvb-sym" aria-hidden="true">+</span>'
        in html
    )
    assert 'class="cvb-legend"' in html and "substitution" in html and "deletion" in html
    deleted = render_view(reference="你好嗎", hypothesis="你好").html
    assert (
        '<del class="cvb-op cvb-del" data-op="delete">'
        '<span class="cvb-sym" aria-hidden="true">−</span>嗎</del>' in deleted
    )


def test_html_states_agreement_simplified_cost_classes_and_fold() -> None:
    html = render_view(reference="这个iPhone好", hypothesis="這个iPhome好").html
    assert "CER and MER differ" in html
    assert "1 Simplified-only character" in html
    assert "The reference fold changed 2 characters: 个→個, 这→這." in html
    assert 'data-class="cantonese"' in html and 'data-class="latin"' in html
    same = render_view(reference="唔該埋單", hypothesis="該唔埋單").html
    assert "CER and MER agree on this text: every token is a single character" in same


@pytest.mark.parametrize("payload", XSS)
def test_user_text_is_escaped_and_the_fragment_has_no_ids_styles_or_handlers(payload: str) -> None:
    view = render_view(reference="你好" + payload, hypothesis=payload + "你好")
    for html in (view.html, json.loads(view.to_json())["html"]):
        assert "<script" not in html and "<img" not in html and "<svg" not in html
        assert not re.search(r"\son\w+\s*=", html)
        assert " id=" not in html and " style=" not in html
        tags = set(re.findall(r"</?([a-z]+)", html))
        assert tags <= ALLOWED_TAGS


@pytest.mark.parametrize(
    "text", ["", "\ud800", "\x00", "\u202e\u202dabc", "e\u0301\u0301\u0301", "😀👍🏽", "\U0002a6df", "，。！"]
)
def test_odd_unicode_renders(text: str) -> None:
    view = render_view(reference=text, hypothesis=text + "字")
    json.loads(view.to_json())


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60), st.text(max_size=60))
def test_any_text_renders_and_escapes(ref: str, hyp: str) -> None:
    view = render_view(reference=ref, hypothesis=hyp)
    assert "<script" not in view.html
    rebuilt = "".join(h for op, _, h in view.ops if op != "delete")
    assert rebuilt == view.hyp_norm.replace(" ", "")


def test_the_same_input_renders_byte_identically() -> None:
    a = render_view(reference="我哋一齊去", hypothesis="我地一起去").to_json()
    b = render_view_json("我哋一齊去", "我地一起去")
    assert a == b


def test_normalised_reference_is_taken_as_is() -> None:
    view = render_view(reference="這個人", hypothesis="这个人", reference_is_normalised=True)
    assert view.ref_norm == "這個人"
    assert json.loads(view.to_json())["figures"]["fold_changes"] == 0


@contextmanager
def counted_work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts of the alignment's two units of work while the block runs: a column computed (``_step``) and
    a step decided by the tie rule (``_tie``, once per error step the walk makes). Speed is measured by
    bench/scorer.py; these counts say how much work a call does, which no load on the machine changes."""
    calls: Counter[str] = Counter()
    for name in ("_step", "_tie"):
        real = getattr(align_module, name)

        def counting(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return _real(*args)

        monkeypatch.setattr(align_module, name, counting)
    yield calls
    monkeypatch.undo()


def test_a_long_call_computes_each_column_at_most_twice_and_decides_each_error_step_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ref = "我哋今日去九龍塘食飯，跟住去旺角買iPhone 15 Pro。" * 300  # ~8,000 characters
    hyp = ref.replace("食飯", "食反").replace("旺角", "王角")
    align_module.clear_cache()
    with counted_work(monkeypatch) as work:
        view = render_view(reference=ref, hypothesis=hyp)
    assert view.html.count('data-op="substitute"') >= 600
    clip = score_clip("c", ref, hyp)
    cer, tokens = clip.hypothesis.cer, clip.hyp_tokens
    # The character pair is past the cells whose columns are all kept: the walk computes each block of columns
    # again from its checkpoint (bounded memory). The MER tokens (their own alignment: the text has Latin words
    # and numbers) keep theirs. One decision per error step, never more.
    assert len(clip.reference.cer) * len(cer) > align_module._STORE_MAX_CELLS
    assert work["_step"] == 2 * len(cer) + len(tokens)
    assert work["_tie"] <= clip.cer_counts.errors + clip.mer_counts.errors


# 1,500 different Han characters that every rule leaves as they are (no numeral, no Simplified-only
# character, nothing to fold), so that no stretch of the text repeats another, the walks are the ones a real
# text makes, and the only alignment is the characters'.
PLAIN_TEXT = "".join(
    [
        ch
        for ch in map(chr, range(0x5000, 0x7000))
        if normalise_reference(ch).cer == ch == normalise_hypothesis(ch).cer and not count_simplified_only(ch)
    ][:1500]
)


def test_a_keystroke_computes_only_the_columns_after_the_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    ref = PLAIN_TEXT
    hyp = ref[:700] + "唔" + ref[700:]
    align_module.clear_cache()
    render_view(reference=ref, hypothesis=hyp)
    for k in range(5):
        edited = hyp[: 900 + k] + "吖" + hyp[900 + k :]
        with counted_work(monkeypatch) as work:
            render_view(reference=ref, hypothesis=edited).to_json()
        # Every column of the shared prefix is kept: only those from the edit on are computed.
        assert work["_step"] == len(edited) - (900 + k)
        hyp = edited


def test_typing_at_the_end_computes_one_column_and_follows_the_last_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ref = PLAIN_TEXT
    # About a hundred errors before the end, which a walk of the whole text would decide again each time.
    body = "".join("唔" if k % 15 == 7 else ch for k, ch in enumerate(ref[:1480]))
    hyp = body[:300] + "吖" + body[300:700] + body[702:]
    align_module.clear_cache()
    render_view(reference=ref, hypothesis=hyp)
    for k, ch in enumerate(ref[1480:], 1):
        hyp += ch
        with counted_work(monkeypatch) as work:
            view = render_view(reference=ref, hypothesis=hyp)
        assert work["_step"] == 1
        # The walk decides the deletions of the reference's end not yet typed, runs back along the matches
        # before them, decides the substitution there and follows the last walk from the run of matches that
        # begins after it: none of the text's other error steps is decided again.
        assert work["_tie"] == len(ref) - 1480 - k + 1
        shown = json.loads(view.to_json())["figures"]["counts"]["cer"]
        align_module.clear_cache()
        assert shown == align_module.edit_counts(ref, hyp)._asdict()
        render_view(
            reference=ref, hypothesis=hyp
        )  # the columns and the walk to follow, as the editor keeps them
