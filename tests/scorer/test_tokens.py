"""Token classes and Mix Error Rate tokens."""

from __future__ import annotations

import itertools

import pytest
from cvb_scorer.tokens import HAN_RANGES, TokenClass, char_classes, is_han, mer_token_texts, mer_tokens
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "ch",
    ["\u4e00", "\u9fff", "\u3400", "\u4dbf", "\U00020000", "\U0002a6df", "\U0002a700", "\U0002b740",
     "\U0002b820", "\U0002ceb0", "\U0002ebf0", "\U00030000", "\U00031350", "\uf900", "\ufaff", "\U0002f800",
     "𨋢", "㗎"],
)  # fmt: skip
def test_every_cjk_unified_and_compatibility_block_is_han(ch: str) -> None:
    assert is_han(ch)
    assert len(mer_tokens(ch * 3)) == 3


@pytest.mark.parametrize("ch", ["a", "1", "。", "ア", "가", "\u3007", "\u2e80"])
def test_non_ideographs_are_not_han(ch: str) -> None:
    assert not is_han(ch)


def test_han_ranges_do_not_overlap() -> None:
    spans = sorted(HAN_RANGES)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("我想要iphone", ["我", "想", "要", "iphone"]),
        ("iphone 15 pro", ["iphone", "15", "pro"]),
        ("iphone15", ["iphone", "15"]),
        ("3.5%好", ["3.5%", "好"]),
        ("1000000蚊", ["1000000", "蚊"]),
        ("e\u0301a", ["e\u0301a"]),
        ("字\u0301x", ["字\u0301", "x"]),
        ("\u0301字", ["\u0301", "字"]),
        ("アイ", ["ア", "イ"]),
        ("", []),
    ],
)
def test_mix_error_rate_tokens(text: str, tokens: list[str]) -> None:
    assert [t.text for t in mer_tokens(text)] == tokens
    assert mer_token_texts(text) == tokens


def test_cantonese_specific_characters_have_their_own_class() -> None:
    assert char_classes("佢嘅a1好") == [
        TokenClass.CANTONESE,
        TokenClass.CANTONESE,
        TokenClass.LATIN,
        TokenClass.DIGIT,
        TokenClass.HAN,
    ]


def test_tokens_cover_every_character() -> None:
    text = "我哋 iphone 15 pro 3.5% アイ\u0301字😀"
    assert "".join(t.text for t in mer_tokens(text)) == text.replace(" ", "")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1.%字佢 ア\u0301é9")), max_size=40) | st.text(max_size=40))
def test_token_texts_equal_the_tokens(text: str) -> None:
    assert mer_token_texts(text) == [t.text for t in mer_tokens(text)]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aZ19.%% 字佢")), max_size=40))
def test_token_texts_of_han_and_ascii_equal_the_tokens(text: str) -> None:
    # Han with ASCII letters, digits, ``.`` and ``%`` take a one-expression path in ``mer_token_texts``.
    assert mer_token_texts(text) == [t.text for t in mer_tokens(text)]


def _codes_one_by_one(text: str) -> str:
    # The definition class_codes implements with shortcuts: a table lookup per character, marks joined to
    # their base, "." between digits and "%" after a digit counted as digits.
    import re

    from cvb_scorer.tokens import _CODES, _leading_marks, _resolve_marks

    codes = "".join(_CODES[ord(ch)] for ch in text)
    codes = re.sub(r"(?:^| )M+", _leading_marks, codes)
    codes = re.sub(r"([HCLDO.%])(M+)", _resolve_marks, codes)
    codes = re.sub(r"(?<=D)%+|(?<=D)\.(?=D)", lambda m: "D" * len(m.group()), codes)
    return codes.replace(".", "O").replace("%", "O")


# The first alphabet stays on the Han-and-ASCII path; the second also reaches the lookup per character.
_HAN_AND_ASCII = "唔該佢哋嘅咗保單理賠一二𠮶aZ09 .%$,"
_ANY = _HAN_AND_ASCII + "?\u0301\u0300１٣か한é"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(alphabet=_HAN_AND_ASCII, max_size=60), st.text(alphabet=_ANY, max_size=60)))
def test_class_codes_shortcuts_equal_a_lookup_per_character(text: str) -> None:
    from cvb_scorer.tokens import class_codes

    assert class_codes(text) == _codes_one_by_one(text)


@pytest.mark.parametrize(
    ("ref", "hyp"),
    [
        ("九八七六 五四三二", "9876 5432"),
        ("九八七六，五四三二", "9876，5432"),
        ("一百，二百，三百", "100，200，300"),
        ("Wi-Fi", "WiFi"),
        ("e-mail", "email"),
        ("三點五", "3.5"),
    ],
)
def test_whitespace_splits_tokens_whatever_script_wrote_the_digits(ref: str, hyp: str) -> None:
    # Spaces and punctuation between spoken items count the same whether the numbers are written in Chinese
    # numerals or Arabic digits; a hyphen or a dot inside a Latin word joins it into one word.
    from cvb_scorer.metrics import score_clip

    clip = score_clip("a", ref, hyp)
    assert (clip.cer, clip.mer) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Wi-Fi", ["wifi"]),
        ("e-mail", ["email"]),
        ("3.5", ["3.5"]),
        ("3-5", ["3", "至", "5"]),  # a dash between short numbers is a range
        ("5-3", ["53"]),  # a falling pair is no range: read as before
        ("v2.0", ["v", "2.0"]),
        ("九八七六 五四三二", ["98765432"]),
        ("一百，二百", ["100", "、", "200"]),  # an enumeration: never one number
        ("Wi Fi", ["wi", "fi"]),
        ("三四個", ["三", "四", "個"]),
    ],
)
def test_what_a_hyphen_a_dot_and_a_space_do_to_mer_tokens(text: str, tokens: list[str]) -> None:
    from cvb_scorer.normalise import normalise_hypothesis

    assert mer_token_texts(normalise_hypothesis(text).text) == tokens


_CODED_PIECES = [*"好嘅佢 .%", "ab", "Wi", "3", "12", "3.5", "50%", "1.", ".5", "%%", "x", "Z9", "○"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_CODED_PIECES), max_size=30).map("".join))
def test_coded_token_string_codes_exactly_the_tokens_of_several_characters(text: str) -> None:
    # The plain statement: every MER token in order, a token of one character as itself, a longer one coded.
    from cvb_scorer.tokens import coded_token_string

    codes: dict[str, str] = {}

    def code(token: str) -> str:
        return codes.setdefault(token, chr(0xF0000 + len(codes)))

    expected = "".join(t if len(t) == 1 else code(t) for t in mer_token_texts(text))
    codes.clear()
    assert coded_token_string(text, code) == expected
