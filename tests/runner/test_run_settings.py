"""The runner takes its settings from the config through protocol_data (below the generator): the same from the
YAML files' plain data as from the validated Config, the re-run settings among them, and a bad value named."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.config import load_config
from generator.paths import Layout
from protocol_data.run import RUN_PARTS, run_data
from protocol_data.settings import ProtocolDataError
from runner.from_config import run_settings


def _plain() -> dict[str, Any]:
    folder = Layout().config
    return {p: yaml.safe_load((folder / f"{p}.yaml").read_text(encoding="utf-8")) for p in RUN_PARTS}


def test_the_run_settings_from_the_yaml_files_equal_the_ones_from_the_validated_config() -> None:
    config = load_config(Layout().config)
    assert run_data(_plain()) == run_data(config)
    run = run_settings(config, paced=False)
    scored = config.protocol.scored_run
    assert (run.policy.max_attempts, run.policy.stall_ms) == (scored.max_attempts, scored.stall_ms)
    assert run.draw_size == config.rounds.draw.size
    assert run_data(config).standing_round == next(r.id for r in config.platform.rounds if r.standing)


@pytest.mark.parametrize(
    ("part", "key", "value", "said"),
    [
        (
            "protocol",
            "scored_run",
            {"max_attempts": 0, "stall_ms": 500},
            "protocol.yaml: scored_run.max_attempts",
        ),
        ("protocol", "scored_run", {"max_attempts": 3}, "protocol.yaml: scored_run.stall_ms is needed"),
        ("rounds", "runs_per_round", "three", "rounds.yaml: runs_per_round must be a positive whole number"),
    ],
)
def test_a_bad_value_is_named_with_its_file_and_key(part: str, key: str, value: Any, said: str) -> None:
    data = _plain()
    data[part][key] = value
    with pytest.raises(ProtocolDataError, match=said):
        run_data(data)
