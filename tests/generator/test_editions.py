"""The Traditional Chinese (Hong Kong) edition: one config and one page model for both editions, the glossary
validated, and `cvb check` catching a number typed into a Chinese template."""

from __future__ import annotations

import functools
import html
import json
import re

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.build import Rendered, render_all, search_words
from generator.check import check
from generator.config import ConfigError, load_config
from generator.config.localise import zh_config
from generator.pages.editions import EN, ZH, zh_number_words
from generator.pages.words_zh import reference_spell, spell
from generator.paths import Layout
from tests.generator.conftest import project_copy

LAYOUT = Layout()


@functools.cache
def rendered() -> Rendered:
    return render_all(LAYOUT)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("一些錄音", []),
        ("一般來說", []),
        ("統一的規則", []),
        ("一個端點", []),
        ("錯誤率為零", []),
        ("十分重要", []),
        ("兩者原樣即可運行", []),
        ("二進位訊框", []),
        ("三個範疇", ["三"]),
        ("兩次機會", ["兩"]),
        ("十秒之內", ["十"]),
        ("一百段錄音", ["一百"]),
        ("醫療費三千二百五十蚊", ["三千二百五十"]),
        ("第二個問題", ["二"]),
    ],
)
def test_chinese_number_words_are_numbers_and_ordinary_words_are_not(text: str, numbers: list[str]) -> None:
    assert list(zh_number_words(text)) == numbers


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0, "零"),
        (10, "十"),
        (12, "十二"),
        (20, "二十"),
        (105, "一百零五"),
        (3250, "三千二百五十"),
        (20300, "二萬零三百"),
    ],
)
def test_spelled_numbers(value: int, words: str) -> None:
    assert spell(value) == words


@given(st.integers(min_value=0, max_value=99_999_999))
def test_spell_agrees_with_the_plain_reading(value: int) -> None:
    assert spell(value) == reference_spell(value)


def test_the_chinese_config_changes_prose_only() -> None:
    config = load_config(LAYOUT.config)
    zh = zh_config(config)
    assert zh.scoring.pillars["asr"].name != config.scoring.pillars["asr"].name
    assert zh.rounds == config.rounds.model_copy(update={"practice_pack": zh.rounds.practice_pack}), (
        "numbers of the draw are the same objects"
    )
    for pid, pillar in config.scoring.pillars.items():
        assert zh.scoring.pillars[pid].weight == pillar.weight
    assert zh.protocol.deadline.floor_ms == config.protocol.deadline.floor_ms
    assert "to be announced" not in repr(zh.platform.rounds)


def test_both_editions_have_the_same_pages() -> None:
    result = rendered()
    assert set(result.pages) == set(result.zh_pages)
    # Beside the fixed pages, the standings (without a results folder, no entrant pages: test_board covers the
    # example board's pages in both editions).
    fixed = {name for name in result.pages if name != "standings.md" and not name.startswith("entrants/")}
    assert fixed == {page.output for page in EN.pages}
    assert "standings.md" in result.zh_pages
    assert [p.output for p in EN.pages] == [p.output for p in ZH.pages]


def test_chinese_pages_take_terms_from_the_glossary() -> None:
    config = load_config(LAYOUT.config)
    text = "\n".join(rendered().zh_pages.values())
    for term_id in ("cer", "mer", "core_score", "normalisation", "confidence_interval"):
        assert config.glossary.terms[term_id].zh in text, term_id


def test_search_dictionary_keeps_chinese_numbers_whole() -> None:
    config = load_config(LAYOUT.config)
    words = search_words(config, ["醫療費三千二百五十蚊", "沒有數字"]).splitlines()
    assert any(line.split()[0] == "三千二百五十" for line in words)
    assert any(line.split()[0] == config.glossary.terms["cer"].zh for line in words)


def _edit_glossary(layout: Layout, edit: object) -> None:
    path = layout.config / "glossary.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["zh_text"].update({"scoring.pillars.asr.nmae": "錯"}), "names nothing in the config"),
        (lambda d: d["zh_text"].update({"scoring.pillars.asr.weight": "錯"}), "not text"),
        (lambda d: d["zh_text"].update({"platform.rounds[0].opens": "錯"}), "to be announced"),
        (lambda d: d["zh_text"].update({"platform.rounds[0].name": "伺服器信息"}), "'信息' is to be avoided"),
        (lambda d: d["terms"]["mer"].update({"zh": "字錯誤率"}), "also the Chinese of cer"),
        (
            lambda d: d["interface"]["starting"].update({"zh": "拷貝中"}),
            "'拷貝' is to be avoided; write '複製'",
        ),
        (lambda d: d["terms"].pop("to_be_announced"), "to_be_announced is missing"),
        (lambda d: d["terms"].pop("hard"), "the tier 'hard' has no entry"),
        (
            lambda d: d["zh_text"].update({"platform.rounds[0].name": "資格 賽"}),
            "a space stands between Chinese",
        ),
    ],
)
def test_glossary_mistakes_are_located(tmp_path, edit, message) -> None:  # type: ignore[no-untyped-def]
    project = project_copy(tmp_path)
    _edit_glossary(project, edit)
    with pytest.raises(ConfigError) as error:
        load_config(project.config)
    text = str(error.value)
    assert ".yaml, line" in text and message in text, text


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["zh_view"].update({"differ": "不同（CER {cer}）"}), "differ: has the placeholders"),
        (lambda d: d["zh_view"].pop("legend_match"), "legend_match: missing"),
        (lambda d: d["zh_view"].update({"legend_mach": "相同"}), "legend_mach: no such field"),
        (
            lambda d: d["zh_view"].update({"fold_characters": {"one": "一個字", "other": "{n} 個字"}}),
            "one: has",
        ),
    ],
)
def test_the_drawings_chinese_words_are_checked_against_the_scorer(tmp_path, edit, message) -> None:  # type: ignore[no-untyped-def]
    # Not when the config loads (the scorer's wheel is built from a loaded config) but before any page is drawn.
    project = project_copy(tmp_path)
    _edit_glossary(project, edit)
    load_config(project.config)
    with pytest.raises(ConfigError) as error:
        render_all(project)
    text = str(error.value)
    assert "glossary.yaml, line" in text and message in text, text


def test_the_drawings_words_avoid_what_the_glossary_avoids(tmp_path) -> None:  # type: ignore[no-untyped-def]
    project = project_copy(tmp_path)
    _edit_glossary(project, lambda d: d["zh_view"].update({"figures_value": "數值信息"}))
    with pytest.raises(ConfigError) as error:
        load_config(project.config)
    assert "'信息' is to be avoided" in str(error.value)


def test_a_changed_setting_shows_on_both_editions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    project = project_copy(tmp_path)
    path = project.config / "rounds.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("pool_size: 56", "pool_size: 3257"), encoding="utf-8"
    )
    result = render_all(project)
    assert "3257" in result.pages["methodology.md"]
    assert "3257" in result.zh_pages["methodology.md"]
    assert "3257" not in rendered().zh_pages["methodology.md"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("錄音庫有 56 段錄音。", "a number is typed into the template"),
        ("每輪有三次機會。", "the number word '三' is typed"),
        ("每輪有三千二百五十段錄音。", "the number word '三千二百五十' is typed"),
        ("這是字錯誤率。", "the term '字錯誤率' is typed; write {{ t.cer }}"),
    ],
)
def test_a_number_typed_into_a_chinese_template_is_caught(tmp_path, line, expected) -> None:  # type: ignore[no-untyped-def]
    project = project_copy(tmp_path, copy=("platform_config", "docs"))
    template = project.templates / "zh" / "changelog.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    problems = [str(p) for p in check(project)]
    assert any("docs/templates/zh/changelog.md.j2" in p and expected in p for p in problems), problems


def test_ordinary_words_with_number_characters_pass_the_check(tmp_path) -> None:  # type: ignore[no-untyped-def]
    project = project_copy(tmp_path, copy=("platform_config", "docs"))
    template = project.templates / "zh" / "changelog.md.j2"
    template.write_text(
        template.read_text(encoding="utf-8") + "\n一些規則一般統一，一個端點十分重要。\n", encoding="utf-8"
    )
    assert [str(p) for p in check(project)] == []


def test_the_real_templates_pass_the_check() -> None:
    assert [str(p) for p in check(LAYOUT)] == []


def test_chinese_pages_show_no_english_sentences() -> None:
    """Untranslated config prose shows up as a run of English words outside code, links and lang="en" spans.
    The editor counts too, its build-time drawing included (in glossary.yaml's zh_view words); only the texts
    in its boxes, which are the sample call, are left out."""
    for name, page in rendered().zh_pages.items():
        text = re.sub(r"<textarea.*?</textarea>", " ", page, flags=re.S)
        prose = re.sub(
            r"```.*?```|`[^`]*`|<[^>]*>[^<]*</span>|<https?://[^>]*>|\{[^}]*\}", " ", text, flags=re.S
        )
        prose = re.sub(r"^ {4}.*$", " ", prose, flags=re.M)
        prose = re.sub(r"<span lang=\"en\">.*?</span>", " ", prose)
        runs = re.findall(r"(?:\b[A-Za-z]{3,}\b[ ,;]+){5,}", prose)
        assert not runs, (name, runs[:3])


def test_the_editor_gets_its_interface_strings_in_the_page_language() -> None:
    config = load_config(LAYOUT.config)
    result = rendered()
    interface = config.glossary.interface
    chinese, english = result.zh_pages["methodology.md"], result.pages["methodology.md"]
    assert "data-cvb-strings=" in chinese and "data-cvb-strings=" in english
    assert interface["reference_label"].zh in chinese and interface["reference_label"].en not in chinese
    assert interface["reference_label"].en in english
    blob = re.search(r"data-cvb-strings='([^']*)'", chinese)
    assert blob is not None
    assert json.loads(html.unescape(blob.group(1)))["summary"] == interface["summary"].zh
