"""The editor's runtime on a return visit: kept by the service worker at content addresses, answered without
the network, still checked against the manifest's hashes, old versions dropped; precompressed on the wire."""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any

import brotli  # type: ignore[import-untyped]
import editor_site
import pytest
from conftest import search, wait_live

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

RUNTIME_CACHE = "cvb-runtime-v1"
FULL = "[data-cvb-editor]:not(.cvb-editor--compact)"

ALL_KEPT = """
async ([cacheName, urls]) => {
  if (!navigator.serviceWorker.controller) return false;
  const cache = await caches.open(cacheName);
  return (await Promise.all(urls.map((url) => cache.match(url)))).every(Boolean);
}
"""


def runtime_hits(site: editor_site.Site) -> list[str]:
    return [path for path, _, _ in site.requests if path.startswith("/assets/runtime/")]


def first_visit_kept(site: editor_site.Site, page: Any) -> list[str]:
    """Use the editor once and wait until the service worker keeps every runtime file the visit fetched."""
    site.requests.clear()
    page.goto(site.url(site.editor_path))
    wait_live(page)
    fetched = sorted({site.url(path) for path in runtime_hits(site)})
    assert any(url.endswith("/pyodide.asm.wasm") for url in fetched), fetched
    assert any(url.endswith("/pyodide-snapshot.bin.gz") for url in fetched), fetched
    editor_site.until(page, ALL_KEPT, [RUNTIME_CACHE, fetched])
    return fetched


def scores_an_edit(page: Any, root: Any) -> None:
    """An edit of the hypothesis is scored: the live line shows a CER for it."""
    root.locator("[data-cvb-hyp]").fill("呢份保单")
    page.wait_for_function(
        f"() => document.querySelector('{FULL} [data-cvb-live]').textContent.includes('CER')"
    )


def test_a_warm_reload_fetches_no_runtime_file_from_the_network(site: editor_site.Site, page: Any) -> None:
    first_visit_kept(site, page)
    site.requests.clear()
    page.reload()
    root = wait_live(page)
    assert root.get_attribute("data-cvb-runtime") == "snapshot"
    assert runtime_hits(site) == []
    # What the network still answered is the small stuff that must be fresh: pages, scripts, the manifest.
    assert any(path.endswith("/assets/wheels/manifest.json") for path, _, _ in site.requests)
    scores_an_edit(page, root)


TAMPER_KEPT = """
async ([cacheName, url]) => {
  const cache = await caches.open(cacheName);
  const kept = await cache.match(url);
  const bytes = new Uint8Array(await kept.arrayBuffer());
  bytes[bytes.length - 1] ^= 1;
  await cache.put(url, new Response(bytes, {headers: kept.headers}));
}
"""


def test_a_kept_runtime_file_that_was_altered_is_still_refused(site: editor_site.Site, page: Any) -> None:
    fetched = first_visit_kept(site, page)
    [scorer] = [url for url in fetched if "/cvb_scorer-" in url]
    page.evaluate(TAMPER_KEPT, [RUNTIME_CACHE, scorer])
    page.reload()
    root = page.locator(FULL).first
    root.scroll_into_view_if_needed()
    root.locator("[data-cvb-hyp]").focus()
    page.wait_for_selector('[data-cvb-editor][data-cvb-engine="failed"]', timeout=60_000)
    status = root.locator("[data-cvb-status]").inner_text()
    assert "sha256" in status, status


KEEP_STALE = """
async ([cacheName, url]) => {
  const cache = await caches.open(cacheName);
  await cache.put(url, new Response('an old build'));
}
"""

GONE = """
async ([cacheName, url]) => !(await (await caches.open(cacheName)).match(url))
"""


def test_runtime_files_the_manifest_no_longer_names_are_dropped(site: editor_site.Site, page: Any) -> None:
    fetched = first_visit_kept(site, page)
    stale = site.url("assets/runtime/0000000000000000/cvb_scorer-0.9.0-py3-none-any.whl")
    page.evaluate(KEEP_STALE, [RUNTIME_CACHE, stale])
    assert not page.evaluate(GONE, [RUNTIME_CACHE, stale])
    # The worker fetches the manifest on every start; any fetch of it through the service worker cleans up.
    page.evaluate("() => fetch('/assets/wheels/manifest.json').then((r) => r.text())")
    editor_site.until(page, GONE, [RUNTIME_CACHE, stale], seconds=90)
    missing = [url for url in fetched if page.evaluate(GONE, [RUNTIME_CACHE, url])]
    assert missing == []


DIGEST = """
async (url) => {
  const body = await (await fetch(url, {cache: 'no-store'})).arrayBuffer();
  const digest = await crypto.subtle.digest('SHA-256', body);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
"""


@pytest.mark.parametrize("name", ["pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs"])
def test_the_browser_gets_a_precompressed_copy_and_decodes_it_to_the_file(
    site: editor_site.Site, page: Any, name: str
) -> None:
    manifest = json.loads((site.root / "assets" / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    relative = f"assets/{manifest['runtime']['pyodide'].removeprefix('../')}{name}"
    original = (site.root / relative).read_bytes()
    page.goto(site.url(site.other_path))
    site.requests.clear()
    assert page.evaluate(DIGEST, site.url(relative)) == hashlib.sha256(original).hexdigest()
    [(_, status, sent)] = [entry for entry in site.requests if entry[0] == "/" + relative]
    assert status == 200
    copies = {
        (site.root / f"{relative}{suffix}"): decode
        for suffix, decode in ((".br", brotli.decompress), (".gz", gzip.decompress))
        if (site.root / f"{relative}{suffix}").is_file()
    }
    [(copy, decode)] = [(copy, decode) for copy, decode in copies.items() if copy.stat().st_size == sent]
    assert sent < len(original)
    assert decode(copy.read_bytes()) == original


MARKS = "() => performance.getEntriesByType('mark').map((mark) => mark.name)"


def test_the_pair_editor_is_ready_before_the_wheels_files_are_installed(
    site: editor_site.Site, page: Any
) -> None:
    # Restored from the snapshot, the scorer's modules are in memory; installing the wheels' files (for the file
    # mode's CLI) waits until the reader pauses, so "ready" and the first drawing do not wait for it. The
    # worker's steps up to "ready" are on the page's timeline: the restore, and no install.
    page.goto(site.url(site.editor_path))
    root = wait_live(page)
    marks = page.evaluate(MARKS)
    assert "cvb:worker-restored" in marks and "cvb:worker-defined" in marks, marks
    assert "cvb:worker-installed" not in marks and "cvb:worker-file-mode" not in marks, marks
    before = root.locator("[data-cvb-live]").inner_text()
    root.locator("[data-cvb-hyp]").fill("呢份保单")
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector).textContent !== before",
        arg=[f"{FULL} [data-cvb-live]", before],
    )
    assert "CER" in root.locator("[data-cvb-live]").inner_text()


def test_a_reader_whose_runtime_is_kept_gets_python_started_without_intent(
    site: editor_site.Site, page: Any
) -> None:
    first_visit_kept(site, page)
    site.requests.clear()
    page.reload()
    # No focus, no click: the editor in view and its runtime kept are enough, and nothing comes from the network.
    page.wait_for_selector(f'{FULL}[data-cvb-state="live"]', timeout=60_000)
    marks = page.evaluate(MARKS)
    assert "cvb:worker-start" in marks and "cvb:intent" not in marks, marks
    assert runtime_hits(site) == []
    assert page.locator(FULL).first.get_attribute("data-cvb-runtime") == "snapshot"


DROP_KEPT = """
async ([cacheName, url]) => (await caches.open(cacheName)).delete(url)
"""


def test_a_runtime_no_longer_kept_is_not_fetched_until_the_reader_wants_the_editor(
    site: editor_site.Site, page: Any
) -> None:
    # As after the browser evicted it, or a rebuilt site naming another snapshot: the worker started without
    # intent finds the snapshot not kept, says so and stops before fetching anything; intent then loads it.
    fetched = first_visit_kept(site, page)
    [snapshot] = [url for url in fetched if url.endswith("/pyodide-snapshot.bin.gz")]
    page.evaluate(DROP_KEPT, [RUNTIME_CACHE, snapshot])
    site.requests.clear()
    page.reload()
    page.wait_for_function("() => performance.getEntriesByName('cvb:not-kept').length > 0", timeout=30_000)
    page.wait_for_timeout(500)
    assert runtime_hits(site) == []
    root = page.locator(FULL).first
    assert root.get_attribute("data-cvb-engine") == "idle"
    wait_live(page)
    assert any(path.endswith("/pyodide-snapshot.bin.gz") for path in runtime_hits(site))


SAVE_DATA = "Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})});"


def test_with_the_data_saver_on_a_kept_runtime_still_waits_for_the_button(
    site: editor_site.Site, page: Any
) -> None:
    first_visit_kept(site, page)
    page.context.add_init_script(SAVE_DATA)
    page.reload()
    page.wait_for_timeout(1500)
    assert "cvb:worker-start" not in page.evaluate(MARKS)
    assert page.locator(FULL).first.get_attribute("data-cvb-engine") == "idle"


def test_the_compact_box_does_not_start_python_without_intent_even_with_the_runtime_kept(
    site: editor_site.Site, page: Any
) -> None:
    first_visit_kept(site, page)
    compact = site.pages_with_compact_editor()
    assert compact, "no page has the compact editor"
    page.goto(site.url(compact[0]))
    page.locator(".cvb-editor--compact").first.scroll_into_view_if_needed()
    page.wait_for_timeout(1500)
    assert "cvb:worker-start" not in page.evaluate(MARKS)


ALTER_INFLATED = """
async (name) => {
  const file = await (await navigator.storage.getDirectory()).getFileHandle(name);
  const size = (await file.getFile()).size;
  const writable = await file.createWritable({ keepExistingData: true });
  await writable.write({ type: "write", position: size - 1, data: new Uint8Array([7]) });
  await writable.close();
}
"""


def inflated_copy_kept(site: editor_site.Site, page: Any) -> str:
    """Use the editor once and wait until the worker has kept the snapshot inflated; returns the file's name."""
    first_visit_kept(site, page)
    name = editor_site.inflated_copy_name(site)
    editor_site.until(page, editor_site.INFLATED_KEPT, name, seconds=90)
    return name


def test_a_warm_reload_restores_the_inflated_copy_without_reading_the_packed_snapshot(
    site: editor_site.Site, page: Any
) -> None:
    inflated_copy_kept(site, page)
    page.reload()
    root = wait_live(page)
    marks = page.evaluate(MARKS)
    assert "cvb:worker-restored" in marks and "cvb:worker-snapshot-fetched" not in marks, marks
    assert root.get_attribute("data-cvb-runtime") == "snapshot"
    scores_an_edit(page, root)


def test_an_altered_inflated_copy_is_refused_dropped_and_python_booted_the_long_way(
    site: editor_site.Site, page: Any
) -> None:
    name = inflated_copy_kept(site, page)
    page.evaluate(ALTER_INFLATED, name)
    page.reload()
    root = wait_live(page)
    # The copy's bytes were restored, but its hash did not match: nothing ran on them.
    assert root.get_attribute("data-cvb-runtime") == "booted"
    assert not page.evaluate(editor_site.INFLATED_KEPT, name)
    scores_an_edit(page, root)


def test_with_the_runtime_kept_the_worker_starts_before_the_page_is_parsed(
    site: editor_site.Site, page: Any
) -> None:
    # early.js, run first thing in <head>, starts it; editor.js adopts that worker rather than starting another.
    first_visit_kept(site, page)
    page.reload()
    page.wait_for_selector(f'{FULL}[data-cvb-state="live"]', timeout=60_000)
    starts = page.evaluate("() => performance.getEntriesByName('cvb:worker-start').map((m) => m.startTime)")
    mounted = page.evaluate("() => performance.getEntriesByName('cvb:mounted')[0].startTime")
    assert len(starts) == 1 and starts[0] < mounted, (starts, mounted)
    assert "cvb:worker-stopped" not in page.evaluate(MARKS)


HEADING_ABOVE_EDITOR = """
() => {
  const editor = document.querySelector('.cvb-editor:not(.cvb-editor--compact)');
  const headings = [...document.querySelectorAll('article h2[id], article h3[id]')];
  const above = headings.filter((h) => h.compareDocumentPosition(editor) & Node.DOCUMENT_POSITION_FOLLOWING);
  return above.length ? above[above.length - 1].id : null;
}
"""


def test_a_link_to_a_heading_above_the_editor_keeps_the_worker_started_early_and_its_anchor(
    site: editor_site.Site, page: Any
) -> None:
    # The browser scrolls to the heading once the page is laid out, after editor.js has mounted: the editor is
    # out of view when it mounts and in view a moment later. The worker early.js started goes on.
    first_visit_kept(site, page)
    heading = page.evaluate(HEADING_ABOVE_EDITOR)
    assert heading, "no heading with an id above the full editor"
    page.goto(site.url(site.other_path))
    page.goto(site.url(site.editor_path) + "#" + heading)
    page.wait_for_selector(f'{FULL}[data-cvb-state="live"]', timeout=60_000)
    starts = page.evaluate("() => performance.getEntriesByName('cvb:worker-start').length")
    assert starts == 1 and "cvb:worker-stopped" not in page.evaluate(MARKS), page.evaluate(MARKS)
    # The editor writes the address a moment after its texts change; with the page's sample it has nothing
    # to add, and the heading's anchor stays (taken away, it also stopped the scroll to the heading).
    page.wait_for_timeout(1000)
    assert page.evaluate("() => location.hash") == "#" + heading


def test_a_worker_started_early_for_an_editor_out_of_view_stops_until_the_editor_comes_near(
    site: editor_site.Site, page: Any
) -> None:
    first_visit_kept(site, page)
    # A window so short that the editor, below the page's opening, is out of view at the top.
    page.set_viewport_size({"width": 800, "height": 120})
    page.goto(site.url(site.editor_path))
    page.evaluate("() => window.scrollTo(0, 0)")
    page.reload()
    page.wait_for_function(
        "() => performance.getEntriesByName('cvb:worker-stopped').length > 0", timeout=30_000
    )
    root = page.locator(FULL).first
    assert root.get_attribute("data-cvb-engine") == "idle"
    root.scroll_into_view_if_needed()
    page.wait_for_selector(f'{FULL}[data-cvb-state="live"]', timeout=60_000)
    assert "cvb:intent" not in page.evaluate(MARKS)


MAKE_FILE = """
async (name) => {
  const file = await (await navigator.storage.getDirectory()).getFileHandle(name, { create: true });
  const writable = await file.createWritable();
  await writable.write(new Uint8Array([1, 2, 3]));
  await writable.close();
}
"""


def test_keeping_the_inflated_copy_deletes_an_older_builds_copy(site: editor_site.Site, page: Any) -> None:
    stale = "cvb-snapshot-" + "0" * 64 + ".bin"
    page.goto(site.url(site.other_path))
    page.evaluate(MAKE_FILE, stale)
    assert page.evaluate(editor_site.INFLATED_KEPT, stale)
    inflated_copy_kept(site, page)
    assert not page.evaluate(editor_site.INFLATED_KEPT, stale)


# Registers the site's worker and waits until it is active, from a page of the origin that registers nothing.
REGISTER_AND_ACTIVATE = """
async (url) => {
  await navigator.serviceWorker.register(url);
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker.state !== "activated") {
    await new Promise((resolve) => worker.addEventListener("statechange", () => worker.state === "activated" && resolve()));
  }
  return true;
}
"""


def test_an_editor_page_opened_while_the_worker_activated_is_controlled_once_kept(
    site: editor_site.Site, context: Any, page: Any
) -> None:
    # The editor page's navigation is held while another page of the site registers the worker and the worker
    # activates: activate's claim() finds no such page yet, and the page opens uncontrolled. Asking to be kept
    # once its editor is live takes it under control all the same (sw.js, claimed).
    other = context.new_page()
    other.goto(site.url("assets/wheels/manifest.json"))

    def activate_meanwhile(route: Any) -> None:
        assert other.evaluate(REGISTER_AND_ACTIVATE, site.url("sw.js"))
        route.continue_()

    page.route(site.url(site.editor_path), activate_meanwhile)
    page.goto(site.url(site.editor_path))
    page.unroute(site.url(site.editor_path))
    assert not page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    wait_live(page)
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")


# early.js waits for QUIET_MS without input. The marks are read with performance.now(), which Chromium coarsens,
# and a timer may fire a few milliseconds before its delay by that clock (one CI run saw 998.6 ms).
QUIET_MS = 1000
TIMER_SLACK_MS = 10

SEARCH_MARKS = """
() => Object.fromEntries(['cvb:engine-ready', 'cvb:search-index-start'].map(
  (name) => [name, performance.getEntriesByName(name)[0]?.startTime ?? null]))
"""


def test_on_a_warm_visit_the_search_index_waits_for_python_and_search_still_works(
    site: editor_site.Site, page: Any
) -> None:
    # The theme's search index (its own worker, ~0.6 s of CPU) is built once the scorer is ready and the page
    # has had no input for a second, not beside Python's start or the first keystrokes (early.js,
    # deferSearchIndex); the reader's search works as before.
    first_visit_kept(site, page)
    page.reload()
    wait_live(page)
    editor_site.until(page, "() => performance.getEntriesByName('cvb:search-index-start').length > 0", None)
    marks = page.evaluate(SEARCH_MARKS)
    assert marks["cvb:search-index-start"] >= marks["cvb:engine-ready"] + QUIET_MS - TIMER_SLACK_MS, marks
    search(page, "CER")


# Types a character into the hypothesis every 200 ms for 2 s, noting when; returns the times of the keystrokes
# and of the search index's start (null if it has not started).
TYPE_FOR_TWO_SECONDS = """
async () => {
  const hyp = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact) [data-cvb-hyp]');
  const typed = [];
  for (let i = 0; i < 10; i++) {
    hyp.value += '呀';
    typed.push(performance.now());
    hyp.dispatchEvent(new InputEvent('input', {bubbles: true, data: '呀', inputType: 'insertText'}));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const start = performance.getEntriesByName('cvb:search-index-start')[0]?.startTime ?? null;
  return {typed, start};
}
"""


def test_while_the_reader_types_the_search_index_waits_for_a_pause(site: editor_site.Site, page: Any) -> None:
    first_visit_kept(site, page)
    page.reload()
    wait_live(page)
    run = page.evaluate(TYPE_FOR_TWO_SECONDS)
    # Never within a second of "ready" or of a keystroke: typed every 200 ms for 2 s, the index starts a second
    # after the last keystroke (or, should the page be held up for a second between two of them, a second
    # after the one before).
    if run["start"] is None:
        editor_site.until(
            page, "() => performance.getEntriesByName('cvb:search-index-start').length > 0", None
        )
    marks = page.evaluate(SEARCH_MARKS)
    start = marks["cvb:search-index-start"]
    before = [t for t in [marks["cvb:engine-ready"], *run["typed"]] if t <= start]
    assert start - before[-1] >= QUIET_MS - TIMER_SLACK_MS, (marks, run)


def test_without_a_kept_runtime_the_search_index_is_built_as_the_page_loads(
    site: editor_site.Site, page: Any
) -> None:
    page.goto(site.url(site.editor_path))
    search(page, "CER")
    assert page.evaluate(SEARCH_MARKS)["cvb:search-index-start"] is None


# An edit of the hypothesis, and how many warm-up drawings the worker had made when it answered. With
# `atOnce`, the edit is made the moment the editor draws its first answer (the focus is the reader's intent).
EDIT_AND_COUNT = """
async ([text, atOnce]) => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const hyp = root.querySelector('[data-cvb-hyp]');
  const drawnAs = (want) => new Promise((resolve) => root.addEventListener('cvb:drawn', function on(event) {
    if (want !== null && event.detail.hypothesis !== want) return;
    root.removeEventListener('cvb:drawn', on);
    resolve(event.detail.warmUpDrawings);
  }));
  if (atOnce) {
    const live = drawnAs(null);
    hyp.focus();
    await live;
  }
  const drawn = drawnAs(text);
  hyp.value = text;
  hyp.dispatchEvent(new Event('input', {bubbles: true}));
  return await drawn;
}
"""


def test_the_warm_up_stops_for_good_at_the_readers_first_request(site: editor_site.Site, page: Any) -> None:
    # The worker warms the code with a few drawings of its own after its first answer, one per task; once the
    # reader asks for something, their drawings do that, and a warm-up drawing still to come would only make a
    # keystroke wait behind it.
    page.goto(site.url(site.editor_path))
    page.locator(FULL).scroll_into_view_if_needed()
    first = page.evaluate(EDIT_AND_COUNT, ["保單號碼一", True])
    page.wait_for_timeout(1500)  # time for the rest of the warm-up, were it still going
    second = page.evaluate(EDIT_AND_COUNT, ["保單號碼二", False])
    assert isinstance(first, int) and first >= 0, first
    assert second == first
