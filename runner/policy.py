"""How a scored run treats faults: the attribution rule and the re-run rule, as data the pages can state.

Both numbers are settings (platform_config/protocol.yaml, `scored_run`), so the integration and methodology pages
print the very values the runner applies."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class RunPolicy:
    # Attempts per item, the first included, before our own fault stops being retried. Re-runs cost no quota.
    max_attempts: int
    # Our own event loop waking this much later than the protocol machine asked is a stall of our clock: the
    # timings of that attempt cannot be trusted, so it is the platform's fault and the item runs again.
    stall_ms: int

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("a run needs at least one attempt per item")
        if self.stall_ms <= 0:
            raise ValueError("the stall threshold must be positive")
