"""`cvb check` against a built or published site: each planted drift is reported with the key it drifted from,
whether the site is read from a folder or over HTTP (a loopback http.server)."""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import json
import re
import shutil
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.build import build_site
from generator.cli import main
from generator.config import load_config
from generator.issue_state import config_sha256
from generator.pages.words_zh import zh_words
from generator.paths import Layout
from generator.pdf.issue import pdf_cache, print_jobs
from generator.pdf.printer import print_cached
from generator.provenance import Num
from generator.publication.check import REBUILD, RENDERING, Expected, expected, publication_drifts
from generator.publication.sources import Folder, Url, html_text
from generator.publication.tokens import Drift, plain_tokens
from tests.generator.conftest import project_copy, site_copy
from tests.shared_build import cache_filling

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("publication")]


@pytest.fixture
def built(built_site: Path) -> Path:
    return built_site


@pytest.fixture
def site(built_site: Path, tmp_path: Path) -> Path:
    """A copy of the build to plant drifts in."""
    return site_copy(built_site, tmp_path)


@functools.cache
def _expected(results: Path | None) -> Expected:
    # What the config gives does not change between these tests; rendering it takes seconds.
    return expected(LAYOUT, results=results)


def drifts_of(site: Path, *, results: Path | None = None) -> list[Drift]:
    return publication_drifts(LAYOUT, Folder(site), against=_expected(results))


def stale_copies(page: str) -> set[tuple[str, str]]:
    """The drifts an edited page's precompressed copies add: each now inflates to other bytes."""
    return {(f"precompressed /{page}{suffix}", REBUILD) for suffix in (".br", ".gz")}


def keys_of(drifts: list[Drift]) -> set[str]:
    return {key.strip() for d in drifts for key in d.key.split(",")}


def test_a_fresh_build_matches_the_config(built: Path) -> None:
    assert drifts_of(built) == []


def test_a_hand_edited_number_in_a_built_page(site: Path) -> None:
    floor = CONFIG.protocol.deadline.floor_ms
    page = site / "integration" / "index.html"
    text = page.read_text(encoding="utf-8")
    assert f"max({floor}," in text
    page.write_text(text.replace(f"max({floor},", f"max({floor + 500},", 1), encoding="utf-8")
    found = drifts_of(site)
    pages = [d for d in found if d.key != REBUILD]
    assert [(d.where, d.published, d.expected) for d in pages] == [
        ("en page /integration/", str(floor + 500), str(floor))
    ]
    assert "protocol.deadline.floor_ms" in keys_of(pages)
    assert {(d.where, d.key) for d in found if d.key == REBUILD} == stale_copies("integration/index.html")


def test_a_stale_pdf_from_an_earlier_config(site: Path, tmp_path: Path) -> None:
    (tmp_path / "earlier").mkdir()
    earlier = project_copy(tmp_path / "earlier")
    floor = CONFIG.protocol.deadline.floor_ms
    protocol = earlier.config / "protocol.yaml"
    protocol.write_text(
        protocol.read_text(encoding="utf-8").replace(f"floor_ms: {floor}", f"floor_ms: {floor + 1000}"),
        encoding="utf-8",
    )
    # The earlier settings were the ones their issue was printed from (otherwise no PDF is printed at all).
    platform = earlier.config / "platform.yaml"
    pinned = CONFIG.platform.issues[-1].config_sha256
    assert pinned is not None
    platform.write_text(
        platform.read_text(encoding="utf-8").replace(pinned, config_sha256(load_config(earlier.config))),
        encoding="utf-8",
    )
    # Only the document planted below is printed: the others would prove nothing here.
    guide = next(job for job in print_jobs(earlier) if "entrant-guide" in job.filename)
    (site / "pdf" / guide.filename).write_bytes(print_cached(guide.html, cache=pdf_cache(earlier)).data)
    found = drifts_of(site)
    assert found and {d.where for d in found} == {f"en PDF {guide.filename}"}
    assert any(d.published == str(floor + 1000) and d.expected == str(floor) for d in found), found
    assert "protocol.deadline.floor_ms" in keys_of(found)


def test_a_kit_whose_frame_size_differs(site: Path) -> None:
    frame = CONFIG.protocol.audio.frame_bytes
    kit = site / "assets" / "kit" / "server.py"
    kit.write_text(
        kit.read_text(encoding="utf-8").replace(f"FRAME_BYTES = {frame}", f"FRAME_BYTES = {frame * 2}"),
        encoding="utf-8",
    )
    found = [d for d in drifts_of(site) if d.key != REBUILD]
    assert [(d.where, d.published, d.expected) for d in found] == [
        ("kit /assets/kit/server.py", str(frame * 2), str(frame))
    ]
    assert "protocol.audio.frame_bytes" in keys_of(found)


def test_an_example_frame_that_breaks_its_schema(site: Path) -> None:
    page = site / "integration" / "index.html"
    text = page.read_text(encoding="utf-8")
    # The frame is pretty-printed, so a space may sit between the colon and the number.
    deadline = re.search(
        r'<span class="nt">"deadline_ms"</span><span class="p">:</span>(?:<span class="w"> *</span>)?<span class="mi">',
        text,
    )
    assert deadline is not None
    start = deadline.end()
    end = text.index("</span>", start)
    number = text[start:end]
    page.write_text(text[:start] + f"&quot;{number}&quot;" + text[end:], encoding="utf-8")
    found = drifts_of(site)
    schema = [d for d in found if "example frame" in d.where and d.where.startswith("en page")]
    assert [d.key for d in schema] == ["frames.hello.fields.deadline_ms"], found
    assert schema[0].published == json.dumps(number)


def _wheel_with(data: bytes, rules_edit: dict[str, object]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == "cvb_scorer/data/scoring_rules.json":
                rules = json.loads(content)
                rules.update(rules_edit)
                content = json.dumps(rules).encode("utf-8")
            target.writestr(item, content)
    return out.getvalue()


def test_an_editor_wheel_that_differs_from_the_servers(site: Path) -> None:
    manifest_path = site / "assets" / "wheels" / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    wheel = site / "assets" / "wheels" / manifest["scorer"]
    rules = json.loads(zipfile.ZipFile(wheel).read("cvb_scorer/data/scoring_rules.json"))
    first = next(iter(rules))
    wheel.write_bytes(_wheel_with(wheel.read_bytes(), {first: "edited"}))
    # The manifest is made consistent, so only the server's wheel can tell.
    manifest["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    found = drifts_of(site)
    assert any(d.key == "the wheel the server installs" for d in found), found
    assert any(
        d.key == f"scoring rules: {first}" or d.key.startswith(f"scoring rules: {first}") for d in found
    )


@pytest.fixture
def served(site: Path) -> Iterator[tuple[Path, str]]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_published_site_read_over_http(
    served: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, url = served
    assert publication_drifts(LAYOUT, Url(url)) == []
    frame = CONFIG.protocol.audio.frame_bytes
    kit = site / "assets" / "kit" / "server.mjs"
    text = kit.read_text(encoding="utf-8")
    assert str(frame) in text
    kit.write_text(text.replace(str(frame), str(frame + 1), 1), encoding="utf-8")
    assert main(["check", "--site", url]) == 1
    report = capsys.readouterr().err
    assert "kit /assets/kit/server.mjs" in report
    assert f"published: {frame + 1}" in report and f"config:    {frame}" in report
    assert "protocol.audio.frame_bytes" in report


def test_a_pdf_of_another_issue_left_in_the_folder_is_reported(site: Path) -> None:
    current = next((site / "pdf").glob("cvb-book-*.pdf"))
    old = site / "pdf" / "cvb-book-2020-01-01.pdf"
    shutil.copy2(current, old)
    found = drifts_of(site)
    assert [(d.where, d.key) for d in found] == [(f"PDF {old.name}", "platform.issues[-1].issued")]


@pytest.mark.parametrize("where", ["http://127.0.0.1:9/", "/nonexistent/site/folder"])
def test_an_unreadable_site_gets_a_sentence(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--site", where]) == 2
    err = capsys.readouterr().err
    assert "cvb check:" in err and "Traceback" not in err
    assert ("could not be reached" in err) if where.startswith("http") else ("holds no built site" in err)


def test_a_pages_text_leaves_out_the_themes_permalink_marks_and_tab_titles() -> None:
    # Neither is the page's text, and the site and the printed page place tab titles differently; a label of
    # anything else is text, numbers and all.
    html = (
        '<article><h2>Fees<a class="headerlink" href="#fees" title="Permanent link">&para;</a></h2>'
        '<div class="tabbed-labels"><label for="__tabbed_1_1">Python</label><label for="__tabbed_1_2">Node'
        '</label></div><p>3,000 ms</p><p><label for="hyp">Up to 5 files</label></p></article>'
    )
    assert html_text(html, article_only=True).split() == ["Fees", "3,000", "ms", "Up", "to", "5", "files"]


def test_angle_brackets_around_an_autolink_are_not_tokens() -> None:
    # Markdown writes <https://...> and the page shows the address alone.
    assert [t.text for t in plain_tokens("see <https://a.hk/x-1> or <b@c.hk>")] == [
        "see",
        "https",
        ":",
        "/",
        "/",
        "a.hk/x-1",
        "or",
        "b",
        "@",
        "c.hk",
    ]


def _plant(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _spelled(value: int) -> str:
    return zh_words(Num(value, frozenset())).text


DRAW = CONFIG.rounds.draw.size
CLIPS = CONFIG.protocol.connection_test.clips


@pytest.mark.parametrize(
    ("page", "old", "new", "published", "expected", "key"),
    [
        # A number written in digits.
        (
            "zh/index.html",
            f"抽出 {DRAW} 段",
            f"抽出 {DRAW + 5} 段",
            str(DRAW + 5),
            str(DRAW),
            "rounds.draw.size",
        ),
        # A number written in Chinese words.
        (
            "zh/index.html",
            f"播放{_spelled(CLIPS)}段",
            f"播放{_spelled(CLIPS + 1)}段",
            _spelled(CLIPS + 1),
            _spelled(CLIPS),
            "protocol.connection_test.clips",
        ),
    ],
    ids=["digits", "chinese-words"],
)
def test_a_hand_edited_number_in_the_chinese_edition(
    site: Path, page: str, old: str, new: str, published: str, expected: str, key: str
) -> None:
    _plant(site / page, old, new)
    found = drifts_of(site)
    pages = [d for d in found if d.key != REBUILD]
    assert [(d.where, d.published, d.expected) for d in pages] == [
        (f"zh page /{page.removesuffix('index.html')}", published, expected)
    ], found
    assert key in keys_of(pages)
    assert "段" in pages[0].context  # the context reads as the page does
    assert {(d.where, d.key) for d in found if d.key == REBUILD} == stale_copies(page)


@pytest.mark.parametrize("suffix", [".gz", ".br"])
def test_a_hand_edited_precompressed_copy(site: Path, suffix: str) -> None:
    import gzip

    import brotli  # type: ignore[import-untyped]

    floor = CONFIG.protocol.deadline.floor_ms
    copy = site / "integration" / f"index.html{suffix}"
    inflate, deflate = (
        (gzip.decompress, gzip.compress) if suffix == ".gz" else (brotli.decompress, brotli.compress)
    )
    text = inflate(copy.read_bytes()).decode("utf-8")
    assert f"max({floor}," in text
    copy.write_bytes(deflate(text.replace(f"max({floor},", f"max({floor + 500},", 1).encode("utf-8")))
    found = drifts_of(site)
    assert [(d.where, d.published, d.expected) for d in found] == [
        (f"en page /integration/index.html{suffix}", str(floor + 500), str(floor))
    ]
    assert "protocol.deadline.floor_ms" in keys_of(found)


def test_a_precompressed_copy_that_does_not_inflate(site: Path) -> None:
    (site / "index.html.gz").write_bytes(b"not gzip")
    assert [(d.where, d.published) for d in drifts_of(site)] == [
        ("precompressed /index.html.gz", "(corrupt)")
    ]


def test_a_hand_edited_file_inside_the_kit_zip(site: Path) -> None:
    frame = CONFIG.protocol.audio.frame_bytes
    zip_path = site / "assets" / "kit" / CONFIG.site.starter_kit.zip_name
    edited = io.BytesIO()
    with zipfile.ZipFile(zip_path) as source, zipfile.ZipFile(edited, "w") as target:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == "server.py":
                content = content.replace(
                    f"FRAME_BYTES = {frame}".encode(), f"FRAME_BYTES = {frame * 2}".encode()
                )
            target.writestr(item, content)
    zip_path.write_bytes(edited.getvalue())
    found = drifts_of(site)
    assert [(d.where, d.published, d.expected) for d in found] == [
        (f"kit /assets/kit/{zip_path.name}: server.py", str(frame * 2), str(frame))
    ]
    assert "protocol.audio.frame_bytes" in keys_of(found)


@pytest.fixture(scope="module")
def results_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A site built from run records of its own (the example's, one entrant's runs left out)."""
    tmp = tmp_path_factory.mktemp("with-results")
    results = tmp / "results"
    shutil.copytree(LAYOUT.root / "results" / "example", results)
    for run in sorted((results / "runs").glob("ex-06-*.json")):
        run.unlink()
    with cache_filling():
        return build_site(LAYOUT, out=tmp / "site", results=results), results


def test_a_site_built_with_results_is_checked_against_them(
    results_site: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built_with, results = results_site
    assert drifts_of(built_with, results=results) == []
    site = site_copy(built_with, tmp_path)
    standings = site / "standings" / "index.html"
    text = standings.read_text(encoding="utf-8")
    # The leader's score, which only these records give.
    score = re.search(r">(\d+\.\d) \[", text)
    assert score is not None, "the standings page shows each score with its interval"
    edited = f"{float(score.group(1)) + 1:.1f}"
    _plant(standings, f">{score.group(1)} [", f">{edited} [")
    found = [d for d in drifts_of(site, results=results) if d.key != REBUILD]
    assert [(d.where, d.published, d.expected) for d in found] == [
        ("en page /standings/", edited, score.group(1))
    ]
    assert main(["check", "--site", str(built_with), "--results", str(results)]) == 0
    capsys.readouterr()


def test_markdown_left_as_text_on_a_built_page(site: Path) -> None:
    _plant(site / "zh" / "index.html", "</h1>", "</h1><p>| 賽事 | 作用 |</p>")
    found = [d for d in drifts_of(site) if d.key == RENDERING]
    assert [(d.where, d.context, d.published) for d in found] == [
        ("zh page /zh/", "| 賽事 | 作用 |", "a table row written in pipes")
    ]


def test_a_published_pdf_that_differs_from_its_issue_record(site: Path) -> None:
    record = CONFIG.platform.issues[-1]
    assert record.pdfs, "the issue in force has its PDFs' sha256 recorded"
    name = next(n for n in sorted(record.pdfs) if "entrant-guide" in n)
    pdf = site / "pdf" / name
    pdf.write_bytes(pdf.read_bytes() + b"\n% appended\n")
    found = drifts_of(site)
    index = len(CONFIG.platform.issues) - 1
    pinned = [d for d in found if d.key == f"platform.issues[{index}].pdfs.{name}"]
    assert [(d.where, d.expected) for d in pinned] == [(f"en PDF {name}", record.pdfs[name])]
    assert pinned[0].published == hashlib.sha256(pdf.read_bytes()).hexdigest()
