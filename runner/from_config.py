"""The run's settings, read from platform_config/ through protocol_data (below both the generator and the
runner), from the generator's validated Config or the config files' plain data."""

from __future__ import annotations

from typing import Any

from protocol_data.run import run_data
from runner.policy import RunPolicy
from runner.shell import RunSettings
from starter_kit.connection_test.bundle import settings_from_config


def run_settings(
    config: Any, *, paced: bool = True, insecure: bool = False, policy: RunPolicy | None = None
) -> RunSettings:
    """The run's settings; `policy` replaces the config's re-run settings (tests that stall the clock on purpose)."""
    data = run_data(config)
    return RunSettings(
        settings=settings_from_config(config),
        draw_size=data.draw_size,
        strata=data.strata,
        rounds=data.rounds,
        runs_per_round=data.runs_per_round,
        scoring_version=data.scoring_version,
        paced=paced,
        insecure=insecure,
        policy=policy or RunPolicy(max_attempts=data.max_attempts, stall_ms=data.stall_ms),
    )
