"""cvb_scorer.browser, the editor worker's Python, under CPython: its keystroke answers are the view's own, and its
file mode answers what the command-line scorer prints, byte for byte, sentence for sentence.
(tests/scorer/test_browser_pyodide.py runs the same module in Pyodide, called the way the worker calls it.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cvb_scorer.browser import FileMode, Keystrokes, as_bytes, placed_paths
from cvb_scorer.view import render_view
from cvb_scorer.view_text import ENGLISH

CVB_SCORE = Path(sys.executable).with_name("cvb-score")

REFERENCE = (
    '{"id": "a", "text": "呢份保單嘅premium係每個月一千二百蚊"}\n{"id": "b", "text": "頭髮這個"}\n'
    '{"id": "c", "text": "多謝"}\n'
)
HYPOTHESIS = '{"id": "a", "text": "呢份保单嘅premium系每个月1200蚊"}\n{"id": "c", "text": "多餘"}\n'

PAIRS = [
    ("呢份保單嘅premium係每個月一千二百蚊", "呢份保单嘅premium系每个月1200蚊"),
    ("头发這個e-mail 9876十五號", "頭髮这个email 九八七六15号"),
    ("", "\x00\u202e"),
    ("<script>", "<img onerror=x>"),
]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CVB_SCORE), *args], capture_output=True, text=True, cwd=cwd, check=False)


@pytest.mark.parametrize(("reference", "hypothesis"), PAIRS)
@pytest.mark.parametrize("mer", [False, True])
def test_a_keystrokes_two_parts_merged_are_the_whole_view(reference: str, hypothesis: str, mer: bool) -> None:
    keystrokes = Keystrokes()
    first = json.loads(keystrokes.first(reference, hypothesis, mer=mer))
    rest = json.loads(keystrokes.rest())
    whole = keystrokes.whole(reference, hypothesis, mer=mer)
    assert whole == render_view(reference=reference, hypothesis=hypothesis, mer=mer).to_editor_json()
    expected = json.loads(whole)
    assert {**first, **rest} == expected
    assert set(first) == {"alignment", "figures", "signature"}


def test_the_pages_words_reach_the_drawing() -> None:
    words = {**ENGLISH.as_mapping()}
    changed = {key: f"«{value}»" if isinstance(value, str) else value for key, value in words.items()}
    keystrokes = Keystrokes()

    def drawn(text: str | None) -> str:
        return keystrokes.first("頭髮", "頭發", text=text) + keystrokes.rest()

    english = drawn(None)
    assert drawn(json.dumps(words)) == english
    assert drawn(json.dumps(changed)) != english
    assert "«" in drawn(json.dumps(changed))


def test_details_come_once_for_the_last_keystroke_only() -> None:
    keystrokes = Keystrokes()
    with pytest.raises(LookupError):
        keystrokes.rest()
    keystrokes.first("一", "二")
    keystrokes.first("頭髮", "头发")
    assert json.loads(keystrokes.rest())["figures"] == json.loads(keystrokes.whole("頭髮", "头发"))["figures"]
    with pytest.raises(LookupError):
        keystrokes.rest()


@pytest.mark.parametrize(
    ("reference", "hypothesis", "placed"),
    [
        ("ref.jsonl", "hyp.jsonl", ("ref.jsonl", "hyp.jsonl")),
        ("same.jsonl", "same.jsonl", ("reference/same.jsonl", "hypothesis/same.jsonl")),
        ("參考 1.jsonl", "參考.jsonl", ("參考 1.jsonl", "參考.jsonl")),
    ],
)
def test_files_keep_their_names_and_two_of_one_name_go_in_two_folders(
    reference: str, hypothesis: str, placed: tuple[str, str]
) -> None:
    assert placed_paths(reference, hypothesis) == placed


def test_bytes_of_every_buffer_python_holds() -> None:
    for data in (b"ab", bytearray(b"ab"), memoryview(b"ab")):
        assert as_bytes(data) == b"ab"


def _write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_scored_files_are_the_commands_json_and_text_byte_for_byte(tmp_path: Path) -> None:
    cli_dir = tmp_path / "cli"
    _write(cli_dir, "ref.jsonl", REFERENCE)
    _write(cli_dir, "hyp.jsonl", HYPOTHESIS)
    expected_json = _cli("--json", "--", "ref.jsonl", "hyp.jsonl", cwd=cli_dir)
    expected_text = _cli("--", "ref.jsonl", "hyp.jsonl", cwd=cli_dir)
    assert expected_json.returncode == 0, expected_json.stderr

    heard: list[tuple[str, int, int]] = []
    early: list[str] = []
    mode = FileMode(str(tmp_path / "files"))
    answer = mode.score(
        "ref.jsonl",
        REFERENCE.encode(),
        "hyp.jsonl",
        memoryview(HYPOTHESIS.encode()),
        progress=lambda phase, done, total: heard.append((phase, done, total)),
        scored=early.append,
    )
    assert json.loads(answer) == {"output": expected_json.stdout}
    assert json.loads(mode.text()) == {"output": expected_text.stdout}
    # Every phase is heard, ending on its total; the figures come before the intervals, once.
    assert [phase for phase in dict.fromkeys(p for p, _, _ in heard)] == ["clips", "bootstrap", "report"]
    for phase in ("clips", "bootstrap", "report"):
        last = [(done, total) for p, done, total in heard if p == phase][-1]
        assert last[0] == last[1]
    assert len(early) == 1
    assert json.loads(early[0])["coverage"] == json.loads(expected_json.stdout)["coverage"]


def test_a_clips_texts_come_from_the_files_placed_last(tmp_path: Path) -> None:
    mode = FileMode(str(tmp_path))
    with pytest.raises(LookupError):
        mode.clip("a")
    mode.score("ref.jsonl", REFERENCE.encode(), "hyp.jsonl", HYPOTHESIS.encode())
    assert json.loads(mode.clip("a")) == {
        "reference": "呢份保單嘅premium係每個月一千二百蚊",
        "hypothesis": "呢份保单嘅premium系每个月1200蚊",
    }
    assert json.loads(mode.clip("b")) == {"reference": "頭髮這個", "hypothesis": ""}
    assert json.loads(mode.clip("c")) == {"reference": "多謝", "hypothesis": "多餘"}
    assert json.loads(mode.clip("none")) == {"reference": "", "hypothesis": ""}
    mode.score(
        "ref.jsonl", b'{"id": "a", "text": "\xe4\xb8\x80"}\n', "hyp.jsonl", b'{"id": "a", "text": "x"}\n'
    )
    assert json.loads(mode.clip("a")) == {"reference": "一", "hypothesis": "x"}


@pytest.mark.parametrize(
    ("reference", "hypothesis", "names"),
    [
        ("ref.jsonl", "hyp.jsonl", ("ref.jsonl", "hyp.jsonl")),
        ("same.jsonl", "same.jsonl", ("reference/same.jsonl", "hypothesis/same.jsonl")),
    ],
)
def test_a_bad_line_gets_the_commands_sentence_naming_the_file(
    tmp_path: Path, reference: str, hypothesis: str, names: tuple[str, str]
) -> None:
    bad = REFERENCE + '{"id": "d", "text": \n'
    cli_dir = tmp_path / "cli"
    _write(cli_dir, names[0], bad)
    _write(cli_dir, names[1], HYPOTHESIS)
    expected = _cli("--json", "--", *names, cwd=cli_dir)
    assert expected.returncode == 2

    mode = FileMode(str(tmp_path / "files"))
    answer = json.loads(mode.score(reference, bad.encode(), hypothesis, HYPOTHESIS.encode()))
    assert answer == {"error": expected.stderr.strip().removeprefix("cvb-score: ")}
    assert names[0] in answer["error"] and "line 4" in answer["error"]
    assert "Traceback" not in answer["error"]
    # No report was kept: the text report is the same sentence.
    assert json.loads(mode.text()) == answer
