"""What the pages take from the scorer: its rule table, its signature, and the pre-rendered editor.

The scorer is the authority on normalisation; the pages list its rules from its own data rather than
describing them a second time.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import yaml

from generator.config import Config, ConfigError
from generator.config.invariants import Finding
from generator.config.localise import view_words
from generator.pdf.glyphs import visible_examples


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


PACKAGED_RULES = "cvb_scorer/data/scoring_rules.json"


def packaged_rules(wheel: ScorerWheel) -> str:
    with zipfile.ZipFile(wheel.path) as archive:
        try:
            return archive.read(PACKAGED_RULES).decode("utf-8")
        except KeyError:
            raise FileNotFoundError(
                f"{wheel.path.name} carries no {PACKAGED_RULES}; run `make wheel`."
            ) from None


def stale_wheel_problem(wheel: ScorerWheel, expected_rules: str) -> str | None:
    """A sentence if the wheel (served to browsers) or the installed scorer (used for the build's pre-render)
    carries scoring rules other than the config's; None when all three agree."""
    from importlib.resources import files

    installed = files("cvb_scorer").joinpath("data", "scoring_rules.json").read_text(encoding="utf-8")
    if packaged_rules(wheel) != expected_rules or installed != expected_rules:
        return (
            "The scorer wheel was built from other scoring rules than platform_config/ now holds, so its signature "
            "and scores would disagree with the pages; run `make site`, which rebuilds the wheel first."
        )
    return None


def normalisation_rows() -> list[dict[str, str]]:
    from cvb_scorer.normalise import rules_table

    # Examples whose sides look alike (an invisible character, a glyph variant) show their code points.
    return [{**row, "examples": visible_examples(row["name"], row["examples"])} for row in rules_table()]


def number_weight_rows() -> list[dict[str, str]]:
    """The worked examples of how much a number weighs, with what each choice charges, from the scorer."""
    from cvb_scorer.normalise.weights import number_weight_rows as rows

    return [dict(row) for row in rows()]


def scorer_signature() -> str:
    from cvb_scorer.signature import signature

    return str(signature())


@dataclass(frozen=True)
class EditorSample:
    """The example the editors open with, scored once by the scorer at build time."""

    reference: str
    hypothesis: str
    html: str
    signature: str
    # The drawing's words when not the scorer's English: the page gives them to the worker, which draws every
    # keystroke in them (data-cvb-view-text).
    words: Mapping[str, object] | None = None


def editor_sample(examples: Path, config: Config, *, language: str) -> EditorSample:
    """The sample, drawn in the edition's words (glossary.yaml ``zh_view``; the scorer's own English).

    The words are checked against the installed scorer's ViewText here (a field missing or unknown, or other
    placeholders than the English text's), not when the config loads: the wheel is built from a loaded config,
    so the loader cannot need the scorer the build is about to make."""
    from cvb_scorer.view import render_view
    from cvb_scorer.view_text import ENGLISH, ViewText, text_problems

    words = view_words(config, language)
    if words is not None:
        problems = [
            Finding("glossary.yaml", ("zh_view", *field.split(".")), message).located(config.sources)
            for field, message in text_problems(words)
        ]
        if problems:
            raise ConfigError(problems)
    text = ENGLISH if words is None else ViewText.from_mapping(words)
    sample: Any = yaml.safe_load((examples / "editor_sample.yaml").read_text(encoding="utf-8"))
    reference, hypothesis = sample["reference"], sample["hypothesis"]
    view = json.loads(render_view(reference=reference, hypothesis=hypothesis, text=text).to_json())
    return EditorSample(reference, hypothesis, view["html"], view["signature"], words)


def editor_markup(
    env: jinja2.Environment,
    *,
    sample: EditorSample,
    wheel: ScorerWheel,
    asset_base: str,
    max_chars: int,
    compact: bool,
    ui: Mapping[str, str],
) -> str:
    # `ui`: every interface string in the page's language (glossary.yaml `interface`); the template has none.
    return env.get_template("editor.html.j2").render(
        ui=dict(ui),
        view_text=None
        if sample.words is None
        else json.dumps(sample.words, ensure_ascii=False, sort_keys=True),
        reference=sample.reference,
        hypothesis=sample.hypothesis,
        view_html=sample.html,
        signature=sample.signature,
        wheel_sha256=wheel.sha256,
        wheel_name=wheel.path.name,
        asset_base=asset_base,
        max_chars=max_chars,
        compact=compact,
    )
