"""``cvb-score``: the report, ``--json``, ``--align`` and errors as sentences naming file and line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cvb_scorer import __version__
from cvb_scorer.cli import main
from cvb_scorer.report import Report, report_json, report_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scorer.conftest import RULES_MAPPING

REF = [
    {"id": "c1", "text": "我想要一百二十蚊嘅iPhone 15"},
    {"id": "c2", "text": "唔該埋單"},
    {"id": "c3", "text": "个人干净"},
]
HYP = [{"id": "c1", "text": "我想要百二蚊嘅iphone 16"}, {"id": "c2", "text": "該唔埋單"}]


def write(path: Path, rows: list[dict[str, str]] | str | bytes) -> Path:
    if isinstance(rows, bytes):
        path.write_bytes(rows)
        return path
    text = rows if isinstance(rows, str) else "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@pytest.fixture
def rules_file(tmp_path: Path) -> Path:
    """The agreed rules shape as a --rules file, so the cases do not depend on what the package carries."""
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(RULES_MAPPING), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "ref.jsonl", REF), write(tmp_path / "hyp.jsonl", HYP)


@pytest.mark.parametrize("options", [["--json"], []])
def test_the_report_handed_over_prints_as_the_command_does_in_either_form(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    # The editor's file mode scores once with --json and copies the text form from the report it was handed.
    ref, hyp = files
    kept: list[Report] = []
    assert main([str(ref), str(hyp), *options], reported=kept.append) == 0
    printed = capsys.readouterr().out
    assert len(kept) == 1
    assert main([str(ref), str(hyp), "--json"]) == 0
    assert report_json(kept[0]) + "\n" == capsys.readouterr().out
    assert main([str(ref), str(hyp)]) == 0
    assert report_text(kept[0]) == capsys.readouterr().out
    assert printed == (report_json(kept[0]) + "\n" if options else report_text(kept[0]))


def test_a_run_that_fails_hands_over_no_report(files: tuple[Path, Path], tmp_path: Path) -> None:
    ref, _ = files
    kept: list[Report] = []
    assert main([str(ref), str(write(tmp_path / "bad.jsonl", "{"))], reported=kept.append) == 2
    assert kept == []


def test_json_report_has_the_agreed_keys(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"cer", "mer", "ci95", "counts", "coverage", "clips", "signature"} <= set(data)
    assert set(data["ci95"]) == {"cer", "mer"} and len(data["ci95"]["cer"]) == 2
    assert data["counts"] == {"S": 3, "D": 4, "I": 0, "N": 23}
    assert data["coverage"]["missing"] == ["c3"] and data["coverage"]["with_hypothesis"] == 2
    clip = data["clips"][0]
    assert {"id", "cer", "S", "D", "I", "N", "ref_norm", "hyp_norm"} <= set(clip)
    assert clip["ref_norm"] == "我想要120嘅iphone15"
    assert data["clips"][2]["ref_norm"] == "個人干淨"  # 干 is valid Hong Kong writing: only 净 is folded
    assert data["ci95"]["cer"][0] <= data["cer"] <= data["ci95"]["cer"][1]


def test_text_report(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp)]) == 0
    out = capsys.readouterr().out
    assert "Corpus CER" in out and "Corpus MER" in out and "95% CI" in out
    assert "Coverage: 2 of 3 clips" in out and "(no hypothesis)" in out
    assert "Signature: cvb-scorer:" in out


def test_align_prints_one_clip_readably(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp), "--align", "c2"]) == 0
    out = capsys.readouterr().out
    assert "Legend:" in out and "REF 唔 該 埋 單" in out and "HYP 該 唔 埋 單" in out
    assert "S  S" in out


def test_align_wraps_a_long_call(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = "我哋今日去九龍塘食飯" * 100
    ref = write(tmp_path / "r.jsonl", [{"id": "call", "text": long}])
    hyp = write(tmp_path / "h.jsonl", [{"id": "call", "text": long.replace("食", "石")}])
    assert main([str(ref), str(hyp), "--align", "call"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 60 and max(len(line) for line in lines) < 200


GOOD = '{"id": "a", "text": "x"}\n'
GOOD_BYTES = GOOD.encode()
LIMIT = 100000  # conftest.RULES_MAPPING's input.max_text_chars, which these cases run with
BAD_INPUT: list[tuple[str | bytes, str | bytes, str]] = [
    (GOOD + '{"id": "b", "text": \n', GOOD, "ref.jsonl line 2 is not valid JSON"),
    (GOOD + '{"id": "a", "text": "y"}\n', GOOD, 'ref.jsonl line 2 repeats id "a" (first on line 1)'),
    (GOOD, GOOD + '\n{"id": "zz", "text": "y"}\n', 'hyp.jsonl line 3 has id "zz", which is not in'),
    ("", GOOD, "ref.jsonl has no clips"),
    (GOOD, "\n\n", "hyp.jsonl has no clips"),
    ('["a", "b"]\n', GOOD, "ref.jsonl line 1 is not a JSON object"),
    ('{"id": "a", "text": 5}\n', GOOD, 'ref.jsonl line 1 needs a string "text"'),
    ('{"text": "x"}\n', GOOD, 'ref.jsonl line 1 needs a non-empty string "id"'),
    ('{"id": "", "text": "x"}\n', GOOD, 'ref.jsonl line 1 needs a non-empty string "id"'),
    # A lone surrogate is legal JSON escape syntax but no character: it could never be written out as UTF-8.
    ('{"id": "\\ud800", "text": "x"}\n', GOOD, 'ref.jsonl line 1 has a lone surrogate (\\ud800) in its "id"'),
    (
        GOOD,
        '{"id": "a", "text": "x\\udfff"}\n',
        'hyp.jsonl line 1 has a lone surrogate (\\udfff) in its "text"',
    ),
    # json.loads raises RecursionError here, not JSONDecodeError.
    (
        GOOD + '{"id": "b", "text": ' + "[" * 100_000 + "\n",
        GOOD,
        "ref.jsonl line 2 is not valid JSON (its brackets",
    ),
    # int() refuses integers over 4,300 digits with a ValueError.
    (
        '{"id": "a", "text": "x", "n": ' + "9" * 5000 + "}\n",
        GOOD,
        "ref.jsonl line 1 is not valid JSON (it holds a",
    ),
    (
        '{"id": "a", "text": "x", "id": "b"}\n',
        GOOD,
        'ref.jsonl line 1 names the key "id" twice in one object',
    ),
    (GOOD, '{"id": "a", "text": "' + "字" * (LIMIT + 1) + '"}\n', 'hyp.jsonl line 1 has a "text" of 100,001'),
    # Lines end at \n only: a raw U+2028 or U+0085 inside a string does not start a new line.
    ('{"id": "a", "text": "x\u2028y\u0085z"}\n{"id": "b"}\n', GOOD, 'ref.jsonl line 2 needs a string "text"'),
    (GOOD + "\ufeff" + GOOD.replace("a", "b"), GOOD, "ref.jsonl line 2 starts with a byte-order mark"),
    (GOOD.encode("utf-16"), GOOD, "ref.jsonl is UTF-16 text"),
    (GOOD.encode("utf-32"), GOOD, "ref.jsonl is UTF-32 text"),
    (GOOD.encode("utf-16-le"), GOOD, "ref.jsonl line 1 holds a NUL character"),
    (
        GOOD_BYTES + '{"id": "b", "text": "café"}\n'.encode("latin-1"),
        GOOD,
        "ref.jsonl line 2 is not valid UTF-8",
    ),
    (
        GOOD_BYTES + '{"id": "b", "text": "廣東話"}\n'.encode("big5"),
        GOOD,
        "ref.jsonl line 2 is not valid UTF-8",
    ),
]


@pytest.mark.parametrize(("ref_text", "hyp_text", "message"), BAD_INPUT)
def test_malformed_input_gets_a_sentence_and_exit_code_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rules_file: Path,
    ref_text: str | bytes,
    hyp_text: str | bytes,
    message: str,
) -> None:
    ref = write(tmp_path / "ref.jsonl", ref_text)
    hyp = write(tmp_path / "hyp.jsonl", hyp_text)
    assert main([str(ref), str(hyp), "--rules", str(rules_file)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.strip().endswith(".")
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err and captured.out == ""


def test_missing_file_and_unknown_align_id(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = files
    assert main([str(ref), str(ref.parent / "nope.jsonl")]) == 2
    assert "nope.jsonl does not exist" in capsys.readouterr().err
    assert main([str(ref), str(hyp), "--align", "c9"]) == 2
    assert 'no clip with id "c9"' in capsys.readouterr().err


def test_rules_override(files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = dict(RULES_MAPPING)
    rules["bootstrap"] = {"resamples": 200, "interval": 0.9, "seed": 7, "min_clips": 2}
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules), encoding="utf-8")
    ref, hyp = files
    assert main([str(ref), str(hyp), "--json", "--rules", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "ci90" in data and "|boot:200@7/lanes16-reject|ci:90|" in data["signature"]
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main([str(ref), str(hyp), "--rules", str(bad)]) == 2
    assert "bad.json is not valid JSON" in capsys.readouterr().err
    rules["bootstrap"] = {"resamples": 2.7, "interval": 0.9, "seed": 7, "min_clips": 2}
    bad.write_text(json.dumps(rules), encoding="utf-8")
    assert main([str(ref), str(hyp), "--rules", str(bad)]) == 2
    assert "bad.json, key bootstrap.resamples: must be a whole number, not 2.7." in capsys.readouterr().err


def test_installed_entry_point_runs(files: tuple[Path, Path]) -> None:
    ref, hyp = files
    exe = Path(sys.executable).with_name("cvb-score")
    result = subprocess.run(
        [str(exe), str(ref), str(hyp), "--json"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["coverage"]["clips"] == 3


def run_cli(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The installed ``cvb-score`` as a separate process (bytes in and out: the console encoding is under test)."""
    exe = Path(sys.executable).with_name("cvb-score")
    return subprocess.run(
        [str(exe), *args], input=stdin, capture_output=True, check=False, env={**os.environ, **(env or {})}
    )


def test_json_is_utf8_bytes_on_a_cp950_console(tmp_path: Path) -> None:
    # cp950 (Big5) is the redirected console of Traditional-Chinese Windows; it cannot encode 𠮶 or 😀, so
    # printing through it would fail after nothing, or half of the report, had been written.
    ref = write(tmp_path / "r.jsonl", [{"id": "c1-𠮶😀", "text": "佢喺度 OK"}, {"id": "c2", "text": "唔該"}])
    hyp = write(tmp_path / "h.jsonl", [{"id": "c1-𠮶😀", "text": "佢度 OK"}])
    for extra in (["--json"], []):
        result = run_cli(str(ref), str(hyp), *extra, env={"PYTHONIOENCODING": "cp950"})
        assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
        text = result.stdout.decode("utf-8")
        assert "𠮶" in text and "😀" in text
    assert json.loads(run_cli(str(ref), str(hyp), "--json", env={"PYTHONIOENCODING": "cp950"}).stdout)


def test_errors_are_utf8_sentences_on_a_cp950_console(tmp_path: Path) -> None:
    ref = write(tmp_path / "r😀.jsonl", GOOD + GOOD)
    result = run_cli(str(ref), str(ref), env={"PYTHONIOENCODING": "cp950"})
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode("utf-8").startswith(f"cvb-score: {ref} line 2 repeats id")


def test_dash_reads_standard_input(files: tuple[Path, Path]) -> None:
    ref, hyp = files
    from_file = run_cli(str(ref), str(hyp), "--json")
    assert run_cli("-", str(hyp), "--json", stdin=ref.read_bytes()).stdout == from_file.stdout
    assert run_cli(str(ref), "-", "--json", stdin=hyp.read_bytes()).stdout == from_file.stdout
    both = run_cli("-", "-", stdin=ref.read_bytes())
    assert both.returncode == 2 and b"cannot both be -" in both.stderr
    bad = run_cli("-", str(hyp), stdin=b'{"id": "c1"}\n')
    assert bad.returncode == 2 and bad.stderr.startswith(
        b'cvb-score: standard input line 1 needs a string "text"'
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"cvb-score {__version__}"


def test_a_closed_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    rows = [{"id": f"c{k}", "text": "我哋今日去九龍塘食飯" * 20} for k in range(300)]
    ref = write(tmp_path / "r.jsonl", rows)
    exe = Path(sys.executable).with_name("cvb-score")
    # `cvb-score ... | head -c 1`: the reader leaves after one byte.
    result = subprocess.run(
        f"'{exe}' '{ref}' '{ref}' | head -c 1", shell=True, capture_output=True, check=False
    )
    assert result.stdout == b"C" and b"Traceback" not in result.stderr and b"Error" not in result.stderr


def test_intervals_do_not_depend_on_the_order_of_lines(tmp_path: Path) -> None:
    import random

    rng = random.Random(4)
    rows = [
        {"id": f"clip-{k:03d}", "text": "我哋今日去九龍塘食飯"[: rng.randrange(2, 10)]} for k in range(60)
    ]
    hyps = [{"id": r["id"], "text": r["text"][rng.randrange(2) :]} for r in rows]
    outputs = set()
    for attempt in range(3):
        rng.shuffle(rows)
        rng.shuffle(hyps)
        ref = write(tmp_path / f"r{attempt}.jsonl", rows)
        hyp = write(tmp_path / f"h{attempt}.jsonl", hyps)
        data = json.loads(run_cli(str(ref), str(hyp), "--json").stdout)
        outputs.add(json.dumps([data["ci95"], data["cer"], data["mer"]]))
    assert len(outputs) == 1
    low, high = json.loads(outputs.pop())[0]["cer"]
    assert low < high


def test_fewer_clips_than_the_rule_get_a_warning_naming_the_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules_file: Path
) -> None:
    min_clips = RULES_MAPPING["bootstrap"]["min_clips"]  # type: ignore[index]
    few = [{"id": f"c{k}", "text": "唔該埋單"} for k in range(min_clips - 1)]
    enough = [*few, {"id": "last", "text": "唔該"}]
    for rows, warned in ((few, True), (enough, False)):
        ref = write(tmp_path / "r.jsonl", rows)
        hyp = write(tmp_path / "h.jsonl", [{"id": r["id"], "text": r["text"][1:]} for r in rows])
        assert main([str(ref), str(hyp), "--json", "--rules", str(rules_file)]) == 0
        warnings = json.loads(capsys.readouterr().out)["interval"]["warnings"]
        assert main([str(ref), str(hyp), "--rules", str(rules_file)]) == 0
        text = capsys.readouterr().out
        if warned:
            assert [w[:4] for w in warnings] == ["CER:", "MER:"]
            assert f"rests on {min_clips - 1} clips, fewer than the {min_clips}" in warnings[0]
            assert f"Warning: {warnings[0]}" in text and f"Warning: {warnings[1]}" in text
        else:
            assert warnings == [] and "Warning" not in text


def test_one_clip_warns_of_both_its_few_clips_and_its_zero_width(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = write(tmp_path / "r.jsonl", [{"id": "only", "text": "唔該埋單"}])
    hyp = write(tmp_path / "h.jsonl", [{"id": "only", "text": "該埋單"}])
    assert main([str(ref), str(hyp), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ci95"]["cer"] == [0.25, 0.25]
    assert any(w.startswith("CER: the 95% interval rests on 1 clip,") for w in data["interval"]["warnings"])


# Characters that exercise every part of the pipeline: numerals and units, punctuation of both widths, spaces
# of several kinds, Latin, full-width digits, Simplified-only characters, combining marks, controls, astral
# characters, a BOM and the line separators JSON lets through raw.
ODD = (
    "一二三四五六七八九十百千萬億點兩零〇個年月日號半,，.。 \t\u3000\u2028\u0085-–/:%％$HKD元蚊毫abcXYZ123"
    "０１２½²ⅣⅧ①\u200b\u200d\ufeff\u0301\x00\x1f\x7f𠮶😀脚黄个系几后只万、;；()（）「」\"'\\"
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pairs=st.lists(st.tuples(st.text(ODD, max_size=25), st.text(ODD, max_size=25)), min_size=1, max_size=4),
    ascii_only=st.booleans(),
)
def test_no_text_makes_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pairs: list[tuple[str, str]], ascii_only: bool
) -> None:
    def lines(side: int) -> str:
        return "".join(
            json.dumps({"id": f"c{k}", "text": p[side]}, ensure_ascii=ascii_only) + "\n"
            for k, p in enumerate(pairs)
        )

    ref = write(tmp_path / "r.jsonl", lines(0))
    hyp = write(tmp_path / "h.jsonl", lines(1))
    for extra in ([], ["--json"], ["--align", "c0"]):
        assert main([str(ref), str(hyp), *extra]) == 0
    capsys.readouterr()


def test_a_full_disk_is_a_sentence_not_a_traceback(files: tuple[Path, Path]) -> None:
    full_device = Path("/dev/full")
    if not full_device.exists():
        pytest.skip("no /dev/full here")
    ref, hyp = files
    exe = Path(sys.executable).with_name("cvb-score")
    with full_device.open("wb") as full:
        result = subprocess.run(
            [str(exe), str(ref), str(hyp), "--json"], stdout=full, stderr=subprocess.PIPE, check=False
        )
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "cvb-score: the report could not be written to standard output ([Errno 28] No space left on device).\n"
    )


def test_windows_line_endings_read_as_unix_ones(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = files
    assert main([str(ref), str(hyp), "--json"]) == 0
    unix = capsys.readouterr().out
    for path in (ref, hyp):
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert main([str(ref), str(hyp), "--json"]) == 0
    assert capsys.readouterr().out == unix


def test_a_rules_file_in_another_encoding_gets_a_sentence(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = files
    rules = tmp_path / "rules.json"
    rules.write_bytes(json.dumps(RULES_MAPPING).encode("utf-16"))
    assert main([str(ref), str(hyp), "--rules", str(rules)]) == 2
    assert (
        capsys.readouterr().err
        == f"cvb-score: {rules} is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8.\n"
    )
    assert main([str(ref), str(hyp), "--rules", str(tmp_path / "none.json")]) == 2
    assert "none.json does not exist" in capsys.readouterr().err


@pytest.mark.parametrize(("chosen", "expected"), [(None, "1"), ("3", "3")])
def test_the_command_keeps_openblas_to_one_thread_unless_the_user_chose(
    files: tuple[Path, Path], chosen: str | None, expected: str
) -> None:
    # numpy's OpenBLAS threads spin on import and the bootstrap never uses them; they must be off before numpy
    # loads (a fresh process, as the command starts), and a user's own setting is kept.
    ref, hyp = files
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if chosen is not None:
        env["OPENBLAS_NUM_THREADS"] = chosen
    script = (
        "import os, sys; from cvb_scorer.cli import main; assert 'numpy' not in sys.modules; main(); "
        "print(os.environ['OPENBLAS_NUM_THREADS'], file=sys.stderr)"
    )
    command = [sys.executable, "-c", script, str(ref), str(hyp), "--json"]
    result = subprocess.run(command, capture_output=True, env=env, check=True)
    assert result.stderr.decode().strip() == expected


def test_the_command_starts_without_pathlib_or_importlib_resources() -> None:
    # Start-up is part of every run: importing these two (for two package files) cost about 20 ms of each
    # cvb-score; the package reads its data with open() instead (cvb_scorer._data).
    script = (
        "import sys, cvb_scorer.cli; "
        "print([m for m in ('pathlib', 'importlib.resources') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_caller_passing_argv_keeps_its_environment(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.delitem(sys.modules, "numpy", raising=False)
    ref, hyp = files
    assert main([str(ref), str(hyp), "--json"]) == 0
    assert "OPENBLAS_NUM_THREADS" not in os.environ
