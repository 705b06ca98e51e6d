"""``cvb-score``: the report, ``--json``, ``--align`` and errors as sentences naming file and line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cvb_scorer.cli import main

REF = [
    {"id": "c1", "text": "我想要一百二十蚊嘅iPhone 15"},
    {"id": "c2", "text": "唔該埋單"},
    {"id": "c3", "text": "个人干净"},
]
HYP = [{"id": "c1", "text": "我想要百二蚊嘅iphone 16"}, {"id": "c2", "text": "該唔埋單"}]


def write(path: Path, rows: list[dict[str, str]] | str) -> Path:
    text = rows if isinstance(rows, str) else "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "ref.jsonl", REF), write(tmp_path / "hyp.jsonl", HYP)


def test_json_report_has_the_agreed_keys(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"cer", "mer", "ci95", "counts", "coverage", "clips", "signature"} <= set(data)
    assert set(data["ci95"]) == {"cer", "mer"} and len(data["ci95"]["cer"]) == 2
    assert data["counts"] == {"S": 3, "D": 4, "I": 0, "N": 23}
    assert data["coverage"]["missing"] == ["c3"] and data["coverage"]["with_hypothesis"] == 2
    clip = data["clips"][0]
    assert {"id", "cer", "S", "D", "I", "N", "ref_norm", "hyp_norm"} <= set(clip)
    assert clip["ref_norm"] == "我想要120嘅iphone 15"
    assert data["clips"][2]["ref_norm"] == "個人干淨"  # 干 is valid Hong Kong writing: only 净 is folded
    assert data["ci95"]["cer"][0] <= data["cer"] <= data["ci95"]["cer"][1]


def test_text_report(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp)]) == 0
    out = capsys.readouterr().out
    assert "Corpus CER" in out and "Corpus MER" in out and "95% CI" in out
    assert "Coverage: 2 of 3 clips" in out and "(no hypothesis)" in out
    assert "Signature: cvb-scorer:" in out


def test_align_prints_one_clip_readably(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp), "--align", "c2"]) == 0
    out = capsys.readouterr().out
    assert "Legend:" in out and "REF 唔 該 埋 單" in out and "HYP 該 唔 埋 單" in out
    assert "S  S" in out


def test_align_wraps_a_long_call(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = "我哋今日去九龍塘食飯" * 100
    ref = write(tmp_path / "r.jsonl", [{"id": "call", "text": long}])
    hyp = write(tmp_path / "h.jsonl", [{"id": "call", "text": long.replace("食", "石")}])
    assert main([str(ref), str(hyp), "--align", "call"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 60 and max(len(line) for line in lines) < 200


GOOD = '{"id": "a", "text": "x"}\n'
BAD_INPUT = [
    (GOOD + '{"id": "b", "text": \n', GOOD, "ref.jsonl line 2 is not valid JSON"),
    (GOOD + '{"id": "a", "text": "y"}\n', GOOD, 'ref.jsonl line 2 repeats id "a" (first on line 1)'),
    (GOOD, GOOD + '\n{"id": "zz", "text": "y"}\n', 'hyp.jsonl line 3 has id "zz", which is not in'),
    ("", GOOD, "ref.jsonl has no clips"),
    (GOOD, "\n\n", "hyp.jsonl has no clips"),
    ('["a", "b"]\n', GOOD, "ref.jsonl line 1 is not a JSON object"),
    ('{"id": "a", "text": 5}\n', GOOD, 'ref.jsonl line 1 needs a string "text"'),
    ('{"text": "x"}\n', GOOD, 'ref.jsonl line 1 needs a non-empty string "id"'),
]


@pytest.mark.parametrize(("ref_text", "hyp_text", "message"), BAD_INPUT)
def test_malformed_input_gets_a_sentence_and_a_nonzero_exit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ref_text: str, hyp_text: str, message: str
) -> None:
    ref = write(tmp_path / "ref.jsonl", ref_text)
    hyp = write(tmp_path / "hyp.jsonl", hyp_text)
    assert main([str(ref), str(hyp)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.strip().endswith(".")


def test_missing_file_and_unknown_align_id(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = files
    assert main([str(ref), str(ref.parent / "nope.jsonl")]) == 2
    assert "nope.jsonl does not exist" in capsys.readouterr().err
    assert main([str(ref), str(hyp), "--align", "c9"]) == 2
    assert 'no clip with id "c9"' in capsys.readouterr().err


def test_invalid_utf8_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "ref.jsonl"
    ref.write_bytes(b'{"id": "a", "text": "x"}\n{"id": "b", "text": "\xff"}\n')
    hyp = write(tmp_path / "hyp.jsonl", [{"id": "a", "text": "x"}])
    assert main([str(ref), str(hyp)]) == 2
    assert "ref.jsonl line 2 is not valid UTF-8" in capsys.readouterr().err


def test_rules_override(files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.scorer.conftest import RULES_MAPPING

    rules = dict(RULES_MAPPING)
    rules["bootstrap"] = {"resamples": 200, "interval": 0.9, "seed": 7}
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules), encoding="utf-8")
    ref, hyp = files
    assert main([str(ref), str(hyp), "--json", "--rules", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "ci90" in data and "|boot:200@7|ci:90|" in data["signature"]
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main([str(ref), str(hyp), "--rules", str(bad)]) == 2
    assert "bad.json is not valid JSON" in capsys.readouterr().err


def test_installed_entry_point_runs(files: tuple[Path, Path]) -> None:
    ref, hyp = files
    exe = Path(sys.executable).with_name("cvb-score")
    result = subprocess.run(
        [str(exe), str(ref), str(hyp), "--json"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["coverage"]["clips"] == 3
