"""Who a failed attempt is attributed to, and whether the item runs again: the rule, as a pure function.

1. A fault on our side (our client raised, closed the connection itself, or our clock stalled past the policy's
   threshold) is the platform's (`platform_error`). The item runs again, costing no quota, up to the policy's
   attempts; if every attempt fails so, the item is left out and the record is not final.
2. A connection that ends with no WebSocket close frame from the entrant before the item was settled is the
   network's (`network_interrupted`). It is not run again: the programme promises a free re-run only for a run
   it breaks itself, so the attempt stands as the item's result, a failed item like any other, attributed to
   the network with that connection's evidence.
3. Everything else is the protocol machine's verdict, attributed as the failure catalogue says.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from runner.policy import RunPolicy
from starter_kit.protocol.settings import Failure, Settings


class Outcome(enum.Enum):
    SCORED = "scored"  # this attempt's verdicts are the item's
    RERUN = "rerun"  # our fault: the item runs again, costing no quota
    UNRESOLVED = "unresolved"  # our fault on every attempt: the item is left out of the record


@dataclass(frozen=True)
class Judgement:
    outcome: Outcome
    failure: Failure | None  # the attempt's own failure when it was not the machine's verdict
    detail: str


def judge_attempt(
    *,
    attempt: int,
    platform_fault: str | None,
    network_drop: str | None,
    policy: RunPolicy,
    settings: Settings,
) -> Judgement:
    """Rules 1 and 2 of the module docstring; SCORED with no failure of its own means rule 3 (the verdicts)."""
    last = attempt >= policy.max_attempts
    if platform_fault is not None:
        return Judgement(
            Outcome.UNRESOLVED if last else Outcome.RERUN, settings.failure("platform_error"), platform_fault
        )
    if network_drop is not None:
        return Judgement(Outcome.SCORED, settings.failure("network_interrupted"), network_drop)
    return Judgement(Outcome.SCORED, None, "")


def stall(*, asked: float | None, woke: float, policy: RunPolicy) -> str | None:
    """Rule 1's stalled clock: the sentence when our loop woke later than it asked (to send a frame, time out,
    or take its own pulse) by more than the policy allows, so the attempt's timings cannot be trusted; else None."""
    if asked is None:
        return None
    late_ms = (woke - asked) * 1000
    if late_ms <= policy.stall_ms:
        return None
    return f"our client's clock stalled: it ran {late_ms:.0f} ms late; the stall threshold is {policy.stall_ms} ms"
