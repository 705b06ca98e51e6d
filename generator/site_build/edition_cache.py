"""The mkdocs stage's cache: an edition whose inputs are unchanged is copied from its last build, not built.

The key is a hash of everything the edition's mkdocs run reads: every file of its docs folder, the settings
handed to mkdocs (mkdocs.yml and the edition's overrides), the theme override folder, the plugin's inputs, the
code that runs (the generator's, and the versions of mkdocs, its theme, its Markdown extensions and jieba),
and mkdocs' build date (the sitemap's lastmod), so a copy is byte for byte what a build would write.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import generator

# Entries kept per edition: the newest few, so that two builds of different states can alternate (a test's copy
# of the project beside the project) without evicting each other every time.
KEEP = 4
PACKAGES = ("mkdocs", "mkdocs-material", "pymdown-extensions", "markdown", "jieba")


def _files_digest(roots: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def edition_key(*, docs: Path, theme: Path, settings: Mapping[str, Any], plugin: Mapping[str, Any]) -> str:
    """The hash of one edition's mkdocs inputs (see the module's docstring)."""
    from mkdocs.utils import get_build_date

    versions = {name: importlib.metadata.version(name) for name in PACKAGES}
    described = {
        "settings": settings,
        "plugin": plugin,
        "versions": versions,
        "python": sys.version,
        "date": get_build_date(),
        "docs": _files_digest([docs]),
        "theme": _files_digest([theme]),
        "code": _files_digest([Path(generator.__file__).parent]),
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True, default=str).encode()).hexdigest()


def cached_build(cache: Path, *, edition: str, key: str, site: Path, build: Callable[[Path], None]) -> bool:
    """Fill `site` (which must not exist) with the edition's output: a copy of the entry for `key` when there is
    one, else `build(site)`, then kept as that entry. True when it was copied."""
    entry = cache / f"{edition}-{key}"
    if entry.is_dir():
        try:
            shutil.copytree(entry, site)
            return True
        except OSError:  # evicted by another build while being copied: build it instead
            shutil.rmtree(site, ignore_errors=True)
    build(site)
    cache.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{edition}-", dir=cache))
    try:
        shutil.copytree(site, partial / "site")
        # Another build may have kept the same entry first: then this copy is dropped.
        with contextlib.suppress(OSError):
            (partial / "site").rename(entry)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    entries = sorted(
        (p for p in cache.glob(f"{edition}-*") if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for old in entries[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
    return False
