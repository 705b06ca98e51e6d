"""The run's settings, read from platform_config/ as every other part of the platform reads it."""

from __future__ import annotations

from generator.config import Config
from runner.policy import RunPolicy
from runner.shell import RunSettings
from starter_kit.connection_test.bundle import settings_from_config


def run_settings(
    config: Config, *, paced: bool = True, insecure: bool = False, policy: RunPolicy | None = None
) -> RunSettings:
    """The run's settings; `policy` replaces the config's re-run settings (tests that stall the clock on purpose)."""
    draw = config.rounds.draw
    scored = config.protocol.scored_run
    return RunSettings(
        settings=settings_from_config(config),
        draw_size=draw.size,
        strata={tier: str(share) for tier, share in draw.strata.items()},
        rounds=tuple(r.id for r in config.platform.rounds),
        runs_per_round=config.rounds.runs_per_round,
        scoring_version=config.scoring.current_scoring_version,
        paced=paced,
        insecure=insecure,
        policy=policy or RunPolicy(max_attempts=scored.max_attempts, stall_ms=scored.stall_ms),
    )
