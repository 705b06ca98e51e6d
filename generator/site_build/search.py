"""The search words stage: what jieba must keep whole when mkdocs-material's search segments the Chinese pages."""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.config import Config

# Runs of Chinese number characters (三千二百五十) that the search index keeps as one word.
ZH_NUMBER_RUN = re.compile("[零〇一二兩三四五六七八九十百千萬億廿卅]{2,}")
SEARCH_WORD_FREQUENCY = 100_000


def search_words(config: Config, pages: Iterable[str]) -> str:
    """jieba's user dictionary: words the search index must hold whole, one per line with a high frequency.

    jieba splits 三千二百五十 into 三千 and 二百五十, and the browser does not segment a query, so a reader
    searching for the number would find nothing. The glossary's terms and every Chinese number on the pages
    are kept whole.
    """
    words = {term.zh for term in config.glossary.terms.values()}
    for text in pages:
        words.update(match.group(0) for match in ZH_NUMBER_RUN.finditer(text))
    return "".join(f"{word} {SEARCH_WORD_FREQUENCY}\n" for word in sorted(words) if " " not in word)
