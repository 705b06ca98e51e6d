"""The check that no protocol identifier is broken over two lines, run on printed PDFs as a reader gets them
(pdftotext of WeasyPrint's output), not on typed text: the built PDFs pass it, and a narrow column that breaks
an identifier, printed for real, is caught."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.config import load_config
from generator.paths import Layout
from generator.pdf.editions import EDITIONS
from generator.pdf.issue import PDF_FOLDER, print_jobs
from generator.pdf.printer import print_html
from generator.publication.check import pdf_text, protocol_identifiers
from generator.publication.rendering import broken_identifiers

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("pdf")]

LAYOUT = Layout()
CONFIG = load_config(LAYOUT.config)
NAMES = protocol_identifiers(CONFIG)

# The print stylesheet's rule that keeps an identifier on one line (docs/print/print.css).
KEEP_WHOLE = re.compile(r"code\.cvb-identifier\s*\{[^}]*\}")
# A column far too narrow for any identifier, with the one-line rule gone: a word may then break anywhere.
NARROW = (
    "td { width: 2.2em; max-width: 2.2em; } "
    "td code, code.cvb-identifier { white-space: normal; overflow-wrap: anywhere; word-break: break-all; }"
)


def test_the_built_pdfs_break_no_protocol_identifier(built_site: Path) -> None:
    issued = CONFIG.platform.issues[-1].issued.isoformat()
    expected = {edition.filename(d, issued) for edition in EDITIONS for d in edition.documents}
    pdfs = sorted((built_site / PDF_FOLDER).glob("*.pdf"))
    assert {pdf.name for pdf in pdfs} == expected, "the build printed no PDF for the issue in force"
    shown: dict[str, int] = {}
    for pdf in pdfs:
        text = pdf_text(pdf.read_bytes())
        shown[pdf.name] = sum(name in text for name in NAMES)
        assert [f"{f.what}: {f.text}" for f in broken_identifiers(text, NAMES)] == [], pdf.name
    # The identifiers are in what the reader sees, so the check had something to look at: the integration
    # document of each edition prints most of them (in its tables of frames and failures).
    integration = {name: count for name, count in shown.items() if name.startswith("cvb-integration")}
    assert len(integration) == len(EDITIONS) and min(integration.values()) >= len(NAMES) // 2, shown


def test_a_printed_narrow_column_that_breaks_identifiers_is_caught() -> None:
    """The integration document as the build composes it, with its one-line rule for identifiers removed and
    its table columns squeezed, printed by WeasyPrint: pdftotext's text shows broken identifiers, and the
    check names them (the built PDFs, with the rule in place, break none: the test above)."""
    job = next(j for j in print_jobs(LAYOUT) if j.edition.code == "en" and j.document.slug == "integration")
    assert KEEP_WHOLE.search(job.html), "the print stylesheet no longer has its one-line rule for identifiers"
    planted = KEEP_WHOLE.sub("", job.html).replace("</style>", NARROW + "</style>", 1)
    text = pdf_text(print_html(planted))
    broken = {f.what for f in broken_identifiers(text, NAMES)}
    assert len(broken) >= 3, text[:2000]
    assert all(
        what.startswith("the identifier ") and what.endswith(" is broken over two lines") for what in broken
    )
