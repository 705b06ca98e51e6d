"""`pip install ./scorer_wasm` works from a fresh clone: the scoring rules live inside the package (written by
`cvb rules`, committed), not in a build/ folder the clone does not have."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.scorer.conftest import ROOT

PACKAGE = ROOT / "scorer_wasm"
RULES = "cvb_scorer/data/scoring_rules.json"


def _source_copy(tmp_path: Path) -> Path:
    """scorer_wasm as a fresh clone has it: tracked files only, no caches, and no build/ folder beside it."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "scorer_wasm"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    clone = tmp_path / "clone"
    for name in filter(None, tracked):
        target = clone / os.fsdecode(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / os.fsdecode(name), target)
    assert not (clone / "build").exists()
    return clone / "scorer_wasm"


@pytest.mark.slow
def test_sdist_and_wheel_build_from_a_clean_copy_and_carry_the_rules(tmp_path: Path) -> None:
    source = _source_copy(tmp_path)
    dist = tmp_path / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (wheel,) = dist.glob("cvb_scorer-*.whl")
    assert len(list(dist.glob("cvb_scorer-*.tar.gz"))) == 1
    committed = (PACKAGE / RULES).read_text(encoding="utf-8")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read(RULES).decode("utf-8") == committed
    # Installed from that wheel (built from the sdist, as pip does), the command finds its rules.
    target = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
    )
    clip = tmp_path / "c.jsonl"
    clip.write_text('{"id": "a", "text": "唔該"}\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run(
        [sys.executable, "-m", "cvb_scorer.cli", str(clip), str(clip), "--json"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    boot = json.loads(committed)["bootstrap"]
    assert f"|boot:{boot['resamples']}@{boot['seed']}/lanes16-reject|" in json.loads(run.stdout)["signature"]


def test_the_site_wheel_carries_the_committed_rules() -> None:
    wheels = sorted((ROOT / "build" / "wheels").glob("cvb_scorer-*.whl"))
    if not wheels:
        pytest.skip("no wheel built; `make wheel` builds the one the site serves")
    with zipfile.ZipFile(wheels[-1]) as archive:
        assert archive.read(RULES).decode("utf-8") == (PACKAGE / RULES).read_text(encoding="utf-8")


def test_the_pyproject_reaches_outside_the_package_for_nothing() -> None:
    assert "../" not in (PACKAGE / "pyproject.toml").read_text(encoding="utf-8")


def test_the_wheel_needs_numpy_on_cpython_only_at_the_pinned_version() -> None:
    """The bootstrap's numpy route is a dependency everywhere but Pyodide (Emscripten), which takes the pure
    route, so a browser install never resolves numpy; the pin is the one the site and tests install."""
    wheels = sorted((ROOT / "build" / "wheels").glob("cvb_scorer-*.whl"))
    if not wheels:
        pytest.skip("no wheel built; `make wheel` builds the one the site serves")
    with zipfile.ZipFile(wheels[-1]) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        requires = [
            line.removeprefix("Requires-Dist: ")
            for line in archive.read(metadata).decode("utf-8").splitlines()
            if line.startswith("Requires-Dist: numpy")
        ]
    pins = {
        line.strip()
        for name in ("site.txt", "test.txt")
        for line in (ROOT / "requirements" / name).read_text(encoding="utf-8").splitlines()
        if line.startswith("numpy==")
    }
    assert len(pins) == 1
    assert requires == [f"{pins.pop()}; platform_system != 'Emscripten'"]
