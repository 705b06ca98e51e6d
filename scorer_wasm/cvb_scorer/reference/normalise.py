"""The published normalisation as an ordered pipeline: one row of the methodology's table per rule, each with
its own small function and its examples. Plain code, no caches and no shortcuts: ``cvb_scorer.normalise`` is
the fast path, and the tests check on generated text that it equals ``normalise_text`` here.

Both sides go through every rule in order; the reference fold applies to the reference only. A rule with no
function states a condition that the rule before it applies (the numeral exceptions) or says what is kept.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass

from cvb_scorer._unicode import ud
from cvb_scorer.normalise.charsets import charsets
from cvb_scorer.normalise.text import LIST_COMMAS, is_gap, join_latin_words, separator
from cvb_scorer.reference.data import (
    DECIMAL,
    FOREIGN,
    HALF,
    LOCAL_NAMES,
    MEASURE_WORDS,
    MISHEARD_FROM,
    MISHEARD_SHORT,
    NUMERALS,
)
from cvb_scorer.reference.numerals import (
    FIXED_WORDS,
    SPACE,
    currency_words,
    fold_numerals,
    join_comma_ranges,
    join_thousands,
    signs,
    spoken_time,
)
from cvb_scorer.tokens import class_code

__all__ = ["RULES", "Rule", "Side", "normalise_text"]


class Side(enum.Enum):
    REFERENCE = "reference"
    BOTH = "both"


# Whitespace characters that are controls (category Cc), which the cleanup makes a space like any other.
_WHITESPACE_CONTROLS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85")


def cleanup(text: str) -> str:
    out = []
    for ch in text:
        cat = ud.category(ch)
        if ch in _WHITESPACE_CONTROLS or cat in ("Zs", "Zl", "Zp"):
            out.append(SPACE)
        elif cat not in ("Cc", "Cf", "Cs"):
            out.append(ch)
    return "".join(out)


def width(text: str) -> str:
    # NFKC can expose whitespace or format characters (U+00A8 is a space and a combining mark): clean again.
    return cleanup(ud.normalize("NFKC", text.translate(LIST_COMMAS)))


def reference_fold(text: str) -> str:
    return fold_positions(text)[0]


def fold_positions(text: str) -> tuple[str, list[tuple[int, str, str]]]:
    """s2hk over the whole text (its phrases choose each replacement), kept only where the character is
    Simplified-only: every other character stays exactly as written. Also returns what changed."""
    simplified = charsets().simplified_only
    # OpenCC itself, not the fast path's windowed fold (the fast path checks the version of its data).
    import opencc

    converted: str = opencc.OpenCC("s2hk").convert(text)
    out = []
    changes = []
    for k, (before, after) in enumerate(zip(text, converted, strict=True)):
        if before in simplified and after != before:
            out.append(after)
            changes.append((k, before, after))
        else:
            out.append(before)
    return "".join(out), changes


def glyph_variants(text: str) -> str:
    variants = charsets().variants
    return "".join(variants.get(ch, ch) for ch in text)


_CURRENCY_CODES = {"HKD": "", "USD": "美元", "RMB": "人民幣", "CNY": "人民幣"}


def currency_symbols(text: str) -> str:
    # The $ forms first, then the codes as whole words in what is left.
    text = re.sub(r"[Hh][Kk]\$", "", text)
    text = re.sub(r"[Uu][Ss]\$", "美元", text)
    out: list[str] = []
    i = 0
    while i < len(text):
        piece = text[i : i + 3].upper()
        whole_word = not (i > 0 and class_code(text[i - 1]) == "L") and not (
            i + 3 < len(text) and class_code(text[i + 3]) == "L"
        )
        if piece in _CURRENCY_CODES and whole_word:
            out.append(_CURRENCY_CODES[piece])
            i += 3
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def case(text: str) -> str:
    # Latin letters up to Latin Extended-B, whose case mappings have not changed in decades, so every runtime
    # lowercases them alike; a mapping to two characters (İ) is left alone.
    out = []
    for ch in text:
        low = ch.lower()
        out.append(low if 0x41 <= ord(ch) < 0x250 and len(low) == 1 else ch)
    return "".join(out)


def thousands(text: str) -> str:
    return join_thousands(text)


def latin_words(text: str) -> str:
    return join_latin_words(text)


def ranges(text: str) -> str:
    return join_comma_ranges(text)


def numerals(text: str) -> str:
    return fold_numerals(text)


def _continues_a_number(text: str, start: int, *, joiners: str) -> bool:
    """Whether ``text[start:]`` would continue a number: a digit or a numeral before it, or one of ``joiners``
    after one."""

    def numberish(k: int) -> bool:
        return k >= 0 and ("0" <= text[k] <= "9" or text[k] in NUMERALS)

    before = text[start - 1] if start > 0 else ""
    return numberish(start - 1) or (before != "" and before in joiners and numberish(start - 2))


def _hour_at(text: str, start: int, *, joiners: str) -> str | None:
    """The hour of a clock time that starts at ``start``: one or two ASCII digits that do not continue a
    number."""
    if _continues_a_number(text, start, joiners=joiners):
        return None
    end = start
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return text[start:end] if 1 <= end - start <= 2 else None


def _colon_time_at(text: str, start: int) -> tuple[str, int] | None:
    """An hour, a colon and two digits of minutes (00 to 59) starting at ``start``, that no digit or numeral,
    dot or colon and digit, or 點 continues: the time as it is said, and where it ends."""
    hour = _hour_at(text, start, joiners=".:" + DECIMAL)
    if hour is None:
        return None
    colon = start + len(hour)
    end = colon + 3
    minutes, following = text[colon + 1 : end], text[end : end + 2]
    if text[colon : colon + 1] != ":" or not (
        len(minutes) == 2 and "0" <= minutes[0] <= "5" and "0" <= minutes[1] <= "9"
    ):
        return None
    if (
        "0" <= following[:1] <= "9"
        or following[:1] in NUMERALS
        or (following[:1] in (":", ".") and "0" <= following[1:] <= "9")
        or following[:1] == DECIMAL
    ):
        return None
    spoken = spoken_time(hour, minutes, text[end : end + 1])
    return None if spoken is None else (spoken, end)


def _half_past_at(text: str, start: int) -> tuple[str, int] | None:
    """An hour and 點半 starting at ``start``, that no 點 follows: the time as it is said, and where it ends."""
    hour = _hour_at(text, start, joiners="." + DECIMAL)
    if hour is None:
        return None
    end = start + len(hour) + 2
    if text[start + len(hour) : end] != DECIMAL + HALF or text[end : end + 1] == DECIMAL:
        return None
    spoken = spoken_time(hour, "30", text[end : end + 1])
    return None if spoken is None else (spoken, end)


def _replace_each(text: str, found_at: Callable[[str, int], tuple[str, int] | None]) -> str:
    """``text`` with what ``found_at`` finds, from left to right, replaced by what it says."""
    out: list[str] = []
    i = 0
    while i < len(text):
        found = found_at(text, i)
        if found is None:
            out.append(text[i])
            i += 1
        else:
            out.append(found[0])
            i = found[1]
    return "".join(out)


def clock_times(text: str) -> str:
    return _replace_each(_replace_each(text, _colon_time_at), _half_past_at)


def _joins(ch: str) -> bool:
    """Whether ``ch`` could join a number beside it: a digit, a numeral or the decimal word (a dot alone is
    punctuation, which goes)."""
    return "0" <= ch <= "9" or ch in NUMERALS or ch in "點点"


# 毫 before one of these is a thousandth of a unit (毫米, 毫升, 毫克, 毫秒), never a tenth of a dollar.
_MILLI_UNITS = "米升克秒"


def _whole_number_before(out: list[str]) -> str | None:
    """The whole number in digits that ``out`` ends with, when it continues no number (no digit, dot, numeral
    or decimal word before it) and follows no 第 (an ordinal)."""
    k = len(out)
    while k > 0 and len(out[k - 1]) == 1 and "0" <= out[k - 1] <= "9":
        k -= 1
    if k == len(out):
        return None
    if k and (out[k - 1][-1] in (".", "第") or _joins(out[k - 1][-1])):
        return None
    return "".join(out[k:])


def _tenths_at(text: str, i: int, out: list[str]) -> tuple[str, int, int] | None:
    """At a 毫 (毫子) at ``i`` after one digit 1 to 9: the amount in dollars, how many items of ``out`` it
    replaces and where the text goes on; a dollar amount with 蚊 right before the digit (3蚊5毫) is part of it."""
    if not (text[i] == "毫" and out and len(out[-1]) == 1 and "1" <= out[-1] <= "9"):
        return None
    digit = out[-1]
    end = i + 1
    if text.startswith("子", end):
        end += 1
    elif text[end : end + 1] and text[end] in _MILLI_UNITS:
        return None
    if text[end : end + 1] and _joins(text[end]):
        return None
    dollars = _whole_number_before(out[:-2]) if len(out) >= 2 and out[-2] == "蚊" else None
    if dollars is not None:
        return f"{dollars}.{digit}", len(dollars) + 2, end
    if _whole_number_before(out) != digit:
        return None
    return f"0.{digit}", 1, end


def spoken_forms(text: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        after_digit = bool(out) and "0" <= out[-1][-1:] <= "9"
        tenths = _tenths_at(text, i, out)
        if tenths is not None:
            amount, replaced, i = tenths
            del out[len(out) - replaced :]
            out.extend(amount)
        elif text.startswith("個半", i) and _whole_number_before(out) is not None:
            out.extend(".5個")
            i += 2
        elif text.startswith("巴仙", i) and after_digit:
            out.append("%")
            i += 2
        elif (
            text[i] == "正"
            and len(out) >= 2
            and out[-1] == DECIMAL
            and "0" <= out[-2][-1:] <= "9"
            and not (i + 1 < len(text) and _joins(text[i + 1]))
        ):
            i += 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def spoken_forms_settled(text: str) -> str:
    while True:
        once = currency_words(spoken_forms(text))
        if once == text:
            return text
        text = once


def punctuation(text: str) -> str:
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        if not is_gap(text[i]):
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < n and is_gap(text[j]):
            j += 1
        gap, last, nxt = text[i:j], (out[-1] if out else ""), (text[j] if j < n else "")
        i = j
        if gap == "." and "0" <= last <= "9" and "0" <= nxt <= "9":
            out.append(".")
            continue
        if gap[0] == "%" and last and ("0" <= last <= "9" or last in NUMERALS):
            out.append("%")
            last, gap = "%", gap[1:]
        if gap and last and nxt:
            out.append(separator(out, len(out), text, i, gap=gap))
    return "".join(out)


def whitespace(text: str) -> str:
    out: list[str] = []
    for k, ch in enumerate(text):
        if ch != SPACE:
            out.append(ch)
            continue
        before = out[-1] if out else ""
        after = text[k + 1 : k + 2]
        # One space between two letters, however many there were; none anywhere else.
        if before and after and class_code(before) == "L" and class_code(after) == "L":
            out.append(SPACE)
    return "".join(out)


def compose(text: str) -> str:
    # Removing punctuation can bring a combining mark next to a new base character.
    return cleanup(ud.normalize("NFKC", text))


@dataclass(frozen=True)
class Rule:
    """One row of the published normalisation table; ``examples`` are (input, normalised) pairs on ``side``.
    ``apply`` is the rule's function (None: a condition the rule before it applies). ``zh`` is the description
    in Traditional Chinese (Hong Kong), for the Chinese edition of the page: the same rule, said there."""

    name: str
    side: Side
    description: str
    examples: tuple[tuple[str, str], ...]
    apply: Callable[[str], str] | None
    zh: str


RULES: tuple[Rule, ...] = (
    Rule(
        "unicode-cleanup",
        Side.BOTH,
        "Control and format characters and lone surrogates are dropped; every kind of whitespace is a space.",
        (("你\u200b好\x00", "你好"),),
        cleanup,
        zh="刪除控制字元、格式字元及孤立的代理字元；各種空白一律當作空格。",
    ),
    Rule(
        "width",
        Side.BOTH,
        "NFKC on Unicode 16.0.0: full-width letters and digits become half-width, compatibility ideographs "
        "become their unified form. A full-width comma becomes 、 first: it separates items, never thousands.",
        (("ＡＢＣ１２３", "abc123"), ("１００，２００", "100、200")),
        width,
        zh=(
            "以 Unicode 16.0.0 的 NFKC 處理：全形字母及數字改為半形，"
            "相容表意文字改為統一的寫法。全形逗號先改為「、」：它分隔項目，從不分隔千位。"
        ),
    ),
    Rule(
        "reference-fold",
        Side.REFERENCE,
        "Only characters that never occur in Hong Kong Traditional writing (Simplified-only) are replaced, "
        "each by OpenCC s2hk's choice for its phrase; every other character stays exactly as written, so a "
        "Simplified character elsewhere never changes correct Cantonese (余, 于, 郁, 范, 涌, 干). Held out "
        "of the fold, and never changed: every character of Big5 (not HKSCS as a whole, which also lists "
        "Simplified forms such as 个 and 会) and every Cantonese character (those of HKCanCor, as pycantonese "
        "ships it, and the scorer's Cantonese list): " + "".join(sorted(charsets().held_out)) + ".",
        (
            ("个人", "個人"),
            ("头发", "頭髮"),
            ("隻脚東涌", "隻腳東涌"),
            ("干净", "干淨"),
            ("食晒饭", "食晒飯"),
            ("霉菌", "霉菌"),
            ("凄涼", "凄涼"),
            ("炖蛋", "炖蛋"),
        ),
        reference_fold,
        zh=(
            "只替換香港繁體書寫從不使用的字（僅見於簡體的字），每個字按 OpenCC s2hk 對其所在"
            "詞語的選擇替換；其他字一律保留原文，所以別處有簡體字，也不會改動正確的粵語（余、"
            "于、郁、范、涌、干）。以下的字不參與轉換，一律不改：Big5 的所有字（不是整套 HKSCS，"
            "因為 HKSCS 也收錄个、会等簡體字形），以及所有粵語字（pycantonese 所附 HKCanCor 的字，"
            "以及評分器的粵語字表）：" + "".join(sorted(charsets().held_out)) + "。"
        ),
    ),
    Rule(
        "glyph-variants",
        Side.BOTH,
        "Hong Kong and Taiwan glyph variants of one character fold to one form (from OpenCC's HK and TW "
        "variant tables), so neither side is charged for the other's glyph standard; so do a held-out "
        "Cantonese character and its one Hong Kong form (晒 and 曬, 吓 and 嚇, 𠮶 and 嗰).",
        (("説話", "說話"), ("温度", "溫度"), ("户口", "戶口"), ("曬衫", "晒衫"), ("𠮶個", "嗰個")),
        glyph_variants,
        zh=(
            "同一個字的香港及台灣字形異體統一為一種寫法（取自 OpenCC 的香港及台灣異體字表）"
            "，雙方都不會因對方採用的字形標準而被扣分；不參與轉換的粵語字與它唯一的香港寫法亦統一"
            "（晒與曬、吓與嚇、𠮶與嗰）。"
        ),
    ),
    Rule(
        "whitespace",
        Side.BOTH,
        "Whitespace is removed before any number is read, except one space between two letters, so that two "
        "Latin words stay two words: spaced characters read as if written together, a number grouped by spaces "
        "reads as one number, and a space before a percent sign does not drop it.",
        (
            ("總 共 三 千 二 百 五 十 蚊", "總共3250"),
            ("9876 5432", "98765432"),
            ("50 %", "50%"),
            ("iPhone  Pro", "iphone pro"),
        ),
        whitespace,
        zh=(
            "讀數字之前先刪除所有空白，只在兩個字母之間保留一個空格，讓兩個拉丁字詞仍是兩個詞："
            "字與字之間有空格，照連寫讀；用空格分組的號碼讀作一個數；百分號前有空格也不會丟失。"
        ),
    ),
    Rule(
        "currency-symbols",
        Side.BOTH,
        "HK$ and HKD are removed as a whole, US$ and USD are written 美元, RMB and CNY 人民幣 (the "
        "currency-words rule puts them after the number); a bare $ and other currency symbols go with the "
        "symbols.",
        (
            ("HK$1,200", "1200"),
            ("$50", "50"),
            ("US$50", "50美元"),
            ("RMB 300", "300人民幣"),
            ("HKD 20", "20"),
        ),
        currency_symbols,
        zh=(
            "HK$ 及 HKD 整個刪除，US$ 及 USD 寫作「美元」，RMB 及 CNY 寫作「人民幣」（貨幣詞語規則把它們放到"
            "數字之後）；單獨的 $ 及其他貨幣符號與一般符號一併刪除。"
        ),
    ),
    Rule(
        "case",
        Side.BOTH,
        "Latin letters (Basic Latin to Latin Extended-B) are lowercased.",
        (("OK WiFi", "ok wifi"),),
        case,
        zh="拉丁字母（基本拉丁字母至拉丁擴展 B）改為小寫。",
    ),
    Rule(
        "thousands-separator",
        Side.BOTH,
        "An ASCII comma between a digit and exactly three digits joins them; any other comma separates: between "
        "two numbers it stays, as 、, so an enumeration is never one number (三、四 is 3、4, never 34).",
        (
            ("1,200", "1200"),
            ("1,234,567", "1234567"),
            ("100，200", "100、200"),
            ("3,5", "3、5"),
            ("三、四", "3、4"),
        ),
        thousands,
        zh=(
            "夾在一個數字與剛好三個數字之間的 ASCII 逗號把兩邊連起來；其他逗號一律是分隔：兩個數字之間的逗號"
            "寫作「、」保留，所以列舉從不變成一個數（三、四 是 3、4，不是 34）。"
        ),
    ),
    Rule(
        "latin-words",
        Side.BOTH,
        "A hyphen or a dot between two letters joins them into one word (one Mix Error Rate token); between "
        "two digits a dot is a decimal point, and a hyphen is left to the signs rule (a range, or removed).",
        (("Wi-Fi", "wifi"), ("e-mail", "email"), ("a.m.", "am"), ("3.5", "3.5"), ("5-3", "53")),
        latin_words,
        zh=(
            "兩個字母之間的連字號或圓點把它們連成一個詞（混合錯誤率的一個單位）；兩個數字之間的圓點是小數"
            "點，連字號則交由符號規則處理（範圍，或刪除）。"
        ),
    ),
    Rule(
        "ranges",
        Side.BOTH,
        "Two adjacent digit words one apart before what they count (三四個, 六七歲, 四五日, 七八成, also "
        "written 六,七歲) are a range or an approximation, never a value: they stay as written.",
        (("三四個", "三四個"), ("六,七歲", "六七歲"), ("兩三日", "兩三日"), ("三十四個", "34個")),
        ranges,
        zh=(
            "所數事物之前、相鄰而相差一的兩個數字詞（三四個、六七歲、四五日、七八成，亦寫作六,七歲）"
            "表示範圍或估計，從不是一個數值：保留原文。"
        ),
    ),
    Rule(
        "numerals",
        Side.BOTH,
        "Chinese numerals become Arabic, each run read on its own; a run never crosses punctuation or a space, "
        "so separate spoken numbers stay separate. Cantonese forms are read (廿 卅 兩 百二 千五 三萬五); "
        "digit-only runs read digit by digit; 點, or a dot, between numerals or digits is a decimal point on "
        "either side: the digits after it are said one by one and a 百, 千, 萬 or 億 after them scales the "
        "whole, while a number below a hundred after it is the minutes of a clock time and keeps its digits "
        "(三點十五 = 3點15); a run with no punctuation that is not one well-formed number is read as the "
        "fewest numbers said one after another, written as a list as if commas stood between them (一百二百三百 "
        "is 100、200、300, as 一百，二百，三百 is), and stays as written when it cannot be; a run "
        "with no digit (百, 千萬) stays as written, except 十 alone, which is 10.",
        (
            ("百二", "120"),
            ("一百二十", "120"),
            ("千五", "1500"),
            ("三萬五", "35000"),
            ("廿", "20"),
            ("兩個", "2個"),
            ("二零二六", "2026"),
            ("一百萬", "1000000"),
            ("100萬", "1000000"),
            ("三點五", "3.5"),
            ("3點5", "3.5"),
            ("三點五萬", "35000"),
            ("3.5萬", "35000"),
            ("三.5萬", "35000"),
            ("三點五百萬", "3500000"),
            ("三點十五分", "3.15分"),
            ("3點15分", "3.15分"),
            ("三點五十分", "3.50分"),
            ("百分之五十", "50%"),
            ("一百，二百", "100、200"),
            ("一百二百", "100、200"),
            ("一百，百", "100、百"),
            ("九八七六 五四三二", "98765432"),
        ),
        numerals,
        zh=(
            "中文數字改寫為阿拉伯數字，每串各自讀出；一串數字不會跨過標點或空格，所以分開說出的數字保持分"
            "開。粵語讀法照讀（廿 卅 兩 百二 千五 三萬五）；只有數字詞的一串逐個數字讀出；"
            "數字之間的「點」或圓點，在雙方都是小數點：其後的數字逐個讀出，再跟百、千、萬或億則把整個數字"
            "放大；若其後是一百以下的數目，那是鐘點的分鐘，照數位保留（三點十五 = 3點15）"
            "；中間沒有標點、又不是單一合乎規範的數字的一串，讀作個數最少、逐個說出的幾個數字，當作中間有逗號的"
            "列舉（一百二百三百 即 100、200、300，與 一百，二百，三百 相同），無法這樣讀便保留原文；沒有數字詞的一串（百、千萬）保留原文，只有單獨的十讀作 10。"
        ),
    ),
    Rule(
        "numeral-exceptions",
        Side.BOTH,
        "Words and idioms that hold numeral characters but are not numbers are kept as written, so a misheard "
        "character in one costs one error: the scorer's list, idioms heard in Hong Kong speech, and the words "
        "HKCanCor tags as anything but a number or a time. One is never read into a number, nor does it break "
        "a longer number it starts (萬一千 is 11000). One of at least "
        + str(MISHEARD_FROM)
        + " characters is kept as written also with one character misheard as a Han character that is not a "
        "numeral (十萬伙急 for 十萬火急), so the mishearing costs one error; so is one of "
        + str(MISHEARD_SHORT)
        + " characters that starts with its only numeral (六和彩 for 六合彩), unless what follows the numeral, in "
        "the word or in the text, is a measure word: then it is counting (一個月 is no 一個人). The measure words: "
        + "".join(sorted(MEASURE_WORDS))
        + ". The words: "
        + " ".join(FIXED_WORDS)
        + ".",
        (
            ("一齊", "一齊"),
            ("九龍", "九龍"),
            ("萬一", "萬一"),
            ("十萬火急", "十萬火急"),
            ("三三兩兩", "三三兩兩"),
            ("六合彩", "六合彩"),
            ("進退兩難", "進退兩難"),
            ("萬一千蚊", "11000"),
            ("十萬伙急", "十萬伙急"),
            ("三三兩倆", "三三兩倆"),
            ("六和彩", "六和彩"),
            ("一個月", "1個月"),
        ),
        None,
        zh=(
            "含數字字元但不是數字的詞語及成語保留原文，所以聽錯其中一個字只扣一分：來源是評分器本身的詞表、"
            "香港常用的成語，以及 HKCanCor 標註為數字或時間以外詞類的詞語。這些詞語從不讀成數字，也不會拆開"
            "以它開頭的較長數字（萬一千 是 11000）。不少於 "
            + str(MISHEARD_FROM)
            + " 個字的詞語，其中一個字聽錯成不是數字的漢字（十萬伙急 對 十萬火急），仍保留原文，所以只扣一分；"
            + str(MISHEARD_SHORT)
            + " 個字、以唯一的數字字元開頭的詞語亦然（六和彩 對 六合彩），除非詞語或原文中緊接數字的是量詞：那是點數"
            "（一個月 不是 一個人）。量詞："
            + "".join(sorted(MEASURE_WORDS))
            + "。詞語："
            + " ".join(FIXED_WORDS)
            + "。"
        ),
    ),
    Rule(
        "signs",
        Side.BOTH,
        "Signs read once the numerals are: a dash or a tilde between two numbers of at most three digits, the "
        "first below the second, is a range, written 至 (3-5 reads as 三至五 does); a minus sign right before a "
        "number that no digit, letter, numeral or sign precedes is written 負 (-3度 reads as 負三度 does). A "
        "longer group (a phone number 2345-6789), a chain (2026-12-03) or a falling pair keeps its dash, which "
        "the punctuation rule removes.",
        (
            ("3-5", "3至5"),
            ("三至五", "3至5"),
            ("三-五個", "3至5個"),
            ("10~15歲", "10至15歲"),
            ("2345-6789", "23456789"),
            ("2026-12-03", "20261203"),
            ("-3度", "負3度"),
            ("負三度", "負3度"),
            ("covid-19", "covid19"),
        ),
        signs,
        zh=(
            "數字讀過後讀符號：兩個不超過三位的數之間的連字號或波浪號，前一個數較小，就是範圍，寫作「至」"
            "（3-5 與三至五讀法相同）；數字前面緊接的減號，若前面不是數字、字母、數字詞或符號，寫作「負」"
            "（-3度 與負三度讀法相同）。較長的一組（電話號碼 2345-6789）、一串（2026-12-03）或前大後小的一對，"
            "連字號照舊由標點規則刪除。"
        ),
    ),
    Rule(
        "clock-times",
        Side.BOTH,
        "A clock time reads as it is said, once the numerals are read: a colon between an hour (at most 24) "
        "and two digits of minutes is the 點 of the time, and 點半 after an hour is half past, so 11:30, "
        "十一點半 and 十一點三十 all read 11.30, and on the hour 11:00 reads 11點, as 十一點 does. A colon in "
        "a longer chain of digits (11:30:15) is not a time we read.",
        (
            ("11:30", "11.30"),
            ("十一點半", "11.30"),
            ("兩點半", "2.30"),
            ("09:05", "9.05"),
            ("11:00", "11點"),
            ("11:30:15", "113015"),
            ("一點半點", "1點半點"),
        ),
        clock_times,
        zh=(
            "數字讀過後，鐘點照說法讀：時（不超過 24）與兩位數的分之間的冒號就是鐘點的「點」，"
            "時之後的「點半」就是半點鐘，所以 11:30、十一點半及十一點三十都讀作 11.30；"
            "整點的 11:00 讀作 11點，與十一點相同。數位、圓點與冒號連成更長一串時（11:30:15），"
            "冒號不當作鐘點。"
        ),
    ),
    Rule(
        "punctuation",
        Side.BOTH,
        "Punctuation and symbols (CJK and Latin) and whitespace are removed, except one space kept between two "
        "letters so that Latin words stay apart (Mix Error Rate counts them; the character error rate ignores "
        "the space); a decimal point between digits and a percent sign after a number stay; a comma between two "
        "numbers stays as 、 (an enumeration: 三，四 is 3、4), and so does any mark between parts of numbers that "
        "would otherwise join into another number (3，百 is 3、百).",
        (("你好，世界！", "你好世界"), ("iPhone  Pro", "iphone pro"), ("3.5%", "3.5%"), ("三，四", "3、4")),
        punctuation,
        zh=(
            "刪除標點、符號（中日韓及拉丁）及空白，但兩個字母之間保留一個空格，讓拉丁字詞保持分開（混合錯誤率"
            "計算它們；字錯誤率不計空格）；數字之間的小數點及數字後的百分號保留；兩個數字之間的逗號寫作「、」"
            "保留（列舉：三，四 是 3、4），連起來會變成另一個數的兩部分之間的符號亦然（3，百 是 3、百）。"
        ),
    ),
    Rule(
        "currency-words",
        Side.BOTH,
        "The local currency goes: 蚊 and 元 right after a number, and "
        + ", ".join(LOCAL_NAMES)
        + " right before or after one, as HK$ and $ go. Any other currency named right before or after a number "
        "stays, written one way after it ("
        + "; ".join(f"{', '.join(names)} → {canonical}" for canonical, names in FOREIGN.items())
        + "), so naming the wrong currency costs an error and another spelling of the right one costs none. "
        "Elsewhere (元朗, 有蚊, 美金匯率) the words stay.",
        (
            ("百二蚊", "120"),
            ("港幣三百", "300"),
            ("三百港元", "300"),
            ("港幣三百蚊", "300"),
            ("五百美金", "500美元"),
            ("美金五百", "500美元"),
            ("US$20,000", "20000美元"),
            ("兩萬美元", "20000美元"),
            ("RMB 300", "300人民幣"),
            ("三百人民幣", "300人民幣"),
            ("元朗", "元朗"),
            ("有蚊", "有蚊"),
            ("美金匯率", "美金匯率"),
        ),
        currency_words,
        zh=(
            "本地貨幣刪除：緊接數字之後的「蚊」及「元」，以及緊貼數字前後的"
            + "、".join(LOCAL_NAMES)
            + "，與 HK$ 及 $ 一樣刪除。緊貼數字前後的其他貨幣保留，並統一寫在數字之後（"
            + "；".join(f"{'、'.join(names)} → {canonical}" for canonical, names in FOREIGN.items())
            + "），所以講錯貨幣會扣分，同一貨幣換個寫法則不扣分。其他位置（元朗、有蚊、美金匯率）保留。"
        ),
    ),
    Rule(
        "spoken-forms",
        Side.BOTH,
        "Hong Kong ways of saying a percentage, an hour, a half or an amount in 毫 read as the number they say, "
        "once the numbers and the currency words are read: 巴仙 after a number is a percent sign; 正 after an "
        "hour's 點 says nothing more (三點正 is 三點, which is 3:00); 個半 after a whole number is a half more "
        "(兩個半鐘 is 2.5個鐘, but 第二個半場 is an ordinal); one digit of 毫 or 毫子 is tenths of a dollar (五毫子 "
        "is 0.5, 三蚊五毫 is 3.5), but never 毫米, 毫升, 毫克 or 毫秒; 百分百 is read as 100% with the numerals.",
        (
            ("五十巴仙", "50%"),
            ("百分百", "100%"),
            ("三點正", "3點"),
            ("3:00", "3點"),
            ("正嘢", "正嘢"),
            ("兩個半鐘", "2.5個鐘"),
            ("兩個半月", "2.5個月"),
            ("五毫子", "0.5"),
            ("五毫", "0.5"),
            ("三蚊五毫", "3.5"),
            ("五毫升", "5毫升"),
        ),
        spoken_forms_settled,
        zh=(
            "香港說百分比、鐘點、半及以「毫」計的金額的方式，在數字及貨幣詞語讀過之後，照它所說的數讀：數字之後"
            "的「巴仙」是百分號；時之後的「點正」與「點」相同（三點正 即 三點，亦即 3:00）；整數之後的「個半」是"
            "多一半（兩個半鐘 即 2.5個鐘，但 第二個半場 是序數）；一位數的「毫」或「毫子」是一元的十分之幾（五毫子"
            " 即 0.5，三蚊五毫 即 3.5），但毫米、毫升、毫克、毫秒不是；「百分百」與數字一併讀作 100%。"
        ),
    ),
    Rule(
        "compose",
        Side.BOTH,
        "NFKC once more, so a combining mark that removing punctuation put next to a new letter is composed "
        "and normalising twice changes nothing.",
        (("e,\u0301", "é"),),
        compose,
        zh="再做一次 NFKC：刪除標點後貼到新字母旁的組合附加符號會合成，所以正規化兩次與一次的結果相同。",
    ),
    Rule(
        "fillers",
        Side.BOTH,
        "Fillers and sentence-final particles are kept: they are speech.",
        (("呢個呀嘛", "呢個呀嘛"),),
        None,
        zh="保留語氣詞及句末助詞：它們是說話的一部分。",
    ),
)


def normalise_text(text: str, *, side: Side) -> str:
    """``text`` through every rule of ``RULES`` in order (the reference fold only when ``side`` is the
    reference)."""
    for rule in RULES:
        if rule.apply is not None and (rule.side is Side.BOTH or side is Side.REFERENCE):
            text = rule.apply(text)
    return text
