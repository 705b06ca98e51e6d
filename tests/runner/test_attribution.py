"""The attribution rule as a table: who each failed attempt belongs to, whether it runs again, and when our own
clock counts as stalled."""

from __future__ import annotations

import pytest

from runner.attribution import Outcome, judge_attempt, stall
from runner.policy import RunPolicy
from tests.runner.support import SETTINGS

POLICY = RunPolicy(max_attempts=3, stall_ms=500)


@pytest.mark.parametrize(
    ("attempt", "platform_fault", "network_drop", "outcome", "code"),
    [
        (1, "our client failed", None, Outcome.RERUN, "platform_error"),
        (2, "our client failed", None, Outcome.RERUN, "platform_error"),
        (3, "our client failed", None, Outcome.UNRESOLVED, "platform_error"),
        # The network's drop is never run again: it stands, whichever attempt it was (one after our fault).
        (1, None, "no close frame", Outcome.SCORED, "network_interrupted"),
        (2, None, "no close frame", Outcome.SCORED, "network_interrupted"),
        (3, None, "no close frame", Outcome.SCORED, "network_interrupted"),
        (1, "our client failed", "no close frame", Outcome.RERUN, "platform_error"),  # ours first
        (1, None, None, Outcome.SCORED, None),  # the machine's verdict, attributed by the catalogue
        (3, None, None, Outcome.SCORED, None),
    ],
)
def test_who_an_attempt_belongs_to(
    attempt: int, platform_fault: str | None, network_drop: str | None, outcome: Outcome, code: str | None
) -> None:
    judged = judge_attempt(
        attempt=attempt,
        platform_fault=platform_fault,
        network_drop=network_drop,
        policy=POLICY,
        settings=SETTINGS,
    )
    assert judged.outcome is outcome
    assert (judged.failure.code if judged.failure else None) == code
    if judged.failure is not None:
        assert judged.failure.attributed_to == SETTINGS.failure(judged.failure.code).attributed_to
        assert judged.detail == (platform_fault or network_drop)


@pytest.mark.parametrize(
    ("asked", "woke", "stalled"),
    [(None, 5.0, False), (1.0, 1.0, False), (1.0, 1.5, False), (1.0, 1.501, True), (1.0, 0.9, False)],
)
def test_a_stall_is_a_wake_later_than_the_threshold(asked: float | None, woke: float, stalled: bool) -> None:
    said = stall(asked=asked, woke=woke, policy=POLICY)
    assert (said is not None) is stalled
    if said is not None:
        assert said == "our client's clock stalled: it ran 501 ms late; the stall threshold is 500 ms"
