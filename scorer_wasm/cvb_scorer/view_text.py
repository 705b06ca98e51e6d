"""The words of the editor's view (legend, table headings, the sentences under the figures), kept apart from its
markup so an edition in another language can supply its own.

English is the scorer's own and the default. Another language comes as a mapping from field name to text, e.g.
the Traditional Chinese edition's from the site's config (``glossary.yaml``, ``zh_view``), checked by
``ViewText.from_mapping``: every field present, no unknown one, and each text with exactly the English text's
placeholders, so a translation can neither drop a count nor ask for one the view does not give. A count that
needs a singular and a plural is a ``Plural``; a language without plural forms gives one text for both.

The words change nothing the scorer computes: the figures, the drawing's runs and the signature are the same in
every language.
"""

from __future__ import annotations

import dataclasses
import json
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Plural:
    """A text with a count ``{n}``: ``one`` for a count of one, ``other`` for every other count."""

    one: str
    other: str

    def of(self, n: int) -> str:
        return (self.one if n == 1 else self.other).format(n=n)


@dataclass(frozen=True, kw_only=True)
class ViewText:
    """Every word the view writes, in one language. Placeholders in braces are filled in by the view."""

    legend_match: str = "match: the same character"
    legend_substitute: str = "substitution: reference → hypothesis"
    legend_delete: str = "deletion: in the reference, missing from the hypothesis"
    legend_insert: str = "insertion: in the hypothesis, not in the reference"
    empty: str = "(both texts are empty after normalisation)"
    figures_rate: str = "Rate"
    figures_value: str = "Value"
    figures_cer: str = "CER (characters)"
    figures_mer: str = "MER (Mix Error Rate: Han characters, Latin words, numbers)"
    agree_single: str = (
        "CER and MER agree on this text: every token is a single character, so there is no Latin word or number "
        "for them to count differently."
    )
    agree_runs: str = (
        "CER and MER agree on this text although it has {runs}: its errors fall where a character and a token "
        "are the same thing."
    )
    agree_run_count: Plural = Plural("{n} Latin or digit run", "{n} Latin or digit runs")
    differ: str = (
        "CER and MER differ on this text (CER {cer}, MER {mer}): MER counts each Latin word and each number as "
        "one token where CER counts every letter and digit, and this text has {runs}."
    )
    differ_run_count: Plural = Plural("{n} such run", "{n} such runs")
    simplified_none: str = "The hypothesis has no Simplified-only characters."
    simplified_some: str = (
        "The hypothesis has {characters}; {errors} would not have been charged had it written Traditional."
    )
    simplified_characters: Plural = Plural("{n} Simplified-only character", "{n} Simplified-only characters")
    simplified_errors: Plural = Plural("{n} error", "{n} errors")
    classes_caption: str = (
        "CER errors by character class (substitutions and deletions by the reference character, insertions by "
        "the hypothesis character)"
    )
    classes_class: str = "Class"
    classes_errors: str = "Errors"
    class_han: str = "Han"
    class_cantonese: str = "Cantonese-specific"
    class_latin: str = "Latin"
    class_digit: str = "digits"
    fold_none: str = "The reference fold changed nothing: the reference has no Simplified-only character."
    fold_some: str = "The reference fold changed {characters}: {changes}."
    fold_characters: Plural = Plural("{n} character", "{n} characters")
    list_separator: str = ", "

    def as_mapping(self) -> dict[str, object]:
        """The form ``from_mapping`` takes (and the page sends as JSON): ``{field: text}``, a Plural as
        ``{"one": ..., "other": ...}``."""
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            out[field.name] = {"one": value.one, "other": value.other} if isinstance(value, Plural) else value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, where: str = "the view's text") -> ViewText:
        """A ViewText from ``{field: text}`` (a ``Plural`` as ``{"one": ..., "other": ...}`` or one text for
        both), or a ValueError whose sentence names the field and what is wrong with it."""
        problems = text_problems(data)
        if problems:
            name, message = problems[0]
            raise ValueError(f"{where}, {name}: {message}")
        values: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            given = data[field.name]
            if isinstance(getattr(ENGLISH, field.name), Plural):
                given = Plural(given, given) if isinstance(given, str) else Plural(**given)  # type: ignore[arg-type]
            values[field.name] = given
        return cls(**values)  # type: ignore[arg-type]


ENGLISH = ViewText()


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def text_problems(data: Mapping[str, object]) -> list[tuple[str, str]]:
    """(field, sentence) for each way ``data`` cannot be a ViewText: a field missing or unknown, a text that is
    not text, or placeholders other than the English text's."""
    names = [f.name for f in dataclasses.fields(ViewText)]
    problems = [
        (key, "no such field in the view's text; the fields are the English ones.")
        for key in data
        if key not in names
    ]
    for name in names:
        english = getattr(ENGLISH, name)
        if name not in data:
            problems.append((name, "missing; every field of the view's text needs a translation."))
            continue
        given = data[name]
        if isinstance(english, Plural):
            if isinstance(given, Mapping) and set(given) == {"one", "other"}:
                texts = [("one", given["one"], english.one), ("other", given["other"], english.other)]
            elif isinstance(given, str):
                texts = [("", given, english.other)]
            else:
                problems.append(
                    (name, 'give one text, or {"one": ..., "other": ...} for a singular and a plural.')
                )
                continue
        else:
            texts = [("", given, english)]
        for form, text, model in texts:
            label = f"{name}.{form}" if form else name
            if not isinstance(text, str):
                problems.append((label, "must be text."))
                continue
            try:
                have = _placeholders(text)
            except ValueError as error:
                problems.append(
                    (label, f"its braces do not parse ({error}); write a literal brace as {{{{ or }}}}.")
                )
                continue
            want = _placeholders(model)
            if have != want:
                shown = ", ".join(f"{{{p}}}" for p in sorted(want)) or "none"
                problems.append(
                    (label, f"has the placeholders {sorted(have) or 'none'}; the English has {shown}.")
                )
    return problems


@lru_cache(maxsize=4)
def view_text_from_json(text: str | None) -> ViewText:
    """The browser's form: None for English, else the JSON of a mapping (``ViewText.from_mapping``). Cached, as
    the page sends the same text with every keystroke."""
    return ENGLISH if text is None else ViewText.from_mapping(json.loads(text))


__all__ = ["ENGLISH", "Plural", "ViewText", "text_problems", "view_text_from_json"]
