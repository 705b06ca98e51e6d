"""The run's settings, read from platform_config/ as every other part of the platform reads it."""

from __future__ import annotations

from generator.config import Config
from runner.policy import DEFAULT_POLICY, RunPolicy
from runner.shell import RunSettings
from starter_kit.connection_test.bundle import settings_from_config


def run_settings(
    config: Config, *, paced: bool = True, insecure: bool = False, policy: RunPolicy = DEFAULT_POLICY
) -> RunSettings:
    draw = config.rounds.draw
    return RunSettings(
        settings=settings_from_config(config),
        draw_size=draw.size,
        strata={tier: str(share) for tier, share in draw.strata.items()},
        rounds=tuple(r.id for r in config.platform.rounds),
        runs_per_round=config.rounds.runs_per_round,
        scoring_version=config.scoring.current_scoring_version,
        paced=paced,
        insecure=insecure,
        policy=policy,
    )
