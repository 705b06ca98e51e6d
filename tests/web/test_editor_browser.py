"""The CER editor in Debian's Chromium, against the built site served from loopback."""

from __future__ import annotations

import base64
import json
import re
import time
from pathlib import Path
from typing import Any

import editor_site
import pytest
from conftest import PageLog, off_origin, open_context, wait_live
from pairs import parity_pairs

from generator.pages.markup import finish_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

# Sets both boxes for each pair, waits for the drawing of exactly those texts, and reads back what the page
# shows. Setting the reference first also exercises stale-answer dropping: its answer arrives after the
# hypothesis has changed and must not be drawn.
SCORE_PAIRS = """
async ([pairs, pythonHtml]) => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const ref = root.querySelector('[data-cvb-ref]');
  const hyp = root.querySelector('[data-cvb-hyp]');
  const view = root.querySelector('[data-cvb-drawing]');
  const live = root.querySelector('[data-cvb-live]');
  const results = [];
  for (const [r, h] of pairs) {
    ref.value = r;
    ref.dispatchEvent(new Event('input', {bubbles: true}));
    hyp.value = h;
    const want = [ref.value, hyp.value];
    const drawn = new Promise((resolve) => {
      const on = (event) => {
        if (event.detail.reference === want[0] && event.detail.hypothesis === want[1]) {
          root.removeEventListener('cvb:rendered', on);
          resolve(event.detail);
        }
      };
      root.addEventListener('cvb:rendered', on);
    });
    hyp.dispatchEvent(new Event('input', {bubbles: true}));
    // A drawing that never comes fails with what the editor said, rather than hanging the test.
    const status = root.querySelector('[data-cvb-status]');
    const late = new Promise((_, reject) => setTimeout(
      () => reject(new Error(`no drawing within 30 s; the editor says: ${status.textContent}`)), 30000));
    const detail = await Promise.race([drawn, late]);
    results.push({reference: want[0], hypothesis: want[1], view: detail.view, shown: view.innerHTML,
                  live: live.textContent});
  }
  return results;
}
"""

# The browser's own serialisation of an HTML fragment, so CPython's string and the page's DOM compare
# without caring about attribute quoting or entity spelling.
NORMALISE_HTML = """
(fragments) => fragments.map((html) => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.innerHTML;
})
"""


def test_page_figures_and_alignment_equal_cpython_for_220_pairs(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    # The runtime under test is the one entrants get: restored from the build's start-up snapshot.
    assert wait_live(page).get_attribute("data-cvb-runtime") == "snapshot"
    pairs = parity_pairs()
    assert len(pairs) >= 200
    results: list[dict[str, Any]] = []
    for start in range(0, len(pairs), 50):
        results += page.evaluate(SCORE_PAIRS, [pairs[start : start + 50], None])
    render_view = editor_site.render_view()
    expected = [
        json.loads(render_view(reference=r["reference"], hypothesis=r["hypothesis"]).to_json())
        for r in results
    ]
    shown_expected = page.evaluate(NORMALISE_HTML, [e["html"] for e in expected])
    mismatches = []
    for result, want, want_html in zip(results, expected, shown_expected, strict=True):
        got = result["view"]
        # The page is sent the drawing and the figures; the edit script and the normalised texts are in the
        # drawing, which is compared whole below.
        for key in ("figures", "signature"):
            if got[key] != want[key]:
                mismatches.append(f"{key} differs for {result['reference']!r} / {result['hypothesis']!r}")
        if result["shown"] != want_html:
            mismatches.append(f"drawing differs for {result['reference']!r} / {result['hypothesis']!r}")
    assert not mismatches, "\n".join(mismatches[:20])


# Pairs that take every branch of the drawing's sentences (tests/scorer/test_view_text.py has them all).
WORDED_PAIRS = [
    ("你好", "你好"),
    ("ab好", ""),
    ("我部iphone好", "我部iphone"),
    ("这个iPhone好", "這个iPhome好"),
    ("个个", "個个"),
    ("", ""),
]
# The drawing's words, without the texts' own runs and the signature.
DRAWING_WORDS = """
(root) => {
  const copy = root.querySelector('[data-cvb-drawing]').cloneNode(true);
  for (const node of copy.querySelectorAll('[data-cvb-part="alignment"], code')) node.remove();
  // Text by text, so the letters of neighbouring table cells (S, D, I, N) do not run into one word.
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode.data);
  return texts.join(' ');
}
"""


def test_the_chinese_page_draws_in_the_configs_words_as_built_and_live(
    site: editor_site.Site, page: Any
) -> None:
    from cvb_scorer.view_text import ViewText

    from generator.config.load import load_config
    from generator.config.localise import view_words

    words = view_words(load_config(editor_site.ROOT / "platform_config"), "zh")
    assert words is not None
    text = ViewText.from_mapping(words)
    render_view = editor_site.render_view()
    sample = editor_site.sample()
    page.goto(site.url("zh/" + site.editor_path))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)")
    built = render_view(reference=sample["reference"], hypothesis=sample["hypothesis"], text=text).html
    as_text = "(html) => { const t = document.createElement('template'); t.innerHTML = html; return t.content.textContent; }"
    # Before Python loads: the drawing the build made, in the same words.
    assert root.locator("[data-cvb-drawing]").text_content() == page.evaluate(as_text, built)
    wait_live(page)
    results = page.evaluate(SCORE_PAIRS, [WORDED_PAIRS, None])
    expected = page.evaluate(
        NORMALISE_HTML, [render_view(reference=r, hypothesis=h, text=text).html for r, h in WORDED_PAIRS]
    )
    for (reference, hypothesis), result, want in zip(WORDED_PAIRS, results, expected, strict=True):
        assert result["shown"] == want, f"the Chinese drawing differs for {reference!r} / {hypothesis!r}"
    prose = str(root.evaluate(DRAWING_WORDS))
    assert words["legend_match"] in prose
    assert not set(re.findall(r"[A-Za-z]{2,}", prose)) - {"CER", "MER"}, prose


def test_editing_redraws_exactly_what_a_full_drawing_shows(site: editor_site.Site, page: Any) -> None:
    # Each edit replaces only the runs that changed (and the details); after every one the page must hold the
    # very drawing CPython makes from scratch, wherever the edit falls.
    long = editor_site.sample()["long"]
    assert isinstance(long, dict)
    reference, hypothesis = str(long["reference"])[:600], str(long["hypothesis"])[:600]
    edits = [hypothesis, hypothesis + "呀", hypothesis + "呀a", hypothesis[:300] + "X" + hypothesis[300:]]
    edits += [hypothesis[:100] + hypothesis[160:], hypothesis[:100] + hypothesis[160:] + "，OK", reference]
    edits += ["", "保單", hypothesis[::-1], hypothesis, "1,200蚊" + hypothesis]
    page.goto(site.url(site.editor_path))
    wait_live(page)
    results = page.evaluate(SCORE_PAIRS, [[[reference, h] for h in edits], None])
    render_view = editor_site.render_view()
    expected = page.evaluate(
        NORMALISE_HTML, [render_view(reference=reference, hypothesis=h).html for h in edits]
    )
    for edit, result, want in zip(edits, results, expected, strict=True):
        assert result["shown"] == want, f"drawing differs after the edit to {edit[:40]!r}"


def test_no_request_leaves_the_origin(site: editor_site.Site, page: Any, log: PageLog) -> None:
    page.goto(site.url(site.editor_path))
    wait_live(page).locator("[data-cvb-hyp]").fill("我想問下份policy")
    page.wait_for_timeout(300)
    assert any(url.endswith("/pyodide.asm.wasm") for url in log.requests), (
        "the worker's fetches were not seen"
    )
    assert off_origin(log, site) == []
    stages = page.evaluate("() => performance.getEntriesByType('mark').map((m) => m.name)")
    assert {"cvb:stage-runtime", "cvb:stage-wheels", "cvb:engine-ready"} <= set(stages), stages
    # The guard itself: an off-origin request is blocked by the CSP before it can even fail to resolve.
    blocked = page.evaluate("() => fetch('http://example.com/').then(() => 'sent', () => 'blocked')")
    assert blocked == "blocked"


def test_page_keeps_to_its_content_security_policy(site: editor_site.Site, page: Any, log: PageLog) -> None:
    page.goto(site.url(site.editor_path))
    wait_live(page).locator("[data-cvb-hyp]").fill("測試")
    page.goto(site.url(site.other_path))
    page.wait_for_load_state("load")
    violations = page.evaluate("() => window.__cvbViolations")
    assert violations == []
    csp = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert "default-src 'self'" in csp and "unsafe-inline" not in csp


XSS = [
    "<script>window.__xss = 1; alert(1)</script>",
    '<img src=x onerror="window.__xss = 1; alert(2)">',
    '"><svg onload="window.__xss = 1">',
    "</textarea><script>window.__xss = 1</script>",
    "javascript:window.__xss=1",
    "<iframe srcdoc='<script>parent.__xss=1</script>'></iframe>",
    "{{7*7}} ${7*7} &lt;b&gt;",
]


# Sets one box (text, then optional raw UTF-16 code units), then waits for the drawing of exactly the texts now in both boxes.
SET_AND_WAIT = """
async ([box, text, codeUnits = []]) => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const ref = root.querySelector('[data-cvb-ref]');
  const hyp = root.querySelector('[data-cvb-hyp]');
  root.querySelector(box).value = text + String.fromCharCode(...codeUnits);
  const want = [ref.value, hyp.value];
  const drawn = new Promise((resolve) => {
    const on = (event) => {
      if (event.detail.reference === want[0] && event.detail.hypothesis === want[1]) {
        root.removeEventListener('cvb:rendered', on);
        resolve(event.detail.view.figures);
      }
    };
    root.addEventListener('cvb:rendered', on);
  });
  root.querySelector(box).dispatchEvent(new Event('input', {bubbles: true}));
  return await drawn;
}
"""

ACTIVE_CONTENT = "script,img,svg,iframe,object,embed,[onerror],[onload],a[href^=javascript]"


@pytest.mark.parametrize("box", ["[data-cvb-hyp]", "[data-cvb-ref]"])
def test_pasted_markup_is_inert_text(site: editor_site.Site, page: Any, log: PageLog, box: str) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    for payload in XSS:
        page.evaluate(SET_AND_WAIT, [box, payload])
        assert root.locator(box).input_value() == payload
        active = root.locator("[data-cvb-drawing]").evaluate(
            f"(v) => v.querySelectorAll('{ACTIVE_CONTENT}').length"
        )
        assert active == 0, payload
    assert page.evaluate("() => window.__xss") is None
    assert log.dialogs == []


def test_lone_surrogates_do_not_break_the_drawing(site: editor_site.Site, page: Any) -> None:
    # Playwright's JSON cannot carry a lone surrogate, so the page builds it; CPython parity is not the point
    # here (no Python str can hold what the textarea holds), only that the editor keeps working.
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    figures = page.evaluate(SET_AND_WAIT, ["[data-cvb-hyp]", "ab", [0xD800, ord("c"), 0xDFFF]])
    assert figures["counts"]["cer"]["N"] > 0
    page.evaluate(SET_AND_WAIT, ["[data-cvb-hyp]", "我想問下"])
    assert "我想問下" in root.locator("[data-cvb-drawing]").inner_text().replace("−", "").replace("→", "")


def test_200000_character_paste_keeps_the_page_responsive(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    hypothesis = root.locator("[data-cvb-hyp]")
    hypothesis.fill("")
    hypothesis.focus()
    started = time.monotonic()
    page.keyboard.insert_text("我想claim三百蚊" * 20_000)
    pasted = time.monotonic() - started
    # The main thread answers a timer promptly: nothing is blocking it on Python or on layout of the text.
    lag = page.evaluate(
        "() => new Promise((ok) => { const t = performance.now();"
        " setTimeout(() => ok(performance.now() - t), 0); })"
    )
    status = root.locator("[data-cvb-status]").inner_text()
    limit = int(root.get_attribute("data-cvb-max-chars") or 0)
    assert "200,000 characters" in status and f"{limit:,}" in status, status
    assert lag < 200, f"a timer waited {lag:.0f} ms after the paste"
    assert pasted < 10, f"inserting the text took {pasted:.1f} s"
    assert "cvb-editor__drawing--stale" in (root.locator("[data-cvb-drawing]").get_attribute("class") or "")
    assert limit < 200_000
    hypothesis.fill("我想claim三百蚊")
    page.wait_for_function(
        "() => !document.querySelector('[data-cvb-drawing]').classList.contains('cvb-editor__drawing--stale')"
    )
    assert "stopped redrawing" not in root.locator("[data-cvb-status]").inner_text()


def test_instant_navigation_away_and_back_remounts_the_editor(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    wait_live(page)
    page.evaluate("() => { window.__sameDocument = true; }")
    link = page.evaluate_handle(
        "(target) => [...document.querySelectorAll('a.md-nav__link')].find((a) => a.href === target)",
        site.url(site.other_path),
    )
    link.as_element().click()
    page.wait_for_url(site.url(site.other_path))
    page.wait_for_function("() => !document.querySelector('[data-cvb-editor]')")
    page.go_back()
    root = wait_live(page)
    assert page.evaluate("() => window.__sameDocument") is True, "navigation reloaded the page: not instant"
    figures = page.evaluate(SET_AND_WAIT, ["[data-cvb-hyp]", "喂你好"])
    assert figures["counts"]["cer"]["N"] > 0
    assert "喂" in root.locator("[data-cvb-drawing]").inner_text()


def test_without_its_snapshot_the_worker_boots_python_and_scores_alike(
    site: editor_site.Site, page: Any
) -> None:
    page.route("**/pyodide-snapshot.bin", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site.url(site.editor_path))
    editor = wait_live(page)
    assert editor.get_attribute("data-cvb-runtime") == "booted"
    reference, hypothesis = "呢份保單嘅premium係每個月一千二百蚊", "呢份保单嘅premium系每个月1200"
    [result] = page.evaluate(SCORE_PAIRS, [[[reference, hypothesis]], None])
    expected = json.loads(editor_site.render_view()(reference=reference, hypothesis=hypothesis).to_json())
    assert result["view"]["figures"] == expected["figures"]


def test_reload_scores_again(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    wait_live(page)
    page.reload()
    root = wait_live(page)
    root.locator("[data-cvb-hyp]").fill("")
    page.wait_for_function("() => document.querySelector('[data-cvb-live]').textContent.includes('deleted')")


def test_editor_works_offline_after_the_first_visit(site: editor_site.Site, context: Any, page: Any) -> None:
    manifest = json.loads((site.root / "assets" / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    if "service_worker" not in manifest or not (site.root / "sw.js").is_file():
        pytest.skip(
            "the build ships no service worker: copy scorer_wasm/web/sw.js to the site root and add "
            '"service_worker": "../../sw.js" to assets/wheels/manifest.json'
        )
    page.goto(site.url(site.editor_path))
    wait_live(page)
    # Offline readiness: this page is controlled and the runtime's largest file has been kept.
    editor_site.until(
        page,
        "async (wasm) => !!navigator.serviceWorker.controller"
        " && !!(await (await caches.open('cvb-runtime-v1')).match(wasm))",
        site.url("assets/wheels/" + manifest["runtime"]["pyodide"] + "pyodide.asm.wasm"),
    )
    # Without the browser's HTTP cache either (an offline visit after it was cleared): every runtime file comes
    # from the copies the service worker kept.
    context.new_cdp_session(page).send("Network.clearBrowserCache")
    context.set_offline(True)
    page.reload()
    root = wait_live(page)
    figures = page.evaluate(SET_AND_WAIT, ["[data-cvb-hyp]", "離線都得"])
    assert figures["counts"]["cer"]["N"] > 0
    assert "離" in root.locator("[data-cvb-drawing]").inner_text()


def test_narrow_screen_has_no_sideways_scroll(site: editor_site.Site, browser: Any, log: PageLog) -> None:
    context = open_context(
        browser, log, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(site.url(site.editor_path))
        wait_live(page)
        widths = page.evaluate(
            """() => {
              const root = document.querySelector('[data-cvb-editor]');
              return {page: document.documentElement.scrollWidth, root: root.getBoundingClientRect().right,
                      boxes: [...root.querySelectorAll('textarea')]
                        .map((t) => t.getBoundingClientRect().right)};
            }"""
        )
        assert widths["page"] <= 390, widths
        assert max(widths["boxes"]) <= 390 and widths["root"] <= 390, widths
    finally:
        context.close()


def test_boxes_and_figures_are_announced_by_name(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    reference = root.get_by_role("textbox", name="Reference", exact=False)
    hypothesis = root.get_by_role("textbox", name="Hypothesis", exact=False)
    assert reference.count() == 1 and hypothesis.count() == 1
    hypothesis.fill("喂")
    live = root.locator("[aria-live=polite]")
    page.wait_for_function("() => document.querySelector('[data-cvb-live]').textContent.startsWith('CER ')")
    assert "reference characters" in live.inner_text()
    assert root.get_by_role("status").count() == 1


def test_without_javascript_the_build_time_alignment_is_shown(
    site: editor_site.Site, browser: Any, page: Any
) -> None:
    text = editor_site.sample()
    want = json.loads(
        editor_site.render_view()(reference=text["reference"], hypothesis=text["hypothesis"]).to_json()
    )
    page.goto(site.url(site.other_path))
    # The build finishes every page (generator/pages/markup.py): Chinese runs the scorer left untagged, such
    # as the legend's sample characters, get lang="zh-HK".
    want_html = page.evaluate(NORMALISE_HTML, [finish_page(want["html"])])[0]
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1400, "height": 900})
    try:
        static = context.new_page()
        static.goto(site.url(site.editor_path))
        root = static.locator("[data-cvb-editor]").first
        assert root.locator("[data-cvb-hyp]").input_value() == text["hypothesis"]
        assert root.locator("[data-cvb-hyp]").get_attribute("readonly") is not None
        assert root.locator("[data-cvb-drawing]").inner_html() == want_html
    finally:
        context.close()


def test_compact_editor_on_another_page_scores_too(site: editor_site.Site, page: Any) -> None:
    compact = site.pages_with_compact_editor()
    if not compact:
        pytest.skip("the built site has no compact editor yet")
    page.goto(site.url(compact[0]))
    root = wait_live(page, "[data-cvb-editor].cvb-editor--compact")
    root.locator("[data-cvb-hyp]").fill("唔該")
    page.wait_for_function(
        "() => document.querySelector('.cvb-editor--compact [data-cvb-live]').textContent.includes('of ')"
    )


RUNTIME = ("/assets/runtime/", "/assets/wheels/", "/assets/editor/worker.js")


def runtime_requests(log: PageLog) -> list[str]:
    return [url for url in log.requests if any(part in url for part in RUNTIME)]


def test_a_reader_who_never_uses_the_editor_downloads_only_the_page(
    site: editor_site.Site, page: Any, log: PageLog
) -> None:
    page.goto(site.url(site.editor_path))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    # Seen, scrolled past, and read for a while: still not used.
    root.scroll_into_view_if_needed()
    page.mouse.wheel(0, 4000)
    page.wait_for_timeout(1500)
    assert root.get_attribute("data-cvb-engine") == "idle"
    assert runtime_requests(log) == []
    # The explicit button is one way in.
    root.scroll_into_view_if_needed()
    root.locator("[data-cvb-load]").click()
    page.wait_for_selector(
        '[data-cvb-editor]:not(.cvb-editor--compact)[data-cvb-state="live"]', timeout=60_000
    )
    assert any(url.endswith("/pyodide.asm.wasm") for url in runtime_requests(log))
    page.wait_for_function(
        "() => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact) [data-cvb-load]').hidden"
    )


SAVE_DATA = "Object.defineProperty(navigator, 'connection', {value: {saveData: true}, configurable: true});"


def test_with_the_data_saver_on_only_the_button_loads_the_scorer(
    site: editor_site.Site, page: Any, log: PageLog
) -> None:
    page.add_init_script(SAVE_DATA)
    page.goto(site.url(site.editor_path))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    root.scroll_into_view_if_needed()
    root.locator("[data-cvb-hyp]").click()
    page.wait_for_timeout(1000)
    assert runtime_requests(log) == []
    assert "save data" in root.locator("[data-cvb-status]").inner_text()
    root.locator("[data-cvb-load]").click()
    page.wait_for_selector(
        '[data-cvb-editor]:not(.cvb-editor--compact)[data-cvb-state="live"]', timeout=60_000
    )


def sent_size(path: Path) -> int:
    brotli = path.with_name(path.name + ".br")
    return (brotli if brotli.is_file() else path).stat().st_size


# Every change of the editor's status line and loading bar, in order, from the first byte.
WATCH_LOADING = """
() => {
  window.cvbLoading = [];
  const look = () => {
    const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
    if (!root) return requestAnimationFrame(look);
    new MutationObserver(() => {
      const bar = root.querySelector('[data-cvb-loading]');
      const seen = {status: root.querySelector('[data-cvb-status]').textContent, bar: bar.hidden ? null : bar.value};
      const last = window.cvbLoading.at(-1);
      if (!last || last.status !== seen.status || last.bar !== seen.bar) window.cvbLoading.push(seen);
    }).observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  };
  document.addEventListener('DOMContentLoaded', look);
}
"""


def test_a_slow_connection_is_told_the_size_first_then_sees_the_bytes_arrive(
    site: editor_site.Site, context: Any, log: PageLog
) -> None:
    context.add_init_script(f"({WATCH_LOADING})()")
    page = context.new_page()
    # 10 Mbit/s with 300 ms round trips: Chromium reports the connection as 3G (navigator.connection).
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 300, "downloadThroughput": 1.25e6, "uploadThroughput": 1.25e6},
    )
    page.goto(site.url(site.editor_path))
    assert page.evaluate("() => navigator.connection.effectiveType") == "3g"
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    root.scroll_into_view_if_needed()
    root.locator("[data-cvb-hyp]").click()
    # The size, read from the manifest the build wrote: the files a cold start fetches.
    manifest = json.loads((site.root / "assets" / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    snapshot = manifest["start_up_snapshot"]
    # Pyodide's files but its standard library, the snapshot and the scorer wheel (its hash): the standard library
    # and the other wheels come at the first pause.
    cold = {
        manifest["runtime"]["pyodide"] + name
        for name in editor_site.PYODIDE_FILES
        if name != "python_stdlib.zip"
    }
    cold |= {snapshot["path"], manifest["runtime"]["scorer"]}
    # As the files travel: the precompressed copy a browser that accepts Brotli gets, where the build wrote one.
    size = sum(manifest["runtime"]["transfer"][path] for path in cold)
    assert size == sum(sent_size((site.root / "assets" / "wheels" / path).resolve()) for path in cold)
    status = root.locator("[data-cvb-status]")
    page.wait_for_function(
        "(mb) => document.querySelector('[data-cvb-editor] [data-cvb-status]').textContent.includes(mb)",
        arg=f" {size / 1e6:.1f} MB",
    )
    assert "slow or metered" in status.inner_text()
    # Nothing of the runtime before the button: only the manifest, a small file, read for the size.
    assert [url for url in runtime_requests(log) if not url.endswith("/wheels/manifest.json")] == []
    root.locator("[data-cvb-load]").click()
    # The count moves while the bytes arrive: several different counts of the same total, each larger.
    page.wait_for_function(
        """() => new Set(window.cvbLoading.map((seen) => seen.status)
                 .filter((status) => status.startsWith('Downloading the scorer:'))).size >= 4""",
        timeout=120_000,
    )
    seen = [
        s
        for s in page.evaluate("() => window.cvbLoading")
        if s["status"].startswith("Downloading the scorer:")
    ]
    counts = [float(re.search(r"([\d.]+) of ([\d.]+) MB", s["status"]).group(1)) for s in seen]
    totals = {re.search(r"([\d.]+) of ([\d.]+) MB", s["status"]).group(2) for s in seen}
    assert counts == sorted(counts) and counts[-1] > counts[0], counts
    assert totals == {f"{size / 1e6:.1f}"}, totals
    bars = [float(s["bar"]) for s in seen if s["bar"] is not None]
    assert len(set(bars)) >= 2 and bars == sorted(bars), bars
    assert not log.errors


def test_over_the_limit_the_summary_line_drops_the_old_figures(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    page.wait_for_function("() => document.querySelector('[data-cvb-live]').textContent.startsWith('CER ')")
    limit = int(root.get_attribute("data-cvb-max-chars") or 0)
    root.locator("[data-cvb-hyp]").fill("喂" * (limit + 1))
    live = root.locator("[data-cvb-live]").inner_text()
    assert "CER" not in live and live, live
    assert "stopped redrawing" in root.locator("[data-cvb-status]").inner_text()


def test_a_crashed_worker_is_reported_and_the_build_time_figures_stay(
    site: editor_site.Site, page: Any
) -> None:
    # The worker's script fails to evaluate: the browser reports an error event on the Worker object.
    page.route(
        "**/assets/editor/worker.js",
        lambda route: route.fulfill(
            status=200, content_type="text/javascript", body="throw new Error('crashed on purpose');"
        ),
    )
    page.goto(site.url(site.editor_path))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    root.scroll_into_view_if_needed()
    root.locator("[data-cvb-load]").click()
    page.wait_for_selector('[data-cvb-editor][data-cvb-engine="failed"]', timeout=30_000)
    status = root.locator("[data-cvb-status]").inner_text()
    assert status.startswith("The editor could not start:") and "build time" in status, status


@pytest.mark.parametrize(
    ("target", "said"),
    [("**/assets/runtime/*/cvb_scorer-*.whl", "sha256"), ("**/assets/wheels/manifest.json", "manifest")],
)
def test_a_tampered_or_missing_file_keeps_the_editor_off_with_a_sentence(
    site: editor_site.Site, page: Any, target: str, said: str
) -> None:
    if "manifest" in target:
        page.route(target, lambda route: route.fulfill(status=404, body="gone"))
    else:

        def tamper(route: Any) -> None:
            body = route.fetch().body()
            route.fulfill(status=200, content_type="application/zip", body=body[:-1] + bytes([body[-1] ^ 1]))

        page.route(target, tamper)
    page.goto(site.url(site.editor_path))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    root.scroll_into_view_if_needed()
    root.locator("[data-cvb-hyp]").focus()
    page.wait_for_selector('[data-cvb-editor][data-cvb-engine="failed"]', timeout=60_000)
    status = root.locator("[data-cvb-status]").inner_text()
    assert said in status, status


def test_a_tampered_snapshot_is_refused_and_python_boots_instead(site: editor_site.Site, page: Any) -> None:
    def tamper(route: Any) -> None:
        body = route.fetch().body()
        route.fulfill(status=200, body=body[:100] + bytes([body[100] ^ 1]) + body[101:])

    page.route("**/pyodide-snapshot.bin", tamper)
    page.goto(site.url(site.editor_path))
    assert wait_live(page).get_attribute("data-cvb-runtime") == "booted"


MER_CASES = [
    ("wifi 9876 5432", "wi fi 九八七六五四三二"),
    ("我想send個e-mail, Wi-Fi okay", "我想send個email, WiFi ok"),
]


def test_the_mer_drawing_shows_the_token_alignment_cpython_draws(site: editor_site.Site, page: Any) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    root.locator("[data-cvb-drawing-mode=mer]").click()
    results = page.evaluate(SCORE_PAIRS, [MER_CASES, None])
    render_view = editor_site.render_view()
    want = page.evaluate(
        NORMALISE_HTML, [render_view(reference=r, hypothesis=h, mer=True).html for r, h in MER_CASES]
    )
    for result, html in zip(results, want, strict=True):
        assert result["shown"] == html
    assert root.locator("[data-cvb-drawing-mode=mer]").get_attribute("aria-pressed") == "true"
    # A Latin word split in two is a MER error (the characters match), and drawn as such.
    assert root.locator(
        "[data-cvb-drawing] [data-op=delete], [data-cvb-drawing] [data-op=substitute]"
    ).count()


def test_the_permalink_restores_the_texts_on_load_and_on_back_and_forward(
    site: editor_site.Site, page: Any
) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    page.evaluate(SET_AND_WAIT, ["[data-cvb-hyp]", "9876 5432 e-mail"])
    page.wait_for_function("() => location.hash.startsWith('#cvb1=')")
    link = page.url
    reference = root.locator("[data-cvb-ref]").input_value()
    # A fresh page from the link: the texts come back before Python is even asked for.
    other = page.context.new_page()
    other.goto(link)
    again = other.locator("[data-cvb-editor]").first
    assert again.locator("[data-cvb-hyp]").input_value() == "9876 5432 e-mail"
    assert again.locator("[data-cvb-ref]").input_value() == reference
    other.close()
    # Reset brings back the sample and clears the fragment; back/forward bring the edit back.
    sample = editor_site.sample()
    page.goto(link.split("#")[0])
    root = wait_live(page)
    assert root.locator("[data-cvb-hyp]").input_value() == sample["hypothesis"]
    page.go_back()
    page.wait_for_function(
        "() => document.querySelector('[data-cvb-editor] [data-cvb-hyp]').value === '9876 5432 e-mail'"
    )
    root.locator("[data-cvb-reset]").click()
    assert root.locator("[data-cvb-hyp]").input_value() == sample["hypothesis"]
    page.wait_for_function("() => location.hash === ''")


def test_the_downloaded_pair_carries_the_whole_figures_once_the_details_are_drawn(
    site: editor_site.Site, page: Any
) -> None:
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    reference = root.locator("[data-cvb-ref]").input_value()
    # SET_AND_WAIT resolves on cvb:rendered, the whole drawing: the details (and with them the download) are in.
    page.evaluate(SET_AND_WAIT, ["[data-cvb-hyp]", "呢份保单嘅premium系每个月1200"])
    assert "details-pending" not in str(root.locator("[data-cvb-drawing]").get_attribute("class"))
    with page.expect_download() as download:
        root.locator("[data-cvb-download]").click()
    got = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    want = json.loads(
        editor_site.render_view()(reference=reference, hypothesis="呢份保单嘅premium系每个月1200").to_json()
    )
    assert got["figures"] == want["figures"]
    assert got["signature"] == want["signature"]


# Every frame from the first byte: whether the editor showed a drawing or figures while its boxes held the
# shared texts before their own drawing was on the page (the built drawing is the sample's).
WATCH_SHARED = """
(hypothesis) => {
  window.__cvbShownBeside = [];
  const look = () => {
    const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
    const box = root?.querySelector('[data-cvb-hyp]');
    if (box && box.value === hypothesis && root.dataset.cvbState !== 'live') {
      const drawing = root.querySelector('[data-cvb-drawing]');
      const live = root.querySelector('[data-cvb-live]').textContent;
      if (drawing.checkVisibility() || /CER/.test(live)) window.__cvbShownBeside.push(live || drawing.textContent.slice(0, 80));
    }
    if (root?.dataset.cvbState !== 'live') requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}
"""


def shared_link(url: str, reference: str, hypothesis: str, drawing: str = "cer") -> str:
    """The editor's permalink for these texts, made as editor_state.js encodeFragment makes it."""
    data = json.dumps([reference, hypothesis, drawing], ensure_ascii=False, separators=(",", ":"))
    encoded = base64.urlsafe_b64encode(data.encode("utf-8")).decode("ascii").rstrip("=")
    return f"{url}#cvb1={encoded}"


def test_a_shared_link_is_scored_on_arrival_and_never_shown_beside_the_samples_figures(
    site: editor_site.Site, context: Any, log: PageLog
) -> None:
    reference, hypothesis = "呢份保單嘅保費係每個月一千二百蚊", "呢份保单嘅保费系每个月1200蚊呀"
    context.add_init_script(f"({WATCH_SHARED})({json.dumps(hypothesis)})")
    page = context.new_page()
    page.goto(shared_link(site.url(site.editor_path), reference, hypothesis))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    # Until the runtime is up, the texts say they are not scored yet, with no drawing and no figures.
    assert root.locator("[data-cvb-hyp]").input_value() == hypothesis
    # No focus, click or key: the link alone starts the scorer, and the texts are scored when it is up.
    page.wait_for_selector('[data-cvb-editor][data-cvb-state="live"]', timeout=60_000)
    assert page.evaluate("window.__cvbShownBeside") == []
    view = editor_site.render_view()(reference=reference, hypothesis=hypothesis)
    figures = json.loads(view.to_json())["figures"]
    live = root.locator("[data-cvb-live]").inner_text()
    assert f"CER {figures['cer'] * 100:.2f}%" in live, live
    assert root.locator("[data-cvb-drawing]").is_visible()
    # The editor is in view: its top is within the window, below the page's start.
    top = page.evaluate(
        "() => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)').getBoundingClientRect().top"
    )
    height = page.evaluate("() => innerHeight")
    assert -1 <= top < height / 2, top  # scrolled to its top, to within a pixel's fraction
    assert page.evaluate("() => scrollY") > 0
    # A second link pasted into the same page's address: its texts come in, are scored, and are in view.
    page.evaluate("() => scrollTo(0, 0)")
    other = "呢份保單嘅保費係每個月一千蚊"
    want = json.loads(editor_site.render_view()(reference=reference, hypothesis=other).to_json())["figures"]
    page.evaluate("(hash) => { location.hash = hash; }", shared_link("", reference, other))
    page.wait_for_function(
        """([other, cer]) => {
          const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
          return root.querySelector('[data-cvb-hyp]').value === other
            && root.querySelector('[data-cvb-live]').textContent.includes(cer);
        }""",
        arg=[other, f"CER {want['cer'] * 100:.2f}%"],
    )
    top = page.evaluate(
        "() => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)').getBoundingClientRect().top"
    )
    assert -1 <= top < height / 2, top  # scrolled to its top, to within a pixel's fraction
    assert page.evaluate("() => scrollY") > 0
    assert not log.errors
