"""The Chinese edition's config: the same Config with its prose replaced by glossary.yaml's zh_text.

Numbers, dates, ids and every other value stay the very objects the English edition reads, so both editions
render from one page model and a changed setting shows on both. Pure: Config in, Config out.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, RootModel

from generator.config.validated import Config

# The config's own "not yet announced" value, which the Chinese edition shows as the glossary's wording.
TBA = "to be announced"
TBA_TERM = "to_be_announced"
# Config fields a zh_text key may start with: the Config's files (sources is bookkeeping, glossary is this file).
ROOTS = tuple(f.name for f in dataclasses.fields(Config) if f.name not in {"sources", "glossary"})

_DIGITS = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_PART = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
Part = str | int


class KeyNotFound(LookupError):
    """A zh_text key that names nothing in the config; the message says which part is missing."""


def parse_key(key: str) -> tuple[Part, ...]:
    """`failures[4].message` → ("failures", 4, "message"); the syntax errors and Tracked keys use."""
    parts: list[Part] = []
    position = 0
    while position < len(key):
        match = _PART.match(key, position)
        if match is None or (position == 0 and key.startswith(".")):
            raise KeyNotFound(f"{key!r} is not a config key (write it like failures[4].message)")
        name, index = match.groups()
        parts.append(int(index) if index is not None else name)
        position = match.end()
    if not parts or not isinstance(parts[0], str) or parts[0] not in ROOTS:
        raise KeyNotFound(f"{key!r} does not start with one of the config's files: {', '.join(ROOTS)}")
    return tuple(parts)


def _unwrap(node: Any) -> Any:
    return node.root if isinstance(node, RootModel) else node


def _child(node: Any, part: Part) -> Any:
    node = _unwrap(node)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    if isinstance(node, Mapping) and part in node:
        return node[part]
    if isinstance(node, BaseModel) and isinstance(part, str) and part in type(node).model_fields:
        return getattr(node, part)
    raise KeyNotFound(f"the config has nothing at {part!r}")


def value_at(config: Config, key: str) -> Any:
    parts = parse_key(key)
    node: Any = getattr(config, str(parts[0]))
    for part in parts[1:]:
        node = _child(node, part)
    return node


def _replace(node: Any, parts: tuple[Part, ...], value: Any) -> Any:
    if not parts:
        return value
    head, rest = parts[0], parts[1:]
    if isinstance(node, RootModel):
        return node.model_copy(update={"root": _replace(node.root, parts, value)})
    new = _replace(_child(node, head), rest, value)
    if isinstance(node, list):
        copy = list(node)
        copy[int(head)] = new
        return copy
    if isinstance(node, Mapping):
        return {**node, head: new}
    return node.model_copy(update={str(head): new})


def _replace_tba(node: Any, word: str) -> Any:
    """Every "to be announced" in the tree, in the edition's words; everything else untouched (same objects)."""
    if isinstance(node, str):
        return word if node == TBA else node
    if isinstance(node, RootModel):
        return node.model_copy(update={"root": _replace_tba(node.root, word)})
    if isinstance(node, BaseModel):
        update = {name: _replace_tba(getattr(node, name), word) for name in type(node).model_fields}
        return node.model_copy(update=update)
    if isinstance(node, list):
        return [_replace_tba(item, word) for item in node]
    if isinstance(node, Mapping):
        return {k: _replace_tba(v, word) for k, v in node.items()}
    return node


def zh_config(config: Config) -> Config:
    """The config as the Chinese edition shows it: prose from zh_text, "to be announced" in Chinese."""
    word = config.glossary.terms[TBA_TERM].zh
    out = dataclasses.replace(config, **{root: _replace_tba(getattr(config, root), word) for root in ROOTS})
    for key, text in config.glossary.zh_text.items():
        parts = parse_key(key)
        root = str(parts[0])
        out = dataclasses.replace(out, **{root: _replace(getattr(out, root), parts[1:], text)})
    return out


def view_words(config: Config, language: str) -> dict[str, object] | None:
    """The editor drawing's words in one language, as cvb_scorer.view_text.ViewText.from_mapping takes them;
    None for English, which is the scorer's own."""
    if language == "en":
        return None
    return {k: v if isinstance(v, str) else v.model_dump() for k, v in config.glossary.zh_view.items()}


def zh_text_problems(config: Config) -> Iterator[tuple[str, str]]:
    """(key, sentence) for each zh_text key that does not name a sentence of the config."""
    for key in config.glossary.zh_text:
        try:
            value = value_at(config, key)
        except KeyNotFound as exc:
            yield key, f"this key names nothing in the config ({exc}); use a key as errors print it."
            continue
        if not isinstance(value, str):
            yield (
                key,
                f"this key holds {type(value).__name__} {value!r}, not text; only sentences are translated.",
            )
        elif value == TBA:
            yield key, f'this value is "{TBA}", which the Chinese edition words from terms.{TBA_TERM}.'
        elif sorted(_DIGITS.findall(config.glossary.zh_text[key])) != sorted(_DIGITS.findall(value)):
            # A number in a translation is a copy; when the English changes, the copy must be changed with it.
            yield (
                key,
                (
                    f"the numbers here ({', '.join(_DIGITS.findall(config.glossary.zh_text[key])) or 'none'}) are not "
                    f"those of the text it translates ({', '.join(_DIGITS.findall(value)) or 'none'}); write the "
                    "same numbers, in digits."
                ),
            )
