"""The committed golden output of the normalisation over a fixed corpus, tied to ``NORM_VERSION``.

Regenerate (after bumping ``NORM_VERSION`` for a change of behaviour) with

    .venv/bin/python -m tests.scorer.golden_normalisation

The corpus is fixed by the file itself: the test normalises the inputs it stores, so a change of what the rules
produce without a version bump fails, and a bump without regenerating fails too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden" / "normalisation.json"

# Separate spoken numbers, ranges, decimals before 萬/億, 點 with digits, Simplified characters beside Hong Kong
# ones, glyph variants, currency, Latin words, widths, spaces and controls: the cases of issue 8 and the rules.
EXTRA = [
    "一百，二百，三百", "100，200，300", "一百二百三百", "佢今年三十，五百蚊", "佢今年30，500蚊", "三四個",
    "三十四個", "六,七歲", "六十七歲", "四五日", "四十五日", "七八成", "要三點五萬", "要3.5萬", "35000", "3點5",
    "三點五", "三點五萬", "九八七六 五四三二", "9876 5432", "一億", "一萬", "三萬五", "三万五",
    "隻脚余先生喺東涌于仔郁手范圍干擾仆街咸魚斗氣", "佢系学生几多只以后", "Wi-Fi e-mail 3.5 a.m.",
    "HK$1,200 US$50 $3 ¥30", "ＯＫ，好！ＡＢＣ１２３", "呢個呀嘛", "\x00你\u200b好\ufeff\u202e", "說説温溫户戶",
    "百分之五十 50% 百分之三點五", "一齊一啲九龍八達通萬一", "元朗有蚊五蚊三蚊三", "二零二六年 二千零二十六年",
    "十三四歲 三四十個 三四百蚊", "0蚊點0A百", "e,\u0301", "１００，２００",
    # NORM_VERSION 4: a dot is a decimal point beside numerals too; a scale after a decimal; clock minutes.
    "三.5萬", "三.五", "三.五.六", "1.2.3", "百二.０百分之五十", "三點五千", "三點五百萬", "3.5百萬", "三點十五分",
    "3點15分", "三點五十分", "3點50分", "九點十咁滯", "三點五十萬", "三點一四一五", "三點半", "十二點",
    # NORM_VERSION 5: clock times as said (a colon between an hour and minutes; 點半 after an hour).
    "十一點半", "11:30", "十一點三十分", "11點30分", "十一點", "11:00", "兩點半", "2:30", "下晝3:30 開會",
    "09:05", "11:30:15", "25:00", "12:60", "1:2", "一點半點", "百分之三點半", "三四點半", "3.5點半", "一百點半",
    "二十四點半", "1:00點半",
    # ... and currency names before or after a number, as HK$ and US$.
    "港幣三百", "三百港元", "港幣三百蚊", "五百美金", "一千美元", "港紙五百", "3港幣300", "三點港幣三百", "美金匯率",
    "港元兌美元", "保費每個月港幣三百二十蚊",
    # NORM_VERSION 6: whitespace removed before numbers are read; Simplified numerals read, each one error;
    # foreign currencies kept, written one way after the number.
    "總 共 三 千 二 百 五 十 蚊", "9876 5432", "98 76 54 32", "50 %", "三万五", "两万", "3万5千", "两个", "三点五",
    "万一", "3，百", "萬一，三個", "五十美金", "US$20,000", "HK$20,000", "RMB 300", "三百人民幣", "美金五百",
    "300 usd", "iPhone 15 Pro", "萬一千蚊", "十萬火急", "三三兩兩", "六合彩", "進退兩難", "五顏六色", "萬一三個",
    # NORM_VERSION 7: a dash between two short numbers is a range (至); a minus before a number is 負.
    "3-5", "三至五", "3至5個", "10~15歲", "5-3", "2345-6789", "2026-12-03", "1-2-3", "-3度", "負三度", "−3",
    "溫度 -3.5度", "9:00-17:00", "covid-19",
    # ... and a long word kept as written with one character misheard is kept as written.
    "十萬伙急", "三三兩倆", "佢十萬伙急咁", "五顏六式", "五顏六七", "一個月",
    # NORM_VERSION 8: a list comma between two numbers stays (三、四 is 3、4), as numbers said one after another
    # are written; 個半 is a half more; 毫 is tenths of a dollar; a three-character word misheard.
    "三、四", "三，四", "3,4", "一、二、三號", "兩個半鐘", "2.5個鐘", "第二個半場", "五毫子", "五毫", "三蚊五毫",
    "五毫升", "六和彩", "六合菜", "一家店",
    # NORM_VERSION 9: a unit right after 零 without its digit is one of it (一千零十 = 1010).
    "一千零十蚊", "千零十", "一百零十", "零十",
]  # fmt: skip

_LISTED_NUMBERS = re.compile(
    "[零〇一二三四五六七八九十百千萬億兩廿卅0-9][，,、][零〇一二三四五六七八九十百千萬億兩廿卅0-9]"
)


def corpus() -> list[str]:
    from cvb_scorer.reference.normalise import RULES

    from tests.scorer.conftest import hkcancor_utterances

    utterances = hkcancor_utterances()
    lines = list(utterances[::50])
    lines += [u for u in utterances if _LISTED_NUMBERS.search(u)]
    lines += [before for rule in RULES for before, _ in rule.examples]
    lines += EXTRA
    return list(dict.fromkeys(lines))


def outputs(inputs: list[str]) -> list[list[str]]:
    from cvb_scorer.normalise import normalise_hypothesis, normalise_reference

    return [[text, normalise_hypothesis(text).text, normalise_reference(text).text] for text in inputs]


def main() -> None:
    from cvb_scorer.normalise import NORM_VERSION

    data = {"norm_version": NORM_VERSION, "cases": outputs(corpus())}
    GOLDEN.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {len(data['cases'])} cases for NORM_VERSION {NORM_VERSION} to {GOLDEN}")


if __name__ == "__main__":
    main()
