"""What the Downloads section may list: only files the build itself writes, each with its size and sha256.

The build makes one list of `Artefact`s (generator/site_build/markdown.py, `artefacts`), writes exactly those bytes
into the site, and hands the same list here; a page therefore cannot promise a file the build did not produce.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from generator.provenance import Num, Text


@dataclass(frozen=True)
class Artefact:
    """One file the build publishes for download. `path` is relative to the site root, with `/`."""

    id: str
    path: str
    title: str
    data: bytes


@dataclass(frozen=True)
class Download:
    id: str
    path: Text
    name: Text
    title: str
    size: Num
    sha256: Text


def downloads(artefacts: Sequence[Artefact]) -> list[Download]:
    out: list[Download] = []
    for artefact in artefacts:
        # Computed from the very bytes the build writes; tracked so the provenance check accepts the digits.
        origin = frozenset({f"build artefact {artefact.path}"})
        out.append(
            Download(
                id=artefact.id,
                path=Text(artefact.path, origin),
                name=Text(artefact.path.rsplit("/", 1)[-1], origin),
                title=artefact.title,
                size=Num(len(artefact.data), origin),
                sha256=Text(hashlib.sha256(artefact.data).hexdigest(), origin),
            )
        )
    return out
