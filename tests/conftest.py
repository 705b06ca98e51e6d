"""Suite-wide collection order and Hypothesis settings."""

from __future__ import annotations

import pytest
from hypothesis import settings

# No test asserts on time: Hypothesis' per-example deadline is off for every property, so a loaded machine
# never fails one (a test that sets its own settings inherits this profile's).
settings.register_profile("cvb", deadline=None)
settings.load_profile("cvb")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The fresh Debian root is made in the background while everything else runs (`make test` starts it), so
    # the test that needs it is handed out last.
    items.sort(key=lambda item: item.get_closest_marker("fresh_debian") is not None)
