"""The package's data files (``cvb_scorer/data/``), read from the directory the package was imported from: pip
and Pyodide's micropip both install wheels unpacked. ``importlib.resources`` would also read them from a zip,
but importing it (pathlib, tempfile, zipfile ...) cost about 15 ms of every ``cvb-score`` run, for two files."""

from __future__ import annotations

import os

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def read_text(path: str) -> str:
    """The package's file at ``path`` (``data/...``) as UTF-8 text; ``FileNotFoundError`` when the install does
    not carry it."""
    with open(os.path.join(_PACKAGE, path), encoding="utf-8") as data:
        return data.read()
