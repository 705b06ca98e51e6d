"""Character classes and tokens: CER counts characters, Mix Error Rate counts Han characters, Latin words and
digit runs as one token each.

Classes come from code-point ranges and the pinned Unicode 16.0.0 tables, never from ``str.isalpha`` or regex
``\\w`` (whose answers change with the interpreter's Unicode version).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

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
# and
# the like. The per-class breakdown reports them apart from other Han characters, because a recogniser trained
# on
# Mandarin text fails exactly here.
CANTONESE_CHARS = frozenset(
    "咗嘅啲冇嘢喺哋佢乜嚟睇諗啱瞓攰嗰餸㗎𨋢噉咁嘞喇啩囉吖啫咩噃喎嚿揸攞擰嬲嗌咪冧揼掟氹嘥嚡嘈嚫噏嘜嗱嚹啖"
    "嘍喐唔咋嗮晒吓搵揾𠮶𡃉嚕嗯喱噚尋埋嘢囖嘑啦咧噶咯嘛喔呀"
)


class TokenClass(enum.Enum):
    """The class of a character or token; disjoint, so every error is counted in exactly one class."""

    HAN = "han"
    CANTONESE = "cantonese"
    LATIN = "latin"
    DIGIT = "digit"
    OTHER = "other"


TOKEN_CLASS_LABELS: dict[TokenClass, str] = {
    TokenClass.HAN: "Han",
    TokenClass.CANTONESE: "Cantonese-specific",
    TokenClass.LATIN: "Latin",
    TokenClass.DIGIT: "digits",
    TokenClass.OTHER: "other",
}


def is_han(ch: str) -> bool:
    cp = ord(ch)
    if cp < 0x3400:
        return False
    return any(lo <= cp <= hi for lo, hi in HAN_RANGES)


_CLASS_CACHE: dict[str, TokenClass | None] = {}


def _base_class(ch: str) -> TokenClass | None:
    """A character's class on its own; None for a combining mark, which takes its base character's class."""
    cached = _CLASS_CACHE.get(ch, False)
    if cached is not False:
        return cached  # type: ignore[return-value]
    result: TokenClass | None
    if "0" <= ch <= "9":
        result = TokenClass.DIGIT
    elif is_han(ch):
        result = TokenClass.CANTONESE if ch in CANTONESE_CHARS else TokenClass.HAN
    else:
        cat = ud.category(ch)
        if cat == "Nd":
            result = TokenClass.DIGIT
        elif cat in ("Lu", "Ll", "Lt", "Lm"):
            # Cased alphabets write words with spaces: a run of them is one word. Unicased letters (kana,
            # Hangul syllables, Thai ...) are counted one per character like Han.
            result = TokenClass.LATIN
        elif cat[0] == "M":
            result = None
        else:
            result = TokenClass.OTHER
    if len(_CLASS_CACHE) < 65536:
        _CLASS_CACHE[ch] = result
    return result


def char_classes(text: str) -> list[TokenClass]:
    """The class of each character of a normalised CER string (no boundary spaces).

    A combining mark takes the class of the character before it. ``.`` between digits and ``%`` after a digit
    (kept by normalisation as a decimal point and a percent sign) are digits.
    """
    out: list[TokenClass] = []
    prev = TokenClass.OTHER
    n = len(text)
    for i, ch in enumerate(text):
        cls = _base_class(ch)
        if cls is None:
            cls = prev
        elif (
            cls is TokenClass.OTHER
            and prev is TokenClass.DIGIT
            and (ch == "%" or (ch == "." and i + 1 < n and "0" <= text[i + 1] <= "9"))
        ):
            cls = TokenClass.DIGIT
        out.append(cls)
        prev = cls
    return out


@dataclass(frozen=True)
class Token:
    text: str
    cls: TokenClass


def mer_tokens(text: str) -> list[Token]:
    """Mix Error Rate tokens of a normalised text (with its boundary spaces).

    Each Han character is a token, each maximal run of Latin letters is one word, each maximal digit run
    (with its decimal point and percent sign) is one token, anything else is one token per character.
    A boundary space ends a run.
    """
    tokens: list[Token] = []
    for part in text.split(" "):
        if not part:
            continue
        classes = char_classes(part)
        start = 0
        n = len(part)
        for i in range(1, n + 1):
            if i < n:
                if classes[start] in _RUN_CLASSES:
                    if classes[i] is classes[start]:
                        continue
                elif _base_class(part[i]) is None:
                    continue  # a combining mark stays with the character it modifies
            tokens.append(Token(part[start:i], classes[start]))
            start = i
    return tokens


_RUN_CLASSES = frozenset({TokenClass.LATIN, TokenClass.DIGIT})
