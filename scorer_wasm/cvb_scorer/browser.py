"""The editor's Python side, as the browser's worker (scorer_wasm/web/worker.js) calls it through Pyodide.

The worker moves bytes and messages; everything it asks of Python is here, typed and tested under CPython
like the rest of the scorer (tests/scorer/test_browser.py) and run in Pyodide by the parity test.

``Keystrokes`` answers the text editor: a keystroke's drawing and summary at once (``first``), its details
once typing pauses (``rest``). ``FileMode`` answers the file mode: it scores two files with the CLI itself,
``cvb-score --json -- REF HYP``, on copies written to a folder under the reader's own file names, so the
download is the CLI's output byte for byte and a bad line gets the CLI's sentence, with no second JSONL reader.

Every answer is a JSON string (the page parses it); a file-mode answer is ``{"output": ...}`` or
``{"error": sentence}``. The keystroke path imports only what the start-up snapshot holds in memory: the
worker answers keystrokes before the wheels' files are installed (tools/snapshot_pyodide.mjs proves it of
every snapshot), so the file mode imports the CLI and the JSONL reader only when first used.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from cvb_scorer.view import EditorParts, render_editor_parts, render_view
from cvb_scorer.view_text import view_text_from_json

if TYPE_CHECKING:
    from cvb_scorer.progress import Progress
    from cvb_scorer.report import Report

__all__ = ["FILES_DIR", "FileMode", "Keystrokes", "as_bytes", "placed_paths"]

# Where the file mode writes its copies (Pyodide's memory file system; a folder of the test's under CPython).
FILES_DIR = "/tmp/cvb-files"


class _JsBuffer(Protocol):
    """A JavaScript typed array as Pyodide hands it to Python (a JsProxy): ``to_py()`` gives its bytes."""

    def to_py(self) -> memoryview: ...


def as_bytes(data: bytes | bytearray | memoryview | _JsBuffer) -> bytes:
    """The bytes of a file as the worker passes them (a Uint8Array, proxied) or as Python holds them."""
    if isinstance(data, bytes | bytearray | memoryview):
        return bytes(data)
    return bytes(data.to_py())


class Keystrokes:
    """The text editor's answers. A keystroke's two parts are kept between ``first`` and ``rest`` (the
    worker asks for the rest of the latest keystroke only, once no newer one has come)."""

    def __init__(self) -> None:
        self._parts: EditorParts | None = None

    def first(self, reference: str, hypothesis: str, *, mer: bool = False, text: str | None = None) -> str:
        """The drawing, the summary figures and the signature. ``text``: the page's words for the drawing as
        JSON (data-cvb-view-text), or None for the scorer's English."""
        words = view_text_from_json(text)
        self._parts = render_editor_parts(reference=reference, hypothesis=hypothesis, mer=mer, text=words)
        return self._parts.first

    def rest(self) -> str:
        """The details and the whole figures of the keystroke ``first`` drew last; each keystroke's once."""
        parts, self._parts = self._parts, None
        if parts is None:
            raise LookupError("No keystroke waits for its details: rest() follows one first().")
        return parts.rest()

    def whole(self, reference: str, hypothesis: str, *, mer: bool = False) -> str:
        """Both parts in one answer (``render_view(...).to_editor_json()``): the worker's warm-up drawings."""
        return render_view(reference=reference, hypothesis=hypothesis, mer=mer).to_editor_json()


def placed_paths(reference: str, hypothesis: str) -> tuple[str, str]:
    """Where the two files go, relative to the folder: under their own names, or, for two files of one name
    (from two folders), in two folders, so that each keeps its name in the CLI's sentences."""
    if reference != hypothesis:
        return reference, hypothesis
    return f"reference/{reference}", f"hypothesis/{hypothesis}"


def _output(output: str) -> str:
    return json.dumps({"output": output}, ensure_ascii=False)


class FileMode:
    """Two files scored by the CLI, what the page asks of them afterwards (the text report, a clip's texts),
    and what is kept for that until other files are placed."""

    def __init__(self, directory: str = FILES_DIR) -> None:
        self._directory = directory
        self._placed: tuple[str, str] | None = None
        self._report: Report | None = None  # the Report of the last files scored (cli.main's ``reported``)
        self._records: list[dict[str, tuple[str, int]]] | None = None  # both files', read at the first clip

    def place(
        self,
        reference_name: str,
        reference: bytes | bytearray | memoryview | _JsBuffer,
        hypothesis_name: str,
        hypothesis: bytes | bytearray | memoryview | _JsBuffer,
    ) -> tuple[str, str]:
        """Write both files (what was kept of the files placed before goes with them); their paths."""
        placed = placed_paths(reference_name, hypothesis_name)
        for path, data in zip(placed, (reference, hypothesis), strict=True):
            full = os.path.join(self._directory, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as handle:
                handle.write(as_bytes(data))
        self._placed, self._report, self._records = placed, None, None
        return placed

    def _cli(
        self, *options: str, progress: Progress | None = None, scored: Callable[[str], None] | None = None
    ) -> str:
        from cvb_scorer import cli

        if self._placed is None:
            raise LookupError("No files are placed: score() places them.")
        out, err = io.StringIO(), io.StringIO()
        # The CLI reads the files under the names the reader chose (relative paths), as its sentences name them.
        previous = os.getcwd()
        os.chdir(self._directory)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli.main(
                    [*options, "--", *self._placed], progress=progress, scored=scored, reported=self._keep
                )
        finally:
            os.chdir(previous)
        if code != 0:
            return json.dumps(
                {"error": err.getvalue().strip().removeprefix("cvb-score: ")}, ensure_ascii=False
            )
        return _output(out.getvalue())

    def _keep(self, report: Report) -> None:
        self._report = report

    def score(
        self,
        reference_name: str,
        reference: bytes | bytearray | memoryview | _JsBuffer,
        hypothesis_name: str,
        hypothesis: bytes | bytearray | memoryview | _JsBuffer,
        *,
        progress: Progress | None = None,
        scored: Callable[[str], None] | None = None,
    ) -> str:
        """``cvb-score --json`` of the two files. ``progress(phase, done, total)`` moves the page's bar (at
        most once per whole percent of each phase; cvb_scorer.progress); ``scored(json)`` gets the report
        without its intervals once the clips are scored (report.scored_json), so the page shows the figures
        and the table while the bootstrap, most of a long run, draws its resamples."""
        self.place(reference_name, reference, hypothesis_name, hypothesis)
        return self._cli("--json", progress=progress, scored=scored)

    def text(self) -> str:
        """The CLI's text report of the files just scored (what ``cvb-score REF HYP`` prints), made from the
        report that run kept: running the CLI again would draw the intervals again."""
        if self._report is None:
            return self._cli()
        from cvb_scorer.report import report_text

        return _output(report_text(self._report))

    def clip(self, clip_id: str) -> str:
        """One clip's two texts, ``{"reference", "hypothesis"}`` ("" where a file lacks it), read by the
        scorer's own JSONL reader. Both files are read at the first clip opened and kept until others are
        placed."""
        if self._placed is None:
            raise LookupError("No files are placed: score() places them.")
        if self._records is None:
            from cvb_scorer.report import decode_jsonl, parse_jsonl
            from cvb_scorer.rules import load_packaged_rules

            limit = load_packaged_rules().input.max_text_chars
            records = []
            for path in self._placed:
                with open(os.path.join(self._directory, path), "rb") as handle:
                    data = handle.read()
                records.append(parse_jsonl(decode_jsonl(data, name=path), name=path, max_chars=limit))
            self._records = records
        reference, hypothesis = (records.get(clip_id, ("", 0))[0] for records in self._records)
        return json.dumps({"reference": reference, "hypothesis": hypothesis}, ensure_ascii=False)
