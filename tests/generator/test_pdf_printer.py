"""The printer's shell: documents printed in worker processes are the bytes this process prints, and only the
documents the cache lacks are printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.pdf import printer
from generator.pdf.printer import print_all, print_html, shares

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("pdf")]


def document(title: str, paragraphs: int) -> str:
    body = "".join(
        f"<p>{title}: paragraph {n} of the document, long enough to wrap once.</p>" for n in range(paragraphs)
    )
    return f"<!doctype html><html lang='en'><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


HTMLS = [document("short", 3), document("long", 60), document("middle", 20)]


def test_documents_printed_in_workers_are_the_bytes_printed_here() -> None:
    here = [print_html(html) for html in HTMLS]
    assert [p.data for p in print_all(HTMLS, cache=None, workers=2)] == here
    assert all(data.startswith(b"%PDF-") for data in here)


def test_only_the_documents_the_cache_lacks_are_printed(tmp_path: Path) -> None:
    first = print_all(HTMLS, cache=tmp_path, workers=2)
    assert [p.cached for p in first] == [False, False, False]
    changed = [HTMLS[0], document("long, changed", 60), HTMLS[2]]
    again = print_all(changed, cache=tmp_path, workers=2)
    assert [p.cached for p in again] == [True, False, True]
    assert again[0].data == first[0].data and again[2].data == first[2].data
    assert again[1].data == print_html(changed[1])


def test_the_same_document_twice_is_printed_once_and_returned_twice(tmp_path: Path) -> None:
    twice = print_all([HTMLS[0], HTMLS[0]], cache=tmp_path, workers=2)
    assert twice[0].data == twice[1].data and len(list(tmp_path.glob("*.pdf"))) == 1


def test_the_largest_documents_are_dealt_first_each_to_the_least_loaded_worker() -> None:
    assert shares([10, 90, 40, 50, 5], 2) == [[1, 0], [3, 2, 4]]
    assert shares([7], 4) == [[0]]


@pytest.mark.parametrize(
    ("returncode", "said"),
    [
        (-9, "stopped by SIGKILL, saying nothing"),
        (-11, "stopped by SIGSEGV, saying nothing"),
        (3, "exit status 3, saying nothing"),
    ],
)
def test_a_worker_that_said_nothing_is_described_by_how_it_ended(returncode: int, said: str) -> None:
    assert printer._ended(returncode) == said
