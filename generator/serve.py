"""The HTTP handler of `cvb serve` (and of the browser tests): the built site as a static host should serve it.

- A file with a precompressed copy beside it (``name.br``, ``name.gz``, written by the build) is sent as that
  copy with ``Content-Encoding`` when the request's ``Accept-Encoding`` allows it, as nginx's ``gzip_static``
  and ``brotli_static`` do; ``Vary: Accept-Encoding`` tells caches that the answer depends on it.
- The editor's runtime (``assets/runtime/<hash>/``) is named by its content, so it may be kept for a year
  without asking again (``immutable``); everything else is revalidated on each use (``no-cache``), so a
  rebuilt page is never hidden behind an old copy.
- HTTP/1.1 as any real host speaks it: with 1.0 Chromium reuses nothing from its cache.
- A missing page gets the site's own 404 page, in the edition of the address (``/zh/...``: the Chinese one),
  with status 404, as a host configured with the site's ``error_page`` does.
- A client that goes away mid-answer (a stopped download, a page left while it loaded) is one line in the log,
  not a traceback: it is not an error of the site.

`cvb serve` rebuilds only when the site is not up to date with its inputs (``inputs_digest``): at start, a site
built by an earlier `cvb serve` from the same inputs for the same address is served as it is.
"""

from __future__ import annotations

import email.utils
import hashlib
import http.server
import json
import os
import urllib.parse
from collections.abc import Iterable, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import BinaryIO

import generator
import starter_kit
from generator.pages.editions import EDITIONS
from generator.paths import Layout
from generator.precompress import ENCODINGS, chosen_encoding

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
RUNTIME_PREFIX = "/assets/runtime/"
NOT_FOUND_PAGE = "404.html"


def cache_control(path: str) -> str:
    return IMMUTABLE if path.split("?")[0].startswith(RUNTIME_PREFIX) else REVALIDATE


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    extensions_map = {  # noqa: RUF012  (the base class declares it as a plain class attribute)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
    }
    # The body's length as sent (the precompressed copy's when one was sent), for logs and measurements.
    body_bytes: int = 0

    def send_head(self) -> BinaryIO | None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        encoding = None
        if path.is_file():
            available = [name for name, suffix in ENCODINGS if path.with_name(path.name + suffix).is_file()]
            encoding = chosen_encoding(self.headers.get("Accept-Encoding", ""), available)
        if encoding is None:
            head = super().send_head()
            self.body_bytes = path.stat().st_size if head is not None and path.is_file() else 0
            return head
        # The original's time is the validator, whichever copy is sent, as for the base class.
        modified = int(path.stat().st_mtime)
        if self._not_modified_since(modified):
            self.send_response(304)
            self.end_headers()
            self.body_bytes = 0
            return None
        copy = path.with_name(path.name + dict(ENCODINGS)[encoding])
        handle = copy.open("rb")  # closed by the base class once copied
        try:
            size = os.fstat(handle.fileno()).st_size
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(size))
            self.send_header("Last-Modified", email.utils.formatdate(modified, usegmt=True))
            self.end_headers()
        except Exception:
            handle.close()
            raise
        self.body_bytes = size
        return handle

    def _not_modified_since(self, modified: int) -> bool:
        since = self.headers.get("If-Modified-Since")
        if since is None or "If-None-Match" in self.headers:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and modified <= int(when.timestamp())

    def end_headers(self) -> None:
        path = self.path.split("?")[0]
        self.send_header("Cache-Control", cache_control(path))
        self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = self._not_found_page() if code == HTTPStatus.NOT_FOUND else None
        if page is None:
            super().send_error(code, message, explain)
            return
        self.log_error("code %d, message %s", code, message)
        body = page.read_bytes()
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.body_bytes = 0 if self.command == "HEAD" else len(body)
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found_page(self) -> Path | None:
        """The 404 page of the edition the address belongs to (the root's, the English one, for the rest)."""
        path = urllib.parse.urlsplit(self.path).path
        root = Path(self.directory)
        folders = [
            edition.prefix for edition in EDITIONS if edition.prefix and path.startswith("/" + edition.prefix)
        ]
        for page in [*(root / folder / NOT_FOUND_PAGE for folder in folders), root / NOT_FOUND_PAGE]:
            if page.is_file():
                return page
        return None

    def handle(self) -> None:
        try:
            super().handle()
        except ConnectionError as exc:
            self.close_connection = True
            request = f'"{self.requestline}"' if getattr(self, "requestline", "") else "A request"
            self.log_message(
                "%s: the client closed the connection before the answer was sent (%s)", request, exc.strerror
            )


def _files(roots: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for root in roots:
        if root.is_file():
            files.append(root)
        elif root.is_dir():
            files.extend(p for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts)
    return files


def state(roots: Iterable[Path]) -> dict[str, tuple[int, int]]:
    """Every file under `roots` with its modification time and size: what a change to an input changes."""
    result: dict[str, tuple[int, int]] = {}
    for path in _files(roots):
        stat = path.stat()
        result[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return result


def watched_roots(layout: Layout, config: Path) -> list[Path]:
    """What `cvb serve` rebuilds the site for while it serves: the config, the templates and pages, the editor,
    the kit's templates, mkdocs' settings and the run records."""
    return [
        config,
        layout.root / "docs",
        layout.kit_templates,
        layout.editor_web,
        layout.mkdocs_config,
        layout.root / "results",
    ]


def build_roots(layout: Layout) -> list[Path]:
    """What else a build reads, made by `make`: the scorer wheel, the editor's snapshot, Pyodide, the clips."""
    return [layout.wheels, layout.snapshot, layout.pyodide, layout.clips]


def code_digest() -> str:
    """The generator's and the kit's code this process runs (a rebuild in this process uses it, edited or not)."""
    roots = [Path(package.__file__).parent for package in (generator, starter_kit) if package.__file__]
    return _digest(state(roots))


def inputs_digest(layout: Layout, config: Path, *, code: str, site_url: str) -> str:
    """One hash of everything a build of the site reads and of the address it is built for."""
    environment = {
        name: os.environ.get(name, "") for name in ("CVB_RESULTS", "CVB_BUILD_WITHOUT_BAD_RECORDS")
    }
    files = state([*watched_roots(layout, config), *build_roots(layout)])
    return _digest({"code": code, "site_url": site_url, "environment": environment, "files": files})


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _stamp_path(layout: Layout, target: Path) -> Path:
    name = hashlib.sha256(str(target).encode()).hexdigest()[:16]
    return layout.root / "build" / "cache" / "serve" / f"{name}.json"


def _site_identity(target: Path) -> Sequence[int]:
    # A build swaps a new folder in (generator/atomic.py), so a site built since (by `cvb build`, say) is
    # another inode: the record then no longer describes the folder there.
    stat = target.stat()
    return [stat.st_ino, stat.st_ctime_ns]


def is_up_to_date(layout: Layout, target: Path, digest: str) -> bool:
    """Whether `target` is the site `record_build` recorded, built from inputs with this digest."""
    stamp = _stamp_path(layout, target)
    if not target.is_dir() or not stamp.is_file():
        return False
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(recorded == {"inputs": digest, "site": list(_site_identity(target))})


def record_build(layout: Layout, target: Path, digest: str) -> None:
    """Note that `target` was just built from inputs with this digest."""
    stamp = _stamp_path(layout, target)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    partial = stamp.with_suffix(".partial")
    partial.write_text(json.dumps({"inputs": digest, "site": list(_site_identity(target))}), encoding="utf-8")
    partial.replace(stamp)
