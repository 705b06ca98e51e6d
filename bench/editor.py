"""Measure the CER editor on the built site, served from loopback, in Debian's Chromium; write
bench/results/editor.json and print it.

Figures, as the median and the worst of five runs: bytes fetched by a page load that never reaches the editor
(and by a page without one), bytes fetched to use the editor, intent (focus) to interactive cold (fresh
profile) and warm (the same profile after a browser restart), warm reload to interactive (and where its time
goes: the worker's start, reading the snapshot (the inflated copy the first visit kept, or the packed file
inflated), restoring Python, the rest until ready, and from ready to the first drawing), the same reload once
the reference's Simplified-only character is taken out again (a drawing that needs no OpenCC converter), the
worker's own start-up to "ready" (python_start_*), the
first edit after ready that needs OpenCC's converter, keystroke-to-redraw p95 at 1,500 reference characters
(typed the moment the editor is live, and again once it has settled: see SETTLE_MS) and main-thread long tasks
while typing. With --files, also a 16,000-clip pair of files scored in the browser's file mode against the CLI,
once (it takes minutes): when the figures and the table show, before the intervals, and when the whole report does.
With --throttled, also a cold start on a throttled connection (10 Mbit/s, 40 ms; Chromium's own throttling):
intent to the first live result, and the megabytes transferred before it; --throttled-only measures that alone
(three runs, into bench/results/editor-throttled.json). --large-pair-only: a pair of 154 MB (403,923 clips), far
above the limit the editor states, chosen in the browser's file mode: how soon it is refused, what the page read
of it and the browser's peak memory (PSS); then the largest pair of the same texts within the limit, scored:
its time by phase and peak PSS (into bench/results/editor-large-pair.json).
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

import editor_site  # noqa: E402
from publish import publish  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "editor.json"
SIZES = (100, 500, 1500)
KEYSTROKES = 60
RUNS = 5
TARGETS = {
    "keystroke_to_redraw_p95_ms_at_1500": 16,
    "cold_navigation_to_interactive_ms": 2500,
    "long_tasks_over_50ms_while_typing": 0,
}

# Milliseconds since navigation start for what the page has reached; null until it gets there.
READ_TIMINGS = """
() => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const paint = (name) => performance.getEntriesByType('paint').find((e) => e.name === name)?.startTime ?? null;
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    first_contentful_paint_ms: paint('first-contentful-paint'),
    dom_content_loaded_ms: nav ? nav.domContentLoadedEventEnd : null,
    editor_accepts_input_ms: mark('cvb:mounted'),
    intent_ms: mark('cvb:intent'),
    worker_start_ms: mark('cvb:worker-start'),
    snapshot_fetched_ms: mark('cvb:worker-snapshot-fetched'),
    snapshot_inflated_ms: mark('cvb:worker-snapshot-inflated'),
    python_restored_ms: mark('cvb:worker-restored'),
    pyodide_loading_from_ms: mark('cvb:stage-runtime'),
    wheels_loading_from_ms: mark('cvb:stage-wheels'),
    engine_ready_ms: mark('cvb:engine-ready'),
    interactive_ms: mark('cvb:first-live-render'),
  };
}
"""

# Types one character at a time into the hypothesis and times each from the input event to the redraw of what a
# keystroke changes (cvb:drawn: the alignment and the summary line; the details below follow once typing
# pauses), and to the frame after it (requestAnimationFrame, then a task: painted by then).
TYPE_AND_TIME = """
async ([reference, hypothesis, typed]) => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const ref = root.querySelector('[data-cvb-ref]');
  const hyp = root.querySelector('[data-cvb-hyp]');
  const rendered = (want) => new Promise((resolve) => {
    const on = (event) => {
      if (event.detail.reference === ref.value && event.detail.hypothesis === want) {
        root.removeEventListener('cvb:drawn', on);
        resolve(event.detail);
      }
    };
    root.addEventListener('cvb:drawn', on);
  });
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(0);
  }));
  ref.value = reference;
  hyp.value = hypothesis;
  let waiting = rendered(hypothesis);
  ref.dispatchEvent(new Event('input', {bubbles: true}));
  await waiting;
  // The texts' whole drawing painted before the first keystroke, as each keystroke's is before the next: else
  // the first keystroke's answer waits behind the layout of a whole new 1,500-character drawing.
  await painted();
  const longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({type: 'longtask'});
  const redraw = [];
  const drawn = [];
  const worker = [];
  const draw = [];
  const toWorker = [];
  const fromWorker = [];
  for (const ch of typed) {
    const next = hyp.value + ch;
    waiting = rendered(next);
    const t0 = performance.now();
    hyp.value = next;
    hyp.dispatchEvent(new InputEvent('input', {bubbles: true, data: ch, inputType: 'insertText'}));
    const detail = await waiting;
    drawn.push(performance.now() - t0);
    await painted();
    redraw.push(performance.now() - t0);
    worker.push(detail.workerMs);
    draw.push(detail.drawMs);
    toWorker.push(detail.toWorkerMs);
    fromWorker.push(detail.fromWorkerMs);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return {redraw, drawn, worker, draw, toWorker, fromWorker, longTasks};
}
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(values, 0.5), 2),
        "p95": round(percentile(values, 0.95), 2),
        "max": round(max(values), 2),
    }


# A keystroke's time in parts, as the page saw it: waiting to reach the worker, Python in the worker, the
# answer's way back, and drawing it (``drawn`` is their sum with the page's own handling).
KEYSTROKE_PARTS = ("drawn", "toWorker", "worker", "fromWorker", "draw")


def keystroke_breakdown(measured: dict[str, list[float]]) -> dict[str, Any]:
    """Each part's p50/p95/max over the keystrokes, and the slowest keystrokes in parts (which one, by its
    place in the typing, and where its time went), so a slow run says what made it slow."""
    slowest = sorted(range(len(measured["drawn"])), key=lambda k: measured["drawn"][k])[-5:]
    return {
        "parts": {part: summary(measured[part]) for part in KEYSTROKE_PARTS},
        "slowest": [
            {"keystroke": k, **{part: round(measured[part][k], 2) for part in KEYSTROKE_PARTS}}
            for k in reversed(slowest)
        ],
    }


def editor_anchor(site: editor_site.Site) -> str:
    """The heading just above the editor, so a navigation lands with the editor in view."""
    html = (site.root / site.editor_path / "index.html").read_text(encoding="utf-8")
    before = html[: html.index('class="cvb-editor"')]
    ids = re.findall(r'<h[1-6][^>]* id="([^"]+)"', before)
    return f"#{ids[-1]}" if ids else ""


def served_bytes(responses: list[tuple[str, int, int]]) -> int:
    """Body bytes as sent: a precompressed copy's size when one was sent; revalidations (304) carry none."""
    return sum(sent for _, status, sent in responses if status == 200)


FULL_EDITOR = "[data-cvb-editor]:not(.cvb-editor--compact)"
# Where the runtime lives (assets/runtime/ since it is content-addressed; assets/pyodide/ before).
RUNTIME_PATHS = ("/assets/runtime/", "/assets/pyodide/")


# Whether the service worker controls the page and keeps every runtime file named (any of the site's caches).
RUNTIME_KEPT = """
async (urls) => Boolean(navigator.serviceWorker.controller)
  && (await Promise.all(urls.map((url) => caches.match(url)))).every(Boolean)
"""


def wait_interactive(page: Any) -> None:
    page.wait_for_selector(f'{FULL_EDITOR}[data-cvb-state="live"]', timeout=120_000)


def show_intent(page: Any) -> None:
    """What a reader does to use the editor: focus its hypothesis box (Python loads on intent only)."""
    box = page.locator(f"{FULL_EDITOR} [data-cvb-hyp]")
    box.scroll_into_view_if_needed()
    box.focus()


def visit(context: Any, url: str, *, interactive: bool = True) -> dict[str, Any]:
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url, wait_until="load")
    if interactive:
        show_intent(page)
        wait_interactive(page)
    else:
        page.wait_for_timeout(1500)  # long enough for a stray worker start to show up in the request log
    return dict(page.evaluate(READ_TIMINGS))


def intent_to_interactive(timings: dict[str, Any]) -> float:
    """From the reader's intent (the focus) to the live editor. A reader whose runtime the service worker keeps
    has Python started as soon as the editor is in view (editor.js, startIfKept), so the worker may start
    before the intent, and the editor may even be live before it (0)."""
    intent = timings["intent_ms"] if timings["intent_ms"] is not None else timings["worker_start_ms"]
    return round(max(0.0, timings["interactive_ms"] - intent), 1)


def between(timings: dict[str, Any], start: str, end: str) -> float | None:
    """Milliseconds from one mark to another; None when the page has not marked both (an older worker)."""
    if timings[start] is None or timings[end] is None:
        return None
    return round(timings[end] - timings[start], 1)


def python_start(timings: dict[str, Any]) -> float:
    """The worker's own start-up, from its creation to "ready", whenever it was created."""
    return round(timings["engine_ready_ms"] - timings["worker_start_ms"], 1)


def cpython_times(reference: str, states: list[str]) -> list[float]:
    render_view = editor_site.render_view()
    render_view(reference=reference, hypothesis=states[0])  # the reference fold is cached, as in the browser
    times = []
    for hypothesis in states:
        started = time.perf_counter()
        render_view(reference=reference, hypothesis=hypothesis).to_json()
        times.append((time.perf_counter() - started) * 1000)
    return times


def typing_cases() -> list[tuple[int, str, str, str]]:
    long = editor_site.sample()["long"]
    assert isinstance(long, dict)
    reference_all, hypothesis_all = str(long["reference"]), str(long["hypothesis"])
    cases = []
    for size in SIZES:
        reference = reference_all[:size]
        target = hypothesis_all[: size + 4]
        start = max(0, len(target) - KEYSTROKES)
        cases.append((size, reference, target[:start], target[start:]))
    return cases


# The first edit after "ready" that needs OpenCC's converter (a Simplified character in the reference).
FIRST_EDIT = """
async () => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const ref = root.querySelector('[data-cvb-ref]');
  const want = ref.value + '这';
  const drawn = new Promise((resolve) => root.addEventListener('cvb:drawn', function on(event) {
    if (event.detail.reference === want) { root.removeEventListener('cvb:drawn', on); resolve(); }
  }));
  const t0 = performance.now();
  ref.value = want;
  ref.dispatchEvent(new Event('input', {bubbles: true}));
  await drawn;
  return performance.now() - t0;
}
"""


# FIRST_EDIT undone: its Simplified-only character taken out of the reference, drawn, and the page's address
# (which a reload restores the texts from) updated.
TRADITIONAL_AGAIN = """
async () => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const ref = root.querySelector('[data-cvb-ref]');
  const want = ref.value.replaceAll('这', '');
  const before = location.hash;
  const drawn = new Promise((resolve) => root.addEventListener('cvb:drawn', function on(event) {
    if (event.detail.reference === want) { root.removeEventListener('cvb:drawn', on); resolve(); }
  }));
  ref.value = want;
  ref.dispatchEvent(new Event('input', {bubbles: true}));
  await drawn;
  while (location.hash === before) await new Promise((resolve) => setTimeout(resolve, 50));
}
"""


# How long the typing waits, the second time, after the first: Chromium optimises CPython's hot WebAssembly
# functions on background threads for about a second after they first run (wasm.TopTierCompilation in a
# trace: ~0.9 s of compiling beside the first keystrokes typed at once, ~0.05 s after a 3 s pause), and on two
# cores those threads take turns with the worker. The first figure is a reader typing the moment the editor is
# live; the settled one, typing a moment later, is what the rest of a session meets.
SETTLE_MS = 3000


def keystrokes(page: Any) -> dict[str, Any]:
    """The keystroke figures at 1,500 characters, typed as soon as the editor is live and again once settled."""
    size, reference, hypothesis, typed = typing_cases()[-1]
    measured = page.evaluate(TYPE_AND_TIME, [reference, hypothesis, typed])
    page.wait_for_timeout(SETTLE_MS)
    settled = page.evaluate(TYPE_AND_TIME, [reference, hypothesis, typed])
    return {
        f"keystroke_to_redraw_p95_ms_at_{size}": summary(measured["drawn"])["p95"],
        f"keystroke_to_redraw_p95_ms_at_{size}_settled": summary(settled["drawn"])["p95"],
        "long_tasks_over_50ms_while_typing": len(measured["longTasks"]) + len(settled["longTasks"]),
        f"keystrokes_at_{size}": keystroke_breakdown(measured),
        f"keystrokes_at_{size}_settled": keystroke_breakdown(settled),
    }


def wait_kept(page: Any, site: editor_site.Site) -> None:
    """A return is a visit with the runtime kept: the service worker keeps the ~17 MB the visit fetched a moment
    after "ready", and the worker keeps the snapshot inflated once the reader pauses. A reload or restart in the
    middle of that would measure the keeping, not the return."""
    fetched = {site.url(path) for path, _, _ in site.requests if path.startswith(RUNTIME_PATHS)}
    # The wheels a restore installs are fetched at the reader's first pause, after "ready".
    manifest = json.loads((site.root / "assets" / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    fetched |= {
        site.url(f"assets/{path.removeprefix('../')}") for path in manifest["start_up_snapshot"]["packages"]
    }
    editor_site.until(page, RUNTIME_KEPT, sorted(fetched), seconds=60)
    editor_site.until(page, editor_site.INFLATED_KEPT, editor_site.inflated_copy_name(site), seconds=60)


def one_run(
    playwright: Any,
    site: editor_site.Site,
    launch: dict[str, Any],
    editor_url: str,
    *,
    keystrokes_only: bool = False,
) -> dict[str, Any]:
    """One run of every figure, each from its own fresh browser profile where it says cold. With
    ``keystrokes_only``, the keystroke figures alone, measured as in a whole run (a cold visit, then a warm
    one after a browser restart), without the page loads and reload the other figures take."""
    # Other jobs on the machine slow every figure, the keystroke tail most: each run says how busy it began.
    run: dict[str, Any] = {"load_average_1min_at_start": round(os.getloadavg()[0], 2)}
    loads = (
        ("bytes_page_load_never_reaching_the_editor", editor_url, False),
        ("bytes_page_without_editor", site.url(site.other_path), False),
        ("bytes_to_use_the_editor", editor_url, True),
    )
    for label, url, interactive in loads[2:] if keystrokes_only else loads:
        with tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(profile, **launch)
            site.requests.clear()
            timings = visit(context, url, interactive=interactive)
            if keystrokes_only:
                # As in a whole run: the restart comes once the visit's runtime and inflated snapshot are kept.
                wait_kept(context.pages[0], site)
                context.close()
                context = playwright.chromium.launch_persistent_context(profile, **launch)
                visit(context, editor_url)
                run.update(keystrokes(context.pages[0]))
                context.close()
                continue
            run[label] = served_bytes(list(site.requests))
            if interactive:
                run["intent_to_interactive_cold_ms"] = intent_to_interactive(timings)
                run["python_start_cold_ms"] = python_start(timings)
                page = context.pages[0]
                run["first_edit_after_ready_ms"] = round(page.evaluate(FIRST_EDIT), 1)
                wait_kept(page, site)
                site.requests.clear()
                page.reload(wait_until="load")
                show_intent(page)
                wait_interactive(page)
                reload = dict(page.evaluate(READ_TIMINGS))
                # Runtime files the reload asked the server for (a 304 counts: it is a round trip).
                run["warm_reload_runtime_requests"] = sum(
                    1 for path, _, _ in site.requests if path.startswith(RUNTIME_PATHS)
                )
                run["warm_reload_bytes"] = served_bytes(list(site.requests))
                run["warm_reload_to_interactive_ms"] = round(reload["interactive_ms"], 1)
                run["warm_reload_intent_to_interactive_ms"] = intent_to_interactive(reload)
                run["warm_reload_worker_start_ms"] = round(reload["worker_start_ms"], 1)
                run["warm_reload_python_start_ms"] = python_start(reload)
                # Where the worker's start-up goes: reading and inflating the snapshot (from the worker's
                # start), restoring Python from it, and what follows until "ready".
                run["warm_reload_snapshot_inflated_after_ms"] = between(
                    reload, "worker_start_ms", "snapshot_inflated_ms"
                )
                run["warm_reload_restore_ms"] = between(reload, "snapshot_inflated_ms", "python_restored_ms")
                run["warm_reload_restored_to_ready_ms"] = between(
                    reload, "python_restored_ms", "engine_ready_ms"
                )
                # And from "ready" to the first drawing on the page (see TRADITIONAL_AGAIN below).
                run["warm_reload_ready_to_interactive_ms"] = between(
                    reload, "engine_ready_ms", "interactive_ms"
                )
                run["warm_reload_read_the_inflated_copy"] = reload["snapshot_fetched_ms"] is None
                # The reload above restores a reference with a Simplified-only character (FIRST_EDIT's), whose
                # first drawing waits for the wheels' files and OpenCC's converter, which the snapshot leaves
                # out; the same reload with that character taken out again waits for neither.
                page.evaluate(TRADITIONAL_AGAIN)
                page.reload(wait_until="load")
                show_intent(page)
                wait_interactive(page)
                plain = dict(page.evaluate(READ_TIMINGS))
                run["warm_reload_traditional_to_interactive_ms"] = round(plain["interactive_ms"], 1)
                run["warm_reload_traditional_intent_to_interactive_ms"] = intent_to_interactive(plain)
                run["warm_reload_traditional_ready_to_interactive_ms"] = between(
                    plain, "engine_ready_ms", "interactive_ms"
                )
                context.close()
                context = playwright.chromium.launch_persistent_context(profile, **launch)
                revisit = visit(context, editor_url)
                run["intent_to_interactive_warm_ms"] = intent_to_interactive(revisit)
                run["python_start_warm_ms"] = python_start(revisit)
                run.update(keystrokes(context.pages[0]))
            context.close()
    return run


# Records when the file job's progress enters each phase (clips read, bootstrap, report), when the figures
# and the table are first on the page (before the intervals) and when the whole report is, in seconds from now.
WATCH_PHASES = """
(selector) => {
  const box = document.querySelector(selector + ' [data-cvb-files]');
  const t0 = performance.now();
  const at = () => Math.round((performance.now() - t0) / 100) / 10;
  window.cvbPhases = {};
  new MutationObserver(() => {
    const phase = box.querySelector('[data-cvb-files-running]').dataset.phase;
    if (phase && !(phase in window.cvbPhases)) window.cvbPhases[phase] = at();
    // The figures and the table, before the intervals (report.scored_json), then the whole report.
    if (box.querySelector('[data-cvb-files-table] tbody tr') && !('table' in window.cvbPhases)) {
      window.cvbPhases.table = at();
    }
    if (!box.querySelector('[data-cvb-files-actions]').hidden && !('shown' in window.cvbPhases)) {
      window.cvbPhases.shown = at();
    }
  }).observe(box, {subtree: true, childList: true, attributes: true});
}
"""


def reference_loaded(context: Any, site: Any, ref: Path) -> tuple[Any, Any]:
    """The editor page with its files box open, the reference file chosen and Python up, its phases watched:
    what follows (choosing the hypothesis) is the scoring alone, as the CLI's figure is."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(site.url(site.editor_path), wait_until="load")
    box = page.locator(f"{FULL_EDITOR} [data-cvb-files]")
    box.locator("summary").click()
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(ref))
    page.wait_for_selector(f'{FULL_EDITOR}[data-cvb-engine="ready"]', timeout=120_000)
    page.evaluate(WATCH_PHASES, FULL_EDITOR)
    return page, box


def files_in_browser(
    playwright: Any, site: editor_site.Site, launch: dict[str, Any], folder: Path
) -> dict[str, Any]:
    """A 16,000-clip pair of files scored in the browser's file mode and by the CLI, once each."""
    from pairs import corpus_pairs
    from test_editor_files import downloaded, write_pair

    ref, hyp = write_pair(folder, corpus_pairs(16_000), missing=20)
    started = time.monotonic()
    cli = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "cvb-score"), "--json", ref.name, hyp.name],
        cwd=folder,
        capture_output=True,
        check=True,
    )
    cli_s = time.monotonic() - started
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, **launch)
        page, box = reference_loaded(context, site, ref)
        started = time.monotonic()
        box.locator('input[data-cvb-file="hypothesis"]').set_input_files(str(hyp))
        page.wait_for_selector(f"{FULL_EDITOR} [data-cvb-files-actions]:not([hidden])", timeout=1_800_000)
        browser_s = time.monotonic() - started
        phases = page.evaluate("() => window.cvbPhases")
        identical = downloaded(page, box) == cli.stdout
        context.close()
    return {
        "clips": 16_000,
        "cli_s": round(cli_s, 1),
        "browser_s": round(browser_s, 1),
        # Seconds from choosing the second file to each phase the worker reported, and to the table shown.
        "browser_phases_s": phases,
        "identical_json": identical,
    }


LARGE_PAIR_CLIPS = 403_923


def process_tree_pss(root_pid: int) -> int:
    """Proportional resident bytes (PSS: a page shared by n processes counts 1/n in each, so the sum counts it
    once) of a process and all its descendants (Linux /proc): the browser with its renderer, GPU and utility
    processes, where the page's worker and its WebAssembly memory live."""
    total = 0
    pending = [root_pid]
    while pending:
        pid = pending.pop()
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            total += next(
                int(line.split()[1]) * 1024 for line in rollup.splitlines() if line.startswith("Pss:")
            )
            for task in Path(f"/proc/{pid}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, StopIteration):
            continue  # gone meanwhile, or a kernel thread without memory
    return total


def browser_pid(profile: str) -> int:
    """The browser process started with this user-data-dir."""
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if f"--user-data-dir={profile}".encode() in cmdline and not any(
                arg.startswith(b"--type=") for arg in cmdline
            ):
                return int(proc.name)
    raise RuntimeError(f"no browser process with --user-data-dir={profile}")


class PeakPss:
    """The peak proportional resident memory (PSS) of the browser's processes while in use, sampled every
    quarter second on a thread."""

    def __init__(self, pid: int) -> None:
        import threading

        self.pid = pid
        self.before = process_tree_pss(pid)
        self.peak = self.before
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.wait(0.25):
            self.peak = max(self.peak, process_tree_pss(self.pid))

    def __enter__(self) -> PeakPss:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, process_tree_pss(self.pid))


def status_starts(page: Any, words: str, timeout: float) -> None:
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel + ' [data-cvb-files-status]').textContent.startsWith(want)",
        arg=[FULL_EDITOR, words],
        timeout=timeout,
    )


def large_pair_in_browser(
    playwright: Any, site: editor_site.Site, launch: dict[str, Any], folder: Path
) -> dict[str, Any]:
    """The pair of LARGE_PAIR_CLIPS clips, far above the limit the editor states (editor_state.js,
    FILE_LIMIT_*), chosen in the browser's file mode: the seconds from choosing each file to the refusal, the
    bytes the page read, whether the worker was asked to score, and the browser's peak memory (PSS) meanwhile.
    Then the largest pair of the same texts within the limit, scored: its seconds from choosing the second file
    to each phase and to the whole report, and the peak PSS."""
    from conftest import wait_live
    from pairs import corpus_pairs
    from test_editor_files import RECORD_FILES, write_pair

    from generator.config.load import load_config

    words = load_config(ROOT / "platform_config").glossary.interface
    refused = words["files_too_large_bytes"].en.split("{")[0]
    large, within = folder / "large", folder / "within"
    large.mkdir()
    within.mkdir()
    ref, hyp = write_pair(large, corpus_pairs(LARGE_PAIR_CLIPS), missing=20)
    pair_bytes = ref.stat().st_size + hyp.stat().st_size
    # The most clips of these texts whose pair stays within the bytes limit (a little under, for the
    # texts' varying lengths).
    limit_bytes, limit_clips = 20_000_000, 100_000
    fit = min(limit_clips, int(0.97 * limit_bytes * LARGE_PAIR_CLIPS / pair_bytes))
    small_ref, small_hyp = write_pair(within, corpus_pairs(fit), missing=20)
    result: dict[str, Any] = {
        "limit_stated": {"megabytes": limit_bytes / 1e6, "clips": limit_clips},
        "load_average_1_5_15_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, **launch)
        context.add_init_script(RECORD_FILES)
        pid = browser_pid(profile)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site.url(site.editor_path), wait_until="load")
        wait_live(page)
        box = page.locator(f"{FULL_EDITOR} [data-cvb-files]")
        box.locator("summary").click()
        with PeakPss(pid) as memory:
            started = time.monotonic()
            box.locator('input[data-cvb-file="reference"]').set_input_files(str(ref))
            status_starts(page, refused, 60_000)
            reference_s = time.monotonic() - started
            started = time.monotonic()
            box.locator('input[data-cvb-file="hypothesis"]').set_input_files(str(hyp))
            # Taken (its name shown beside its chooser) and the pair still refused.
            page.wait_for_function(
                "([sel, name]) => [...document.querySelectorAll(sel + ' [data-cvb-file-name]')]"
                ".some((label) => label.textContent === name)",
                arg=[FULL_EDITOR, hyp.name],
                timeout=60_000,
            )
            status_starts(page, refused, 60_000)
            hypothesis_s = time.monotonic() - started
            sentence = box.locator("[data-cvb-files-status]").inner_text()
        result["above_the_limit"] = {
            "clips": LARGE_PAIR_CLIPS,
            "files_mb": round(pair_bytes / 1e6, 1),
            "refused_after_choosing_the_reference_s": round(reference_s, 2),
            "refused_after_choosing_the_hypothesis_s": round(hypothesis_s, 2),
            "sentence": sentence,
            "bytes_the_page_read": sum(page.evaluate("() => window.cvbRead")),
            "files_sent_to_the_worker": page.evaluate("() => window.cvbPosted").count("score-files"),
            "browser_pss_before_mb": round(memory.before / 1e6),
            "browser_pss_peak_mb": round(memory.peak / 1e6),
        }
        page.evaluate(WATCH_PHASES, FULL_EDITOR)
        with PeakPss(pid) as memory:
            box.locator('input[data-cvb-file="reference"]').set_input_files(str(small_ref))
            started = time.monotonic()
            box.locator('input[data-cvb-file="hypothesis"]').set_input_files(str(small_hyp))
            page.wait_for_selector(f"{FULL_EDITOR} [data-cvb-files-actions]:not([hidden])", timeout=3_600_000)
            browser_s = time.monotonic() - started
        result["within_the_limit"] = {
            "clips": fit,
            "files_mb": round((small_ref.stat().st_size + small_hyp.stat().st_size) / 1e6, 1),
            "browser_s": round(browser_s, 1),
            # Seconds from choosing the second file to each phase the worker reported, and to the table shown.
            "browser_phases_s": page.evaluate("() => window.cvbPhases"),
            "browser_pss_before_mb": round(memory.before / 1e6),
            "browser_pss_peak_mb": round(memory.peak / 1e6),
        }
        context.close()
    result["load_average_1_5_15_at_end"] = [round(x, 2) for x in os.getloadavg()]
    result["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return result


# Chromium's own network throttling (DevTools' Network.emulateNetworkConditions), as a reader on a modest
# connection meets the editor: 10 Mbit/s down and up, 40 ms added to every round trip.
THROTTLED = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}
THROTTLED_RUNS = 3
THROTTLED_STEPS = (
    ("worker_start", "worker_start_ms"),
    ("snapshot_fetched", "snapshot_fetched_ms"),
    ("python_restored", "python_restored_ms"),
    ("engine_ready", "engine_ready_ms"),
)


def throttled_cold_start(
    playwright: Any, site: editor_site.Site, launch: dict[str, Any], editor_url: str
) -> dict[str, Any]:
    """A cold visit (fresh profile) on the THROTTLED connection, THROTTLED_RUNS times: from the reader's intent
    to the first live result, and what the visit transferred by then, the page included (bytes as sent:
    compressed copies where the browser took them), median and worst."""
    runs: list[dict[str, Any]] = []
    for _ in range(THROTTLED_RUNS):
        with tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(profile, **launch)
            page = context.pages[0] if context.pages else context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", THROTTLED)
            site.clear_requests()
            timings = visit(context, editor_url)
            # The requests answered before the first live result: what the worker fetches at the reader's first
            # pause after it (the wheels, the standard library) may already be in the log by now.
            live = (page.evaluate("() => performance.timeOrigin") + timings["interactive_ms"]) / 1000
            requests = [
                r for r, at in zip(list(site.requests), list(site.request_times), strict=False) if at <= live
            ]
            runs.append(
                {
                    "intent_to_first_live_result_ms": intent_to_interactive(timings),
                    "cold_transfer_mb": round(served_bytes(requests) / 1e6, 2),
                    "cold_runtime_transfer_mb": round(
                        served_bytes([r for r in requests if r[0].startswith(RUNTIME_PATHS)]) / 1e6, 2
                    ),
                    # Where the wait goes, from the reader's intent: the worker started, the snapshot in hand,
                    # Python restored, the worker ready.
                    **{
                        f"intent_to_{name}_ms": between(timings, "intent_ms", mark)
                        for name, mark in THROTTLED_STEPS
                    },
                }
            )
            context.close()
    return {
        "connection": "10 Mbit/s, 40 ms (Chromium Network.emulateNetworkConditions)",
        "runs": runs,
        **{
            key: {"median": statistics.median(r[key] for r in runs), "worst": max(r[key] for r in runs)}
            for key in runs[0]
            if all(r[key] is not None for r in runs)
        },
        "target_intent_to_first_live_result_ms": 8000,
        "load_average_1_5_15_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    reason = editor_site.missing_prerequisites()
    if reason:
        print(f"bench/editor.py: {reason}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    # --keystrokes: the keystroke figures only (a minute less), into their own file so that the whole
    # bench's figures are not replaced by a part of them.
    keystrokes_only = "--keystrokes" in sys.argv
    runs: list[dict[str, Any]] = []
    files: dict[str, Any] | None = None
    throttled: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        port = editor_site.free_port()
        editor_site.build(out, port)
        with editor_site.served(out, port) as site, sync_playwright() as playwright:
            editor_url = site.url(site.editor_path) + editor_anchor(site)
            launch = {
                "executable_path": editor_site.CHROMIUM,
                "args": editor_site.CHROMIUM_ARGS,
                "viewport": {"width": 1400, "height": 900},
            }
            if "--throttled-only" in sys.argv:
                throttled = throttled_cold_start(playwright, site, launch, editor_url)
                publish(RESULTS.with_name("editor-throttled.json"), throttled)
                return 0
            if "--large-pair-only" in sys.argv:
                large = large_pair_in_browser(playwright, site, launch, Path(tmp))
                publish(RESULTS.with_name("editor-large-pair.json"), large)
                return 0
            for _ in range(RUNS):
                runs.append(one_run(playwright, site, launch, editor_url, keystrokes_only=keystrokes_only))
            if "--throttled" in sys.argv:
                throttled = throttled_cold_start(playwright, site, launch, editor_url)
            if "--files" in sys.argv:
                files = files_in_browser(playwright, site, launch, Path(tmp))

    result: dict[str, Any] = {
        "runs": len(runs),
        # Median and worst of the runs; for bytes and times the worst is the largest.
        "figures": {
            key: {"median": statistics.median(r[key] for r in runs), "worst": max(r[key] for r in runs)}
            for key in runs[0]
            # Figures only (a run's keystroke breakdown is a table, kept in per_run), and those every run has.
            if isinstance(runs[0][key], int | float) and all(r[key] is not None for r in runs)
        },
        "per_run": runs,
        "bytes_note": (
            "Response bodies as sent by `cvb serve`'s handler: the precompressed copy (br or gzip) when the "
            "browser accepts one, else the file."
        ),
    }
    if files is not None:
        result["file_mode_16000_clips"] = files
    if throttled is not None:
        result["throttled_cold_start"] = throttled
    # The target holds in every run, so every run's figure is shown beside the median and the worst.
    for key in ("keystroke_to_redraw_p95_ms_at_1500", "keystroke_to_redraw_p95_ms_at_1500_settled"):
        result[f"{key}_per_run"] = [r[key] for r in runs]
    result["targets"] = {
        "intent_to_interactive_warm_ms": 1000,
        "intent_to_interactive_cold_ms": 2500,
        "warm_reload_to_interactive_ms": 1000,
        "keystroke_to_redraw_p95_ms_at_1500": TARGETS["keystroke_to_redraw_p95_ms_at_1500"],
        "long_tasks_over_50ms_while_typing": TARGETS["long_tasks_over_50ms_while_typing"],
    }
    result["environment"] = {
        "chromium": editor_site.CHROMIUM,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        # Other jobs on the machine slow every figure; the load average says how busy it was.
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    publish(RESULTS.with_name("editor-keystrokes.json") if keystrokes_only else RESULTS, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
