"""Suite-wide collection order."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The fresh Debian root is made in the background while everything else runs (`make test` starts it), so
    # the test that needs it is handed out last.
    items.sort(key=lambda item: item.get_closest_marker("fresh_debian") is not None)
