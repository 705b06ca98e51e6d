"""File mode in Debian's Chromium: the same two JSONL files through the browser and through `cvb-score --json`
give the same bytes; a bad line gets the CLI's sentence, with the file's name and the line."""

from __future__ import annotations

import itertools
import json
import subprocess
from pathlib import Path
from typing import Any

import editor_site
import pytest
from conftest import PageLog, open_context, wait_live
from pairs import parity_pairs

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

CLI = editor_site.ROOT / ".venv" / "bin" / "cvb-score"
FILES = "[data-cvb-editor]:not(.cvb-editor--compact) [data-cvb-files]"


def write_pair(folder: Path, pairs: list[tuple[str, str]], *, missing: int = 3) -> tuple[Path, Path]:
    ref, hyp = folder / "dev-ref.jsonl", folder / "dev-hyp.jsonl"
    ref.write_text(
        "".join(
            json.dumps({"id": f"clip-{i:04d}", "text": r}, ensure_ascii=False) + "\n"
            for i, (r, _) in enumerate(pairs)
        ),
        encoding="utf-8",
    )
    # The last few clips have no hypothesis, so coverage is below one and they are scored as deletions.
    hyp.write_text(
        "".join(
            json.dumps({"id": f"clip-{i:04d}", "text": h}, ensure_ascii=False) + "\n"
            for i, (_, h) in enumerate(pairs[: len(pairs) - missing])
        ),
        encoding="utf-8",
    )
    return ref, hyp


def open_box(page: Any) -> Any:
    """The full editor's file section, opened."""
    box = page.locator(FILES)
    box.locator("summary").click()
    return box


def choose(page: Any, ref: Path, hyp: Path) -> Any:
    box = open_box(page)
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(ref))
    box.locator('input[data-cvb-file="hypothesis"]').set_input_files(str(hyp))
    return box


def downloaded(page: Any, box: Any) -> bytes:
    """What the section's download button saves: the report's JSON, as bytes."""
    with page.expect_download() as download:
        box.locator("[data-cvb-files-download]").click()
    return Path(download.value.path()).read_bytes()


def cli(ref: Path, hyp: Path, *options: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(CLI), *options, ref.name, hyp.name], cwd=ref.parent, capture_output=True, check=False
    )


def test_the_downloaded_json_is_the_clis_byte_for_byte(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    pairs = parity_pairs()[40:100]  # generated calls, past the edge cases (empty texts and the like)
    ref, hyp = write_pair(tmp_path, pairs)
    page.goto(site.url(site.editor_path))
    box = choose(page, ref, hyp)
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=120_000)
    assert "Scored 60 clips" in box.locator("[data-cvb-files-status]").inner_text()
    got = downloaded(page, box)
    want = cli(ref, hyp, "--json")
    assert want.returncode == 0, want.stderr
    assert got == want.stdout
    # The table lists every clip, worst first; a click draws that clip in the editor above.
    rows = box.locator("tbody tr")
    assert rows.count() == 60
    report = json.loads(want.stdout)
    worst = max(report["clips"], key=lambda c: c["cer"])
    assert rows.first.get_attribute("data-clip") == worst["id"]
    summary = box.locator("[data-cvb-files-summary]").inner_text()
    assert f"{report['cer'] * 100:.2f}%" in summary and "57 of 60" in summary, summary
    box.locator("thead [data-sort=id]").click()
    assert box.locator("tbody tr").first.get_attribute("data-clip") == "clip-0000"
    box.locator("tbody tr").nth(1).locator("button").click()
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    page.wait_for_function(
        "(want) => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact) [data-cvb-hyp]').value === want",
        arg=pairs[1][1],
    )
    assert root.locator("[data-cvb-ref]").input_value() == pairs[1][0]


def test_the_copied_report_is_the_clis_text(site: editor_site.Site, page: Any, tmp_path: Path) -> None:
    ref, hyp = write_pair(tmp_path, parity_pairs()[100:130])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.base.rstrip("/"))
    page.goto(site.url(site.editor_path))
    box = choose(page, ref, hyp)
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=120_000)
    box.locator("[data-cvb-files-copy]").click()
    want = cli(ref, hyp)
    assert want.returncode == 0, want.stderr
    editor_site.until(
        page, "async (want) => (await navigator.clipboard.readText()) === want", want.stdout.decode("utf-8")
    )


@pytest.mark.parametrize(
    ("bad", "line"),
    [
        ('{"id": "clip-0001", "text": "保單"\n', 2),
        ('{"id": "clip-0001"}\n', 2),
        ('{"id": "zzz", "text": "x"}\n', 2),
    ],
)
def test_a_file_with_a_bad_line_gets_the_clis_sentence(
    site: editor_site.Site, page: Any, tmp_path: Path, bad: str, line: int
) -> None:
    ref, hyp = write_pair(tmp_path, [("保單", "保单"), ("你好", "你好")], missing=0)
    hyp.write_text(hyp.read_text(encoding="utf-8").splitlines(keepends=True)[0] + bad, encoding="utf-8")
    want = cli(ref, hyp, "--json")
    assert want.returncode == 2
    sentence = want.stderr.decode().strip().removeprefix("cvb-score: ")
    assert f"line {line}" in sentence and hyp.name in sentence
    page.goto(site.url(site.editor_path))
    box = choose(page, ref, hyp)
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel + ' [data-cvb-files-status]').textContent === want",
        arg=[FILES, sentence],
        timeout=120_000,
    )
    assert box.locator("[data-cvb-files-actions]").is_hidden()
    assert box.locator("tbody tr").count() == 0
    wait_live(page)


def test_on_the_chinese_page_the_clis_sentence_is_introduced_in_chinese(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    from generator.config.load import load_config

    ref, hyp = write_pair(tmp_path, [("保單", "保单"), ("你好", "你好")], missing=0)
    hyp.write_text(hyp.read_text(encoding="utf-8") + "not json\n", encoding="utf-8")
    sentence = cli(ref, hyp, "--json").stderr.decode().strip().removeprefix("cvb-score: ")
    lead = load_config(editor_site.ROOT / "platform_config").glossary.interface["files_failed"].zh
    assert lead != "{error}" and "{error}" in lead
    page.goto(site.url("zh/" + site.editor_path))
    choose(page, ref, hyp)
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel + ' [data-cvb-files-status]').textContent === want",
        arg=[FILES, lead.replace("{error}", sentence)],
        timeout=120_000,
    )


PASTE = """
([selector, text]) => {
  const box = document.querySelector(selector);
  const data = new DataTransfer();
  data.setData('text/plain', text);
  box.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
}
"""


def test_pasted_jsonl_is_scored_as_files_not_as_text(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    ref, hyp = write_pair(tmp_path, parity_pairs()[100:110], missing=1)
    page.goto(site.url(site.editor_path))
    box = open_box(page)
    page.evaluate(PASTE, [FILES, ref.read_text(encoding="utf-8")])
    assert "hypothesis" in box.locator("[data-cvb-files-status]").inner_text()
    # The chooser says what the side holds, pasted or chosen; the browser's own input would say nothing.
    assert box.locator('[data-cvb-file-name="reference"]').inner_text() == "pasted-reference.jsonl"
    assert box.locator('[data-cvb-file-name="hypothesis"]').inner_text() == "none chosen"
    page.evaluate(PASTE, [FILES, hyp.read_text(encoding="utf-8")])
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=120_000)
    assert downloaded(page, box) == cli(ref, hyp, "--json").stdout


# A file dropped on one side's chooser, as a reader drags it from their file manager.
DROP = """
([selector, side, name, text]) => {
  const label = document.querySelector(`${selector} [data-cvb-file="${side}"]`).closest('label');
  const data = new DataTransfer();
  data.items.add(new File([text], name, {type: 'application/json'}));
  label.querySelector('.cvb-files__choose').dispatchEvent(
    new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
}
"""


def test_a_file_dropped_on_a_side_goes_to_that_side(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    ref, hyp = write_pair(tmp_path, parity_pairs()[100:110], missing=1)
    page.goto(site.url(site.editor_path))
    box = open_box(page)
    # The hypothesis first: without a side, the first file would be taken as the reference.
    page.evaluate(DROP, [FILES, "hypothesis", hyp.name, hyp.read_text(encoding="utf-8")])
    names = box.locator('[data-cvb-file-name="hypothesis"]')
    page.wait_for_function("(el) => el.textContent === 'dev-hyp.jsonl'", arg=names.element_handle())
    assert "reference" in box.locator("[data-cvb-files-status]").inner_text()
    page.evaluate(DROP, [FILES, "reference", ref.name, ref.read_text(encoding="utf-8")])
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=120_000)
    assert downloaded(page, box) == cli(ref, hyp, "--json").stdout


def test_cancel_stops_a_large_run_keeps_the_texts_and_score_again_gives_the_clis_bytes(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    from pairs import corpus_pairs

    ref, hyp = write_pair(tmp_path, corpus_pairs(3_000), missing=5)
    page.goto(site.url(site.editor_path))
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    wait_live(page)
    root.locator("[data-cvb-hyp]").fill(
        "保單號碼"
    )  # the single-pair editor's own text, kept through a cancel
    box = choose(page, ref, hyp)
    bar = box.locator("[data-cvb-files-progress]")
    # The bar is labelled and moves: it shows a percentage once the worker has reported.
    page.wait_for_function(
        "(sel) => Number(document.querySelector(sel + ' [data-cvb-files-progress]').getAttribute('value')) > 0",
        arg=FILES,
        timeout=120_000,
    )
    assert box.locator("label:has([data-cvb-files-progress])").count() == 1
    assert "%" in (bar.get_attribute("aria-valuetext") or "")
    page.evaluate(
        """() => {
          window.cvbDrawnAfterCancel = [];
          document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)')
            .addEventListener('cvb:rendered', (e) => window.cvbDrawnAfterCancel.push(e.detail.hypothesis));
        }"""
    )
    box.locator("[data-cvb-files-cancel]").click()
    assert box.locator("[data-cvb-files-running]").is_hidden()
    assert "Stopped before the end" in box.locator("[data-cvb-files-status]").inner_text()
    assert box.locator("[data-cvb-files-actions]").is_hidden()
    # A fresh worker comes up and the pair in the boxes is drawn again, unchanged.
    page.wait_for_function(
        "() => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)').dataset.cvbEngine === 'ready'",
        timeout=120_000,
    )
    assert root.locator("[data-cvb-hyp]").input_value() == "保單號碼"
    page.wait_for_function("() => window.cvbDrawnAfterCancel.includes('保單號碼')", timeout=120_000)
    box.locator("[data-cvb-files-rerun]").click()
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=600_000)
    assert box.locator("[data-cvb-files-rerun]").is_hidden()
    want = cli(ref, hyp, "--json").stdout
    assert downloaded(page, box) == want
    # The table is read a page at a time: the second page holds the next clips in the same order.
    by_worst = [c["id"] for c in sorted(json.loads(want)["clips"], key=lambda c: -c["cer"])]
    rows = box.locator("tbody tr")
    page_size = rows.count()
    assert 0 < page_size < len(by_worst)
    assert [rows.nth(k).get_attribute("data-clip") for k in (0, page_size - 1)] == [
        by_worst[0],
        by_worst[page_size - 1],
    ]
    box.locator("[data-page]").last.click()
    assert rows.first.get_attribute("data-clip") == by_worst[page_size]
    assert f"{page_size + 1:,}" in box.locator("caption").inner_text()


# The box as it was the first time its table had rows: whether the job was still running and in which phase,
# whether the download was offered, the summary, and whether a clip's button could be pressed.
FIRST_TABLE = """
(selector) => {
  const box = document.querySelector(selector);
  window.cvbFirstTable = null;
  new MutationObserver((_, observer) => {
    const row = box.querySelector('[data-cvb-files-table] tbody tr');
    if (!row) return;
    observer.disconnect();
    const running = box.querySelector('[data-cvb-files-running]');
    window.cvbFirstTable = {
      running: !running.hidden,
      phase: running.dataset.phase,
      actions: !box.querySelector('[data-cvb-files-actions]').hidden,
      summary: box.querySelector('[data-cvb-files-summary]').textContent,
      first: row.dataset.clip,
      disabled: row.querySelector('button').disabled,
    };
  }).observe(box, {subtree: true, childList: true});
}
"""


# Types into the pair's hypothesis and reads, in the same task, what the page then says about the drawing.
TYPE_DURING_JOB = """
(selector) => {
  const root = document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact)');
  const hyp = root.querySelector('[data-cvb-hyp]');
  hyp.value += '呀';
  hyp.dispatchEvent(new Event('input', {bubbles: true}));
  return {
    running: !document.querySelector(selector + ' [data-cvb-files-running]').hidden,
    status: root.querySelector('[data-cvb-status]').textContent,
    stale: root.querySelector('[data-cvb-drawing]').classList.contains('cvb-editor__drawing--stale'),
  };
}
"""
WAITING = "The scorer is busy with the files below: your edit is drawn once they are scored."


def test_the_figures_and_the_table_come_before_the_intervals_and_clips_open_once_they_are_drawn(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    from pairs import corpus_pairs

    # 1,000 clips: about 10 million draws for the intervals, seconds in the browser's pure Python.
    ref, hyp = write_pair(tmp_path, corpus_pairs(1_000), missing=4)
    want = cli(ref, hyp, "--json")
    assert want.returncode == 0, want.stderr
    report = json.loads(want.stdout)
    page.goto(site.url(site.editor_path))
    wait_live(page)
    page.evaluate(FIRST_TABLE, FILES)
    box = choose(page, ref, hyp)
    # An edit typed while the files are scored waits for the worker: the page says so and marks the drawing.
    page.wait_for_selector(f"{FILES} tbody tr", timeout=300_000)
    typed = page.evaluate(TYPE_DURING_JOB, FILES)
    assert typed["running"], "the job ended before the edit: the case did not happen"
    assert typed["status"] == WAITING and typed["stale"], typed
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=300_000)
    root = page.locator("[data-cvb-editor]:not(.cvb-editor--compact)").first
    page.wait_for_function(
        "() => !document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact) .cvb-editor__drawing--stale')"
    )
    assert root.locator("[data-cvb-status]").inner_text() != WAITING
    early = page.evaluate("() => window.cvbFirstTable")
    assert early["running"] and early["phase"] in ("figures", "bootstrap"), early
    assert not early["actions"], "nothing is offered for download before the report is whole"
    assert early["disabled"], "a clip's drawing waits for the worker, busy with the intervals"
    cer, mer = f"{report['cer'] * 100:.2f}%", f"{report['mer'] * 100:.2f}%"
    assert cer in early["summary"] and mer in early["summary"], early["summary"]
    assert "intervals follow" in early["summary"] and "996 of 1,000" in early["summary"], early["summary"]
    assert early["first"] == max(report["clips"], key=lambda c: c["cer"])["id"]
    # Once whole: the interval in the summary, the clips open, and the same worst clip first.
    low = f"{report['ci95']['cer'][0] * 100:.2f}%"
    assert low in box.locator("[data-cvb-files-summary]").inner_text()
    first = box.locator("tbody tr").first
    assert first.get_attribute("data-clip") == early["first"]
    first.locator("button").click()
    reference = corpus_pairs(1_000)[int(early["first"].removeprefix("clip-"))][0]
    page.wait_for_function(
        "(want) => document.querySelector('[data-cvb-editor]:not(.cvb-editor--compact) [data-cvb-ref]').value === want",
        arg=reference,
    )


def test_files_replaced_while_a_job_runs_stop_it_and_are_scored_on_a_fresh_worker(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    from pairs import corpus_pairs

    big_ref, big_hyp = write_pair(tmp_path, corpus_pairs(3_000), missing=5)
    (tmp_path / "right").mkdir()
    ref, hyp = write_pair(tmp_path / "right", parity_pairs()[40:52])
    page.goto(site.url(site.editor_path))
    box = choose(page, big_ref, big_hyp)
    page.wait_for_function(
        "(sel) => Number(document.querySelector(sel + ' [data-cvb-files-progress]').getAttribute('value')) > 0",
        arg=FILES,
        timeout=120_000,
    )
    # The reader picked the wrong pair: the right one replaces it while the first is being scored.
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(ref))
    box.locator('input[data-cvb-file="hypothesis"]').set_input_files(str(hyp))
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=300_000)
    assert page.evaluate("() => performance.getEntriesByName('cvb:worker-start').length") == 2
    assert "Scored 12 clips" in box.locator("[data-cvb-files-status]").inner_text()
    assert box.locator("[data-cvb-files-rerun]").is_hidden(), "the reader cancelled nothing"
    assert downloaded(page, box) == cli(ref, hyp, "--json").stdout


# Where each of a box's visible buttons sits and whether it is drawn as one (a border), and how far apart the
# clips' table keeps its cells' text.
LAYOUT = """
(root) => {
  const buttons = [...root.querySelectorAll('[data-cvb-keep] button, [data-cvb-files-actions] button')]
    .filter((b) => b.offsetParent !== null)
    .map((b) => ({text: b.textContent, border: parseFloat(getComputedStyle(b).borderTopWidth),
                  rect: b.getBoundingClientRect().toJSON()}));
  const cell = root.querySelector('[data-cvb-files-table] tbody td');
  const style = getComputedStyle(cell);
  return {buttons, padding: parseFloat(style.paddingLeft) + parseFloat(style.paddingRight),
          page: document.documentElement.scrollWidth};
}
"""


def test_on_a_phone_the_buttons_are_buttons_and_the_clips_counts_stay_apart(
    site: editor_site.Site, browser: Any, log: PageLog, tmp_path: Path
) -> None:
    # The theme leaves <button> as bare text: the copy, download, link and reset buttons read as one line of
    # words, and the table's S, D, I, N columns as one number ("3 0 0 10 2"), on a phone in particular.
    context = open_context(
        browser, log, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(site.url("zh/" + site.editor_path))
        root = wait_live(page)
        root.locator("[data-cvb-hyp]").fill("保單號碼")
        ref, hyp = write_pair(
            tmp_path, [("保單號碼", "保单号码"), ("我部iPhone", "我部 i phone")] * 3, missing=0
        )
        choose(page, ref, hyp)
        page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=120_000)
        layout = root.evaluate(LAYOUT)
    finally:
        context.close()
    buttons = layout["buttons"]
    assert len(buttons) == 6, buttons  # copy, download, link, reset; the report's download and copy
    assert all(b["border"] >= 1 for b in buttons), buttons
    for a, b in itertools.pairwise(buttons):
        same_line = abs(a["rect"]["top"] - b["rect"]["top"]) < 1
        assert not same_line or b["rect"]["left"] - a["rect"]["right"] >= 4, (a, b)
    assert layout["padding"] >= 8, layout
    assert layout["page"] <= 390, layout


# Every change of the running bar, from the first: its step, value and text, in order.
WATCH_BAR = """
(selector) => {
  const box = document.querySelector(selector);
  const running = box.querySelector('[data-cvb-files-running]');
  const bar = box.querySelector('[data-cvb-files-progress]');
  const text = box.querySelector('[data-cvb-files-progress-text]');
  window.cvbBar = [];
  const look = () => {
    if (running.hidden) return;
    const seen = {step: running.dataset.phase, value: bar.getAttribute('value'), text: text.textContent};
    const last = window.cvbBar.at(-1);
    if (!last || last.value !== seen.value || last.text !== seen.text) window.cvbBar.push(seen);
  };
  new MutationObserver(look).observe(box, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""


def test_a_100000_clip_pair_is_announced_first_and_its_bar_moves_in_every_step(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    from generator.config.load import load_config

    words = load_config(editor_site.ROOT / "platform_config").glossary.interface
    # Short texts: the count, not the length, is what the notice and the steps are about.
    pairs = [("保單號碼", "保单号码" if i % 7 else "保單號") for i in range(100_000)]
    ref, hyp = write_pair(tmp_path, pairs, missing=0)
    page.goto(site.url(site.editor_path))
    wait_live(page)
    page.evaluate(WATCH_BAR, FILES)
    box = choose(page, ref, hyp)
    status = box.locator("[data-cvb-files-status]")
    # Said once the second file is taken: the limit, the size and the expected time.
    before = words["files_large"].en.split("{")[0]
    page.wait_for_function(
        "([sel, before]) => document.querySelector(sel + ' [data-cvb-files-status]').textContent.startsWith(before)",
        arg=[FILES, before],
    )
    notice = status.inner_text()
    assert "100,000 lines" in notice and "20 MB or 100,000 clips" in notice and "minutes" in notice, notice
    # Through reading, scoring and the figures into the intervals, then stopped: a full run is minutes.
    page.wait_for_function("() => window.cvbBar.some((seen) => seen.step === 'bootstrap')", timeout=600_000)
    box.locator("[data-cvb-files-cancel]").click()
    seen = page.evaluate("() => window.cvbBar")
    steps = list(dict.fromkeys(s["step"] for s in seen))
    assert steps == ["reading", "clips", "figures", "bootstrap"], steps
    for step in ("reading", "clips", "figures"):
        values = [float(s["value"]) for s in seen if s["step"] == step]
        assert len(set(values)) >= 2, (step, values)
        assert values == sorted(values), (step, values)
    values = [float(s["value"]) for s in seen]
    assert values == sorted(values)
    # Never on a finished count: "100,000 of 100,000" is followed at once by the next step's words.
    assert not [s for s in seen if "100,000 of 100,000" in s["text"]], seen[-5:]


# What the page asks of its worker and which files it reads, recorded as it happens (the real Worker and File
# underneath): a refused pair must reach neither.
RECORD_FILES = """
(() => {
  window.cvbPosted = [];
  window.cvbRead = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    window.cvbPosted.push(message?.type);
    return post.call(this, message, ...rest);
  };
  const read = Blob.prototype.arrayBuffer;
  Blob.prototype.arrayBuffer = function () {
    window.cvbRead.push(this.size);
    return read.call(this);
  };
})();
"""


def test_a_pair_over_the_stated_limit_is_refused_unread_and_never_reaches_the_worker(
    site: editor_site.Site, page: Any, tmp_path: Path
) -> None:
    from generator.config.load import load_config

    words = load_config(editor_site.ROOT / "platform_config").glossary.interface
    refused = words["files_too_large_bytes"].en.split("{")[0]
    # Above the bytes limit: never read, so its content does not matter (a sparse file).
    big = tmp_path / "big-ref.jsonl"
    with big.open("wb") as handle:
        handle.truncate(25_000_000)
    many = tmp_path / "many-ref.jsonl"
    many.write_text("".join(f'{{"id": "c{i}", "text": "好"}}\n' for i in range(100_001)), encoding="utf-8")
    ref, hyp = write_pair(tmp_path, parity_pairs()[40:50])
    page.add_init_script(RECORD_FILES)
    page.goto(site.url(site.editor_path))
    box = open_box(page)
    status = box.locator("[data-cvb-files-status]")
    # Refused the moment it is chosen, before the other file is: the size, the limit, the CLI.
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(big))
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel + ' [data-cvb-files-status]').textContent.startsWith(want)",
        arg=[FILES, refused],
    )
    text = status.inner_text()
    assert "25.0 MB" in text and "20 MB or 100,000 clips" in text and "cvb-score" in text, text
    box.locator('input[data-cvb-file="hypothesis"]').set_input_files(str(hyp))
    assert status.inner_text() == text
    # Within the bytes but over the clips: read (to count its lines), refused, not scored.
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(many))
    page.wait_for_function(
        "([sel]) => document.querySelector(sel + ' [data-cvb-files-status]').textContent.includes('100,001')",
        arg=[FILES],
    )
    assert "20 MB or 100,000 clips" in status.inner_text()
    assert page.evaluate("() => window.cvbPosted").count("score-files") == 0
    # A pair within the limits is then scored as ever.
    box.locator('input[data-cvb-file="reference"]').set_input_files(str(ref))
    page.wait_for_selector(f"{FILES} [data-cvb-files-actions]:not([hidden])", timeout=120_000)
    assert page.evaluate("() => window.cvbPosted").count("score-files") == 1
    assert 25_000_000 not in page.evaluate("() => window.cvbRead")
