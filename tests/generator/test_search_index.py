"""The search index's finishing (generator/site_build/search.py), on small indexes of the theme's shape."""

from __future__ import annotations

import re
from typing import Any

import pytest

from generator.config import load_config
from generator.paths import Layout
from generator.site_build.search import (
    CODE_BOOST,
    SYNONYMS,
    SynonymsError,
    finish_index,
    glossary_groups,
    load_synonyms,
    search_groups,
)

CONFIG = {
    "lang": ["en"],
    "separator": r"[\s\u200b]+",
    "pipeline": ["stopWordFilter"],
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}},
}
LISTING = '<pre><code>deadline = 3000  # the deadline\n"保單"\n</code></pre>'
GROUPS = (("時限", "截止", "限期"), ("frame", "frames", "幀"), ("Hong Kong", "香港"))


def entry(title: str, text: str, location: str = "page/#s") -> dict[str, Any]:
    return {"location": location, "title": title, "text": text}


def finished(*docs: dict[str, Any], groups: tuple[tuple[str, ...], ...] = GROUPS) -> list[dict[str, Any]]:
    return list(finish_index({"config": CONFIG, "docs": list(docs)}, groups=groups)["docs"])


# (what a section holds, the fields the finishing gives it besides location, title and text)
TABLE = [
    pytest.param(entry("The deadline", "<p>Reply in time.</p>"), {}, id="nothing to add"),
    pytest.param(
        entry("Run it", f"<p>Start it:</p> {LISTING} <p>Then wait.</p>"),
        {"text": "<p>Start it:</p>   <p>Then wait.</p>", "code": LISTING},
        id="a listing moves to the code field",
    ),
    pytest.param(
        entry("\u200b時限", "<p>回覆。</p>"),
        {"title_synonyms": "截止 限期"},
        id="a title's word: synonyms weigh as the title",
    ),
    pytest.param(
        entry("回覆", "<p>在\u200b時限\u200b之前</p>"),
        {"synonyms": "截止 限期"},
        id="a prose word, segmented by jieba: synonyms weigh as prose",
    ),
    pytest.param(
        entry("Framing", "<p>Each <code>frame</code> is JSON; framed audio.</p>"),
        {"synonyms": "frames 幀"},
        id="Latin words match whole, case aside",
    ),
    pytest.param(
        entry("Where", "<p>In HONG KONG.</p>"),
        {"synonyms": "香港"},
        id="a Latin phrase matches across case",
    ),
    pytest.param(
        entry("Run it", f"<p>Start it.</p> {LISTING}"),
        {"text": "<p>Start it.</p>", "code": LISTING},
        id="a word only in a listing adds nothing",
    ),
]


@pytest.mark.parametrize(("doc", "added"), TABLE)
def test_finishing_a_section(doc: dict[str, Any], added: dict[str, str]) -> None:
    (result,) = finished(doc)
    assert result == {**doc, **added}


def test_the_new_fields_are_in_the_config_with_their_weights() -> None:
    index = {"config": CONFIG, "docs": [entry("t", "<p>x</p>")]}
    result = finish_index(index, groups=GROUPS)
    fields = result["config"]["fields"]
    assert fields["code"] == {"boost": CODE_BOOST} and fields["text"]["boost"] > CODE_BOOST
    assert fields["synonyms"] == fields["text"] and fields["title_synonyms"] == fields["title"]
    assert {key: value for key, value in result["config"].items() if key != "fields"} == {
        key: value for key, value in CONFIG.items() if key != "fields"
    }
    assert index == {"config": CONFIG, "docs": [entry("t", "<p>x</p>")]}, "the input was changed"


def test_the_synonyms_file_reads_and_names_both_editions() -> None:
    groups = load_synonyms(SYNONYMS.read_text(encoding="utf-8"), source="s.yaml", editions=("en", "zh"))
    assert set(groups) == {"en", "zh"}
    zh = {word for group in groups["zh"] for word in group}
    assert {"截止", "限期", "死線", "時限", "frames", "timeout"} <= zh
    en = {word for group in groups["en"] for word in group}
    assert {"粵語", "香港", "Cantonese", "Hong Kong"} <= en


def test_the_glossary_gives_its_terms_with_their_abbreviations_and_avoided_wordings() -> None:
    config = load_config(Layout().config)
    groups = glossary_groups(config)
    assert ("character error rate", "字錯誤率", "CER", "字符錯誤率", "字元錯誤率", "字錯率") in groups
    zh = search_groups(config, edition="zh", synonyms={"zh": (("時限", "截止"),)})
    assert zh[0] == ("時限", "截止") and zh[1:] == groups


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("en: [[a, b]\n", "is not YAML"),
        ("fr: [[a, b]]\n", "must map the editions (en, zh)"),
        ("en: {a: b}\n", "en must be a list of word groups"),
        ("zh: [[時限, 截止], [alone]]\n", "group 2 of zh must list at least two words"),
        ("en: [[a, 3]]\n", "group 1 of en must list at least two words, each a string"),
    ],
)
def test_a_bad_synonyms_file_gets_a_sentence(text: str, message: str) -> None:
    with pytest.raises(SynonymsError, match=re.escape(message)) as raised:
        load_synonyms(text, source="generator/site_build/search_synonyms.yaml", editions=("en", "zh"))
    assert str(raised.value).startswith("generator/site_build/search_synonyms.yaml")
