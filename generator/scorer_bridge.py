"""What the pages take from the scorer: its rule table, its signature, and the pre-rendered editor.

The scorer is the authority on normalisation; the pages list its rules from its own data rather than
describing them a second time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import yaml


@dataclass(frozen=True)
class ScorerWheel:
    path: Path
    sha256: str


def find_wheel(wheels: Path) -> ScorerWheel:
    found = sorted(wheels.glob("cvb_scorer-*.whl"))
    if len(found) != 1:
        raise FileNotFoundError(
            f"Expected exactly one scorer wheel in {wheels}, found {len(found)}; run `make wheel` to build it."
        )
    return ScorerWheel(found[0], hashlib.sha256(found[0].read_bytes()).hexdigest())


def normalisation_rows() -> list[dict[str, str]]:
    from cvb_scorer.normalise import rules_table

    return [dict(row) for row in rules_table()]


def scorer_signature() -> str:
    from cvb_scorer.signature import signature

    return str(signature())


def editor_markup(
    env: jinja2.Environment, *, examples: Path, wheel: ScorerWheel, asset_base: str, max_chars: int
) -> str:
    from cvb_scorer.view import render_view

    sample: Any = yaml.safe_load((examples / "editor_sample.yaml").read_text(encoding="utf-8"))
    reference, hypothesis = sample["reference"], sample["hypothesis"]
    view = json.loads(render_view(reference=reference, hypothesis=hypothesis).to_json())
    return env.get_template("editor.html.j2").render(
        reference=reference,
        hypothesis=hypothesis,
        view_html=view["html"],
        signature=view["signature"],
        wheel_sha256=wheel.sha256,
        wheel_name=wheel.path.name,
        asset_base=asset_base,
        max_chars=max_chars,
        compact=False,
    )
