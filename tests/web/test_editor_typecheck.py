"""The editor's JavaScript is type-checked like the Python: TypeScript's compiler (pinned in package.json)
checks every script of scorer_wasm/web/ that the site serves, with the page's globals and with the worker's,
and finds nothing (tsc --noEmit; each file starts with // @ts-check)."""

from __future__ import annotations

import shutil
import subprocess

import editor_site
import pytest

TSC = editor_site.ROOT / "node_modules" / ".bin" / "tsc"
CONFIGS = ("tsconfig.json", "tsconfig.worker.json")


@pytest.mark.parametrize("config", CONFIGS)
def test_the_editors_scripts_pass_the_type_check(config: str) -> None:
    if shutil.which("node") is None or not TSC.is_file():
        pytest.skip("node or TypeScript is not installed: run `make node`")
    result = subprocess.run(
        [str(TSC), "--noEmit", "-p", str(editor_site.WEB / config)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_every_served_script_is_checked() -> None:
    import json

    from generator.site_build.assets import EDITOR_ASSETS

    checked = set()
    for config in CONFIGS:
        checked |= set(json.loads((editor_site.WEB / config).read_text(encoding="utf-8"))["files"])
    scripts = {name for name in EDITOR_ASSETS if name.endswith((".js", ".mjs"))}
    assert scripts <= checked, scripts - checked
    for name in scripts:
        assert (editor_site.WEB / name).read_text(encoding="utf-8").startswith("// @ts-check\n"), name
