"""The search stage: what jieba must keep whole when mkdocs-material's search segments the Chinese pages, and
the finishing of each edition's search index (code listings weigh little, readers' words find the pages'). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

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


# ---------------------------------------------------------------------------------------------------------------
# The index's finishing: what mkdocs-material's search plugin wrote, made to answer what entrants type.

SYNONYMS = Path(__file__).with_name("search_synonyms.yaml")
# The fields the finishing adds to each entry, with their weights. A code listing holds every protocol word and
# much of the pages' prose vocabulary (its comments, its strings): weighed like prose it tops searches for prose
# words because it is long. A reader's synonym weighs what the word it stands for weighs where the page has it.
CODE_FIELD = "code"
SYNONYMS_FIELD = "synonyms"
TITLE_SYNONYMS_FIELD = "title_synonyms"
CODE_BOOST = 0.05
SYNONYMS_BOOST = 1.0
# Material's own weight for titles (its search plugin's default, which mkdocs.yml does not change).
TITLE_BOOST = 1000.0

_LISTING = re.compile(r"<pre\b[^>]*>.*?</pre>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# jieba's segmentation as the search plugin writes it: words joined with zero-width spaces.
_ZERO_WIDTH = "\u200b"


class SynonymsError(ValueError):
    """The synonyms file is not what search.py reads; the message says what and where."""


Groups = tuple[tuple[str, ...], ...]


def load_synonyms(text: str, *, source: str, editions: Iterable[str]) -> dict[str, Groups]:
    """The synonym groups of each edition in `editions`, from the text of a file like search_synonyms.yaml."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SynonymsError(f"{source} is not YAML: {exc}") from None
    wanted = list(editions)
    if not isinstance(data, dict) or set(data) - set(wanted):
        raise SynonymsError(f"{source} must map the editions ({', '.join(wanted)}) to lists of word groups.")
    groups: dict[str, Groups] = {}
    for edition in wanted:
        entries = data.get(edition) or []
        if not isinstance(entries, list):
            raise SynonymsError(f"{source}: {edition} must be a list of word groups.")
        edition_groups = []
        for number, entry in enumerate(entries, start=1):
            if not (
                isinstance(entry, list)
                and len(entry) >= 2
                and all(isinstance(word, str) and word.strip() for word in entry)
            ):
                raise SynonymsError(
                    f"{source}: group {number} of {edition} must list at least two words, each a string."
                )
            edition_groups.append(tuple(word.strip() for word in entry))
        groups[edition] = tuple(edition_groups)
    return groups


def search_groups(config: Config, *, edition: str, synonyms: dict[str, Groups]) -> Groups:
    """An edition's synonym groups: the file's, then the glossary's."""
    return synonyms.get(edition, ()) + glossary_groups(config)


def glossary_groups(config: Config) -> Groups:
    """The glossary's terms as synonym groups: the English, the Chinese, the abbreviation and the wordings the
    Chinese pages avoid (which readers still type)."""
    groups = []
    for term in config.glossary.terms.values():
        words = [str(term.en), str(term.zh), *([str(term.abbr)] if term.abbr else []), *map(str, term.avoid)]
        groups.append(tuple(dict.fromkeys(words)))
    return tuple(groups)


def _holds(text: str, word: str) -> bool:
    """Whether `text` (lowercased, zero-width spaces removed) holds `word`: whole in Latin script, anywhere in
    Chinese (the pages are segmented by jieba, whose cuts need not fall where the reader's word ends)."""
    lowered = word.lower()
    if _HAN.search(lowered):
        return lowered in text
    return re.search(rf"(?<![a-z0-9_]){re.escape(lowered)}(?![a-z0-9_])", text) is not None


def _plain(html: str) -> str:
    return _TAG.sub(" ", html).replace(_ZERO_WIDTH, "").lower()


def finish_index(index: dict[str, Any], *, groups: Groups) -> dict[str, Any]:
    """mkdocs-material's search index (search_index.json as loaded) with each entry's code listings moved from
    `text` into a field of their own that weighs little, and each entry given the words of every synonym group
    its title or prose holds (those it lacks), as two fields: those its title holds weigh as a title, the rest
    as prose. Pure: `index` is not changed."""
    config = dict(index["config"])
    fields = dict(config.get("fields", {}))
    fields[CODE_FIELD] = {"boost": CODE_BOOST}
    fields[SYNONYMS_FIELD] = {"boost": SYNONYMS_BOOST}
    fields[TITLE_SYNONYMS_FIELD] = {"boost": fields.get("title", {}).get("boost", TITLE_BOOST)}
    config["fields"] = fields
    docs = []
    for entry in index["docs"]:
        doc = dict(entry)
        text = str(doc.get("text", ""))
        listings = _LISTING.findall(text)
        if listings:
            doc["text"] = _LISTING.sub(" ", text).strip()
            doc[CODE_FIELD] = "\n".join(listings)
        title, prose = _plain(str(doc.get("title", ""))), _plain(doc["text"])
        in_title: list[str] = []
        in_prose: list[str] = []
        for group in groups:
            if any(_holds(title, word) for word in group):
                in_title.extend(word for word in group if not _holds(title, word))
            elif any(_holds(prose, word) for word in group):
                in_prose.extend(word for word in group if not _holds(prose, word))
        if in_title:
            doc[TITLE_SYNONYMS_FIELD] = " ".join(dict.fromkeys(in_title))
        if in_prose:
            doc[SYNONYMS_FIELD] = " ".join(dict.fromkeys(in_prose))
        docs.append(doc)
    return {**index, "config": config, "docs": docs}
