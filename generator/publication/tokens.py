"""Compare a published text with the text the config gives, number by number. Pure.

Expected text comes from a render whose tracked values are bracketed with their config keys
(generator.render, keys=True); each token remembers the keys of the bracket it was printed in. Both texts are
cut into the same kind of tokens and aligned; wherever the aligned stretches hold different numbers, that is a
drift, reported with the published and the expected value and the key that expected value came from.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from generator.pages.editions import ZH_NUMERALS
from generator.render import MARK_CLOSE, MARK_KEYS, MARK_OPEN

# A token is a run of word characters joined by the punctuation numbers use inside them (3,000 · 0.5 ·
# 2026-09-24 · v1.2); anything else is a token of one character, and white space separates. Angle brackets are
# no token: Markdown writes an autolink inside them and the page shows it without, and a link to a config value
# keeps them in the expected text (its marks stop Markdown from seeing the link).
# Chinese is written without spaces, so a run of Han characters is no word: each character is a token, except
# that a run of Chinese number characters (四十, 一萬三千五百) is one token, a number like a run of digits.
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_WORD = f"[^\\W{_HAN}]"
_TOKEN = re.compile(f"[{ZH_NUMERALS}]+|[{_HAN}]|{_WORD}+(?:[.,:\\-/]{_WORD}+)*|[^\\s\\w<>]", re.UNICODE)
_DIGIT = re.compile(f"[0-9{ZH_NUMERALS}]")
BUILD_OUTPUT = "(computed by the build: scorer, wheel or PDF)"
NO_KEY = "(not from the config)"


@dataclass(frozen=True)
class Token:
    text: str
    keys: str  # comma-separated config keys; "" outside any bracket

    @property
    def numeric(self) -> bool:
        return bool(_DIGIT.search(self.text))


@dataclass(frozen=True)
class Drift:
    where: str
    context: str
    published: str
    expected: str
    key: str

    def __str__(self) -> str:
        return (
            f"{self.where}: {self.context!r}: published {self.published or '(nothing)'}, "
            f"config gives {self.expected or '(nothing)'} [{self.key}]"
        )


def keyed_tokens(marked: str) -> list[Token]:
    """Tokens of a marked text; a token inside a bracket carries that bracket's keys (the innermost wins)."""
    plain: list[str] = []
    owner: list[str] = []
    stack: list[str] = []
    i = 0
    while i < len(marked):
        ch = marked[i]
        if ch == MARK_OPEN:
            # Read ahead to this bracket's keys: the value comes first, its keys after MARK_KEYS.
            depth, j, keys = 1, i + 1, ""
            while j < len(marked) and depth:
                if marked[j] == MARK_OPEN:
                    depth += 1
                elif marked[j] == MARK_CLOSE:
                    depth -= 1
                elif marked[j] == MARK_KEYS and depth == 1:
                    end = marked.find(MARK_CLOSE, j)
                    keys = marked[j + 1 : end]
                j += 1
            stack.append(keys or BUILD_OUTPUT)
            i += 1
            continue
        if ch == MARK_KEYS:
            i = marked.find(MARK_CLOSE, i)  # skip the keys themselves; the close is handled next
            continue
        if ch == MARK_CLOSE:
            if stack:
                stack.pop()
            i += 1
            continue
        plain.append(ch)
        owner.append(stack[-1] if stack else "")
        i += 1
    text = "".join(plain)
    return [Token(m.group(0), _keys_of(owner[m.start() : m.end()])) for m in _TOKEN.finditer(text)]


def _keys_of(owners: list[str]) -> str:
    named = [k for k in owners if k]
    return named[0] if named else ""


def plain_tokens(text: str) -> list[Token]:
    return [Token(m.group(0), "") for m in _TOKEN.finditer(text)]


def drifts(
    published: list[Token], expected: list[Token], *, where: str, ignore: frozenset[str] = frozenset()
) -> list[Drift]:
    """Every aligned stretch where the published numbers are not the expected ones."""
    found: list[Drift] = []
    for op, p1, p2, e1, e2 in _opcodes([t.text for t in published], [t.text for t in expected]):
        if op == "equal":
            continue
        got = [t for t in published[p1:p2] if t.numeric and t.text not in ignore]
        want = [t for t in expected[e1:e2] if t.numeric and t.text not in ignore]
        if [t.text for t in got] == [t.text for t in want]:
            continue
        context = joined(published[max(0, p1 - 8) : p2 + 2])
        keys = sorted({t.keys or NO_KEY for t in want}) or sorted({NO_KEY})
        found.append(
            Drift(
                where=where,
                context=context[:160],
                published=" ".join(t.text for t in got),
                expected=" ".join(t.text for t in want),
                key=", ".join(keys),
            )
        )
    return found


def joined(tokens: list[Token]) -> str:
    """Tokens as a reader would write them: spaced, except between Chinese characters (written unspaced)."""
    out = ""
    for token in tokens:
        if out and not (out[-1] >= _WIDE and token.text[0] >= _WIDE):
            out += " "
        out += token.text
    return out


# From here up, characters are CJK (radicals, punctuation, Han, full-width forms): no space between two of them.
_WIDE = "\u2e80"


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes turning ``a`` into ``b``, with the ends the two share taken as equal first: difflib's
    search is quadratic, and a page differs from its build in a few places if at all (a page of 10,000 tokens
    took a second; its middle takes milliseconds)."""
    n = min(len(a), len(b))
    head = next((k for k in range(n) if a[k] != b[k]), n)
    tail = next((k for k in range(n - head) if a[-1 - k] != b[-1 - k]), n - head)
    matcher = difflib.SequenceMatcher(None, a[head : len(a) - tail], b[head : len(b) - tail], autojunk=False)
    ops = [("equal", 0, head, 0, head)] if head else []
    ops += [(op, head + i1, head + i2, head + j1, head + j2) for op, i1, i2, j1, j2 in matcher.get_opcodes()]
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


def transfer_keys(plain: list[Token], keyed: list[Token]) -> list[Token]:
    """Give tokens of a plain text (a PDF's) the keys of the same tokens in a keyed text it was printed from."""
    out = list(plain)
    for op, p1, p2, k1, _ in _opcodes([t.text for t in plain], [t.text for t in keyed]):
        if op == "equal":
            for k in range(p2 - p1):
                out[p1 + k] = Token(plain[p1 + k].text, keyed[k1 + k].keys)
    return out
