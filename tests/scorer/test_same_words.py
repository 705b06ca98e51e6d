"""The same words score the same (issue 35): whitespace, the script of a numeral and the spelling of a currency
never change what a clip costs, except where the rules say they do (a Simplified character costs one error; a
different currency costs an error). Every example of the issue is a case here."""

from __future__ import annotations

import pytest
from cvb_scorer.metrics import score_clip
from cvb_scorer.normalise import Side, normalise_hypothesis, normalise_reference
from cvb_scorer.reference import normalise as reference


def _costs(ref: str, hyp: str) -> tuple[int, int]:
    clip = score_clip("a", ref, hyp)
    return clip.cer_counts.errors, clip.mer_counts.errors


# Whitespace: removed before numbers are read; a boundary is kept between two Latin words only.
WHITESPACE = [
    ("總共三千二百五十蚊", "總 共 三 千 二 百 五 十 蚊"),
    ("總共三千二百五十蚊", "總共 三千二百五十 蚊"),
    ("佢個電話係98765432", "佢個電話係 9876 5432"),
    ("佢個電話係98765432", "佢 個 電 話 係 98 76 54 32"),
    ("佢個電話係九八七六五四三二", "佢個電話係 9876 5432"),
    ("利率係百分之五", "利率係 5 %"),
    ("利率係5%", "利率係 5 %"),
    ("一百二十蚊", "一 百 二 十 蚊"),
    ("三點五萬", "三 點 五 萬"),
    ("十一點半", "十 一 點 半"),
    ("保單號碼ab123456", "保單號碼 ab 123 456"),
]


@pytest.mark.parametrize(("ref", "hyp"), WHITESPACE)
def test_whitespace_costs_nothing(ref: str, hyp: str) -> None:
    assert _costs(ref, hyp) == (0, 0)
    assert _costs(hyp, ref) == (0, 0)


def test_a_space_between_two_latin_words_is_the_only_boundary_kept() -> None:
    assert normalise_hypothesis("wi fi").text == "wi fi"
    assert _costs("wifi", "wi fi") == (0, 2)  # the same characters, two words for one
    assert normalise_hypothesis("iPhone 15 好 嘢").text == "iphone15好嘢"


# A Simplified numeral character costs exactly one error, as any other Simplified character; the number is read.
SIMPLIFIED = [
    ("三萬五", "三万五", 1),
    ("兩萬", "两万", 2),
    ("一億", "一亿", 1),
    ("三點五", "三点五", 1),
    ("兩個", "两個", 1),
    ("三萬五千蚊", "3万5千蚊", 1),
]


@pytest.mark.parametrize(("ref", "hyp", "errors"), SIMPLIFIED)
def test_a_simplified_numeral_costs_one_error_and_the_number_is_read(ref: str, hyp: str, errors: int) -> None:
    assert _costs(ref, hyp) == (errors, errors)
    digits = normalise_reference(ref).text
    assert normalise_hypothesis(hyp).text.endswith(digits)


def test_the_issue_example_no_longer_costs_four() -> None:
    # Before: 三万五 against 三萬五 cost 4, 两万 against 兩萬 cost 5.
    assert _costs("三萬五", "三万五")[0] == 1
    assert _costs("兩萬", "两万")[0] == 2


# Currency: the local one goes however it is written; another one stays, written one way.
LOCAL = [
    "HK$20,000",
    "$20,000",
    "兩萬蚊",
    "兩萬元",
    "港幣兩萬",
    "兩萬港元",
    "港紙兩萬",
    "20000港幣",
    "HKD 20000",
]
US = ["US$20,000", "兩萬美金", "兩萬美元", "美金兩萬", "20000 USD", "usd20,000"]
RMB = ["RMB 20,000", "人民幣兩萬", "兩萬人民幣", "20000 CNY"]


@pytest.mark.parametrize("a", LOCAL)
@pytest.mark.parametrize("b", LOCAL)
def test_the_local_currency_however_written_costs_nothing(a: str, b: str) -> None:
    assert _costs(a, b) == (0, 0)
    assert normalise_hypothesis(a).text == "20000"


@pytest.mark.parametrize("same", [US, RMB])
def test_another_spelling_of_the_right_foreign_currency_costs_nothing(same: list[str]) -> None:
    forms = {normalise_hypothesis(text).text for text in same}
    assert len(forms) == 1, forms


@pytest.mark.parametrize(
    ("ref", "hyp"),
    [
        ("五十港元", "五十美金"),
        ("HK$20,000", "US$20,000"),
        ("兩萬美金", "兩萬人民幣"),
        ("兩萬蚊", "RMB 20,000"),
    ],
)
def test_naming_the_wrong_currency_costs_an_error(ref: str, hyp: str) -> None:
    cer, mer = _costs(ref, hyp)
    assert cer > 0 and mer > 0


def test_currency_words_elsewhere_stay() -> None:
    for text in ("元朗", "有蚊", "美金匯率", "港元兌美元", "人民幣升值"):
        assert normalise_hypothesis(text).text == text


# Words kept as written: a word-list exception never breaks a longer number; idioms stay, so a misheard
# character in one costs one error.
def test_an_exception_word_never_breaks_a_longer_number() -> None:
    assert _costs("萬一千蚊", "11000蚊") == (0, 0)  # was 5
    assert normalise_hypothesis("萬一三個").text == "萬一3個"


@pytest.mark.parametrize("idiom", ["十萬火急", "三三兩兩", "六合彩", "進退兩難", "五顏六色"])
def test_an_idiom_is_kept_as_written(idiom: str) -> None:
    # Before: 十萬火急 → 100000火急, 三三兩兩 → 3322, 六合彩 → 6合彩.
    assert normalise_hypothesis(idiom).text == idiom
    assert normalise_hypothesis(f"佢{idiom}咁").text == f"佢{idiom}咁"
    assert _costs(f"佢{idiom}", f"佢 {idiom}") == (0, 0)


def test_a_misheard_character_between_kept_words_costs_one() -> None:
    # Where the misheard form is a kept word too, neither side is read into digits (before: 3文治 against 三文魚).
    assert _costs("三文治", "三文魚") == (1, 1)
    assert _costs("九龍城", "九龍塘") == (1, 1)


def test_every_fixed_word_names_a_source_and_stays_as_written() -> None:
    from cvb_scorer.normalise.numerals import FIXED_WORDS

    assert set(FIXED_WORDS.values()) == {"scorer", "idioms", "hkcancor"}
    for word in FIXED_WORDS:
        assert normalise_hypothesis(word).text == normalise_hypothesis(word).text.lower()
        assert normalise_hypothesis(word).text == word, word


# The fold never changes a character Hong Kong writing uses.
def _big5() -> set[str]:
    out: set[str] = set()
    for lead in range(0x81, 0xFF):
        for trail in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            try:
                ch = bytes((lead, trail)).decode("big5")
            except UnicodeDecodeError:
                continue
            out.add(ch)
    return out


def test_the_fold_changes_no_big5_and_no_cantonese_character() -> None:
    from cvb_scorer.normalise.charsets import charsets
    from cvb_scorer.normalise.fold import fold_reference
    from cvb_scorer.tokens import CANTONESE_CHARS

    from tests.scorer.conftest import hkcancor_utterances

    folded = charsets().simplified_only
    cantonese = set("".join(hkcancor_utterances())) | CANTONESE_CHARS
    assert not folded & _big5()
    assert not folded & cantonese
    for ch in ("霉", "凄", "炖", "𠮶", *charsets().held_out):
        assert fold_reference(ch) == (ch, ())


def test_every_hkcancor_utterance_is_left_as_written_by_the_fold() -> None:
    from cvb_scorer.normalise.fold import fold_reference

    from tests.scorer.conftest import hkcancor_utterances

    changed = [u for u in hkcancor_utterances() if fold_reference(u)[0] != u]
    assert not changed, changed[:5]


@pytest.mark.parametrize(("a", "b"), [("食晒飯", "食曬飯"), ("睇吓", "睇嚇"), ("𠮶個", "嗰個")])
def test_a_held_out_cantonese_character_and_its_hong_kong_form_cost_nothing(a: str, b: str) -> None:
    assert _costs(a, b) == (0, 0)
    assert _costs(b, a) == (0, 0)


def test_the_issue_folds_no_longer_happen() -> None:
    # 霉→黴, 凄→悽, 炖→燉 were folded in the reference; now they stay as written.
    for text in ("發霉", "凄涼", "炖湯"):
        assert normalise_reference(text).text == text


# Every example of the issue as a row: two ways of writing the same words, and what the hypothesis costs
# (character errors, Mix Error Rate errors) against the reference. Whitespace, Simplified numerals, exceptions,
# idioms, currencies and the Hong Kong forms of percentages, hours, halves, ten-cent coins, ranges, lists and
# signs.
ISSUE_EXAMPLES = [
    # whitespace
    ("總共三千二百五十蚊", "總 共 三 千 二 百 五 十 蚊", 0, 0),
    ("利率係5%", "利率係5 %", 0, 0),
    ("佢個電話係98765432", "佢個電話係9876 5432", 0, 0),
    # a Simplified numeral costs exactly one error, and the number is still read
    ("三萬五", "三万五", 1, 1),
    ("兩萬", "两万", 2, 2),
    # an exception never breaks a longer number
    ("萬一千蚊", "11000蚊", 0, 0),
    # idioms kept as written: one misheard character costs one error
    ("十萬火急", "十萬火急", 0, 0),
    ("十萬火急", "十萬伙急", 1, 1),
    ("三三兩兩", "三三兩倆", 1, 1),
    ("五顏六色", "五顏六式", 1, 1),
    ("佢十萬火急咁", "佢十萬伙急咁", 1, 1),
    # currency names kept, folded one way
    ("五十港元", "五十美金", 2, 2),
    ("HK$20,000", "US$20,000", 2, 2),
    ("兩萬美金", "US$20,000", 0, 0),
    ("三百港元", "HK$300", 0, 0),
    # Hong Kong forms
    ("五十巴仙", "50%", 0, 0),
    ("百分百", "100%", 0, 0),
    ("三點正", "3:00", 0, 0),
    ("三點正", "三點", 0, 0),
    ("兩個半鐘", "2個半鐘", 0, 0),
    ("五毫子", "5毫子", 0, 0),
    ("三至五", "3-5", 0, 0),
    ("三至五個", "3~5個", 0, 0),
    ("負三度", "-3度", 0, 0),
    ("負三度", "−3度", 0, 0),
    ("三、四個", "三四個", 0, 0),
    ("兩個半鐘", "2.5個鐘", 0, 0),
    ("兩個半月", "2.5個月", 0, 0),
    ("五毫子", "$0.5", 0, 0),
    ("五毫", "五毫子", 0, 0),
    ("三蚊五毫", "$3.5", 0, 0),
    ("三、四", "3、4", 0, 0),
    ("三、四", "三,四", 0, 0),
    ("一千零十蚊", "1010蚊", 0, 0),
    ("六合彩", "六和彩", 1, 1),
    ("六合彩", "六合菜", 1, 1),
    ("買咗六合彩", "買咗六和彩", 1, 1),
]


@pytest.mark.parametrize(("ref", "hyp", "cer", "mer"), ISSUE_EXAMPLES)
def test_every_example_of_the_issue_costs_what_the_rules_say(ref: str, hyp: str, cer: int, mer: int) -> None:
    assert _costs(ref, hyp) == (cer, mer)


@pytest.mark.parametrize(
    ("ref", "hyp"),
    [("負三度", "三度"), ("-3度", "3度"), ("三至五", "三十五"), ("3-5", "35"), ("3-5個", "35個")],
)
def test_a_sign_or_a_range_is_never_lost(ref: str, hyp: str) -> None:
    # Before: -3度 read as 3度, and 3-5 as 35.
    cer, mer = _costs(ref, hyp)
    assert cer > 0 and mer > 0


def test_a_short_word_with_a_character_wrong_is_counting_again() -> None:
    # Words of four characters or more are recognised with a character misheard, and words of three that start
    # with their only numeral unless a measure word follows it: 一個月 is no 一個人, 一家店 no 一家人.
    assert normalise_hypothesis("一個月").text == "1個月"
    assert normalise_hypothesis("一家店").text == "1家店"
    assert normalise_hypothesis("五顏六七").text == "5顏67"  # a numeral is never the misheard character


def test_a_phone_number_or_a_date_with_dashes_reads_as_before() -> None:
    assert _costs("23456789", "2345-6789") == (0, 0)
    assert _costs("20261203", "2026-12-03") == (0, 0)


# The Hong Kong forms the issue names that were not read, as both the fast path and the plain reference read
# them: a half more (個半), money in 毫, an enumeration with 、 and a misheard three-character word.
HONG_KONG_FORMS = [
    ("兩個半鐘", "2.5個鐘"),
    ("兩個半月", "2.5個月"),
    ("兩個半", "2.5個"),
    ("十一個半鐘", "11.5個鐘"),
    ("第二個半場", "第2個半場"),
    ("五毫子", "0.5"),
    ("五毫", "0.5"),
    ("三蚊五毫", "3.5"),
    ("三蚊五毫子", "3.5"),
    ("港幣五毫", "0.5"),
    ("五毫米", "5毫米"),
    ("五毫升", "5毫升"),
    ("三十五毫", "35毫"),
    ("三、四", "3、4"),
    ("三，四", "3、4"),
    ("3,4", "3、4"),
    ("一、二、三", "1、2、3"),
    ("三、四十", "3、40"),
    ("三、四個", "三四個"),
    ("1,200", "1200"),
    ("一千零十蚊", "1010"),
    ("千零十", "1010"),
    ("一萬零十", "10010"),
    ("一百零十", "110"),
    ("六合彩", "六合彩"),
    ("六和彩", "六和彩"),
    ("六合菜", "六合菜"),
    ("一個月", "1個月"),
    ("一家店", "1家店"),
]


@pytest.mark.parametrize(("text", "normalised"), HONG_KONG_FORMS)
def test_the_hong_kong_forms_read_alike_in_the_fast_path_and_the_plain_reference(
    text: str, normalised: str
) -> None:
    assert normalise_hypothesis(text).text == normalised
    assert normalise_reference(text).text == normalised
    assert reference.normalise_text(text, side=Side.BOTH) == normalised
    assert reference.normalise_text(text, side=Side.REFERENCE) == normalised
    assert normalise_hypothesis(normalised).text == normalised  # and normalising again changes nothing


@pytest.mark.parametrize(("ref", "hyp"), [("三、四", "三十四"), ("三、四", "34"), ("一、二", "十二")])
def test_an_enumeration_is_never_one_number(ref: str, hyp: str) -> None:
    cer, mer = _costs(ref, hyp)
    assert cer > 0 and mer > 0
