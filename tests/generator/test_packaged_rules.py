"""`cvb check` fails when the scoring rules committed inside the scorer package differ from platform_config/,
so `pip install ./scorer_wasm` can never install other numbers than the pages publish."""

from __future__ import annotations

from pathlib import Path

from generator.check import PACKAGED_RULES, check, packaged_rules_drift
from generator.config import load_config
from generator.paths import Layout
from generator.rules_export import scoring_rules_json
from tests.generator.conftest import project_copy


def test_the_committed_rules_are_the_configs() -> None:
    layout = Layout()
    assert packaged_rules_drift(layout, scoring_rules_json(load_config(layout.config))) == []


def test_a_changed_config_without_regenerated_rules_fails_the_check(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    scoring = layout.config / "scoring.yaml"
    scoring.write_text(
        scoring.read_text(encoding="utf-8").replace("bootstrap_seed: 20260924", "bootstrap_seed: 7"),
        encoding="utf-8",
    )
    problems = [str(p) for p in check(layout)]
    drift = [p for p in problems if p.startswith(str(PACKAGED_RULES))]
    assert len(drift) == 1 and '"seed": 20260924' in drift[0] and "run `make wheel`" in drift[0], problems


def test_missing_packaged_rules_fail_the_check(tmp_path: Path) -> None:
    (problem,) = packaged_rules_drift(Layout(root=tmp_path), "{}\n")
    assert "(missing)" in str(problem)


def test_a_trailing_difference_names_the_line_after_the_shorter_file(tmp_path: Path) -> None:
    path = tmp_path / PACKAGED_RULES
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "a": 1\n}\n', encoding="utf-8")
    (problem,) = packaged_rules_drift(Layout(root=tmp_path), '{\n  "a": 1\n}\nextra\n')
    assert problem.line == 4 and problem.excerpt == "(end of file)"
