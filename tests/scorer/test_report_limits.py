"""The report's corpus Simplified cost, and its limits on ids and numbers (issue 35)."""

from __future__ import annotations

import json

import pytest
from cvb_scorer.report import MAX_ID_CHARS, InputError, report_text, score_jsonl, score_jsonl_to_json
from cvb_scorer.rules import load_packaged_rules


def _line(clip_id: str, text: str) -> str:
    return json.dumps({"id": clip_id, "text": text}, ensure_ascii=False)


REF = "\n".join([_line("a", "呢個人好乾淨"), _line("b", "三萬五"), _line("c", "你好")])
HYP = "\n".join([_line("a", "呢个人好干净"), _line("b", "三万五"), _line("c", "你好")])


def test_the_json_report_has_the_corpus_simplified_cost() -> None:
    data = json.loads(score_jsonl_to_json(REF, HYP, rules=load_packaged_rules()))
    per_clip = sum(clip["simplified_errors"] for clip in data["clips"])
    assert data["simplified"]["errors"] == per_clip == 4
    assert data["simplified"]["characters"] == 2  # 个 净 (万 is also valid Traditional)
    errors = data["counts"]["S"] + data["counts"]["D"] + data["counts"]["I"]
    assert data["simplified"]["share_of_errors"] == pytest.approx(per_clip / errors)


def test_the_text_report_has_one_line_of_simplified_cost() -> None:
    text = report_text(score_jsonl(REF, HYP, rules=load_packaged_rules(), ref_name="R", hyp_name="H"))
    lines = [line for line in text.splitlines() if line.startswith("Simplified:")]
    assert len(lines) == 1 and "4 of the 4 CER errors" in lines[0]


def test_a_long_id_is_refused_without_being_echoed() -> None:
    long_id = "x" * (10 * MAX_ID_CHARS)
    with pytest.raises(InputError) as err:
        score_jsonl_to_json(_line(long_id, "好"), _line("a", "好"), rules=load_packaged_rules())
    message = str(err.value)
    assert f"at most {MAX_ID_CHARS} characters" in message and long_id not in message
    assert len(message) < 300


def test_ids_that_differ_only_by_normalisation_are_shown_by_code_point() -> None:
    with pytest.raises(InputError) as err:
        score_jsonl_to_json(_line("caf\u00e9", "好"), _line("cafe\u0301", "好"), rules=load_packaged_rules())
    message = str(err.value)
    assert "U+00E9" in message and "U+0065 U+0301" in message


def test_a_number_too_long_to_read_is_refused_without_a_python_hint() -> None:
    line = '{"id": "a", "text": "x", "n": ' + "1" * 5000 + "}"
    with pytest.raises(InputError) as err:
        score_jsonl_to_json(line, line, rules=load_packaged_rules())
    message = str(err.value)
    assert "sys." not in message and "int_max_str_digits" not in message and "too many digits" in message
