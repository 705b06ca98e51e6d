"""A change of what the normalisation produces must come with a new ``NORM_VERSION`` (it is in the scoring
signature): the committed golden output records the version it was made with."""

from __future__ import annotations

import json

from cvb_scorer.normalise import NORM_VERSION

from tests.scorer.golden_normalisation import GOLDEN, outputs


def test_golden_output_was_made_with_this_norm_version() -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["norm_version"] == NORM_VERSION, (
        f"NORM_VERSION is {NORM_VERSION} but the golden output was made with {data['norm_version']}: "
        "regenerate it with `.venv/bin/python -m tests.scorer.golden_normalisation`."
    )
    assert len(data["cases"]) > 300


def test_normalisation_produces_the_golden_output() -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    cases = data["cases"]
    now = outputs([text for text, _, _ in cases])
    changed = [(old, new) for old, new in zip(cases, now, strict=True) if old != new]
    assert not changed, (
        f"the normalisation changes {len(changed)} golden cases (e.g. {changed[0][0]} → {changed[0][1]}) "
        f"under the same NORM_VERSION {NORM_VERSION}: bump it, then regenerate the golden output."
    )
