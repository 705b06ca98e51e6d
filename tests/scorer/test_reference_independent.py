"""The plain reference reads numbers, ranges, currencies and clock times with code of its own
(``cvb_scorer.reference.numerals``, tables in ``cvb_scorer.reference.data``): it imports none of the fast path's
readers (a test reads the imports), it runs in an interpreter that never loads them, it reads as the fast path
does on generated text, and a mutation of one entry of the fast reader's table is caught by the oracle tests
alone (run in a fresh interpreter with the table patched)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import cn2an  # type: ignore[import-untyped]
import cvb_scorer.reference
import pytest
from cvb_scorer.normalise import numerals as fast
from cvb_scorer.reference import normalise as plain_normalise
from cvb_scorer.reference import numerals as plain
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scorer import numeral_oracle as oracle
from tests.scorer.test_numeral_oracle import PUBLISHED

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = Path(cvb_scorer.reference.__file__).parent
# The fast path's readers: the numerals (with the currencies, ranges and clock times) and the fold; and the
# package that imports them all.
FAST_READERS = {"cvb_scorer.normalise", "cvb_scorer.normalise.numerals", "cvb_scorer.normalise.fold"}


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, with each name taken from it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("path", sorted(REFERENCE.glob("*.py")), ids=lambda path: path.name)
def test_the_reference_imports_none_of_the_fast_readers(path: Path) -> None:
    assert not _imports(path) & FAST_READERS, path.name


def test_the_reference_readers_import_nothing_of_the_fast_normalisation() -> None:
    for name in ("numerals.py", "data.py"):
        assert not {m for m in _imports(REFERENCE / name) if m.startswith("cvb_scorer.normalise")}, name


# Run as a script in a fresh interpreter: the published forms read by both oracles, and the modules loaded.
_FRESH = """
import json, sys
from cvb_scorer.reference.numerals import read_number
from tests.scorer import numeral_oracle
cases = json.loads(sys.argv[1])
read = {text: [read_number(text), numeral_oracle.read(text)] for text, _ in cases}
print(json.dumps({"read": read, "loaded": sorted(m for m in sys.modules if m.startswith("cvb_scorer"))}))
"""


def test_the_oracles_run_in_a_fresh_interpreter_that_never_loads_the_fast_readers() -> None:
    import json

    done = subprocess.run(
        [sys.executable, "-c", _FRESH, json.dumps(PUBLISHED)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answer = json.loads(done.stdout)
    assert answer["read"] == {text: [str(value), str(value)] for text, value in PUBLISHED}
    assert not set(answer["loaded"]) & FAST_READERS, answer["loaded"]


# Generated text made of every piece the readers look at.
PIECES = [
    *"零〇一二三四五六七八九十百千萬億兩廿卅卌點万两亿点.0123456789",
    *"%,、:-−–~〜個歲日齊好龍蚊元仙正巴半分之負至 ab",
    *"毫子米升第合和彩家店月",
    *("個半", "六合彩", "六和彩", "一個人"),
    *("百分之", "百分百", "萬一", "十萬火急", "三三兩兩", "進退兩難", "一齊", "九龍"),
    *("港幣", "港元", "港紙", "美元", "美金", "美紙", "人民幣", "人仔"),
]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join)
runs = st.lists(
    st.sampled_from([*"零〇一二三四五六七八九十百千萬億兩廿卅卌點.0123456789"]), min_size=1, max_size=8
).map("".join)


@settings(max_examples=3000, deadline=None)
@given(runs)
def test_the_plain_reader_reads_every_run_as_the_fast_reader_does(run: str) -> None:
    assert plain.read_number(run) == fast.read_number(run), run


@settings(max_examples=2000, deadline=None)
@given(texts)
def test_the_plain_readers_fold_text_as_the_fast_readers_do(text: str) -> None:
    assert plain.fold_numerals(text) == fast.fold_numerals(text), text
    assert plain.currency_words(text) == fast.drop_currency_words(text), text
    assert plain.join_comma_ranges(text) == fast.join_comma_ranges(text), text
    assert plain.join_thousands(text) == fast.join_thousands(text), text
    assert plain.signs(text) == fast.signs(text), text
    assert plain_normalise.spoken_forms(text) == fast.spoken_forms(text), text


@settings(max_examples=300, deadline=None)
@given(
    st.from_regex(r"[0-9]{1,2}", fullmatch=True),
    st.from_regex(r"[0-5][0-9]", fullmatch=True),
    st.sampled_from(PIECES),
)
def test_a_clock_time_is_said_alike(hour: str, minutes: str, following: str) -> None:
    assert plain.spoken_time(hour, minutes, following[:1]) == fast.spoken_time(hour, minutes, following[:1])


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=10**12 - 1))
def test_the_plain_reader_reads_standard_numerals_as_cn2an_and_the_oracle_do(n: int) -> None:
    text = oracle.write(n)
    assert plain.read_number(text) == oracle.read(text) == str(cn2an.cn2an(text, "strict")), text


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=10**8 - 1), st.from_regex(r"[1-9]{1,3}", fullmatch=True))
def test_the_plain_reader_reads_decimals_as_cn2an_does(n: int, after: str) -> None:
    # cn2an reads 點 and digits said one by one after it, as the published rule does.
    text = oracle.write(n) + "點" + "".join("零一二三四五六七八九"[int(d)] for d in after)
    assert plain.read_number(text) == str(cn2an.cn2an(text, "strict")) == f"{n}.{after}", text


# Entries of the fast reader's tables, each changed as a slip of the pen would change it.
MUTATIONS = [
    ("_DIGITS", "九", 8),
    ("_DIGITS", "兩", 3),
    ("_SMALL_UNITS", "千", 100),
]
_MUTANT = """
import sys
import pytest
from cvb_scorer.normalise import numerals
getattr(numerals, sys.argv[1])[sys.argv[2]] = int(sys.argv[3])
numerals.convert_run.cache_clear()
sys.exit(pytest.main(sys.argv[4:]))
"""
# The oracle tests only: the published examples and the golden files are left out.
_ORACLE_TESTS = [
    f"{ROOT}/tests/scorer/test_numeral_oracle.py::test_any_number_written_in_standard_numerals_reads_as_its_value",
    f"{ROOT}/tests/scorer/test_numeral_oracle.py::test_the_cantonese_shorthand_reads_as_the_oracle_reads_it",
    f"{ROOT}/tests/scorer/test_numeral_oracle.py::test_where_the_oracle_reads_a_number_the_scorer_reads_the_same",
    f"{ROOT}/tests/scorer/test_reference_independent.py::test_the_plain_reader_reads_every_run_as_the_fast_reader_does",
]


@pytest.mark.slow
@pytest.mark.parametrize(("table", "key", "value"), MUTATIONS)
def test_a_mutation_of_the_fast_readers_table_is_caught_by_the_oracle_tests_alone(
    table: str, key: str, value: int, tmp_path: Path
) -> None:
    args = [*_ORACLE_TESTS, "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0", f"--rootdir={ROOT}"]
    mutant = subprocess.run(
        [sys.executable, "-c", _MUTANT, table, key, str(value), *args],
        cwd=tmp_path,  # the mutant's failing examples go to a database of its own
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert mutant.returncode == 1, mutant.stdout[-2000:] + mutant.stderr[-2000:]
    failed = [line for line in mutant.stdout.splitlines() if line.startswith("FAILED")]
    assert failed, mutant.stdout[-2000:]


@pytest.mark.slow
def test_the_mutant_runner_passes_the_unchanged_table(tmp_path: Path) -> None:
    # The same run with an entry set to the value it has: nothing fails, so the failures above are the
    # mutation's.
    args = [*_ORACLE_TESTS, "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0", f"--rootdir={ROOT}"]
    same = subprocess.run(
        [sys.executable, "-c", _MUTANT, "_DIGITS", "九", "9", *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert same.returncode == 0, same.stdout[-2000:] + same.stderr[-2000:]
