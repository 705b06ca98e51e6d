"""Jinja2 into plain Markdown. The only place templates meet values; it computes nothing itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
import jinja2.bccache

from generator.pages.board import chart_svg
from generator.pages.words import and_list, cardinal, fraction_words
from generator.pages.words_zh import ZH_FILTERS
from generator.provenance import Num, Text

# Private-use characters: they never occur in config or prose, so they can bracket tracked output safely.
MARK_OPEN = "\ue000"
MARK_CLOSE = "\ue001"
# With keys=True a marked value also carries its config keys: OPEN value KEYS key,key CLOSE (the publication
# check reads them to name the key of a number that differs).
MARK_KEYS = "\ue002"


def _num(value: object) -> Num:
    if not isinstance(value, Num):
        raise TypeError(f"this filter formats a number from the config, and was given {value!r}")
    return value


def percent(value: object, digits: int = 0) -> Text:
    n = _num(value)
    shown = round(n.value * 100, digits)
    return Text(f"{shown:g}%" if digits else f"{round(n.value * 100):d}%", n.sources)


def seconds(value: object) -> Text:
    n = _num(value)
    return Text(f"{n.value / 1000:g}", n.sources)


def thousands(value: object) -> Text:
    n = _num(value)
    return Text(f"{n.value:,.0f}" if float(n.value).is_integer() else f"{n.value:,}", n.sources)


def khz(value: object) -> Text:
    n = _num(value)
    return Text(f"{n.value / 1000:g}", n.sources)


def decimal(value: object, digits: int = 2) -> Text:
    n = _num(value)
    return Text(f"{n.value:.{digits}f}", n.sources)


def ordinal(value: object) -> Text:
    n = _num(value)
    whole = int(n.value)
    suffix = "th" if 10 <= whole % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(whole % 10, "th")
    return Text(f"{whole}{suffix}", n.sources)


FILTERS: dict[str, Callable[..., Any]] = {
    "percent": percent,
    "seconds": seconds,
    "thousands": thousands,
    "khz": khz,
    "decimal": decimal,
    "ordinal": ordinal,
    "words": cardinal,
    "fraction": fraction_words,
    "and_list": and_list,
    # The standings' interval chart, titled in the page's language (generator/pages/board.py).
    "chart_svg": chart_svg,
    # The Chinese edition's number words (generator/pages/words_zh.py).
    **ZH_FILTERS,
}


class _CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per process rather than once per environment: a build, a check and the PDFs
    each make environments over the same templates (a publication check compiled them three times, a quarter
    of its time). A bucket's key names the template and its file; the code is used only while the source has
    the checksum it was compiled from, so an edited template is compiled again. One cache per set of
    ``environment`` options, as they can change the compiled code."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self._code.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)


_COMPILED: dict[tuple[bool, bool], _CompiledTemplates] = {}


def environment(search_path: list[Path], *, mark: bool, keys: bool = False) -> jinja2.Environment:
    """`mark=True` brackets every tracked value so the check can see which digits came from the config."""

    def finalize(value: object) -> object:
        if isinstance(value, Num | Text):
            if not mark:
                return str(value)
            named = f"{MARK_KEYS}{','.join(sorted(value.sources))}" if keys else ""
            return f"{MARK_OPEN}{value}{named}{MARK_CLOSE}"
        return value

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in search_path]),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
        bytecode_cache=_COMPILED.setdefault((mark, keys), _CompiledTemplates()),
    )
    env.filters.update(FILTERS)
    return env


def render(env: jinja2.Environment, template: str, context: Mapping[str, Any]) -> str:
    return env.get_template(template).render(**context)


def mark_as_tracked(text: str, *, mark: bool) -> str:
    """Bracket text computed by trusted code (the scorer) the same way the renderer brackets config values."""
    return f"{MARK_OPEN}{text}{MARK_CLOSE}" if mark else text
