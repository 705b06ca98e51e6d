"""The view's words (cvb_scorer.view_text): every word the drawing writes is one of them, another language's are
checked field by field, and no language changes a figure."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from cvb_scorer.view import render_editor_parts, render_view
from cvb_scorer.view_text import ENGLISH, Plural, ViewText, text_problems, view_text_from_json
from hypothesis import given, settings
from hypothesis import strategies as st

# Pairs that between them take every branch of the view's sentences: CER and MER equal with and without Latin
# or digit runs and different, Simplified characters in the hypothesis or none, a reference fold of one, two
# or no characters, one run or several, and two empty texts.
BRANCHES = [
    ("你好", "你好"),
    ("我部iphone", "我部iphone"),
    ("ab好", ""),
    ("我部iphone好", "我部iphone"),
    ("这个iPhone好", "這个iPhome好"),
    ("这", "這"),
    ("个个", "個个"),
    ("九八七六 email", "9876 e-mail"),
    ("", ""),
]


def marked() -> ViewText:
    """A ViewText whose every field is its own name in brackets, with the English placeholders kept."""
    values: dict[str, object] = {}
    for field in dataclasses.fields(ViewText):
        english = getattr(ENGLISH, field.name)
        if isinstance(english, Plural):
            values[field.name] = Plural(f"⟦{field.name}.one {{n}}⟧", f"⟦{field.name}.other {{n}}⟧")
        else:
            holes = "".join(f" {{{name}}}" for name in sorted(re.findall(r"\{(\w+)\}", english)))
            values[field.name] = f"⟦{field.name}{holes}⟧"
    return ViewText(**values)  # type: ignore[arg-type]


def whole(view_text: ViewText, reference: str, hypothesis: str, *, mer: bool = False) -> str:
    return render_view(reference=reference, hypothesis=hypothesis, mer=mer, text=view_text).html


def test_every_field_reaches_the_drawing_and_no_english_word_is_left() -> None:
    text = marked()
    drawn = "".join(whole(text, r, h, mer=m) for r, h in BRANCHES for m in (False, True))
    shown = set(re.findall(r"⟦([a-z_]+)(?:\.(one|other))?", drawn))
    fields = {f.name for f in dataclasses.fields(ViewText)}
    assert {name for name, _ in shown} == fields
    assert ("agree_run_count", "one") in shown and ("agree_run_count", "other") in shown
    assert ("fold_characters", "one") in shown and ("fold_characters", "other") in shown
    # What is left once the marks, the texts' own runs and the signature are taken out is markup and numbers.
    prose = re.sub(r"⟦[^⟧]*⟧|<p class=\"cvb-alignment\".*?</p>|<code>.*?</code>|<[^>]+>", " ", drawn)
    assert not re.findall(r"[A-Za-z]{2,}", prose.replace("CER", "").replace("MER", ""))


def test_the_fold_lists_its_characters_with_the_language_separator() -> None:
    text = dataclasses.replace(ENGLISH, list_separator="、", fold_some="{characters}：{changes}。")
    assert "个→個、这→這" in whole(text, "这个", "這個")


@pytest.mark.parametrize(("reference", "hypothesis"), BRANCHES)
def test_the_words_change_no_figure_and_no_run(reference: str, hypothesis: str) -> None:
    english = render_view(reference=reference, hypothesis=hypothesis)
    other = render_view(reference=reference, hypothesis=hypothesis, text=marked())
    assert (other.figures, other.ops, other.signature) == (english.figures, english.ops, english.signature)
    if english.ops:
        assert other.alignment == english.alignment


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet="这這个個iPhone 98七六，", max_size=12),
    st.text(alphabet="这這个個iPhome 9876八", max_size=12),
)
def test_the_editor_parts_in_other_words_are_the_whole_view_in_them(reference: str, hypothesis: str) -> None:
    text = marked()
    parts = render_editor_parts(reference=reference, hypothesis=hypothesis, text=text)
    merged = {**json.loads(parts.first), **json.loads(parts.rest())}
    assert merged == json.loads(
        render_view(reference=reference, hypothesis=hypothesis, text=text).to_editor_json()
    )


def test_words_from_a_config_are_escaped() -> None:
    text = dataclasses.replace(
        ENGLISH, legend_match="<b>same</b>", simplified_none="none & <i>", agree_single='"quoted"'
    )
    html = whole(text, "你好", "你好")
    assert "<b>" not in html and "<i>" not in html
    assert (
        "&lt;b&gt;same&lt;/b&gt;" in html and "none &amp; &lt;i&gt;" in html and "&quot;quoted&quot;" in html
    )


def test_english_round_trips_through_its_mapping_and_json() -> None:
    assert ViewText.from_mapping(ENGLISH.as_mapping()) == ENGLISH
    assert view_text_from_json(json.dumps(ENGLISH.as_mapping())) == ENGLISH
    assert view_text_from_json(None) is ENGLISH


def test_one_text_serves_both_counts_of_a_plural() -> None:
    words = {**ENGLISH.as_mapping(), "fold_characters": "{n} 個字"}
    text = ViewText.from_mapping(words)
    assert text.fold_characters.of(1) == "1 個字" and text.fold_characters.of(2) == "2 個字"
    assert ENGLISH.fold_characters.of(1) == "1 character" and ENGLISH.fold_characters.of(0) == "0 characters"


def _without(key: str) -> dict[str, object]:
    words = ENGLISH.as_mapping()
    del words[key]
    return words


BAD = [
    (_without("legend_match"), "legend_match: missing"),
    ({**ENGLISH.as_mapping(), "legend_typo": "x"}, "legend_typo: no such field"),
    (
        {**ENGLISH.as_mapping(), "differ": "CER {cer}, MER {mer}"},
        "differ: has the placeholders ['cer', 'mer']",
    ),
    (
        {**ENGLISH.as_mapping(), "simplified_none": "{count} none"},
        "simplified_none: has the placeholders ['count']",
    ),
    ({**ENGLISH.as_mapping(), "fold_some": "{characters: {changes}"}, "fold_some: its braces do not parse"),
    ({**ENGLISH.as_mapping(), "figures_rate": 3}, "figures_rate: must be text"),
    ({**ENGLISH.as_mapping(), "fold_characters": {"one": "{n} char"}}, "fold_characters: give one text"),
    (
        {**ENGLISH.as_mapping(), "fold_characters": {"one": "char", "other": "{n}"}},
        "fold_characters.one: has",
    ),
]


@pytest.mark.parametrize(("words", "said"), BAD)
def test_a_bad_translation_is_refused_with_its_field_named(words: dict[str, object], said: str) -> None:
    with pytest.raises(ValueError, match="^the Chinese words, " + re.escape(said)):
        ViewText.from_mapping(words, where="the Chinese words")
    assert any(f"{field}: {message}".startswith(said) for field, message in text_problems(words))
