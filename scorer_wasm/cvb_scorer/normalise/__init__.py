"""Published, versioned normalisation: the fast path.

The rules are those of ``cvb_scorer.reference.normalise`` (``RULES``, the methodology page's table, each with
its function and examples), applied in the same order; only the reference is script-folded. The hypothesis is
never folded to Traditional: Simplified output is charged, and the diagnostics say how much of the error it
was. Here each rule runs only on a text that has a character it can act on (its trigger, one scan in C), and a
few rules have faster bodies; the tests check on generated text covering every rule's characters that this
equals the plain reference pipeline.

Normalisation never raises on any string and is idempotent: normalising a normalised text changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from cvb_scorer.normalise.fold import FoldChange, fold_reference
from cvb_scorer.normalise.numerals import (
    CLOCK_TRIGGER,
    COMMA_BETWEEN_RANGE_WORDS,
    EXCEPTION_WORDS,
    SIGNS_TRIGGER,
    clock_times,
    drop_currency_words,
    fold_numerals,
    join_comma_ranges,
    join_thousands,
    signs,
    spoken_forms_settled,
)
from cvb_scorer.normalise.text import (
    LATIN_JOINERS,
    SPACE,
    UPPER_CANDIDATES,
    clean_unicode,
    drop_currency_prefixes,
    drop_whitespace,
    fold_variants,
    is_stable,
    join_latin_words,
    lowercase_latin,
    nfkc,
    strip_punctuation,
    width,
)
from cvb_scorer.reference.normalise import RULES, Rule, Side

# Bump whenever any rule changes what it produces; it is part of the scoring signature, and the golden output
# in tests/scorer/golden/ records the version it was made with, so a change without a bump fails the tests.
NORM_VERSION = 9

__all__ = [
    "EXCEPTION_WORDS",
    "NORM_VERSION",
    "RULES",
    "FoldChange",
    "Normalised",
    "Rule",
    "Side",
    "normalise_hypothesis",
    "normalise_reference",
    "prepare",
    "rules_table",
]


@dataclass(frozen=True, init=False)
class Normalised:
    """A normalised text, as ``normalise_reference`` and ``normalise_hypothesis`` return it.

    Attributes
    ----------
    source : str
        The text as given.
    text : str
        The normalised text, with a space between Latin or digit runs (the tokens MER counts).
    cer : str
        The same text without those spaces: the characters CER counts.
    fold_changes : tuple[FoldChange, ...]
        What the reference's fold to Hong Kong Traditional changed (always empty for a hypothesis).
    """

    source: str
    text: str
    cer: str
    fold_changes: tuple[FoldChange, ...] = ()

    def __init__(self, source: str, text: str, cer: str, fold_changes: tuple[FoldChange, ...] = ()) -> None:
        # Two per clip: filling the instance dict directly is half the cost of the generated frozen
        # ``__init__`` (a call of ``object.__setattr__`` per field). Assignment still raises afterwards.
        fields = self.__dict__
        fields["source"] = source
        fields["text"] = text
        fields["cer"] = cer
        fields["fold_changes"] = fold_changes


# The both-sides rules after the fold, in the order of ``RULES``, each with its trigger: a text with no match
# is left unchanged by the rule (a property the tests check rule by rule). There is no shortcut past the rules
# for Han and punctuation: such a shortcut has to know what every other rule does, and it bought well under
# the 5 per cent of a keystroke a route of its own must earn (bench/editor.py measures the keystroke).
_STEPS: tuple[tuple[re.Pattern[str] | None, Callable[[str], str]], ...] = (
    (None, fold_variants),  # a regular expression of the variants, applied directly
    (None, drop_whitespace),  # looks for a space itself
    (None, drop_currency_prefixes),  # looks for a $ or a code itself
    (UPPER_CANDIDATES, lowercase_latin),
    (re.compile(","), join_thousands),
    (LATIN_JOINERS, join_latin_words),
    (COMMA_BETWEEN_RANGE_WORDS, join_comma_ranges),
    (None, fold_numerals),  # scans for a numeral or 點 itself
    (SIGNS_TRIGGER, signs),
    (CLOCK_TRIGGER, clock_times),
    (None, strip_punctuation),  # scans for a gap itself
    (None, drop_currency_words),  # looks for the currency words itself
    (None, spoken_forms_settled),  # looks for 仙 and 正 itself
    (None, nfkc),  # scans for a character NFKC could change itself
)


def _both_sides(text: str) -> str:
    for trigger, step in _STEPS:
        if trigger is None or trigger.search(text) is not None:
            text = step(text)
    return text


def prepare(text: str) -> str:
    """The first two rules (cleanup and width), which every other rule and the diagnostics start from."""
    # A str may hold lone surrogates (e.g. decoded with surrogateescape); they are dropped before NFKC.
    if is_stable(text):  # then there is nothing to clean either (most texts): one scan instead of two
        return text
    return width(clean_unicode(text))


def normalise_hypothesis(text: str) -> Normalised:
    """Normalise a system's output: every both-sides rule, never the script fold.

    Parameters
    ----------
    text : str
        Any string (it never raises; normalising a normalised text changes nothing).

    Returns
    -------
    Normalised

    Examples
    --------
    >>> from cvb_scorer.normalise import normalise_hypothesis
    >>> normalise_hypothesis("Hello, World!").text
    'hello world'

    Simplified characters stay as they are, and are charged as errors:

    >>> normalise_hypothesis("保单").cer
    '保单'
    """
    out = _both_sides(prepare(text))
    return Normalised(text, out, out.replace(SPACE, ""))


@lru_cache(maxsize=512)
def normalise_reference(text: str) -> Normalised:
    """Normalise a reference: the Hong Kong Traditional fold of Simplified-only characters, then every
    both-sides rule.

    Cached by the reference string: the editor redraws on every keystroke but the reference does not change.

    Parameters
    ----------
    text : str
        Any string (it never raises; normalising a normalised text changes nothing).

    Returns
    -------
    Normalised
        With ``fold_changes`` listing each character the fold replaced.

    Examples
    --------
    >>> from cvb_scorer.normalise import normalise_reference
    >>> result = normalise_reference("Hello, World!")
    >>> result.text, result.cer
    ('hello world', 'helloworld')
    >>> result = normalise_reference("保单")
    >>> result.cer, [(change.before, change.after) for change in result.fold_changes]
    ('保單', [('单', '單')])
    """
    folded, changes = fold_reference(prepare(text))
    out = _both_sides(folded)
    return Normalised(text, out, out.replace(SPACE, ""), changes)


def rules_table() -> list[dict[str, str]]:
    """``RULES`` as rows of strings for the methodology page: name, side, description (in English and in
    Traditional Chinese), examples."""
    return [
        {
            "name": rule.name,
            "applies_to": rule.side.value,
            "description": rule.description,
            "description_zh": rule.zh,
            "examples": "; ".join(f"{before} → {after}" for before, after in rule.examples),
        }
        for rule in RULES
    ]
