"""The one place that calls WeasyPrint, behind a cache keyed by everything that can change the bytes.

WeasyPrint's output is a function of the HTML (which inlines the stylesheet), its own version and the fonts it
finds; the same key gives the same bytes, so a cached PDF is the PDF a fresh print would make.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/dejavu"))


@dataclass(frozen=True)
class Printed:
    data: bytes
    cached: bool


def _fonts_fingerprint() -> str:
    """Which font files exist and how big they are: a Debian font update changes the bytes of every PDF."""
    parts = []
    for folder in FONT_DIRS:
        if folder.is_dir():
            parts += [f"{p.name}:{p.stat().st_size}" for p in sorted(folder.iterdir()) if p.is_file()]
    return "|".join(parts)


def cache_key(html: str) -> str:
    import weasyprint

    digest = hashlib.sha256()
    for part in (weasyprint.__version__, _fonts_fingerprint(), html):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def print_html(html: str) -> bytes:
    """The PDF of a self-contained HTML document (no external resources are fetched)."""
    from weasyprint import HTML

    def refuse(url: str, *args: object, **kwargs: object) -> dict[str, object]:
        # A printed issue must not depend on the network or on files outside its HTML.
        raise ValueError(f"the print template refers to {url}; print documents are self-contained")

    # No base URL: "#anchor" links then stay internal links of the PDF.
    data = HTML(string=html, url_fetcher=refuse).write_pdf()
    assert isinstance(data, bytes)
    return data


def print_cached(html: str, *, cache: Path | None) -> Printed:
    if cache is None:
        return Printed(print_html(html), cached=False)
    path = cache / f"{cache_key(html)}.pdf"
    if path.is_file():
        return Printed(path.read_bytes(), cached=True)
    data = print_html(html)
    cache.mkdir(parents=True, exist_ok=True)
    # Written beside and renamed: a build killed half-way never leaves a truncated PDF behind a valid key.
    fd, tmp = tempfile.mkstemp(dir=cache, suffix=".part")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    Path(tmp).replace(path)
    return Printed(data, cached=False)
