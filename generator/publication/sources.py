"""Where a published site is read from: a folder, or its URL (stdlib urllib only, nothing else)."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Protocol

TIMEOUT_S = 30


class UnreadableSite(Exception):
    """The published site cannot be read at all; the message says where and why in one sentence."""


class Published(Protocol):
    @property
    def label(self) -> str: ...

    def read(self, path: str) -> bytes | None:
        """The bytes served at `path` (relative to the site root), or None when there is none."""


@dataclass(frozen=True)
class Folder:
    root: Path

    @property
    def label(self) -> str:
        return str(self.root)

    def read(self, path: str) -> bytes | None:
        target = self.root / path
        if target.is_dir() or path.endswith("/") or not path:
            target = target / "index.html"
        return target.read_bytes() if target.is_file() else None


@dataclass(frozen=True)
class Url:
    base: str

    @property
    def label(self) -> str:
        return self.base

    def read(self, path: str) -> bytes | None:
        address = urllib.parse.urljoin(self.base.rstrip("/") + "/", path)
        try:
            with urllib.request.urlopen(address, timeout=TIMEOUT_S) as response:
                data: bytes = response.read()
                return data
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise UnreadableSite(
                f"{address} answered HTTP {exc.code}; the published site could not be read."
            ) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise UnreadableSite(f"{address} could not be reached ({reason}); check the URL.") from None


def open_published(where: str) -> Published:
    if where.startswith(("http://", "https://")):
        return Url(where)
    folder = Path(where)
    if not (folder / "index.html").is_file():
        raise UnreadableSite(f"{folder} holds no built site (no index.html); give the folder a build wrote.")
    return Folder(folder)


class _Text(HTMLParser):
    """The text of an HTML document, or of its first <article> (mkdocs-material's page content) if asked."""

    def __init__(self, *, article_only: bool, code: bool = True) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._code = code
        self._in_code = 0
        self._skip = 0
        self._article = 0
        self._done = False
        self._article_only = article_only
        self._closes_skipped: str | None = None  # the tag that closes a skipped permalink mark or tab title

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        if tag in ("pre", "code"):
            self._in_code += 1
        # Neither a heading's permalink mark (mkdocs's "¶", the theme's) nor a tab's title (the site puts a
        # set's titles together above its tabs, the printed page each above its tab) is the page's text, and
        # neither holds a number. Each holds only text, so the next end tag of its kind closes it.
        headerlink = tag == "a" and ("class", "headerlink") in attrs
        tab_title = tag == "label" and (dict(attrs).get("for") or "").startswith("__tabbed_")
        if headerlink or tab_title:
            self._skip += 1
            self._closes_skipped = tag
        if tag == "article" and not self._done:
            self._article += 1
        if tag in ("p", "div", "li", "tr", "br", "h1", "h2", "h3", "h4", "pre", "td", "th"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1
        if tag in ("pre", "code") and self._in_code:
            self._in_code -= 1
            if not self._code:
                self.parts.append(" ")
        if tag == self._closes_skipped:
            self._skip -= 1
            self._closes_skipped = None
        if tag == "article" and self._article:
            self._article -= 1
            if not self._article:
                self._done = True

    def handle_data(self, data: str) -> None:
        if self._skip or (self._in_code and not self._code):
            return
        if self._article_only and (self._done or not self._article):
            return
        self.parts.append(data)


def html_text(html: str, *, article_only: bool = False, code: bool = True) -> str:
    """The text a reader sees; with code=False, without what code spans and blocks show."""
    parser = _Text(article_only=article_only, code=code)
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)
