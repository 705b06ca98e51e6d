"""Examples whose two sides a reader cannot tell apart, made visible. Pure.

An example of the normalisation reads "before → after". Where the difference is a character that does not
print (a zero-width space, a NUL) or a glyph variant that the Hong Kong face draws alike (説/說, 温/溫 and 户/戶
look the same in Noto Sans CJK HK, which draws 說 in the Hong Kong form), the example would read "X → X" on the
page and in the PDF. Such characters are shown with their code points, on the web and on paper alike.
"""

from __future__ import annotations

import re
import unicodedata

ARROW = " → "
SEPARATOR = "; "
# The rule whose examples differ only by glyph variants (cvb_scorer.normalise's rule names).
LOOK_ALIKE_RULES = frozenset({"glyph-variants"})


def code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def visible(text: str) -> str:
    """``text`` as a page can show it: every character a reader cannot see (controls such as U+0000, format
    characters such as U+200B, separators, spaces other than U+0020) becomes a marker naming its code point,
    ``⟨U+200B⟩``, and each space of a run of two or more becomes ``␠`` (a page draws a run as one space), so an
    example of a rule that removes them shows what it removes."""
    marked = _SPACE_RUN.sub(lambda run: "␠" * len(run.group()), text)
    return "".join(f"⟨{code_point(ch)}⟩" if _invisible(ch) else ch for ch in marked)


_SPACE_RUN = re.compile(" {2,}")


def _invisible(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category[0] == "C" or category in ("Zl", "Zp") or (category == "Zs" and ch != " ")


def _marked(side: str, differing: list[int]) -> str:
    """A side with each invisible character replaced by its code point, and the code points of the characters
    that differ from the other side after it: 説話 (U+8AAC)."""
    text = visible(side)
    if not differing:
        return text
    return f"{text} ({' '.join(code_point(side[i]) for i in differing)})"


def visible_example(example: str, *, look_alike: bool) -> str:
    """One "before → after" example with what the eye cannot see written out; anything else as it was."""
    if ARROW not in example:
        return example
    before, after = example.split(ARROW, 1)
    differing: list[int] = []
    if look_alike and len(before) == len(after):
        differing = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    return f"{_marked(before, differing)}{ARROW}{_marked(after, differing)}"


def visible_examples(rule: str, examples: str) -> str:
    look_alike = rule in LOOK_ALIKE_RULES
    return SEPARATOR.join(visible_example(e, look_alike=look_alike) for e in examples.split(SEPARATOR))
