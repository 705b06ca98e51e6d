"""Every string the editor shows comes from the config (platform_config/glossary.yaml, `interface`): the keys the
state machine writes are all there, and the Traditional Chinese editor in Chromium shows no English label."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import editor_site
import pytest
from conftest import wait_live

from generator.config.load import load_config

STATE = editor_site.WEB / "editor_state.js"
CONFIG = editor_site.ROOT / "platform_config"

# Technical tokens the Chinese pages keep as they are (formats, metric names, counts' letters, the tool).
TECHNICAL = {
    "JSON",
    "JSONL",
    "CER",
    "MER",
    "S",
    "D",
    "I",
    "N",
    "cvb-score",
    "json",
    "id",
    "text",
    "Python",
    "sha256",
}


def state_machine_keys() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: run `make node` (or install Node 20)")
    script = f"import({json.dumps(STATE.as_uri())}).then((m) => console.log(JSON.stringify(Object.keys(m.STRINGS))))"
    result = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True, timeout=60
    )
    return list(json.loads(result.stdout))


def test_every_sentence_of_the_state_machine_is_in_the_config_in_both_languages() -> None:
    interface = load_config(CONFIG).glossary.interface
    missing = [key for key in state_machine_keys() if key not in interface]
    assert not missing, f"glossary.yaml `interface` lacks {missing}"
    for key in state_machine_keys():
        # The same placeholders in both languages, or the editor would print a raw {name}.
        en, zh = interface[key].en, interface[key].zh
        assert sorted(re.findall(r"\{(\w+)\}", en)) == sorted(re.findall(r"\{(\w+)\}", zh)), key


# The editor's own text on the page, without what is not a label: the texts in the boxes, the drawing (the
# scorer's alignment, with its own legend), code (signature, wheel name and hash), the JSON sample and the names
# of the files chosen (the reader's own; with none chosen they say so, checked in the test).
VISIBLE_LABELS = """
(root) => {
  const copy = root.cloneNode(true);
  const own = 'textarea, [data-cvb-drawing], code, noscript, input, [data-cvb-file-name]';
  for (const node of copy.querySelectorAll(own)) node.remove();
  return copy.textContent;
}
"""


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_the_chinese_editor_shows_no_english_label(site: editor_site.Site, page: Any, tmp_path: Path) -> None:
    interface = load_config(CONFIG).glossary.interface
    page.goto(site.url("zh/" + site.editor_path))
    root = wait_live(page)
    assert root.locator("[data-cvb-status]").inner_text() == interface["ready"].zh
    # Edited, so the copy/download/permalink/reset buttons show; the files section open with one file chosen.
    root.locator("[data-cvb-hyp]").fill("保單號碼")
    page.wait_for_selector("[data-cvb-editor]:not(.cvb-editor--compact) [data-cvb-keep]:not([hidden])")
    box = root.locator("[data-cvb-files]")
    box.locator("summary").click()
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "text": "保單"}\n', encoding="utf-8")
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(ref))
    status = interface["files_choose_other"].zh.replace("{side}", interface["hypothesis"].zh)
    page.wait_for_function(
        "([want]) => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact) "
        "[data-cvb-files-status]').textContent === want",
        arg=[status],
    )
    # The choosers are the page's, in Chinese: the browser's own file input (its button and "no file" are in the
    # browser's language) is kept unseen.
    assert box.locator('[data-cvb-file-name="reference"]').inner_text() == "ref.jsonl"
    assert box.locator('[data-cvb-file-name="hypothesis"]').inner_text() == interface["files_none"].zh
    assert box.locator(".cvb-files__choose").first.inner_text() == interface["files_choose"].zh
    native = box.locator('input[data-cvb-file="hypothesis"]')
    assert native.evaluate("(el) => getComputedStyle(el).opacity") == "0"
    assert (native.bounding_box() or {}).get("width", 0) <= 1
    native.focus()
    assert native.evaluate("(el) => document.activeElement === el"), (
        "the input can still be reached by keyboard"
    )
    # Emptied once its file is taken: choosing the same file again, edited since, must be a change too.
    assert box.locator('input[data-cvb-file="reference"]').input_value() == ""
    # Hidden labels count too (a button shown later must not be English either).
    text = str(root.evaluate(VISIBLE_LABELS))
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9-]*", text)) - TECHNICAL
    assert not words, f"English on the Chinese editor: {sorted(words)}\n{text}"
    assert interface["files_rerun"].zh in text and interface["copy_link"].zh in text
