"""The project's mkdocs plugin: what it leaves in jieba, the search's segmenter, which lives once per process."""

from __future__ import annotations

import jieba

from generator.site_build.plugin import load_search_words

NUMBER = "三千二百五十"
TEXT = "保單號碼係三千二百五十，請問幾時到期"


def state() -> tuple[int, int | None, list[str]]:
    return jieba.dt.total, jieba.dt.FREQ.get(NUMBER), jieba.lcut_for_search(TEXT)


def test_loading_a_builds_words_again_leaves_jieba_as_loading_them_once() -> None:
    load_search_words(f"{NUMBER} 100000\n")
    once = state()
    assert once[1] == 100_000 and NUMBER in once[2]
    load_search_words(f"{NUMBER} 100000\n")
    load_search_words(f"{NUMBER} 100000\n")
    assert state() == once


def test_a_later_builds_words_replace_an_earlier_builds() -> None:
    load_search_words(f"{NUMBER} 100000\n")
    load_search_words("保單號碼 100000\n")
    assert jieba.dt.FREQ.get(NUMBER) != 100_000
    assert jieba.dt.FREQ["保單號碼"] == 100_000
