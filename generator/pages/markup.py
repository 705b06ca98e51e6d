"""Finishing touches on the built HTML that Markdown cannot express. Pure: HTML text in, HTML text out.

- Chinese runs on a page that is not itself Chinese get `lang="zh-HK"`, so browsers pick Hong Kong glyph
  shapes (without a tag, Chromium on a Latin page falls back to Japanese forms).
- Inline code breaks after underscores, so `deadline_ms` wraps on a phone at a word joint, not mid-word, and
  an ISO date never breaks at all.
- Every content table sits in a scroll container that a keyboard can reach and a screen reader can name, and
  every code block, which scrolls too, can take the keyboard's focus.
- Every cell of a content table carries its column's heading (data-label), so that on a phone the stylesheet can
  stack a row's cells under their headings instead of pushing columns off the screen.

The HTML is tokenised, not parsed into a tree: the site's own output is well formed, and this keeps every byte
that is not touched exactly as mkdocs wrote it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

CHINESE_LANG = "zh-HK"
# Language tags that already give Hong Kong glyphs: the page's own Chinese and the editor's Cantonese.
_HK_LANG = re.compile(r"^(zh|yue)(-Hant)?-HK$", re.IGNORECASE)
# Han ideographs (with extensions and compatibility forms), CJK punctuation and full-width forms.
CJK = (
    "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
    "\U00020000-\U0002a6df\U0002a700-\U0002ebef\U00030000-\U0003134f"
)
# A run starts and ends on a CJK character and may hold Latin letters and digits between them with no space
# ("我想claim返", "總共3250保單": code-switching); a space ends it, so English prose around it stays English.
_CJK_RUN = re.compile(rf"[{CJK}](?:[^\s<{CJK}]*[{CJK}])*")
_HAS_CJK = re.compile(rf"[{CJK}]")
_TOKEN = re.compile(
    r"(<script\b.*?</script>|<style\b.*?</style>|<textarea\b.*?</textarea>|<!--.*?-->|<![^>]*>|<[^>]+>)",
    re.DOTALL | re.IGNORECASE,
)
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)")
_LANG_ATTR = re.compile(r"""\slang=["']([^"']*)["']""", re.IGNORECASE)
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
_HEADING = re.compile(r"^h[1-6]$")
_DATE = re.compile(r"(?<![\w-])\d{4}-\d{2}(?:-\d{2})?(?![\w-])")


@dataclass
class _Open:
    name: str
    lang: str | None
    wrapped: bool = False


@dataclass
class _State:
    stack: list[_Open] = field(default_factory=list)
    heading: list[str] = field(default_factory=list)
    in_heading: bool = False
    last_heading: str = ""
    labels: dict[str, int] = field(default_factory=dict)
    # The current content table's column headings, the heading being read, and the next cell's column.
    columns: list[str] = field(default_factory=list)
    column_text: list[str] | None = None
    cell: int = 0

    def lang(self) -> str:
        for element in reversed(self.stack):
            if element.lang is not None:
                return element.lang
        return ""

    def inside(self, name: str) -> bool:
        return any(e.name == name for e in self.stack)


def finish_page(page: str) -> str:
    """All three touches, in one pass over the page's tokens."""
    state = _State()
    out: list[str] = []
    for token in _TOKEN.split(page):
        if not token:
            continue
        if token.startswith("<"):
            out.append(_tag(token, state))
        else:
            out.append(_text(token, state))
    return "".join(out)


def _tag(token: str, state: _State) -> str:
    lowered = token[:10].lower()
    if lowered.startswith("<textarea"):
        return _textarea(token, state)
    if lowered.startswith(("<script", "<style", "<!")):
        return token
    match = _TAG.match(token)
    if not match:
        return token
    closing, name = match.group(1) == "/", match.group(2).lower()
    if closing:
        if name == "th" and state.column_text is not None:
            state.columns.append(" ".join("".join(state.column_text).split()))
            state.column_text = None
        if name == "table":
            wrapped = any(e.name == "table" and e.wrapped for e in state.stack[-1:])
            _pop(state, name)
            return token + "</div>" if wrapped else token
        if _HEADING.match(name) and state.in_heading:
            state.in_heading = False
            state.last_heading = " ".join("".join(state.heading).split())
        _pop(state, name)
        return token
    lang_match = _LANG_ATTR.search(token)
    if name == "code" and state.stack and state.stack[-1].name == "pre" and "tabindex" not in token:
        # A code block scrolls sideways on a phone; a keyboard can only scroll what it can focus.
        token = token[: match.end()] + ' tabindex="0"' + token[match.end() :]
    prefix = ""
    if name == "table" and not re.search(r"\sclass=", token):
        prefix = _scroll_container(state)
        state.columns = []
    in_content_table = any(e.name == "table" and e.wrapped for e in state.stack)
    if in_content_table and name == "tr":
        state.cell = 0
    elif in_content_table and name == "th":
        state.column_text = []
    elif in_content_table and name == "td":
        if state.cell < len(state.columns) and "data-label" not in token:
            label = html.escape(state.columns[state.cell], quote=True)
            token = token[: match.end()] + f' data-label="{label}"' + token[match.end() :]
        state.cell += 1
    if _HEADING.match(name):
        state.in_heading = True
        state.heading = []
    if name not in _VOID and not token.endswith("/>"):
        state.stack.append(_Open(name, lang_match.group(1) if lang_match else None, wrapped=bool(prefix)))
    return prefix + token


def _pop(state: _State, name: str) -> None:
    for index in range(len(state.stack) - 1, -1, -1):
        if state.stack[index].name == name:
            del state.stack[index:]
            return


def _scroll_container(state: _State) -> str:
    base = state.last_heading.rstrip("¶").strip() or "Table"
    seen = state.labels.get(base, 0) + 1
    state.labels[base] = seen
    label = base if seen == 1 else f"{base} (table {seen})"
    return f'<div class="cvb-table" role="region" tabindex="0" aria-label="{html.escape(label, quote=True)}">'


def _textarea(token: str, state: _State) -> str:
    opening_end = token.index(">") + 1
    opening, rest = token[:opening_end], token[opening_end:]
    if _HAS_CJK.search(rest) and not _LANG_ATTR.search(opening) and not _HK_LANG.match(state.lang()):
        opening = opening[:-1] + f' lang="{CHINESE_LANG}">'
    return opening + rest


def _text(text: str, state: _State) -> str:
    if state.in_heading:
        state.heading.append(html.unescape(text))
    if state.column_text is not None:
        state.column_text.append(html.unescape(text))
    if state.inside("pre") or state.inside("script") or state.inside("style"):
        return _tag_runs(text, state)
    if state.inside("code"):
        text = text.replace("_", "_<wbr>")
    elif not state.inside("title"):
        # An ISO date stays on one line: a narrow table column would otherwise split it at a hyphen.
        text = _DATE.sub(lambda m: f'<span class="cvb-date">{m.group(0)}</span>', text)
    return _tag_runs(text, state)


def _tag_runs(text: str, state: _State) -> str:
    if not _HAS_CJK.search(text) or _HK_LANG.match(state.lang()):
        return text
    if state.inside("title") or state.inside("option"):
        return text
    return _CJK_RUN.sub(lambda m: f'<span lang="{CHINESE_LANG}">{m.group(0)}</span>', text)


def cjk_runs_outside_hk_lang(page: str) -> list[str]:
    """Every CJK run in a text node of `page` with no Hong Kong language tag on it or an ancestor.

    The reference the test holds the finishing step to: a plain walk over the same tokens, no rewriting.
    """
    state = _State()
    bad: list[str] = []
    for token in _TOKEN.split(page):
        if not token:
            continue
        if token.startswith("<"):
            lowered = token[:10].lower()
            if lowered.startswith("<textarea"):
                opening_end = token.index(">") + 1
                lang = _LANG_ATTR.search(token[:opening_end])
                effective = lang.group(1) if lang else state.lang()
                if _HAS_CJK.search(token[opening_end:]) and not _HK_LANG.match(effective):
                    bad.append(token[opening_end:][:40])
                continue
            if lowered.startswith(("<script", "<style", "<!")):
                continue
            match = _TAG.match(token)
            if not match:
                continue
            name = match.group(2).lower()
            if match.group(1):
                _pop(state, name)
            elif name not in _VOID and not token.endswith("/>"):
                lang_match = _LANG_ATTR.search(token)
                state.stack.append(_Open(name, lang_match.group(1) if lang_match else None))
        elif _HAS_CJK.search(token) and not _HK_LANG.match(state.lang()) and not state.inside("title"):
            bad.extend(m.group(0) for m in _CJK_RUN.finditer(html.unescape(token)))
    return bad


def page_lang(page: str) -> str:
    found = re.search(r"<html\b[^>]*\slang=[\"']([^\"']+)", page, re.IGNORECASE)
    return found.group(1) if found else ""
