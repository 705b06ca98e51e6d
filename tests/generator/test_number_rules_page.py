"""The methodology page states how numbers are read and weighed with the scorer's own worked examples: every
example the scorer publishes appears with the figures the scorer charges (tests/scorer/test_numbers.py runs
the same examples)."""

from __future__ import annotations

from generator.build import render_all
from generator.paths import Layout


def test_the_methodology_page_shows_every_number_example_with_the_scorers_charges() -> None:
    from cvb_scorer.normalise.weights import number_weight_rows

    page = render_all(Layout()).pages["methodology.md"]
    rows = number_weight_rows()
    assert rows
    for row in rows:
        cells = [row[k] for k in ("reference", "hypothesis", "shows", "digits", "token", "spoken")]
        assert "| " + " | ".join(cells) + " |" in page, row
    assert "SpeechIO" in page and "yue_normalizer" in page and "Whisper" in page


def test_the_chinese_methodology_page_states_every_rule_and_example_in_chinese() -> None:
    # A Hong Kong reader who reads Chinese first meets the normalisation table and the worked examples in
    # Chinese: the scorer's own Traditional Chinese descriptions, never the English ones.
    from cvb_scorer.normalise import rules_table
    from cvb_scorer.normalise.weights import number_weight_rows

    page = render_all(Layout()).zh_pages["methodology.md"]
    for row in rules_table():
        assert f"| {row['description_zh']} |" in page, row["name"]
        assert row["description"] not in page, row["name"]
    for row in number_weight_rows():
        assert f"| {row['shows_zh']} |" in page, row["reference"]
        assert row["shows"] not in page, row["reference"]
