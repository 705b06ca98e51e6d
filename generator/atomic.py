"""The generator's name for the one atomic swap, which lives below both the generator and the kit."""

from __future__ import annotations

from protocol_data.atomic import swap_in

__all__ = ["swap_in"]
