"""The Cantonese Voice Benchmark scorer.

Everything that turns a reference and a hypothesis into a published number lives here, in pure Python, so the
platform's runner, the site's build and the browser (through Pyodide) run the very same functions.
"""

from __future__ import annotations

from cvb_scorer._unicode import UNICODE_VERSION

__version__ = "1.0.0"

__all__ = ["UNICODE_VERSION", "__version__"]
