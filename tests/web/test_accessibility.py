"""axe-core over every page the build wrote, in both colour schemes, on a desktop and a phone: no violations.

The pages are found in the built site itself (every .html file), so a page or an edition added later is
audited without touching this file. axe-core comes from the npm registry (package.json) and runs in Debian's
Chromium. The dark scheme is the light one's document and layout in other colours, so it is audited for the
rules that read colours; the light scheme for every rule.
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
# axe's rules that read colours: what the dark scheme changes.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def site_pages(root: Path) -> list[str]:
    """Every page of the built site as a path below its root: '', 'integration/', '404.html', ..."""
    return sorted(p.relative_to(root).as_posix().removesuffix("index.html") for p in root.rglob("*.html"))


def audit(page: Any, *, rules: tuple[str, ...] | None) -> list[str]:
    """axe's violations on the page, under ``rules`` only or every rule (None)."""
    found = page.evaluate(
        """async (rules) => {
             const options = {resultTypes: ["violations"]};
             if (rules) options.runOnly = {type: "rule", values: rules};
             const result = await axe.run(document, options);
             return result.violations.map(v => ({id: v.id, help: v.help,
               nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " :: " + n.failureSummary)}));
           }""",
        list(rules) if rules else None,
    )
    return [json.dumps(v, ensure_ascii=False) for v in found]


@pytest.fixture(
    scope="module", params=[(v, s) for v in VIEWPORTS for s in SCHEMES], ids=lambda p: "-".join(p)
)
def audited_context(
    request: pytest.FixtureRequest, browser: Any
) -> Iterator[tuple[Any, tuple[str, ...] | None]]:
    """A browser context in one viewport and scheme with axe loaded in every page, and the rules to run."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing; run `make node` to install axe-core from package.json.")
    viewport, scheme = request.param
    # axe is a script the site does not ship, which the site's own CSP rightly refuses; test_csp covers the
    # policy.
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        color_scheme=scheme,
        bypass_csp=True,
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
    )
    context.add_init_script(RECORD_VIOLATIONS)
    # Loaded with every document rather than injected after it: half the time of a script tag per page.
    context.add_init_script(path=str(AXE))
    yield context, COLOUR_RULES if scheme == "dark" else None
    context.close()


def test_axe_finds_no_violation_on_any_page(
    site: Any, audited_context: tuple[Any, tuple[str, ...] | None]
) -> None:
    context, rules = audited_context
    page = context.new_page()
    pages = site_pages(site.root)
    assert "" in pages and "404.html" in pages
    problems: dict[str, list[str]] = {}
    for path in pages:
        page.goto(site.url(path), wait_until="load")
        found = audit(page, rules=rules)
        if found:
            problems[path or "/"] = found
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
