"""Character classes and tokens: CER counts characters, Mix Error Rate counts Han characters, Latin words and
digit runs as one token each.

Classes come from code-point ranges and the pinned Unicode 16.0.0 tables, never from ``str.isalpha`` or regex
``\\w`` (whose answers change with the interpreter's Unicode version).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from cvb_scorer._charclass import class_body, ranges_of
from cvb_scorer._unicode import ud

# Every CJK Unified Ideographs block (the URO and extensions A to I) and both compatibility-ideograph blocks.
HAN_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DBF),  # Extension A
    (0x4E00, 0x9FFF),  # Unified Ideographs
    (0xF900, 0xFAFF),  # Compatibility Ideographs
    (0x20000, 0x2A6DF),  # Extension B
    (0x2A700, 0x2B73F),  # Extension C
    (0x2B740, 0x2B81F),  # Extension D
    (0x2B820, 0x2CEAF),  # Extension E
    (0x2CEB0, 0x2EBEF),  # Extension F
    (0x2EBF0, 0x2EE5F),  # Extension I
    (0x2F800, 0x2FA1F),  # Compatibility Ideographs Supplement
    (0x30000, 0x3134F),  # Extension G
    (0x31350, 0x323AF),  # Extension H
)

# Characters written in Hong Kong Cantonese but not in Standard Written Chinese: particles, pronouns, verbs
# and the like. The per-class breakdown reports them apart from other Han characters, because a recogniser
# trained on Mandarin text fails exactly here.
CANTONESE_CHARS = frozenset(
    "咗嘅啲冇嘢喺哋佢乜嚟睇諗啱瞓攰嗰餸㗎𨋢噉咁嘞喇啩囉吖啫咩噃喎嚿揸攞擰嬲嗌咪冧揼掟氹嘥嚡嘈嚫噏嘜嗱嚹啖"
    "嘍喐唔咋嗮晒吓搵揾𠮶𡃉嚕嗯喱噚尋埋嘢囖嘑啦咧噶咯嘛喔呀"
)


# The same blocks as a regular-expression character class.
HAN_CLASS = class_body(HAN_RANGES)


class TokenClass(enum.Enum):
    """The class of a character or token; disjoint, so every error is counted in exactly one class."""

    HAN = "han"
    CANTONESE = "cantonese"
    LATIN = "latin"
    DIGIT = "digit"
    OTHER = "other"


def is_han(ch: str) -> bool:
    cp = ord(ch)
    if cp < 0x3400:
        return False
    return any(lo <= cp <= hi for lo, hi in HAN_RANGES)


# Class codes: one letter per character, so whole strings are classified by ``str.translate`` and runs found
# by regular expressions (both run in C). Upper case: a class; ``M``: a combining mark; ``.``/``%`` may join
# digits.
_CODE_OF = {
    TokenClass.HAN: "H",
    TokenClass.CANTONESE: "C",
    TokenClass.LATIN: "L",
    TokenClass.DIGIT: "D",
    TokenClass.OTHER: "O",
}
CLASS_OF_CODE = {code: cls for cls, code in _CODE_OF.items()}


def _code(ch: str) -> str:
    if ch == " ":
        return " "
    if ch in ".%":
        return ch
    if "0" <= ch <= "9":
        return "D"
    if is_han(ch):
        return "C" if ch in CANTONESE_CHARS else "H"
    cat = ud.category(ch)
    if cat == "Nd":
        return "D"
    if cat in ("Lu", "Ll", "Lt", "Lm"):
        # Cased alphabets write words with spaces: a run of them is one word. Unicased letters (kana, Hangul
        # syllables, Thai ...) are counted one per character like Han.
        return "L"
    if cat[0] == "M":
        return "M"
    return "O"


class _CodeTable(dict[int, str]):
    def __missing__(self, cp: int) -> str:
        code = _code(chr(cp))
        if len(self) < 65536:
            self[cp] = code
        return code


_CODES = _CodeTable()
_CANTONESE_RE = re.compile(f"[{class_body(ranges_of(map(ord, CANTONESE_CHARS)))}]")


# Han with printable ASCII but no "?" (most text after normalisation, code-switched or not) is coded without a
# lookup per character: encoding to ASCII turns each Han character into "?" in C, one byte translation codes
# every character, and only the Cantonese-specific characters, a small share, are then marked one by one.
# (Compiled on first use: ``cvb-score`` seldom needs it, and a class of the Han blocks costs a millisecond or
# two to compile.)
@cache
def _needs_table() -> re.Pattern[str]:
    return re.compile(f"[^{HAN_CLASS}\x20-\x3e\x40-\x7e]")


_ASCII_CODE_BYTES = bytes.maketrans(
    bytes(range(0x20, 0x7F)),
    "".join("H" if cp == 0x3F else _code(chr(cp)) for cp in range(0x20, 0x7F)).encode(),
)


def _han_and_ascii_codes(text: str) -> str:
    codes = bytearray(text.encode("ascii", "replace").translate(_ASCII_CODE_BYTES))
    for match in _CANTONESE_RE.finditer(text):
        codes[match.start()] = 0x43  # C
    return codes.decode("ascii")


def class_code(ch: str) -> str:
    """The class code of one character on its own (``M`` for a combining mark)."""
    return _CODES[ord(ch)]


_MARKS_AFTER = re.compile(r"([HCLDO.%])(M+)")
_LEADING_MARKS = re.compile(r"(?:^| )M+")
# Scanned for a literal "D" first (a look-behind at every position is several times slower).
_DIGIT_MARKS = re.compile(r"D(?:%+|\.(?=D))")
_LOWER = {"H": "h", "C": "c", "O": "o", "L": "L", "D": "D", ".": ".", "%": "%"}


def _leading_marks(m: re.Match[str]) -> str:
    # A mark with no base character counts as one "other" character, the marks after it stay with it.
    text = m.group()
    space = " " if text.startswith(" ") else ""
    return space + "O" + "o" * (len(text) - len(space) - 1)


def _resolve_marks(m: re.Match[str]) -> str:
    base = m.group(1)
    return base + _LOWER[base] * len(m.group(2))


def class_codes(text: str) -> str:
    """One code per character of ``text``: H (Han), C (Cantonese-specific Han), L (Latin), D (digit), O
    (other), a space for a space. A combining mark takes its base character's class (lower case h/c/o after a
    single-character class, so tokenisation keeps it with its base). ``.`` between digits and ``%`` after a
    digit are digits."""
    if _needs_table().search(text) is None:
        codes = _han_and_ascii_codes(text)
    else:
        codes = text.translate(_CODES)
        if "M" in codes:
            codes = _LEADING_MARKS.sub(_leading_marks, codes)
            codes = _MARKS_AFTER.sub(_resolve_marks, codes)
    if "." in codes or "%" in codes:
        codes = _DIGIT_MARKS.sub(lambda m: "D" * len(m.group()), codes)
        codes = codes.replace(".", "O").replace("%", "O")
    return codes


def char_classes(text: str) -> list[TokenClass]:
    """The class of each character of a normalised CER string (see ``class_codes``)."""
    of = CLASS_OF_CODE
    return [of[c.upper()] if c != " " else TokenClass.OTHER for c in class_codes(text)]


class Token(NamedTuple):
    text: str
    cls: TokenClass


_TOKEN = re.compile(r"L+|D+|[HCO][hco]*")


def mer_tokens(text: str) -> list[Token]:
    """Mix Error Rate tokens of a normalised text (with its boundary spaces).

    Each Han character is a token, each maximal run of Latin letters is one word, each maximal digit run (with
    its decimal point and percent sign) is one token, anything else is one token per character. A boundary
    space ends a run.
    """
    codes = class_codes(text)
    of = CLASS_OF_CODE
    return [Token(text[s:e], of[codes[s]]) for s, e in map(re.Match.span, _TOKEN.finditer(codes))]


_MULTI = re.compile("[^HCO]")
_NOT_HAN_OR_PLAIN = re.compile(f"[^{HAN_CLASS}0-9A-Za-z ]")
# Two ASCII letters or two digits side by side; the first character is matched before the alternatives, so
# that the engine scans for letters and digits instead of trying both alternatives at every character.
_ASCII_RUN = re.compile("[0-9A-Za-z](?:(?<=[A-Za-z])[A-Za-z]|(?<=[0-9])[0-9])")
_RUN_TOKEN = re.compile(r"L+|D+|[HCO][hco]+")


_NOT_HAN_OR_SPACE = re.compile(f"[^{HAN_CLASS} ]")
# A text of Han and ASCII letters, digits, spaces, ``.`` and ``%``: its tokens by one regular expression, with
# the digit rules of ``class_codes`` (``.`` between digits, a run of ``%`` after a digit).
_NOT_HAN_OR_ASCII = re.compile(f"[^{HAN_CLASS}0-9A-Za-z .%]")
_ASCII_TOKEN = re.compile(r"[A-Za-z]+|[0-9](?:[0-9]|(?<=[0-9])\.(?=[0-9])|(?<=[0-9])%+)*|[^ ]")


def one_token_per_character(text: str) -> bool:
    """A quick sufficient test that every MER token of ``text`` is one character (the common case after
    normalisation): Han, ASCII letters and digits and spaces only, no two letters or two digits side by side.
    False says nothing."""
    if _NOT_HAN_OR_SPACE.search(text) is None:  # Han alone (most texts): one scan instead of two
        return True
    return _NOT_HAN_OR_PLAIN.search(text) is None and _ASCII_RUN.search(text) is None


def mer_token_texts(text: str) -> list[str]:
    """Only the texts of ``mer_tokens(text)``, for alignment (faster: most Cantonese text is one token per
    character)."""
    if one_token_per_character(text):
        return list(text.replace(" ", ""))
    if _NOT_HAN_OR_ASCII.search(text) is None:  # Han with English words or numbers (most of the rest)
        return _ASCII_TOKEN.findall(text)
    codes = class_codes(text)
    if _MULTI.search(codes) is None:
        return list(text)
    # Only Latin and digit runs and marked characters span several characters; everything between them is one
    # token per character, taken in one C-level step.
    out: list[str] = []
    pos = 0
    for s, e in map(re.Match.span, _RUN_TOKEN.finditer(codes)):
        if s > pos:
            out.extend(text[pos:s].replace(" ", ""))
        out.append(text[s:e])
        pos = e
    out.extend(text[pos:].replace(" ", ""))
    return out


# The tokens of several characters in a text of Han and ASCII letters, digits, spaces, ``.`` and ``%``: a Latin
# word of two letters or more, a number of two characters or more (``_ASCII_TOKEN``'s digit rule with at least
# one more character). Scanning the whole text finds exactly the tokens of several characters that
# ``_ASCII_TOKEN`` makes of each run of those characters: a token starts where a run does or where the token
# before it ends, and where a scan skips a character (a lone letter, a lone digit, ``.``, ``%``), that
# character is a token of its own. (The first character is matched before the alternatives, so that the engine
# scans for letters and digits instead of trying both alternatives at every Han character.)
_LONG_ASCII_TOKEN = re.compile(
    r"([0-9A-Za-z](?:(?<=[A-Za-z])[A-Za-z]+|(?<=[0-9])(?:[0-9]|(?<=[0-9])\.(?=[0-9])|(?<=[0-9])%+)+))"
)


def coded_token_string(text: str, code: Callable[[str], str]) -> str:
    """The MER tokens of ``text`` (``mer_token_texts``) as a string of one character per token: a token of one
    character is itself, a longer one is ``code(token)``. Aligning such strings is aligning the tokens when
    ``code`` gives each token its own character that the texts do not have; it avoids a list of several
    hundred one-character strings per clip."""
    if _NOT_HAN_OR_ASCII.search(text) is not None:
        return "".join(token if len(token) == 1 else code(token) for token in mer_token_texts(text))
    # Split on the long tokens (captured, so they are every other part) and code them in place, in order.
    parts = _LONG_ASCII_TOKEN.split(text)
    parts[1::2] = map(code, parts[1::2])
    return "".join(parts).replace(" ", "")
