"""Put the pinned Pyodide core into build/pyodide/, taken from the npm registry with its checksum verified.

The pin (scorer_wasm/web/pyodide-pin.json) is the one place the Pyodide version is named. The tarball's sha1
is checked against the registry's `dist.shasum` recorded in the pin, so a tampered or re-published package is
refused rather than served to entrants. Only the five files the editor loads are extracted; the rest of the
package (TypeScript types, Node glue) never reaches the site.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from generator.atomic import swap_in

ROOT = Path(__file__).resolve().parent.parent
PIN = ROOT / "scorer_wasm" / "web" / "pyodide-pin.json"
DEST = ROOT / "build" / "pyodide"
CACHE = ROOT / "build" / "cache"
RECORD_NAME = ".pin.json"


class FetchError(Exception):
    pass


def load_pin(path: Path = PIN) -> dict[str, object]:
    pin = json.loads(path.read_text(encoding="utf-8"))
    for key in ("package", "version", "shasum", "files"):
        if key not in pin:
            raise FetchError(f"{path} has no '{key}' field; restore it from git before fetching Pyodide.")
    return dict(pin)


def is_current(pin: dict[str, object], dest: Path = DEST) -> bool:
    record = dest / RECORD_NAME
    if not record.is_file():
        return False
    try:
        recorded = json.loads(record.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return False
    if recorded != pin:
        return False
    return all((dest / str(name)).is_file() for name in pin["files"])  # type: ignore[attr-defined]


def _run(program: str, args: list[str], *, doing: str, then: str) -> None:
    """Run an npm command, turning a missing program or a failure into one actionable FetchError."""
    found = shutil.which(program)
    if found is None:
        raise FetchError(f"{program} is not on PATH; install Node 20 and npm, then run `make pyodide` again.")
    result = subprocess.run([found, *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        output = result.stderr.strip() or result.stdout.strip()
        raise FetchError(f"{doing} failed (exit {result.returncode}): {output}\n{then}")


def sha1_of(path: Path) -> str:
    digest = hashlib.sha1()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def tarball_path(pin: dict[str, object], cache: Path = CACHE) -> Path:
    return cache / f"{pin['package']}-{pin['version']}.tgz"


def pack(pin: dict[str, object], cache: Path = CACHE) -> Path:
    """Return a verified tarball, reusing the cached one only if its checksum still matches."""
    cache.mkdir(parents=True, exist_ok=True)
    target = tarball_path(pin, cache)
    if target.is_file() and sha1_of(target) == pin["shasum"]:
        return target
    spec = f"{pin['package']}@{pin['version']}"
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        _run(
            "npm",
            ["pack", spec, "--pack-destination", tmp, "--json", "--loglevel=error"],
            doing=f"`npm pack {spec}`",
            then="Check that the npm registry is reachable, then run `make pyodide` again.",
        )
        packed = list(Path(tmp).glob("*.tgz"))
        if len(packed) != 1:
            raise FetchError(f"`npm pack {spec}` produced {len(packed)} tarballs where one was expected.")
        actual = sha1_of(packed[0])
        if actual != pin["shasum"]:
            raise FetchError(
                f"Refusing {spec}: its tarball has sha1 {actual}, but the pin in {PIN.relative_to(ROOT)} "
                f"records {pin['shasum']}. The registry copy is not the one this project was tested with; "
                "if the change is intended, update the pin from `npm view "
                f"{spec} dist.shasum` after reviewing the release."
            )
        packed[0].replace(target)
    return target


def extract(pin: dict[str, object], tarball: Path, dest: Path = DEST) -> None:
    """Write the files into a sibling temp dir, then swap it in, so a half-written dir is never served."""
    files = [str(name) for name in pin["files"]]  # type: ignore[attr-defined]
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=dest.parent))
    # mkdtemp makes a private dir; the site copy and local servers must be able to read it.
    staging.chmod(0o755)
    try:
        with tarfile.open(tarball, "r:gz") as archive:
            for name in files:
                try:
                    member = archive.getmember(f"package/{name}")
                except KeyError:
                    raise FetchError(
                        f"{tarball.name} has no package/{name}; the pin's file list does not match this "
                        "Pyodide release."
                    ) from None
                source = archive.extractfile(member)
                if source is None:
                    raise FetchError(f"package/{name} in {tarball.name} is not a regular file.")
                with source, (staging / name).open("wb") as out:
                    shutil.copyfileobj(source, out)
        (staging / RECORD_NAME).write_text(json.dumps(pin, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        swap_in(staging, dest)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def main() -> int:
    try:
        pin = load_pin()
        if is_current(pin):
            return 0
        tarball = pack(pin)
        extract(pin, tarball)
    except FetchError as error:
        print(f"fetch_pyodide: {error}", file=sys.stderr)
        return 1
    where = DEST.relative_to(ROOT)
    print(f"fetch_pyodide: {pin['package']} {pin['version']} verified and copied to {where}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
