"""`cvb review scan` on synthetic submissions: a clean one passes, each violation is found where it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main
from generator.config import load_config
from generator.paths import Layout
from generator.review.detect import ScanRules
from generator.review.findings import Severity
from generator.review.scan import ACCEPTANCE_SUFFIX, scan

RULES = ScanRules.from_config(load_config(Layout().config).endpointing)

# A submission that does everything right, including things that look like violations and are not.
CLEAN: dict[str, str | bytes] = {
    "README.md": "Evaluated on the TurnBench shipped conversations; 38 hours of other public audio.\n",
    "train/train.py": (
        "import json\n"
        "rows = [json.loads(l) for l in open('/task/public/validation.jsonl')]\n"
        "epochs = 40\nhidden = [32, 64, 128]\nsession_timeout = 105\nlr = 0.0038\n"
        "train = load_dataset('some-org/callhome', split='train')\n"
    ),
    "eval/evaluate.py": "ds = load_dataset('some-org/callhome', split='test')  # evaluation may read a test split\n",
    "configs/model.yaml": "layers: 40\nheads: 4\nconv_kernel: 3\nshipped: [20, 21, 22, 94, 95, 122, 124, 125]\n",
    "configs/data.yaml": "conversations: 38  # a count, not an id\nsessions = 40\n",
    "RECORD": "pkg/x.py,sha256=tB68xZ,1200\n",  # base64 that happens to spell tb68
    "logs/train.log": "step 38 loss 0.41\nstep 40 loss 0.40\nconv_20 done\n",
    "data/public/20.wav": b"RIFF\0\0\0\0WAVE",
    "data/public/21.wav": b"RIFF\0\0\0\0WAVE",
    "weights/model.bin": bytes(range(256)) * 64,
}

# (name, files added to the clean tree, expected (path, line, rule, severity) among the findings)
VIOLATIONS: list[tuple[str, dict[str, str | bytes], tuple[str, int | None, str, Severity]]] = [
    (
        "download",
        {"get.sh": "huggingface-cli download mundo-ai/turn-benchmark-dev\n"},
        ("get.sh", 1, "source", Severity.FAILS),
    ),
    (
        "mirror",
        {
            "fetch.py": "# data\nURL = 'https://hf-mirror.com/datasets/JSALT2026-Conv-AI-Simulator/turnbench-dev-no-backchannel'\n"
        },
        ("fetch.py", 2, "source", Severity.FAILS),
    ),
    (
        "hf cache folder",
        {"cache/datasets--mundo-ai--turn-benchmark-dev/x.txt": "ok\n"},
        ("cache/datasets--mundo-ai--turn-benchmark-dev", None, "source", Severity.FAILS),
    ),
    (
        "notebook",
        {"explore.ipynb": json.dumps({"cells": [{"source": ["ds = load('turn_benchmark_dev')\n"]}]})},
        ("explore.ipynb", 1, "source", Severity.FAILS),
    ),
    (
        "folder named by id",
        {"data/conv_105/a.wav": b"RIFF"},
        ("data/conv_105", None, "id_name", Severity.FAILS),
    ),
    (
        "file named by id",
        {"labels/turnbench-38.json": "{}\n"},
        ("labels/turnbench-38.json", None, "id_name", Severity.FAILS),
    ),
    (
        "manifest key",
        {"cache/manifest.jsonl": '{"a": 1}\n{"conversation_id": 157, "end": 3.2}\n'},
        ("cache/manifest.jsonl", 2, "id_key", Severity.FAILS),
    ),
    (
        "id list",
        {"select.py": "x = 1\nEVAL = [38, 40, 41, 42, 43]\n"},
        ("select.py", 2, "id_list", Severity.FAILS),
    ),
    (
        "id per line",
        {"splits/ids.txt": "126\n127\n128\n129\n"},
        ("splits/ids.txt", 1, "id_list", Severity.FAILS),
    ),
    (
        "numbered files",
        {"audio/38.wav": b"RIFF", "audio/40.wav": b"RIFF", "audio/41.wav": b"RIFF"},
        ("audio/40.wav", None, "id_file", Severity.FAILS),
    ),
    (
        "log",
        {"logs/run.log": "loading\nloaded conv_id=171 ok\n"},
        ("logs/run.log", 2, "id_key", Severity.FAILS),
    ),
    ("symlink target", {"link": Path("/data/turnbench/conv_44")}, ("link", 1, "id_key", Severity.FAILS)),
    (
        "training reads a test split",
        {"train/finetune.py": "a = 1\nds = load_dataset('x/y', split='test')\n"},
        ("train/finetune.py", 2, "split_read", Severity.FAILS),
    ),
    (
        "calibration reads validation",
        {"calibrate.py": "\n\nthr = fit(read_csv('data/val_set.csv'))\n"},
        ("calibrate.py", 3, "split_read", Severity.REVIEW),
    ),
    (
        "own hold-out by subscript",
        {"train_turns.py": "held = parts['test']\n"},
        ("train_turns.py", 1, "split_read", Severity.REVIEW),
    ),
    (
        "selection by dev split",
        {"select_checkpoint.sh": "python pick.py --split dev\n"},
        ("select_checkpoint.sh", 1, "split_read", Severity.FAILS),
    ),
    (
        "utf-16 manifest",
        {"ids16.txt": "\ufeffconversation_id: 160\n".encode("utf-16-le")},
        ("ids16.txt", 1, "id_key", Severity.FAILS),
    ),
    (
        "prose mention",
        {"NOTES.md": "we listened to session 139 twice\n"},
        ("NOTES.md", 1, "id_key", Severity.REVIEW),
    ),
    (
        "relative validation file in training",
        {"train_model.py": "open('validation.jsonl')\n"},
        ("train_model.py", 1, "split_read", Severity.REVIEW),
    ),
]


def write_tree(root: Path, files: dict[str, str | bytes | Path]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            path.symlink_to(content)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def test_the_clean_submission_has_no_findings(tmp_path: Path) -> None:
    report = scan(write_tree(tmp_path / "sub", dict(CLEAN)), RULES)
    assert [f.as_dict() for f in report.findings] == []
    assert report.exit_code() == 0


@pytest.mark.parametrize(("name", "added", "expected"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_each_violation_is_found_where_it_is(
    tmp_path: Path,
    name: str,
    added: dict[str, str | bytes | Path],
    expected: tuple[str, int | None, str, Severity],
) -> None:
    report = scan(write_tree(tmp_path / "sub", {**CLEAN, **added}), RULES)
    got = {(f.path, f.line, f.rule, f.severity) for f in report.findings}
    assert expected in got, f"{name}: {got}"
    # Only the planted violation is found: nothing from the clean part of the tree.
    assert all(
        f.path.startswith(tuple(added)) or f.path in {p.rsplit("/", 1)[0] for p in added}
        for f in report.findings
    )
    assert report.exit_code() == (1 if expected[3] is Severity.FAILS else 3)


def test_binary_files_are_skipped_by_content_not_by_name(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "sub",
        {
            "notes.bin": "conversation_id: 38\n",  # text with a binary-looking name: read
            "manifest.txt": b"\0\0conversation_id: 40\n",  # binary content with a text name: skipped
        },
    )
    report = scan(root, RULES)
    assert [(f.path, f.rule) for f in report.findings] == [("notes.bin", "id_key")]
    assert report.binary_skipped == 1


def test_every_file_is_read_once_and_binary_files_only_in_part(tmp_path: Path) -> None:
    big_text = "step loss\n" * 300_000  # three blocks
    root = write_tree(tmp_path / "sub", {"a.log": big_text, "w.bin": b"\0" * 3_000_000, "b.txt": "x\n"})
    report = scan(root, RULES)
    assert report.files_read == 3
    assert report.bytes_read == len(big_text) + (1 << 20) + 2


def test_line_numbers_count_only_newlines_across_blocks(tmp_path: Path) -> None:
    filler = "a\u2028b\r\n" * 200_000  # U+2028 is not a line break; CRLF counts once
    root = write_tree(tmp_path / "sub", {"x.txt": filler + "conversation_id: 38\n"})
    (finding,) = scan(root, RULES).findings
    assert finding.line == 200_001


def test_an_accepted_finding_stays_listed_but_no_longer_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_tree(tmp_path / "sub", {**CLEAN, "select.py": "EVAL = [38, 40, 41]\n"})
    assert main(["review", "scan", str(root), "--json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (
        main(["review", "accept", str(root), finding["id"], "--note", "a unit-test fixture, not data"]) == 0
    )
    accepted_file = tmp_path / f"sub{ACCEPTANCE_SUFFIX}"
    assert accepted_file.exists() and not (root / accepted_file.name).exists()
    # The finding's id survives lines moving above it.
    (root / "select.py").write_text("import x\n\nEVAL = [38, 40, 41]\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["review", "scan", str(root), "--json"]) == 0
    (again,) = json.loads(capsys.readouterr().out)["findings"]
    assert again["id"] == finding["id"] and again["line"] == 3
    assert again["accepted"] == "a unit-test fixture, not data"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["review", "scan", "{missing}"], "is not a folder"),
        (["review", "accept", "{sub}", "0123456789ab", "--note", "x"], "no finding 0123456789ab"),
        (["review", "accept", "{sub}", "0123456789ab", "--note", "  "], "--note must say why"),
    ],
)
def test_bad_requests_get_a_sentence_and_exit_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    sub = write_tree(tmp_path / "sub", {"a.txt": "ok\n"})
    filled = [a.format(missing=tmp_path / "nope", sub=sub) for a in args]
    assert main(filled) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_broken_acceptance_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = write_tree(tmp_path / "sub", {"a.txt": "ok\n"})
    (tmp_path / f"sub{ACCEPTANCE_SUFFIX}").write_text('{"accepted": [{"finding": "x"}]}', encoding="utf-8")
    assert main(["review", "scan", str(sub)]) == 2
    assert 'accepted[0] needs a "note"' in capsys.readouterr().err
