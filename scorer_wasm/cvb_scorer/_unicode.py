"""One pinned Unicode version for every scoring path.

CPython 3.11 ships Unicode 14.0 and Pyodide's CPython 3.14 ships 16.0: thousands of code points change
category between them, so a rule written against the interpreter's own tables would give different numbers on
the server and in the browser. Every lookup goes through ``ud`` below.
"""

from __future__ import annotations

import unicodedata
from types import ModuleType

UNICODE_VERSION = "16.0.0"


def _pinned() -> ModuleType:
    if unicodedata.unidata_version == UNICODE_VERSION:
        return unicodedata
    try:
        import unicodedata2 as backport
    except ImportError as exc:  # pragma: no cover - depends on the interpreter
        raise ImportError(
            f"cvb_scorer needs Unicode {UNICODE_VERSION} tables but this Python has "
            f"{unicodedata.unidata_version}; install them with `pip install unicodedata2=={UNICODE_VERSION}`."
        ) from exc
    module: ModuleType = backport
    return module


ud = _pinned()
if ud.unidata_version != UNICODE_VERSION:  # pragma: no cover - depends on the installed backport
    raise ImportError(
        f"cvb_scorer needs Unicode {UNICODE_VERSION} tables but found {ud.unidata_version}; "
        f"install `unicodedata2=={UNICODE_VERSION}`."
    )
