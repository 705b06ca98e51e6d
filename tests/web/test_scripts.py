"""The editor's scripts, checked without a browser: they parse, and none names another origin."""

from __future__ import annotations

import re
import shutil
import subprocess

import editor_site
import pytest

SCRIPTS = ("early.js", "editor.js", "editor_state.js", "worker.js", "memory.mjs", "sw.js")


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_parses_as_a_module(name: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: run `make node` (or install Node 20)")
    source = (editor_site.WEB / name).read_text(encoding="utf-8")
    # --input-type=module makes node parse the text as an ES module, as the browser does, without running it.
    result = subprocess.run(
        [node, "--check", "--input-type=module"], input=source, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", [*SCRIPTS, "editor.css", "editor.html.j2"])
def test_no_asset_names_another_origin(name: str) -> None:
    text = (editor_site.WEB / name).read_text(encoding="utf-8")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), (
        f"{name} names a URL on another origin; the editor must load everything from the site itself"
    )


def test_the_worker_started_before_intent_has_one_name_in_every_script() -> None:
    # early.js (a classic script) cannot import editor.js's constant, and worker.js tells the kept-only start
    # by this name: the three must agree, or an early worker would fetch what nobody asked for.
    names = {
        name: set(
            re.findall(r'"(cvb-scorer-kept[^"]*)"', (editor_site.WEB / name).read_text(encoding="utf-8"))
        )
        for name in ("early.js", "editor.js", "worker.js")
    }
    assert all(found == {"cvb-scorer-kept"} for found in names.values()), names
