"""Freeze the words that contain numeral characters but are not numbers (the numeral exceptions), from their
sources, into ``scorer_wasm/cvb_scorer/data/fixed_words.json``.

Run from the repository root with the test requirements installed (pycantonese is one; the scorer never imports
it, it reads the frozen file):

.venv/bin/python scorer_wasm/tools/freeze_fixed_words.py

Sources, each named in the file beside every word it gave:

- ``scorer``: the list the scorer has published since its first version (``numerals.SCORER_EXCEPTION_WORDS``, from
  the research notes on HKCanCor and call-centre text).
- ``idioms``: idioms and fixed words with numeral characters heard in Hong Kong speech and news, listed here
  (IDIOMS): a misheard character in one costs one error, never the digits of a number it is not.
- ``hkcancor``: every word of HKCanCor (pycantonese's copy, as tokenised and tagged there) of two Han characters
  or more that holds a numeral character and is tagged as an idiom, a fixed expression, a noun or name, an
  adjective, an adverb, a conjunction or a distinguishing word, but not a numeral, a time, a measure word or a
  pronoun (those are numbers: 八月, 三點, 一半), and that holds no character that makes it a count, an ordinal,
  a date or a time (幾 第 號 月 年 點 成 分 鐘 時 日 半 個 歲).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pycantonese

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cvb_scorer.normalise.numerals import SCORER_EXCEPTION_WORDS
from cvb_scorer.normalise.text import NUMERAL_CHARS
from cvb_scorer.tokens import is_han

OUT = Path(__file__).resolve().parent.parent / "cvb_scorer" / "data" / "fixed_words.json"
SCHEMA = 1

IDIOMS = (
    "十萬火急", "三三兩兩", "六合彩", "一五一十", "一清二楚", "一乾二淨", "三心兩意", "三心二意", "不三不四",
    "七上八落", "七嘴八舌", "亂七八糟", "四分五裂", "五顏六色", "千奇百怪", "千變萬化", "萬無一失", "一心一意",
    "一石二鳥", "一舉兩得", "獨一無二", "數一數二", "一模一樣", "接二連三", "三番四次", "三更半夜", "九死一生",
    "十全十美", "百發百中", "千辛萬苦", "千真萬確", "萬眾一心", "一言為定", "一路順風", "四通八達", "八仙過海",
    "三唔識七", "十問九唔知", "一天都光晒", "一蚊雞", "一朝一夕", "三長兩短", "五花八門", "七情上面", "丟三落四",
    "半斤八兩", "九唔搭八", "一時三刻", "一理通百理明", "千祈", "萬一", "一家人", "一陣間", "一早",
    "三文治", "三文魚", "八爪魚", "八卦", "九因歌", "十字路口", "十字車", "百佳", "七仔", "八達通",
    "二手", "一條心", "一手一腳", "一時之間", "一路以來", "一則", "一來", "二來", "唯一", "同一", "統一",
    "萬歲", "萬事", "萬能", "萬用", "萬字夾", "夾萬", "百貨", "百厭", "百家姓", "千其", "三國", "四圍", "四正",
    "五金", "六國飯店", "九龍", "新九龍", "九巴", "十足", "一致", "一律", "一於", "一於少", "一個人",
)  # fmt: skip

# HKCanCor's tags (its own tag set) of the words that are not numbers.
_TAGS = {
    "i",
    "l",
    "n",
    "nz",
    "ns",
    "nr",
    "nt",
    "a",
    "d",
    "c",
    "b",
    "jn",
    "jb",
    "jnt",
    "z",
    "Lg",
    "f",
    "u",
    "v",
}
_COUNTING = set("幾第號月年點成分鐘時日半個歲")
# Words HKCanCor tags otherwise that are counts of something (one level, one generation): read as numbers.
_COUNTS = {"一尾", "一級", "一代", "一浪", "一招", "一層層", "一嚿嚿", "一份子", "一帶", "五星級", "十五大"}


def _is_fixed_word(word: str) -> bool:
    return (
        len(word) >= 2
        and all(is_han(ch) for ch in word)
        and not set(word).isdisjoint(NUMERAL_CHARS)
        and not set(word) <= NUMERAL_CHARS
        and set(word).isdisjoint(_COUNTING)
    )


def build() -> dict[str, object]:
    words: dict[str, str] = {}
    for word in SCORER_EXCEPTION_WORDS:
        words.setdefault(word, "scorer")
    for word in IDIOMS:
        words.setdefault(word, "idioms")
    tokens: list[Any] = pycantonese.hkcancor().tokens()
    for token in tokens:
        word, pos = str(token.word), str(token.pos)
        if pos in _TAGS and _is_fixed_word(word) and word not in _COUNTS:
            words.setdefault(word, "hkcancor")
    return {
        "schema": SCHEMA,
        "sources": {
            "scorer": "the scorer's published numeral exceptions (research notes on HKCanCor and call text)",
            "idioms": "idioms and fixed words with numerals heard in Hong Kong speech (scorer_wasm/tools)",
            "hkcancor": f"HKCanCor as tagged in pycantonese {pycantonese.__version__}: words tagged other than "
            "numeral, time, measure word or pronoun",
        },
        "words": dict(sorted(words.items())),
    }


def main() -> int:
    data = build()
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(data['words'])} words", file=sys.stderr)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
