"""The detector's fast route (patterns only on lines that can match) finds exactly what the plain route finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.config import load_config
from generator.paths import Layout
from generator.review.detect import Detector, ScanRules

DETECTOR = Detector(ScanRules.from_config(load_config(Layout().config).endpointing))

# Pieces of every detector's triggers and of the near misses around them.
FRAGMENTS = [
    "conversation_id: ", "conv_", "Session ", "dialog-", "TB#", "turnbench", "38", "40", "41", "105", "157",
    "20", "0.5", "12345", ", ", "; ", "\t", "\n", "\n", "\r\n", "\u2028", " ", "x", '"', "'", "[", "]",
    "mundo-ai/turn-benchmark-dev", "Turn_Benchmark_Dev", "datasets--mundo-ai--turn-benchmark-dev",
    "https://hf-mirror.com/datasets/", "JSALT2026-Conv-AI-Simulator/turnbench-dev-no-backchannel",
    "split='test'", "--split dev", "val_set.csv", "['validation']", "/task/public/validation.jsonl",
    "validation.jsonl", "eval", "value",
]  # fmt: skip


def key(findings: list) -> list[tuple[object, ...]]:  # type: ignore[type-arg]
    return sorted((f.rule, f.line, f.match, f.severity.value, f.reason) for f in findings)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60), st.booleans(), st.integers(1, 50))
def test_the_fast_route_finds_what_the_plain_route_finds(
    parts: list[str], training: bool, first: int
) -> None:
    chunk = "".join(parts)
    if not chunk.endswith("\n"):
        chunk += "\n"  # the scan hands the detector whole lines
    fast = DETECTOR.text("t/train.py", chunk, first, training_path=training)
    plain = DETECTOR.text_reference("t/train.py", chunk, first, training_path=training)
    assert key(fast) == key(plain)


def test_the_generated_text_reaches_every_rule() -> None:
    # A harness that never produces a finding of some rule proves nothing about it.
    chunk = "conv_38\n40, 41, 105\n38\n40\n41\nmundo-ai/turn-benchmark-dev split='test'\n"
    rules = {f.rule for f in DETECTOR.text_reference("train.py", chunk, 1, training_path=True)}
    assert rules == {"id_key", "id_list", "source", "split_read"}
