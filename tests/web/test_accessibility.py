"""axe-core over every page the build wrote, in both colour schemes, on a desktop and a phone: no violations.

The pages are found in the built site itself (every .html file), so a page or an edition added later is
audited without touching this file. axe-core comes from the npm registry (package.json) and runs in Debian's
Chromium.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import editor_site
import pytest
from conftest import RECORD_VIOLATIONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE = editor_site.ROOT / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}
SCHEMES = ("light", "dark")


def site_pages(root: Path) -> list[str]:
    """Every page of the built site as a path below its root: '', 'integration/', '404.html', ..."""
    return sorted(p.relative_to(root).as_posix().removesuffix("index.html") for p in root.rglob("*.html"))


def audit(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
             const result = await axe.run(document, {resultTypes: ["violations"]});
             return result.violations.map(v => ({id: v.id, help: v.help,
               nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " :: " + n.failureSummary)}));
           }"""
    )
    return [json.dumps(v, ensure_ascii=False) for v in found]


@pytest.fixture(
    scope="module", params=[(v, s) for v in VIEWPORTS for s in SCHEMES], ids=lambda p: "-".join(p)
)
def audited_context(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    viewport, scheme = request.param
    # axe is injected as an inline script, which the site's own CSP rightly refuses; test_csp covers the policy.
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        color_scheme=scheme,
        bypass_csp=True,
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
    )
    context.add_init_script(RECORD_VIOLATIONS)
    yield context
    context.close()


def test_axe_finds_no_violation_on_any_page(site: Any, audited_context: Any) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing; run `make node` to install axe-core from package.json.")
    page = audited_context.new_page()
    pages = site_pages(site.root)
    assert "" in pages and "404.html" in pages
    problems: dict[str, list[str]] = {}
    for path in pages:
        page.goto(site.url(path), wait_until="load")
        found = audit(page)
        if found:
            problems[path or "/"] = found
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
