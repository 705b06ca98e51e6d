"""Screen and paper wordings (docs/print/wording.yaml): what a page says on screen that paper cannot do, and what
the PDFs print instead, in both editions. Pure: the file's text in, checked wordings out; `say` fills one in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.config import Config
from generator.provenance import Text

LANGUAGES = ("en", "zh")
_PLACEHOLDER = re.compile(r"\{(url|term)\.([a-z_]+)\}")
_DIGIT = re.compile(r"\d")


class WordingError(ValueError):
    """The wording file is malformed; the message names the file and the wording."""


@dataclass(frozen=True)
class Wording:
    screen: Mapping[str, str]  # language -> Markdown
    paper: Mapping[str, str]
    # Phrases (per language) only the screen wording has: none may reach a PDF.
    screen_only: Mapping[str, tuple[str, ...]]


def wording_path(root: Path) -> Path:
    return root / "docs" / "print" / "wording.yaml"


def parse_wordings(text: str, *, shown: str, config: Config) -> dict[str, Wording]:
    """The wordings of `text` (the file `shown`), each checked: both languages on both sides, known
    placeholders only, no typed digit, and screen-only phrases that the screen wording has and the paper one
    lacks once filled in."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f", line {mark.line + 1}" if mark is not None else ""
        raise WordingError(
            f"{shown}{line}: not valid YAML ({getattr(exc, 'problem', None) or exc})."
        ) from None
    entries = data.get("wordings") if isinstance(data, dict) else None
    if not isinstance(entries, dict) or not entries:
        raise WordingError(f"{shown}: a mapping `wordings` of named wordings is expected at the top.")
    out: dict[str, Wording] = {}
    for key, entry in entries.items():
        where = f"{shown}, wording {key!r}"
        sides: dict[str, dict[str, str]] = {}
        for side in ("screen", "paper", "screen_only"):
            value = entry.get(side) if isinstance(entry, dict) else None
            if not isinstance(value, dict) or set(value) != set(LANGUAGES):
                raise WordingError(f"{where}: `{side}` needs exactly the languages {', '.join(LANGUAGES)}.")
            sides[side] = value
        wording = Wording(
            screen={lang: str(sides["screen"][lang]) for lang in LANGUAGES},
            paper={lang: str(sides["paper"][lang]) for lang in LANGUAGES},
            screen_only={lang: tuple(str(p) for p in sides["screen_only"][lang]) for lang in LANGUAGES},
        )
        for lang in LANGUAGES:
            screen = str(fill(wording.screen[lang], lang, config, where=where))
            paper = str(fill(wording.paper[lang], lang, config, where=where))
            for side, raw in (("screen", wording.screen[lang]), ("paper", wording.paper[lang])):
                if _DIGIT.search(_PLACEHOLDER.sub("", raw)):
                    raise WordingError(
                        f"{where}: the {side} wording ({lang}) types a digit; take it from the config."
                    )
            if not wording.screen_only[lang]:
                raise WordingError(f"{where}: `screen_only` ({lang}) names no phrase to keep off paper.")
            for phrase in wording.screen_only[lang]:
                if phrase not in _plain(screen):
                    raise WordingError(f"{where}: the screen wording ({lang}) lacks its phrase {phrase!r}.")
                if phrase in _plain(paper):
                    raise WordingError(f"{where}: the paper wording ({lang}) still says {phrase!r}.")
        out[str(key)] = wording
    return out


def load_wordings(root: Path, config: Config) -> dict[str, Wording]:
    path = wording_path(root)
    return parse_wordings(path.read_text(encoding="utf-8"), shown=str(path.relative_to(root)), config=config)


def _plain(markdown: str) -> str:
    """The text a reader sees: links' text without their targets, no HTML tags, whitespace collapsed."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


def fill(template: str, language: str, config: Config, *, where: str = "") -> Text:
    """A wording with its placeholders filled, tracked by the config keys it printed."""
    glossary = config.glossary.terms
    out = Text("", frozenset())
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        out = out + template[position : match.start()]
        kind, name = match.groups()
        if kind == "url":
            url = getattr(config.platform.urls, name, None)
            if url is None:
                raise WordingError(f"{where}: platform.urls has no {name!r}.")
            out = out + Text(str(url), frozenset({f"platform.urls.{name}"}))
        else:
            if name not in glossary:
                raise WordingError(f"{where}: the glossary has no term {name!r}.")
            out = out + Text(
                getattr(glossary[name], language), frozenset({f"glossary.terms.{name}.{language}"})
            )
        position = match.end()
    return out + template[position:]


def sayer(
    wordings: Mapping[str, Wording], config: Config, *, language: str, on_paper: bool
) -> Callable[[str], Text]:
    """The pages' `say(KEY)`: the wording KEY in `language`, as paper prints it when `on_paper`."""

    def say(key: str) -> Text:
        if key not in wordings:
            raise KeyError(f"docs/print/wording.yaml has no wording {key!r}")
        wording = wordings[key]
        return fill((wording.paper if on_paper else wording.screen)[language], language, config, where=key)

    return say
