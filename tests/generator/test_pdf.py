"""The dated PDFs, read back with poppler (pdftotext, pdftoppm) and pypdf: every page dated and numbered, the
Chinese intact and set in Noto CJK HK, nothing blank, code inside the page, links that land, contents with the
right page numbers, and the same bytes from two builds."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pypdf
import pytest
from fontTools.ttLib import TTCollection
from PIL import Image, ImageStat

from generator.config import load_config
from generator.paths import Layout
from generator.pdf.editions import EDITIONS
from generator.pdf.issue import PDF_FOLDER, Artefact, PrintJob, build_issue_pdfs, print_jobs

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
ISSUE = CONFIG.platform.issues[-1]
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("pdf")]


@pytest.fixture(scope="module")
def jobs() -> dict[str, PrintJob]:
    return {job.filename: job for job in print_jobs(LAYOUT)}


@pytest.fixture(scope="module")
def printed(built_site: Path) -> dict[str, Artefact]:
    """The PDFs the build publishes (printed through build/pdf-cache/). test_two_builds_give_identical_bytes
    prints them again without the cache and compares the bytes, so what holds of these holds of a fresh print."""
    return {path.name: Artefact.of(path) for path in sorted((built_site / PDF_FOLDER).glob("*.pdf"))}


def pages_text(path: Path, *layout: str) -> list[str]:
    text = subprocess.run(
        ["pdftotext", *layout, "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True
    )
    return text.stdout.decode("utf-8").split("\f")[:-1]


# Each page's running footer (the title and issue line, then the page number), which -raw puts at the end of the
# page's text: a sentence that runs over a page break reads whole only without it.
RUNNING_FOOTER = re.compile(
    r"^Cantonese Voice Benchmark · .*\n(?:Page \d+ of \d+|第 \d+ 頁，共 \d+)\n?\Z", re.M
)


def test_each_document_of_each_edition_is_printed_and_dated(printed: dict[str, Artefact]) -> None:
    issued = ISSUE.issued.isoformat()
    expected = {edition.filename(d, issued) for edition in EDITIONS for d in edition.documents}
    assert set(printed) == expected
    assert {"cvb-entrant-guide", "cvb-integration", "cvb-methodology", "cvb-book"} <= {
        name.rsplit("-", 3)[0] for name in printed
    }


def test_every_page_carries_the_issue_date_protocol_and_its_number(
    printed: dict[str, Artefact], jobs: dict[str, PrintJob]
) -> None:
    for name, artefact in printed.items():
        edition = jobs[name].edition
        pages = pages_text(artefact.path)
        assert len(pages) > 1
        dated = f"{ISSUE.issued.isoformat()} · {edition.protocol_word} v{ISSUE.protocol}"
        for number, text in enumerate(pages, start=1):
            flat = " ".join(text.split())
            assert dated in flat, (name, number)
            assert f"{edition.page_word} {number} {edition.of_word} {len(pages)}" in flat, (name, number)


def test_the_chinese_of_the_source_is_all_in_the_pdf_text(
    printed: dict[str, Artefact], jobs: dict[str, PrintJob]
) -> None:
    checked: set[str] = set()
    for name, artefact in printed.items():
        samples = {run for run in HAN.findall(jobs[name].html) if len(run) >= 2}
        # Every Chinese document has Chinese to check; an English one may have none (the grading pipeline's page
        # is about audio and quotes no Cantonese).
        assert samples or not jobs[name].edition.lang.startswith("zh"), name
        if not samples:
            continue
        # -raw keeps the content stream's order: a table cell's wrapped lines stay together instead of being
        # interleaved with the next column's, as the visual order does.
        body = (RUNNING_FOOTER.sub("", page) for page in pages_text(artefact.path, "-raw"))
        text = re.sub(r"\s+", "", "".join(body))
        missing = sorted(s for s in samples if s not in text)
        assert not missing, (name, missing[:10])
        checked.add(jobs[name].edition.code)
    # The English documents that quote Cantonese (the guide, the book) are checked too, not only the Chinese ones.
    assert checked == {edition.code for edition in EDITIONS}, checked


def test_chinese_is_set_in_noto_cjk_hk_and_every_character_has_a_glyph(
    printed: dict[str, Artefact], jobs: dict[str, PrintJob]
) -> None:
    # Only the documents with Chinese in them embed a CJK font (an English one may quote no Cantonese).
    chinese = [name for name, job in jobs.items() if HAN.search(job.html)]
    assert {jobs[name].edition.code for name in chinese} == {edition.code for edition in EDITIONS}, chinese
    for name in chinese:
        fonts = subprocess.run(
            ["pdffonts", str(printed[name].path)], capture_output=True, text=True, check=True
        ).stdout
        cjk = [line.split()[0] for line in fonts.splitlines() if "CJK" in line]
        # The HK face of each family and style (Noto-Sans-CJK-HK, -HK-Bold, Noto-Sans-Mono-CJK-HK...).
        assert cjk and all(re.search(r"-CJK-HK(-|$)", font) for font in cjk), (name, cjk)
    hk = next(font for font in TTCollection(str(NOTO_CJK)).fonts if "HK" in font["name"].getDebugName(1))
    covered = set(hk.getBestCmap())
    used = {ch for job in jobs.values() for run in HAN.findall(job.html) for ch in run}
    assert used and not sorted(ch for ch in used if ord(ch) not in covered)
    # And the text is marked as Hong Kong Chinese, so the HK forms are chosen.
    assert all(
        'lang="zh-HK"' in jobs[name].html or jobs[name].edition.lang.startswith("zh") for name in chinese
    )


def test_every_page_renders_to_a_non_blank_image(printed: dict[str, Artefact], tmp_path: Path) -> None:
    for artefact in printed.values():
        prefix = tmp_path / artefact.path.stem
        subprocess.run(["pdftoppm", "-r", "20", "-gray", "-png", str(artefact.path), str(prefix)], check=True)
        images = sorted(tmp_path.glob(f"{artefact.path.stem}-*.png"))
        assert len(images) == len(pypdf.PdfReader(artefact.path).pages)
        for image in images:
            with Image.open(image) as picture:
                # A blank page has a variance of zero; header and footer alone give very little.
                assert ImageStat.Stat(picture).var[0] > 50, image.name


def test_internal_links_land_on_a_destination(printed: dict[str, Artefact]) -> None:
    for artefact in printed.values():
        reader = pypdf.PdfReader(artefact.path)
        destinations = set(reader.named_destinations)
        internal = [
            str(annot.get_object()["/Dest"])
            for page in reader.pages
            for annot in page.get("/Annots") or []
            if "/Dest" in annot.get_object()
        ]
        assert internal, artefact.name
        assert not [d for d in internal if d not in destinations], artefact.name
        uris = [
            str(annot.get_object()["/A"]["/URI"])
            for page in reader.pages
            for annot in page.get("/Annots") or []
            if "/A" in annot.get_object() and "/URI" in annot.get_object()["/A"]
        ]
        assert all(uri.startswith(("https://", "mailto:")) for uri in uris), artefact.name


def test_the_contents_give_the_page_each_section_starts_on(printed: dict[str, Artefact]) -> None:
    book = next(a for name, a in printed.items() if "-book-" in name)
    pages = pages_text(book.path, "-layout")
    entries = [
        (m.group(1).strip(), int(m.group(2)))
        for page in pages[:3]
        for m in re.finditer(r"^\s*(\S.*?)\s*(?:\. ?){3,}\s*(\d+)\s*$", page, flags=re.MULTILINE)
    ]
    assert len(entries) > 20
    for title, number in entries:
        assert 1 < number <= len(pages)
        body = " ".join(pages[number - 1].split())
        assert " ".join(title.split()) in body, (title, number)


def test_code_wraps_inside_the_text_block(printed: dict[str, Artefact]) -> None:
    for artefact in printed.values():
        bbox = subprocess.run(
            ["pdftotext", "-bbox", str(artefact.path), "-"], capture_output=True, text=True, check=True
        ).stdout
        width = float(re.search(r'<page width="([\d.]+)"', bbox).group(1))  # type: ignore[union-attr]
        right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox))
        # The right margin is 18 mm (51 pt): nothing may run into it.
        assert right <= width - 50, (artefact.name, right, width)


def test_two_builds_give_identical_bytes(printed: dict[str, Artefact], tmp_path: Path) -> None:
    again = {a.name: a for a in build_issue_pdfs(LAYOUT, tmp_path, cache=False)}
    assert {n: a.sha256 for n, a in again.items()} == {n: a.sha256 for n, a in printed.items()}
    assert all(a.path.read_bytes() == printed[n].path.read_bytes() for n, a in again.items())


def test_the_pdf_is_dated_with_its_issue(printed: dict[str, Artefact]) -> None:
    for artefact in printed.values():
        info = pypdf.PdfReader(io.BytesIO(artefact.path.read_bytes())).metadata
        assert info is not None and str(info["/CreationDate"]).startswith(f"D:{ISSUE.issued:%Y%m%d}")


def _layout(html: str) -> Any:
    from weasyprint import HTML

    return HTML(string=html).render()


def split_rows(html: str) -> list[str]:
    """Body rows of tables that WeasyPrint laid out over more than one page (repeated headers are not rows)."""
    from weasyprint.formatting_structure import boxes

    pages_of: dict[int, set[int]] = {}
    text_of: dict[int, str] = {}
    for number, page in enumerate(_layout(html).pages):
        for box in page._page_box.descendants():
            if isinstance(box, boxes.TableRowGroupBox) and not box.is_header:
                for row in box.children:
                    pages_of.setdefault(id(row.element), set()).add(number)
                    text_of[id(row.element)] = "".join(row.element.itertext())[:60]
    return [text_of[key] for key, pages in pages_of.items() if len(pages) > 1]


def headings_ending_a_page(html: str) -> list[str]:
    from weasyprint.formatting_structure import boxes

    found = []
    for page in _layout(html).pages:
        blocks = [
            box
            for box in page._page_box.descendants()
            if isinstance(box, boxes.BlockBox)
            and box.element_tag in {"p", "h1", "h2", "h3", "h4", "pre", "table", "li"}
        ]
        if blocks and blocks[-1].element_tag in {"h1", "h2", "h3", "h4"}:
            found.append("".join(blocks[-1].element.itertext()))
    return found


def test_no_table_row_is_split_and_no_heading_ends_a_page(jobs: dict[str, PrintJob]) -> None:
    for name, job in jobs.items():
        if job.document.slug == "book":
            continue  # the book is its three documents again; laying it out twice more adds nothing
        assert split_rows(job.html) == [], name
        assert headings_ending_a_page(job.html) == [], name


def test_each_document_carries_each_long_listing_once(jobs: dict[str, PrintJob]) -> None:
    """A listing long enough to fill pages is printed once per document: the book once carried the servers'
    source twice (from the guide and from the integration page), 28 of its 54 pages."""
    from generator.pdf.html import LISTING_LINES

    for name, job in jobs.items():
        listings = [
            body
            for body in re.findall(r"<pre[^>]*>(.*?)</pre>", job.html, re.DOTALL)
            if body.count("\n") >= LISTING_LINES
        ]
        repeated = sorted({body[:60] for body in listings if listings.count(body) > 1})
        assert repeated == [], f"{name} prints these listings more than once: {repeated}"
        if job.document.slug == "book":
            assert len(listings) >= 2, f"{name}: the book's listings are not where this test looks for them"


def test_the_print_stylesheet_keeps_tall_rows_whole() -> None:
    """A table of tall rows must cross pages; the stylesheet moves whole rows, and without its rule they split
    (so the layout probe above can see a split when there is one)."""
    stylesheet = (LAYOUT.root / "docs" / "print" / "print.css").read_text(encoding="utf-8")
    cell = "<br>".join(["A line of a tall cell"] * 9)
    rows = "".join(f"<tr><td>{i}</td><td>{cell}</td></tr>" for i in range(30))
    document = f"<html><head><style>{{}}</style></head><body><table><thead><tr><th>N</th><th>Text</th></tr></thead><tbody>{rows}</tbody></table></body></html>"
    assert split_rows(document.replace("{}", stylesheet)) == []
    without = stylesheet.replace("tr { break-inside: avoid; }", "")
    assert without != stylesheet
    assert split_rows(document.replace("{}", without)) != []


def test_the_print_stylesheet_keeps_a_heading_with_its_section() -> None:
    """Wherever a heading falls, it is never the last thing on a page; without the rule, some position is."""
    stylesheet = (LAYOUT.root / "docs" / "print" / "print.css").read_text(encoding="utf-8")
    rule = "h1, h2, h3, h4 { break-after: avoid; line-height: 1.25; }"
    # `auto` rather than nothing: the rule must be what keeps them, not a default of the engine.
    without = stylesheet.replace(rule, "h1, h2, h3, h4 { break-after: auto; line-height: 1.25; }")
    assert without != stylesheet

    def documents(css: str) -> list[str]:
        return [
            f"<html><head><style>{css}</style></head><body>"
            + "<p>A line of filler text.</p>" * lines
            + "<h2>A section</h2><p>Its first paragraph.</p></body></html>"
            for lines in range(24, 54)
        ]

    assert not [doc for doc in documents(stylesheet) if headings_ending_a_page(doc)]
    assert [doc for doc in documents(without) if headings_ending_a_page(doc)]
