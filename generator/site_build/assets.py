"""The editor's assets stage: its files, the pinned Pyodide, the wheels and the start-up snapshot, each at an
address named by its content, and the manifest that tells the worker where they are."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from generator import scorer_bridge
from generator.paths import Layout
from generator.precompress import sent_bytes
from generator.runtime_assets import LOCK_FILE, runtime_layout, trimmed_lock

EDITOR_ASSETS = ("early.js", "editor.js", "editor_state.js", "worker.js", "memory.mjs", "editor.css")
SERVICE_WORKER = "sw.js"


class StaleWheelError(RuntimeError):
    """The scorer wheel carries scoring rules other than the config's."""


class StaleSnapshotError(StaleWheelError):
    """The editor's start-up snapshot was made from another scorer wheel than the one the build serves."""


@dataclass(frozen=True)
class StartUpSnapshot:
    """The Pyodide memory snapshot with this build's scorer imported (tools/snapshot_scorer.py)."""

    path: Path
    sha256: str
    # The wheels the worker installs after restoring it (the rest were needed only to make it).
    install_after_restore: tuple[str, ...]
    # The sha256 of the snapshot as restored (the file itself: it is stored uncompressed and travels as a
    # precompressed copy the browser decodes): a browser that keeps it on disk checks it against this.
    inflated_sha256: str


def start_up_snapshot(layout: Layout, wheel: scorer_bridge.ScorerWheel) -> StartUpSnapshot:
    """The snapshot in build/snapshot/, refused unless it was made from this very scorer wheel."""
    record_path = layout.snapshot / "record.json"
    if not record_path.is_file():
        raise FileNotFoundError(
            f"{record_path} is missing; run `make site` to make the editor's start-up snapshot."
        )
    record = json.loads(record_path.read_text(encoding="utf-8"))
    if record["scorer_sha256"] != wheel.sha256:
        raise StaleSnapshotError(
            f"The editor's start-up snapshot in {layout.snapshot} was made from the scorer wheel with sha256 "
            f"{record['scorer_sha256']}, not from {wheel.path.name} ({wheel.sha256}) that this build serves; "
            "run `make site` to make it again."
        )
    path = layout.snapshot / str(record["snapshot"])
    return StartUpSnapshot(
        path,
        str(record["snapshot_sha256"]),
        tuple(str(name) for name in record.get("install_after_restore", [])),
        str(record["snapshot_sha256"]),
    )


def copy_assets(
    layout: Layout, assets: Path, wheel: scorer_bridge.ScorerWheel, snapshot: StartUpSnapshot
) -> None:
    """The site's static assets, the editor's files and its runtime at addresses named by their content, with
    the manifest the editor's worker reads."""
    shutil.copytree(layout.static_assets, assets)
    editor = assets / "editor"
    editor.mkdir()
    for name in EDITOR_ASSETS:
        shutil.copy2(layout.editor_web / name, editor / name)
    # The pin that tools/fetch_pyodide.py verifies also names the files the site serves: one list, one place.
    pin = json.loads((layout.editor_web / "pyodide-pin.json").read_text(encoding="utf-8"))
    contents: dict[str, bytes] = {}
    for name in pin["files"]:
        source = layout.pyodide / name
        if not source.is_file():
            raise FileNotFoundError(
                f"Pyodide file {source} is missing; run `make pyodide` to fetch the pinned release."
            )
        data = source.read_bytes()
        contents[name] = trimmed_lock(data.decode("utf-8")) if name == LOCK_FILE else data
    pyodide_names = list(contents)
    installed = {p.name: p for p in sorted(layout.wheels.glob("*.whl"))}
    for name, path in {**installed, snapshot.path.name: snapshot.path}.items():
        contents[name] = path.read_bytes()
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in contents.items()}
    runtime = runtime_layout(
        pyodide={name: digests[name] for name in pyodide_names},
        single={name: digest for name, digest in digests.items() if name not in pyodide_names},
    )
    for name, data in contents.items():
        destination = assets / runtime.path(name)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
    # Beside the manifest, the scorer wheel also lies under its own name: the download the pages link to and
    # `cvb check` reads (written by the artefact list).
    wheels = assets / "wheels"
    wheels.mkdir()
    # The service worker must sit at the site root so its scope covers every page; the manifest says where.
    shutil.copy2(layout.editor_web / SERVICE_WORKER, assets.parent / SERVICE_WORKER)

    def beside_manifest(name: str) -> str:
        return f"../{runtime.path(name)}"

    manifest = {
        "scorer": wheel.path.name,
        "sha256": wheel.sha256,
        "service_worker": f"../../{SERVICE_WORKER}",
        # Every runtime file at an address named by its content (generator/runtime_assets.py): the service
        # worker answers them from its cache, and drops the ones no longer listed here.
        "runtime": {
            "pyodide": f"../{runtime.pyodide}",
            "scorer": beside_manifest(wheel.path.name),
            "packages": [beside_manifest(name) for name in installed],
            "files": sorted(beside_manifest(name) for name in runtime.files),
            # Each file's size in bytes, as a reader's browser receives it (decoded), and as it travels to a
            # browser that accepts the precompressed copies (generator/precompress.py): the editor states the
            # second, and its loading bar counts the first in that measure.
            "sizes": {beside_manifest(name): len(data) for name, data in sorted(contents.items())},
            "transfer": {
                beside_manifest(name): sent_bytes(name, data, cache=layout.precompressed_cache)
                for name, data in sorted(contents.items())
            },
        },
        # The worker restores the snapshot only if its bytes have this hash, then installs these wheels.
        "start_up_snapshot": {
            "path": beside_manifest(snapshot.path.name),
            "sha256": snapshot.sha256,
            "inflated_sha256": snapshot.inflated_sha256,
            "packages": [beside_manifest(name) for name in snapshot.install_after_restore],
        },
    }
    (wheels / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
