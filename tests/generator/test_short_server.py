"""The short recognition server the guide shows (docs/templates/_short_server.py.j2): the very code on the page,
in both editions, about forty lines, run on loopback against the real connection-test client on the recognition
clips the connection test plays."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from generator.build import Rendered, render_all
from generator.kit_servers import kit_server, run
from generator.paths import Layout
from starter_kit.connection_test.client import run_items
from starter_kit.connection_test.clips import load_clips
from starter_kit.protocol.machine import Item
from tests.starter_kit.protocol_support import SETTINGS

pytestmark = pytest.mark.xdist_group("kit-servers")
LAYOUT = Layout()
_BLOCK = re.compile(r"### A server that already works.*?```python\n(.*?)```", re.S)
_ZH_BLOCK = re.compile(r"### 一個現成可用的伺服器.*?```python\n(.*?)```", re.S)


@functools.cache
def rendered() -> Rendered:
    return render_all(LAYOUT)


def shown(pattern: re.Pattern[str], page: str) -> str:
    match = pattern.search(page)
    assert match, "the guide shows no short server"
    return match.group(1)


def test_both_editions_show_the_same_short_server_of_about_forty_lines() -> None:
    english = shown(_BLOCK, rendered().pages["index.md"])
    assert english == shown(_ZH_BLOCK, rendered().zh_pages["index.md"])
    lines = english.strip().splitlines()
    assert 30 <= len(lines) <= 50, len(lines)
    # The full servers are not on the guide: it links to the kit instead.
    assert "server.mjs" not in rendered().pages["index.md"].split("## Downloads")[0]


def test_the_short_server_passes_the_connection_tests_recognition_clips(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(shown(_BLOCK, rendered().pages["index.md"]), encoding="utf-8")
    clips = load_clips(LAYOUT.clips, settings=SETTINGS, shortest=SETTINGS.connection_test_clips)
    assert len(clips) == SETTINGS.connection_test_clips
    items = [Item("asr", clip) for clip in clips]
    with kit_server("python", tmp_path) as server:
        result = run(
            run_items(items, server.url, settings=SETTINGS, concurrency=2, paced=False, insecure=True)
        )
    failed = [
        (v.clip_id, v.failure.code if v.failure else None, v.detail) for v in result.verdicts if not v.passed
    ]
    assert result.passed and len(result.verdicts) == len(items), (failed, server.log()[-2000:])
