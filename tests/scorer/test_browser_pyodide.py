"""cvb_scorer.browser in Pyodide (under Node), called the way the editor's worker calls it, answers exactly what
it answers under CPython: every keystroke's parts, and every file mode answer (the report, the text report, a
bad line's sentence, the clips' texts, the progress heard and the early figures)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cvb_scorer.browser import FileMode, Keystrokes
from cvb_scorer.view_text import ENGLISH

from tests.scorer.test_browser import HYPOTHESIS, PAIRS, REFERENCE
from tests.scorer.test_pyodide_parity import HERE, PYODIDE, WHEELS, _node, _skip_reason

FILES = [
    {
        "reference": ["ref.jsonl", REFERENCE],
        "hypothesis": ["hyp.jsonl", HYPOTHESIS],
        "clips": ["a", "b", "c", "x"],
    },
    {
        "reference": ["same.jsonl", REFERENCE + '{"id": "d", "text": \n'],
        "hypothesis": ["same.jsonl", HYPOTHESIS],
        "clips": [],
    },
    # A name that is not ASCII, and a hypothesis with a UTF-8 byte-order mark.
    {
        "reference": ["參考.jsonl", '{"id": "a", "text": "一二"}\n'],
        "hypothesis": ["h.jsonl", '\ufeff{"id": "a", "text": "一"}\n'],
        "clips": ["a"],
    },
]


def _cpython(folder: Path, text: str) -> dict[str, list[dict[str, object]]]:
    keystrokes = Keystrokes()
    out: dict[str, list[dict[str, object]]] = {"keystrokes": [], "files": []}
    for reference, hypothesis in PAIRS:
        first = keystrokes.first(reference, hypothesis, mer=False)
        rest = keystrokes.rest()
        mer_first = keystrokes.first(reference, hypothesis, mer=True)
        worded = keystrokes.first(reference, hypothesis, text=text) + keystrokes.rest()
        whole = keystrokes.whole(reference, hypothesis)
        out["keystrokes"].append(
            {"first": first, "rest": rest, "mer_first": mer_first, "worded": worded, "whole": whole}
        )
    mode = FileMode(str(folder))
    for job in FILES:
        progress: list[list[object]] = []
        scored: list[str] = []
        score = mode.score(
            str(job["reference"][0]),
            str(job["reference"][1]).encode(),
            str(job["hypothesis"][0]),
            str(job["hypothesis"][1]).encode(),
            progress=lambda phase, done, total, heard=progress: heard.append([phase, done, total]),
            scored=scored.append,
        )
        out["files"].append(
            {
                "score": score,
                "text": mode.text(),
                "clips": [mode.clip(str(clip)) for clip in job["clips"]],
                "progress": progress,
                "scored": scored,
            }
        )
    return out


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_the_worker_module_answers_in_pyodide_as_in_cpython(tmp_path: Path) -> None:
    text = json.dumps({key: f"«{value}»" if isinstance(value, str) else value
                       for key, value in ENGLISH.as_mapping().items()})  # fmt: skip
    source = tmp_path / "input.json"
    source.write_text(json.dumps({"pairs": PAIRS, "text": text, "files": FILES}), "utf-8")
    out = tmp_path / "output.json"
    pyodide_files = tmp_path / "pyodide-files"
    pyodide_files.mkdir()
    result = subprocess.run(
        [str(_node()), str(HERE / "browser_run.mjs"), str(PYODIDE), str(WHEELS), str(pyodide_files), str(source),
         str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    pyodide = json.loads(out.read_text("utf-8"))
    cpython = _cpython(tmp_path / "cpython-files", text)
    assert pyodide["keystrokes"] == cpython["keystrokes"]
    for got, expected in zip(pyodide["files"], cpython["files"], strict=True):
        assert got == expected
    # The cases are what they claim: a report, a sentence for the bad line, the phases heard.
    answers = [json.loads(job["score"]) for job in pyodide["files"]]
    assert "output" in answers[0] and "reference/same.jsonl line 4" in answers[1]["error"]
    assert {phase for phase, _, _ in pyodide["files"][0]["progress"]} == {"clips", "bootstrap", "report"}
    # The files went where the module put them, under the reader's names.
    assert (pyodide_files / "reference" / "same.jsonl").is_file()
    assert (pyodide_files / "參考.jsonl").is_file()
