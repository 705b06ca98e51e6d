"""The site's Content-Security-Policy admits exactly what the theme needs: checked without a browser."""

from __future__ import annotations

import re

import csp
import editor_site


def policy() -> str:
    text = (editor_site.OVERRIDES / "main.html").read_text(encoding="utf-8")
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
    assert found, "docs/overrides/main.html no longer declares the Content-Security-Policy meta tag"
    return found.group(1)


def test_policy_admits_every_inline_script_the_theme_writes() -> None:
    missing = [h for h in csp.required_hashes() if h not in policy()]
    assert not missing, (
        f"mkdocs-material's inline scripts changed; put these hashes in docs/overrides/main.html: {missing} "
        "(print the full list with `python tests/web/csp.py`)."
    )


def test_policy_allows_only_this_origin() -> None:
    directives = dict(d.strip().split(" ", 1) for d in policy().split(";"))
    assert directives["default-src"] == "'self'"
    assert "'unsafe-inline'" not in policy() and "'unsafe-eval'" not in policy()
    assert not re.search(r"https?:|\*", policy())
    for name in ("connect-src", "worker-src", "img-src", "style-src", "font-src"):
        assert directives[name].split()[0] == "'self'", name
