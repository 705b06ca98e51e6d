"""The HTTP handler of `cvb serve` (and of the browser tests): the built site as a static host should serve it.

- A file with a precompressed copy beside it (``name.br``, ``name.gz``, written by the build) is sent as that
  copy with ``Content-Encoding`` when the request's ``Accept-Encoding`` allows it, as nginx's ``gzip_static``
  and ``brotli_static`` do; ``Vary: Accept-Encoding`` tells caches that the answer depends on it.
- The editor's runtime (``assets/runtime/<hash>/``) is named by its content, so it may be kept for a year
  without asking again (``immutable``); everything else is revalidated on each use (``no-cache``), so a
  rebuilt page is never hidden behind an old copy.
- HTTP/1.1 as any real host speaks it: with 1.0 Chromium reuses nothing from its cache.
"""

from __future__ import annotations

import email.utils
import http.server
import os
from pathlib import Path
from typing import BinaryIO

from generator.precompress import ENCODINGS, chosen_encoding

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
RUNTIME_PREFIX = "/assets/runtime/"


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
