"""The inline scripts mkdocs-material 9.8.x writes into every page, and the CSP hashes they need.

The site's Content-Security-Policy allows scripts only from 'self' plus these exact inline scripts, so a theme
upgrade that changes one of them must change the policy too; test_csp.py fails with that sentence if it does.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import material

PARTIALS = Path(material.__file__).parent / "templates" / "partials" / "javascripts"
# mkdocs gives each page a relative base_url ("." at the root, ".." one folder down, ...), and the theme
# writes it into an inline script, so each page depth needs its own hash. The 404 page is served at any depth,
# so mkdocs gives it the site's absolute path, "/", instead.
BASE_URLS = (".", "..", "../..", "../../..", "../../../..", "/")
SCOPE_EXPR = "{{ config.extra.scope | d(base_url) }}"
SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def csp_hash(body: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii") + "'"


def inline_script_bodies() -> list[str]:
    bodies: list[str] = []
    for name in ("base.html", "palette.html", "content.html"):
        for body in SCRIPT.findall((PARTIALS / name).read_text(encoding="utf-8")):
            if SCOPE_EXPR in body:
                bodies.extend(body.replace(SCOPE_EXPR, base) for base in BASE_URLS)
            elif "{{" in body or "{%" in body:
                raise AssertionError(
                    f"{name} has an inline script with a template expression this file cannot hash"
                )
            else:
                bodies.append(body)
    return bodies


def required_hashes() -> list[str]:
    return sorted({csp_hash(body) for body in inline_script_bodies()})


if __name__ == "__main__":
    print(" ".join(required_hashes()))
