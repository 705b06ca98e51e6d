"""The site's two editions: which pages each has, where they live and what the Chinese templates are given.

Both editions render from one page model (site_context): the Chinese one from the same Config with its prose
replaced by the glossary's (generator.config.localise), plus the glossary's terms and interface strings. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from generator.config import Config
from generator.config.localise import zh_config
from generator.pages.downloads import Artefact
from generator.pages.site import PAGES, Fragments, Page, site_context
from generator.provenance import Text


@dataclass(frozen=True)
class Edition:
    code: str
    # The html lang of every page of the edition, and the theme's language (docs/overrides/partials/languages/).
    lang: str
    # Where the edition sits below the site root ("" for the root itself).
    prefix: str
    # The edition's name in its own language, as the switcher shows it.
    name: str
    pages: tuple[Page, ...]
    # Where the edition's own templates sit below docs/templates/ (the standings' and entrants' pages are
    # rendered from TEMPLATES + "standings.md.j2" and "entrant.md.j2" beside the fixed pages).
    templates: str


ZH_TITLES = {
    "index.md": "參賽指南",
    "integration.md": "端點接駁",
    "methodology.md": "評分方法",
    "grading-pipeline.md": "評審流程",
    "changelog.md": "更新紀錄",
}

EN = Edition(code="en", lang="en", prefix="", name="English", pages=PAGES, templates="")
ZH = Edition(
    code="zh",
    lang="zh-HK",
    prefix="zh/",
    name="繁體中文",
    pages=tuple(Page(f"zh/{page.template}", page.output, ZH_TITLES[page.output]) for page in PAGES),
    templates="zh/",
)
EDITIONS = (EN, ZH)
# The Chinese 404 page is a theme template, not a Markdown page: rendered from this template into the theme.
ZH_NOT_FOUND = "zh/404.md.j2"


def glossary_terms(config: Config, language: str) -> dict[str, Text]:
    """The glossary's terms in one language, tracked by their glossary key."""
    return {
        term_id: Text(getattr(term, language), frozenset({f"glossary.terms.{term_id}.{language}"}))
        for term_id, term in config.glossary.terms.items()
    }


def interface_strings(config: Config, language: str) -> dict[str, str]:
    """The editor's interface strings in one language (data for the editor, not page text)."""
    return {key: getattr(pair, language) for key, pair in config.glossary.interface.items()}


def zh_context(config: Config, fragments: Fragments, *, artefacts: Sequence[Artefact] = ()) -> dict[str, Any]:
    """The Chinese pages' context: the same page model over the Chinese config, plus the glossary."""
    context = site_context(zh_config(config), fragments, artefacts=artefacts)
    terms = glossary_terms(config, "zh")
    context.update(
        t=terms,
        en=glossary_terms(config, "en"),
        tba=terms["to_be_announced"],
        pages={page.output: page for page in ZH.pages},
    )
    return context


# Chinese number characters. A run of them is a number word when it holds any character other than 一 and 零:
# a lone 一 (一些, 一般, 統一, 一個) is an article or part of an ordinary word and 零 alone means nothing is
# left, as "one" and "zero" are not flagged in English; 三個, 兩次, 十秒, 一百 and 三千二百五十 are numbers.
# A few ordinary words built from number characters (十分 "very", 兩者 "both", 二進位 "binary") are words.
ZH_NUMERALS = "零〇一二兩三四五六七八九十百千萬億廿卅"
ZH_ORDINARY_WORDS = ("十分", "十足", "萬一", "千萬", "百分位", "百分比", "三思", "兩者", "二進位")
_ZH_RUN = re.compile(f"[{ZH_NUMERALS}]+")
_ZH_ORDINARY = re.compile("|".join(ZH_ORDINARY_WORDS))


def zh_number_words(text: str) -> Iterable[str]:
    """The Chinese number words in `text` (see ZH_NUMERALS for the rule)."""
    visible = _ZH_ORDINARY.sub(lambda m: " " * len(m.group(0)), text)
    for match in _ZH_RUN.finditer(visible):
        if match.group(0).strip("一零"):
            yield match.group(0)
