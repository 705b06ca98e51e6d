"""``report_json`` writes each clip itself (``clip_json``); what it prints is exactly ``json.dumps`` of the plain
report object (``report_dict``), on generated corpora and on the golden corpus."""

from __future__ import annotations

import json

from cvb_scorer.report import _dumps, report_dict, report_json, score_jsonl
from cvb_scorer.rules import load_packaged_rules
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scorer.conftest import ROOT

RULES = load_packaged_rules()
# Texts that exercise every field: Simplified characters (fold changes, Simplified costs), numerals, Latin
# words, quotes and backslashes (escaped in JSON), empty texts (no reference tokens).
_PIECES = [
    *"保单个人你好嘅三萬五万两点",
    "Wi-Fi",
    " ok",
    '"',
    "\\",
    "，",
    "US$20",
    "一百，二百",
    "五毫子",
    "",
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)
_ID = st.text(alphabet='ab9_-"\\é中', min_size=1, max_size=6)


def _jsonl(rows: list[tuple[str, str]]) -> str:
    return "".join(json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n" for i, t in rows)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_ID, st.tuples(_TEXT, st.one_of(st.none(), _TEXT)), min_size=1, max_size=6))
def test_the_report_written_clip_by_clip_is_the_plain_report(
    corpus: dict[str, tuple[str, str | None]],
) -> None:
    refs = _jsonl([(i, ref) for i, (ref, _) in corpus.items()])
    # The first clip always has a hypothesis (a file with no clips is refused); the others may have none.
    hyps = _jsonl(
        [(i, hyp or "") for k, (i, (_, hyp)) in enumerate(corpus.items()) if hyp is not None or not k]
    )
    report = score_jsonl(refs, hyps, rules=RULES, ref_name="r", hyp_name="h")
    assert report_json(report) == _dumps(report_dict(report))


def test_the_golden_corpus_reports_alike_both_ways() -> None:
    golden = ROOT / "tests" / "scorer" / "golden"
    report = score_jsonl(
        (golden / "cli_ref.jsonl").read_text(encoding="utf-8"),
        (golden / "cli_hyp.jsonl").read_text(encoding="utf-8"),
        rules=RULES,
        ref_name="r",
        hyp_name="h",
    )
    assert report_json(report) == _dumps(report_dict(report))
