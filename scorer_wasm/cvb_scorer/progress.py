"""Progress of a long scoring run, told to whoever shows it (the editor's file mode draws a bar from it).

A run has three phases, in this order: ``clips`` (clips read and normalised), ``bootstrap`` (resamples
drawn) and ``report`` (clips written to the report). A caller passes ``progress=`` to ``cli.main`` and it
reaches every phase as ``progress(phase, done, total)``. Nothing here changes a result: a run with a callback
gives the same bytes as one without.

A 16,000-clip run has 16,000 clips and 10,000 resamples to count, and the editor sends every call it gets
across to the page, so the callback is called only when a phase's whole percent changes: at most 101 calls
a phase, always including the first and the last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Literal, TypeVar

__all__ = ["Phase", "Progress", "counted", "throttled"]

Phase = Literal["clips", "bootstrap", "report"]
Progress = Callable[[Phase, int, int], None]

T = TypeVar("T")


def throttled(progress: Progress) -> Progress:
    """``progress``, called only when the phase or its whole percent (``done * 100 // total``) changes."""
    last: list[tuple[str, int] | None] = [None]

    def tell(phase: Phase, done: int, total: int) -> None:
        step = (phase, done * 100 // total if total else 100)
        if step != last[0]:
            last[0] = step
            progress(phase, done, total)

    return tell


def counted(items: Iterable[T], *, phase: Phase, total: int, progress: Progress | None) -> Iterable[T]:
    """``items`` as they are, telling ``progress`` how many have been taken (none told when it is None)."""
    if progress is None:
        return items
    return _counting(items, phase, total, progress)


def _counting(items: Iterable[T], phase: Phase, total: int, progress: Progress) -> Iterator[T]:
    for done, item in enumerate(items, 1):
        progress(phase, done, total)
        yield item
