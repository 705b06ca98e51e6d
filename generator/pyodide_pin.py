"""The Pyodide pin (scorer_wasm/web/pyodide-pin.json): which files of the pinned release the site serves, and
the start-up snapshot made from them. Read by tools/fetch_pyodide.py, which fills build/pyodide/, and by the
build, which copies it into the site: one list, one place."""

from __future__ import annotations

from collections.abc import Mapping


def snapshot_file(pin: Mapping[str, object]) -> str | None:
    """The snapshot's file name, or None when the pin asks for no snapshot."""
    snapshot = pin.get("snapshot")
    return str(snapshot["file"]) if isinstance(snapshot, Mapping) else None


def snapshot_modules(pin: Mapping[str, object]) -> list[str]:
    """The standard-library modules imported before the snapshot is taken."""
    snapshot = pin.get("snapshot")
    return [str(name) for name in snapshot["modules"]] if isinstance(snapshot, Mapping) else []


def served_files(pin: Mapping[str, object]) -> list[str]:
    """The files of build/pyodide/ the site serves: the release's own, then the snapshot if the pin has one."""
    files = pin["files"]
    assert isinstance(files, list)
    snapshot = snapshot_file(pin)
    return [str(name) for name in files] + ([snapshot] if snapshot else [])
