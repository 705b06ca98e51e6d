"""tools/fetch_pyodide.py against a synthetic tarball: verified, extracted atomically, refused on mismatch."""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from pathlib import Path

import editor_site
import pytest

FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def make_tarball(path: Path, *, extra: str = "package/README.md") -> str:
    with tarfile.open(path, "w:gz") as archive:
        for name in (*(f"package/{n}" for n in FILES), extra):
            data = f"contents of {name}".encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return hashlib.sha1(path.read_bytes()).hexdigest()


def test_pin_names_the_version_checksum_and_five_files() -> None:
    pin = json.loads((editor_site.WEB / "pyodide-pin.json").read_text(encoding="utf-8"))
    assert pin["version"] == "314.0.7"
    assert pin["shasum"] == "19a6865259f8d594cdef5b7e2f44930b68f5e987"
    assert tuple(pin["files"]) == FILES


def test_verified_cached_tarball_is_extracted_once(tmp_path: Path) -> None:
    tool = editor_site.load_tool("fetch_pyodide")
    cache, dest = tmp_path / "cache", tmp_path / "pyodide"
    cache.mkdir()
    pin = {"package": "pyodide", "version": "0.0.1", "shasum": "", "files": list(FILES)}
    pin["shasum"] = make_tarball(tool.tarball_path(pin, cache))
    assert not tool.is_current(pin, dest)
    tool.extract(pin, tool.pack(pin, cache), dest)
    assert sorted(p.name for p in dest.iterdir()) == sorted([*FILES, ".pin.json"])
    assert (dest / "pyodide.mjs").read_text() == "contents of package/pyodide.mjs"
    assert tool.is_current(pin, dest)
    assert not tool.is_current({**pin, "version": "0.0.2"}, dest)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pyodide-")] == []


def test_a_tarball_with_another_checksum_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = editor_site.load_tool("fetch_pyodide")
    cache = tmp_path / "cache"
    cache.mkdir()
    pin = {"package": "pyodide", "version": "0.0.1", "shasum": "0" * 40, "files": list(FILES)}

    def fake_npm_pack(args: list[str], **_: object) -> object:
        make_tarball(Path(args[args.index("--pack-destination") + 1]) / "pyodide-0.0.1.tgz")
        return type("Done", (), {"returncode": 0, "stderr": ""})()

    monkeypatch.setattr(tool.subprocess, "run", fake_npm_pack)
    with pytest.raises(tool.FetchError, match=re.escape("Refusing pyodide@0.0.1: its tarball has sha1")):
        tool.pack(pin, cache)
    assert list(cache.glob("*.tgz")) == []


def test_a_release_missing_a_file_is_refused(tmp_path: Path) -> None:
    tool = editor_site.load_tool("fetch_pyodide")
    cache = tmp_path / "cache"
    cache.mkdir()
    pin = {"package": "pyodide", "version": "0.0.1", "shasum": "", "files": [*FILES, "pyodide.js"]}
    pin["shasum"] = make_tarball(tool.tarball_path(pin, cache))
    with pytest.raises(tool.FetchError, match=re.escape("has no package/pyodide.js")):
        tool.extract(pin, tool.pack(pin, cache), tmp_path / "pyodide")
    assert not (tmp_path / "pyodide").exists()
