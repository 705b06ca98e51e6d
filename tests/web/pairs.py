"""Reference/hypothesis pairs for the browser-vs-CPython parity test: hand-picked edge cases plus seeded
mutations of the project's own example call (Simplified, numerals, currency, code-switching, long calls)."""

from __future__ import annotations

import random
import re

import editor_site

EDGE_CASES: list[tuple[str, str]] = [
    ("", ""),
    ("", "有嘢講"),
    ("我想claim", ""),
    ("   ", "\t\n"),
    ("，。！？", "..."),
    # Simplified: charged in the hypothesis, folded in the reference; phrase context (干净, 头发) and the
    # Cantonese characters OpenCC would damage (嚇 晒 搵 戶).
    ("這個係你嘅", "这个系你嘅"),
    ("这个系你嘅", "這個係你嘅"),
    ("洗乾淨頭髮", "洗干净头发"),
    ("洗干净头发", "洗乾淨頭髮"),
    ("睇吓唔該晒搵戶口", "睇嚇唔該曬揾户口"),
    ("面包同埋一于", "麪包同埋一於"),
    ("鰂魚涌同東涌", "鲗鱼涌同东涌"),
    # Numerals: Cantonese shorthand, digit-by-digit years, words that only look numeric.
    ("三百五蚊", "350蚊"),
    ("百二蚊", "一百二十蚊"),
    ("二零二六年", "2026年"),
    ("廿三號", "23號"),
    ("三萬五千", "35000"),
    ("千五", "1500"),
    ("一百萬", "100萬"),
    ("兩三個", "23個"),
    ("一齊去九龍食三文治", "1齊去9龍食3文治"),
    ("八達通增值一百", "8達通增值100"),
    ("三點五", "3.5"),
    ("百分之五十", "50%"),
    # Currency: the symbol and 蚊/元 after a number go; 元朗 and 有蚊 stay.
    ("HK$1,200", "一千二百蚊"),
    ("一千二百元", "$1200"),
    ("去元朗有蚊", "去元朗有蚊"),
    ("¥30同￥40", "三十蚊同四十蚊"),
    # Code-switching: one Latin word is one MER token.
    ("我部iPhone Pro壞咗", "我部iphone pro壞咗"),
    ("send個email俾我", "send個e-mail俾我"),
    ("份policy嘅claim", "份police嘅clean"),
    ("book個appointment", "book個 appoint ment"),
    ("OK唔OK", "ok唔ok"),
    ("ＡＢＣ１２３", "abc123"),
    # Odd Unicode: combining marks, zero-width and bidi controls, emoji sequences, variation selectors,
    # Ext B and compatibility ideographs, characters newer than CPython 3.11's Unicode 14.
    ("café", "cafe\u0301"),
    ("唔\u200b該", "唔該"),
    ("\ufeff你好", "你好"),
    ("abc\u202edef", "abcdef"),
    ("👨\u200d👩\u200d👧好開心", "好開心😀"),
    ("👍🏽得", "👍得"),
    ("葛\U000e0100", "葛"),
    ("𨋢壞咗", "電梯壞咗"),
    ("\uf900\uf901", "豈更"),
    ("\U00031350\U0002ebf0", "\U00031350"),
    ("①②③", "123"),
    ("x²", "x2"),
    ("Ⅻ", "XII"),
    ("مرحبا hello", "hello"),
    ("안녕 你好", "你好"),
    ("ｶﾀｶﾅ", "カタカナ"),
    ("a\u0000b", "ab"),
    ("<b>粗體</b>&amp;", "粗體&"),
]

SIMPLIFY = str.maketrans(
    "個這係單據進邊還對嘅過說話買賣錢醫經們會學樣東長門開問間",
    "个这系单据进边还对嘅过说话买卖钱医经们会学样东长门开问间",
)
NUMERALS = [("十五", "15"), ("三千二百五十", "3250"), ("一千零八十", "1080"), ("五百", "500"), ("九十", "90")]
ENGLISH = [("claim", "clean"), ("policy", "polity"), ("email", "e-mail"), ("form", "from"), ("case", "cast")]


def _sentences() -> list[str]:
    text = editor_site.sample()
    long = text["long"]
    assert isinstance(long, dict)
    found = re.findall(r"[^。？！]+[。？！]", str(text["reference"]) + str(long["reference"]))
    return [sentence for sentence in found if sentence.strip()]


def _mutate(rng: random.Random, text: str) -> str:
    out = text
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["simplify", "numeral", "english", "delete", "insert", "swap", "space"])
        if kind == "simplify":
            out = "".join(c.translate(SIMPLIFY) if rng.random() < 0.5 else c for c in out)
        elif kind == "numeral":
            chinese, arabic = rng.choice(NUMERALS)
            out = out.replace(chinese, arabic) if rng.random() < 0.5 else out.replace(arabic, chinese)
        elif kind == "english":
            right, wrong = rng.choice(ENGLISH)
            out = out.replace(right, wrong)
        elif kind == "delete" and out:
            start = rng.randrange(len(out))
            out = out[:start] + out[start + rng.randint(1, 6) :]
        elif kind == "insert":
            at = rng.randrange(len(out) + 1)
            out = out[:at] + rng.choice(["啊", "呀", "嗯", "OK", "即係", "$", "三", " "]) + out[at:]
        elif kind == "swap" and len(out) > 2:
            at = rng.randrange(len(out) - 1)
            out = out[:at] + out[at + 1] + out[at] + out[at + 2 :]
        elif kind == "space":
            out = " ".join(out.split("，"))
    return out


def parity_pairs(count: int = 220, seed: int = 20260101) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    sentences = _sentences()
    pairs = list(EDGE_CASES)
    while len(pairs) < count:
        size = rng.choice([1, 1, 2, 3, 5, 10, 30])  # long calls run to ~1,500 characters
        start = rng.randrange(len(sentences))
        reference = "".join(sentences[(start + k) % len(sentences)] for k in range(size))
        pairs.append((_mutate(rng, reference) if rng.random() < 0.2 else reference, _mutate(rng, reference)))
    return pairs


def corpus_pairs(count: int, seed: int = 20261201) -> list[tuple[str, str]]:
    """`count` clip-sized pairs (one to three sentences, as a dev set's clips are) for file-mode tests."""
    rng = random.Random(seed)
    sentences = _sentences()
    pairs = []
    for _ in range(count):
        start = rng.randrange(len(sentences))
        reference = "".join(sentences[(start + k) % len(sentences)] for k in range(rng.choice([1, 1, 2, 3])))
        pairs.append((reference, _mutate(rng, reference)))
    return pairs
