"""Measure the CER editor on the built site, served from loopback, in Debian's Chromium; write
bench/results/editor.json and print it.

Figures: cold navigation to an interactive editor, navigation to the first alignment visible (the build-time
drawing, so it is the first paint), warm reload and warm revisit, bytes served with and without the editor,
keystroke-to-redraw p50/p95 at 100, 500 and 1,500 reference characters (to the drawing in the page, and on to
the next painted frame) beside the CPython time of the same render_view call, and main-thread long tasks
(> 50 ms) while typing.
"""

from __future__ import annotations

import os
import platform
import re
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
    worker_start_ms: mark('cvb:worker-start'),
    pyodide_loading_from_ms: mark('cvb:stage-runtime'),
    wheels_loading_from_ms: mark('cvb:stage-wheels'),
    engine_ready_ms: mark('cvb:engine-ready'),
    interactive_ms: mark('cvb:first-live-render'),
  };
}
"""

# Types one character at a time into the hypothesis and times each from the input event to the frame after
# the redraw (requestAnimationFrame, then a task: the drawing has been painted by then).
TYPE_AND_TIME = """
async ([reference, hypothesis, typed]) => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const ref = root.querySelector('[data-cvb-ref]');
  const hyp = root.querySelector('[data-cvb-hyp]');
  const rendered = (want) => new Promise((resolve) => {
    const on = (event) => {
      if (event.detail.reference === ref.value && event.detail.hypothesis === want) {
        root.removeEventListener('cvb:rendered', on);
        resolve(event.detail);
      }
    };
    root.addEventListener('cvb:rendered', on);
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


def editor_anchor(site: editor_site.Site) -> str:
    """The heading just above the editor, so a navigation lands with the editor in view."""
    html = (site.root / site.editor_path / "index.html").read_text(encoding="utf-8")
    before = html[: html.index('class="cvb-editor"')]
    ids = re.findall(r'<h[1-6][^>]* id="([^"]+)"', before)
    return f"#{ids[-1]}" if ids else ""


def served_bytes(site: editor_site.Site, responses: list[tuple[str, int]]) -> int:
    """Bodies of full (200) responses; revalidations answered 304 carry none."""
    total = 0
    for path, status in responses:
        if status != 200:
            continue
        file = site.root / path.split("?")[0].split("#")[0].lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        if file.is_file():
            total += file.stat().st_size
    return total


def wait_interactive(page: Any) -> None:
    page.wait_for_selector('[data-cvb-editor][data-cvb-state="live"]', timeout=60_000)


def visit(context: Any, url: str, *, interactive: bool = True) -> dict[str, Any]:
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url, wait_until="load")
    if interactive:
        wait_interactive(page)
    else:
        page.wait_for_timeout(1500)  # long enough for a stray worker start to show up in the request log
    return dict(page.evaluate(READ_TIMINGS))


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


def main() -> int:
    reason = editor_site.missing_prerequisites()
    if reason:
        print(f"bench/editor.py: {reason}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {}
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

            # Bytes: a page without an editor; the editor's page opened at the top (the worker starts only if
            # the editor is within 600 px of the viewport); the editor's page with the editor in view.
            byte_counts = {}
            for label, url, interactive in (
                ("page_without_editor", site.url(site.other_path), False),
                ("editor_page_at_top", site.url(site.editor_path), False),
                ("editor_page_editor_loaded", editor_url, True),
            ):
                with tempfile.TemporaryDirectory() as profile:
                    context = playwright.chromium.launch_persistent_context(profile, **launch)
                    site.requests.clear()
                    visit(context, url, interactive=interactive)
                    byte_counts[label] = served_bytes(site, list(site.requests))
                    context.close()
            result["bytes_served"] = byte_counts
            result["bytes_served_note"] = (
                "Response bodies as served (python http.server sends no compression; the wasm gzips to ~3.5 MB)."
            )

            with tempfile.TemporaryDirectory() as profile:
                context = playwright.chromium.launch_persistent_context(profile, **launch)
                cold = visit(context, editor_url)
                page = context.pages[0]
                alignment_in_first_html = page.evaluate(
                    "() => performance.getEntriesByType('navigation')[0] !== undefined"
                    " && !!document.querySelector('[data-cvb-drawing] [data-cvb-part=alignment]')"
                )
                page.reload(wait_until="load")
                wait_interactive(page)
                warm_reload = dict(page.evaluate(READ_TIMINGS))
                context.close()
                context = playwright.chromium.launch_persistent_context(profile, **launch)
                warm_revisit = visit(context, editor_url)

                page = context.pages[0]
                typing = {}
                for size, reference, hypothesis, typed in typing_cases():
                    measured = page.evaluate(TYPE_AND_TIME, [reference, hypothesis, typed])
                    states = [hypothesis + typed[: k + 1] for k in range(len(typed))]
                    cpython = cpython_times(reference, states)
                    typing[str(size)] = {
                        "keystrokes": len(typed),
                        # Input event to the new drawing in the page (worker round trip + DOM update).
                        "keystroke_to_redraw_ms": summary(measured["drawn"]),
                        # ... and on to the next painted frame; headless Chromium aligns this to its ~16.7 ms
                        # frame clock, so it is never below one frame however little work is done.
                        "keystroke_to_next_painted_frame_ms": summary(measured["redraw"]),
                        "worker_render_view_ms": summary(measured["worker"]),
                        # The main thread's share: parse the answer, build and swap in the drawing.
                        "main_thread_draw_ms": summary(measured["draw"]),
                        # The request's wait before Python took it, and the answer's way back.
                        "message_to_worker_ms": summary(measured["toWorker"]),
                        "message_from_worker_ms": summary(measured["fromWorker"]),
                        "cpython_render_view_ms": summary(cpython),
                        "long_tasks_over_50ms": len(measured["longTasks"]),
                        "longest_task_ms": round(max(measured["longTasks"], default=0.0), 1),
                    }
                context.close()

    result.update(
        {
            "cold_navigation": cold,
            "first_alignment_visible_ms": cold["first_contentful_paint_ms"],
            "first_alignment_is_in_the_served_html": alignment_in_first_html,
            "warm_reload": warm_reload,
            "warm_revisit_after_browser_restart": warm_revisit,
            "typing": typing,
        }
    )
    result["targets"] = {
        "keystroke_to_redraw_p95_ms_at_1500": {
            "target": TARGETS["keystroke_to_redraw_p95_ms_at_1500"],
            "measured": typing["1500"]["keystroke_to_redraw_ms"]["p95"],
            "to_next_painted_frame": typing["1500"]["keystroke_to_next_painted_frame_ms"]["p95"],
        },
        "cold_navigation_to_interactive_ms": {
            "target": TARGETS["cold_navigation_to_interactive_ms"],
            "measured": round(cold["interactive_ms"], 1),
        },
        "long_tasks_over_50ms_while_typing": {
            "target": TARGETS["long_tasks_over_50ms_while_typing"],
            "measured": sum(case["long_tasks_over_50ms"] for case in typing.values()),
        },
        "first_alignment_at_first_paint": {"target": True, "measured": alignment_in_first_html},
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
    publish(RESULTS, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
