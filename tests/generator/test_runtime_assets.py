"""Content addresses of the editor's runtime: a file's address changes exactly when its bytes do."""

from __future__ import annotations

import hashlib
import json

import pytest

from generator.runtime_assets import HASH_CHARS, RUNTIME, folder_hash, runtime_layout, trimmed_lock


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


PYODIDE = {"pyodide.mjs": digest("a"), "pyodide.asm.wasm": digest("b")}
SINGLE = {"cvb_scorer-1.0.0-py3-none-any.whl": digest("c"), "pyodide-snapshot.bin.gz": digest("d")}


def test_pyodides_files_share_one_folder_and_keep_their_names() -> None:
    layout = runtime_layout(pyodide=PYODIDE, single=SINGLE)
    assert layout.pyodide == f"{RUNTIME}/{folder_hash(PYODIDE)}/"
    for name in PYODIDE:
        assert layout.path(name) == layout.pyodide + name


def test_every_other_file_lies_in_a_folder_named_by_its_own_hash() -> None:
    layout = runtime_layout(pyodide=PYODIDE, single=SINGLE)
    for name, sha in SINGLE.items():
        assert layout.path(name) == f"{RUNTIME}/{sha[:HASH_CHARS]}/{name}"


@pytest.mark.parametrize("changed", [*PYODIDE, *SINGLE])
def test_changing_one_file_moves_exactly_the_addresses_that_hold_it(changed: str) -> None:
    before = runtime_layout(pyodide=PYODIDE, single=SINGLE)
    pyodide = {**PYODIDE, **({changed: digest("new")} if changed in PYODIDE else {})}
    single = {**SINGLE, **({changed: digest("new")} if changed in SINGLE else {})}
    after = runtime_layout(pyodide=pyodide, single=single)
    moved = {name for name in before.files if before.path(name) != after.path(name)}
    assert moved == (set(PYODIDE) if changed in PYODIDE else {changed})


def test_the_folder_hash_ignores_order_but_not_names() -> None:
    assert folder_hash(dict(reversed(PYODIDE.items()))) == folder_hash(PYODIDE)
    renamed = {f"x{name}": sha for name, sha in PYODIDE.items()}
    assert folder_hash(renamed) != folder_hash(PYODIDE)


def test_a_name_in_both_groups_is_refused() -> None:
    with pytest.raises(ValueError, match=r"pyodide\.mjs"):
        runtime_layout(pyodide=PYODIDE, single={"pyodide.mjs": digest("e")})


def test_the_trimmed_lock_keeps_pyodides_own_checks_and_lists_no_package() -> None:
    info = {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3", "python": "3.14.2"}
    text = json.dumps({"info": info, "packages": {"numpy": {"name": "numpy", "file_name": "numpy.whl"}}})
    trimmed = trimmed_lock(text)
    assert json.loads(trimmed) == {"info": info, "packages": {}}
    assert trimmed == trimmed_lock(json.dumps(json.loads(text), indent=4))  # the same bytes from any spelling
