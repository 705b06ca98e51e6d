"""The methodology page's rule table shows every example visibly, in both editions: a rule that removes
characters no one can see (a NUL, a zero-width space) shows them as markers with their code points, never as
"你好 → 你好"."""

from __future__ import annotations

import unicodedata

import pytest

from generator.build import render_all
from generator.paths import Layout
from generator.pdf.glyphs import visible
from generator.scorer_bridge import normalisation_rows


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("你\u200b好\x00 → 你好", "你⟨U+200B⟩好⟨U+0000⟩ → 你好"),
        ("a\u3000b\u00a0c\ufeffd\u2028e\u202ef", "a⟨U+3000⟩b⟨U+00A0⟩c⟨U+FEFF⟩d⟨U+2028⟩e⟨U+202E⟩f"),
        ("iPhone  Pro → iphone pro", "iPhone␠␠Pro → iphone pro"),
        ("\U000e0001\x7f\t", "⟨U+E0001⟩⟨U+007F⟩⟨U+0009⟩"),
        ("你好，世界！ 3.5% 😀 é", "你好，世界！ 3.5% 😀 é"),
    ],
)
def test_characters_no_one_can_see_are_shown_by_their_code_points(text: str, shown: str) -> None:
    assert visible(text) == shown


def _unseen(text: str) -> list[str]:
    return [f"U+{ord(ch):04X}" for ch in text if unicodedata.category(ch)[0] in "CZ" and ch != " "]


def test_both_methodology_pages_show_the_unicode_cleanup_example_visibly() -> None:
    rows = normalisation_rows()
    assert all(not _unseen(row["examples"]) and "  " not in row["examples"] for row in rows)
    cleanup = next(row for row in rows if row["name"] == "unicode-cleanup")
    assert "⟨U+200B⟩" in cleanup["examples"] and "⟨U+0000⟩" in cleanup["examples"]
    built = render_all(Layout())
    for page in (built.pages["methodology.md"], built.zh_pages["methodology.md"]):
        assert "你⟨U+200B⟩好⟨U+0000⟩ → 你好" in page
        table = [line for line in page.splitlines() if "→" in line and line.startswith("|")]
        assert len(table) >= len(rows)
        assert not [line for line in table if _unseen(line) or "  " in line.split(" | ")[-1]]
