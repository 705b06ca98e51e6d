"""The site's own pages printed by Chromium: the editor's sample prints whole (its boxes grow to their text)
and no page ends on a heading whose section starts on the next."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

pytestmark = pytest.mark.browser

SAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "editor_sample.yaml"
HEADINGS_JS = "() => [...document.querySelectorAll('article h2, article h3')].map(h => h.textContent.replace('¶', '').trim())"


def printed_pages(page: Any, tmp_path: Path, name: str) -> list[str]:
    path = tmp_path / f"{name}.pdf"
    page.pdf(path=str(path), format="A4")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True)
    return text.stdout.decode("utf-8").split("\f")[:-1]


@pytest.mark.parametrize("path", ["", "methodology/"])
def test_a_printed_page_keeps_the_editor_sample_whole_and_no_heading_ends_a_page(
    site: Any, page: Any, tmp_path: Path, path: str
) -> None:
    page.goto(site.url(path), wait_until="networkidle")
    headings = set(page.evaluate(HEADINGS_JS))
    pages = printed_pages(page, tmp_path, path.strip("/") or "home")
    assert len(pages) > 1
    sample = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    flat = re.sub(r"\s+", "", "".join(pages))
    for text in (sample["reference"], sample["hypothesis"]):
        assert re.sub(r"\s+", "", text) in flat, "the editor's box printed only part of its text"
    for number, text in enumerate(pages[:-1], start=1):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert lines and lines[-1] not in headings, f"page {number} ends on the heading {lines[-1]!r}"
