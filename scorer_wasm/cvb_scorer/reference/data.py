"""The tables of the published numeral, range, currency and clock rules, written out for the plain reference
(``cvb_scorer.reference.numerals``): each row is what the methodology page says a character or a word means.
The fast path (``cvb_scorer.normalise.numerals``) keeps tables of its own; the tests compare what the two read.
Only the list of words kept as written is data both read, from ``data/fixed_words.json``."""

from __future__ import annotations

import json

from cvb_scorer import _data

# A digit word and its value; 兩 is 2 inside a run, 两 is its Simplified form (read, and charged).
DIGIT_WORDS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
# The units below 萬, the units that split a number into sections, and the words for whole tens.
SMALL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
BIG_UNITS: dict[str, int] = {"萬": 10**4, "億": 10**8}
TENS_WORDS: dict[str, str] = {"廿": "二十", "卅": "三十", "卌": "四十"}
# Simplified numerals and the Hong Kong form each is read as.
SIMPLIFIED: dict[str, str] = {"万": "萬", "两": "兩", "亿": "億", "点": "點"}
# Every character a numeral run is made of (besides ASCII digits and a decimal point between two of them).
NUMERALS: frozenset[str] = frozenset(
    [*DIGIT_WORDS, *SMALL_UNITS, *BIG_UNITS, *TENS_WORDS, *(s for s, t in SIMPLIFIED.items() if t != "點")]
)
DECIMAL = "點"
# What is a decimal point between two numerals or digits.
POINTS: frozenset[str] = frozenset({"點", "点", "."})
HALF = "半"
PERCENT_PREFIX = "百分之"
HUNDRED_PERCENT = "百分百"
ASCII_DIGITS = "0123456789"
ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# A dash or a tilde between two numbers is a range, written 至; a minus sign before a number is written 負.
RANGE_DASHES = "-–~〜"
MINUS_SIGNS = "-−"
RANGE_WORD = "至"
MINUS_WORD = "負"
# The value of each word that can be half of a range (三四個, 一兩日).
RANGE_WORDS: dict[str, int] = {
    "一": 1,
    "二": 2,
    "兩": 2,
    "两": 2,
    **{ch: v for v, ch in enumerate("三四五六七八九", 3)},
}
# The longest number read as a value, in digits; the longest piece of a run read as one of several numbers.
LONGEST_VALUE = 40
LONGEST_PIECE = 16
# A word kept as written of at least this many characters (the idioms) is kept also with one character misheard.
MISHEARD_FROM = 4
# A three-character word is kept with one character misheard when it starts with its only numeral and neither
# its second character nor the text's there is one of these measure words (or words that count).
MISHEARD_SHORT = 3
MEASURE_WORDS: frozenset[str] = frozenset(
    "個隻次件條張本位名家間架部對雙套種樣份班群堆排杯碗碟包盒支枝粒啲些陣下日天年月週周星號點分秒歲元蚊毫仙角"
    "成倍層樓座幢項筆頁封首場輪餐口句段格頂把匹頭尾只度折手期款區級字宗輛棵朵片塊滴方呎尺寸米斤磅安趟轉晚朝季"
    "代世回遍類節章行列線科門打"
)

# What stands between the numbers of a list, said (一百二百) or written with commas (一百，二百): 100、200.
LIST_MARK = "、"

# The local currency's names (they go) and every other currency's names with the one form each is written in.
LOCAL_NAMES: tuple[str, ...] = ("港幣", "港元", "港紙")
FOREIGN: dict[str, tuple[str, ...]] = {"美元": ("美元", "美金", "美紙"), "人民幣": ("人民幣", "人仔")}
# 蚊 and 元 after a number are the local currency.
LOCAL_WORDS: frozenset[str] = frozenset("蚊元")


def fixed_words() -> tuple[str, ...]:
    """The words kept as written (the scorer's list, idioms, HKCanCor's words), in the file's order."""
    raw = json.loads(_data.read_text("data/fixed_words.json"))
    return tuple(str(word) for word in raw["words"])
