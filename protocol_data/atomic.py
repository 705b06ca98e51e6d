"""Swap a finished folder in for an old one, so a reader never sees a half-written build product."""

from __future__ import annotations

import shutil
from pathlib import Path


def swap_in(new: Path, target: Path) -> None:
    """Replace ``target`` with ``new`` (a sibling on the same file system) by renames only."""
    if target.exists():
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        target.rename(old)
        new.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        new.rename(target)
