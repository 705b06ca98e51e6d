"""Where the editor's runtime lives in the site: every file under a folder named by its content's hash.

The runtime (Pyodide's files, the wheels the worker installs, the start-up snapshot: ~20 MB) changes only when
the build's inputs do, so each file is served at an address that names its bytes: ``assets/runtime/<hash>/
<file name>``. A file at such an address never changes, so the service worker answers it from its own cache
without asking the network, and a rebuilt file gets a new address instead of a stale copy. File names are
kept (a wheel's name is its metadata for Pyodide; Pyodide finds its own files by name beside pyodide.mjs), so
Pyodide's files share one folder, named by the hash of all of them together.

Pure: bytes' digests in, addresses out. The build copies the files (generator/site_build/assets.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

RUNTIME = "runtime"
# 64 bits of sha256: a name, not a security check (the worker checks full sha256s from the manifest).
HASH_CHARS = 16


@dataclass(frozen=True)
class RuntimeLayout:
    """Paths relative to the site's assets/ folder, by the source file's name."""

    pyodide: str  # the folder of Pyodide's files, ending in a slash
    files: dict[str, str]  # every runtime file's name -> its path

    def path(self, name: str) -> str:
        return self.files[name]


def folder_hash(digests: Mapping[str, str]) -> str:
    """One name for files that must stay together: the hash of their names and sha256s."""
    listing = "".join(f"{name}\0{digest}\n" for name, digest in sorted(digests.items()))
    return hashlib.sha256(listing.encode()).hexdigest()[:HASH_CHARS]


def runtime_layout(*, pyodide: Mapping[str, str], single: Mapping[str, str]) -> RuntimeLayout:
    """`pyodide`: Pyodide's file names -> sha256 (one folder); `single`: other file names -> sha256 (a folder
    each: the wheels and the snapshot)."""
    clash = set(pyodide) & set(single)
    if clash:
        raise ValueError(f"Runtime file names used twice: {', '.join(sorted(clash))}.")
    together = f"{RUNTIME}/{folder_hash(pyodide)}/"
    files = {name: together + name for name in pyodide}
    files.update({name: f"{RUNTIME}/{digest[:HASH_CHARS]}/{name}" for name, digest in single.items()})
    return RuntimeLayout(pyodide=together, files=files)


LOCK_FILE = "pyodide-lock.json"


def trimmed_lock(text: str) -> bytes:
    """Pyodide's lock file with its package list emptied (119 KB to a few dozen bytes).

    The list names the ~350 packages of Pyodide's own distribution, which loadPackage would fetch by name from
    a CDN; the editor installs only its own wheels, by URL from this site, so it never looks a name up. The
    ``info`` part (ABI version, platform, Python) is kept: Pyodide checks it against itself at start-up.
    """
    lock = json.loads(text)
    return (json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True) + "\n").encode()
