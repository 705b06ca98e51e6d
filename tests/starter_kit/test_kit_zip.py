"""The kit zip the site offers: the same bytes on every build, every file the pages promise, the pins the
project tests with, and room for the connection-test client's files without letting them replace the kit's."""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.build import render_all
from generator.kit_data import constants_source
from generator.kit_servers import CONFIG, KIT, rendered
from generator.paths import Layout
from starter_kit.connection_test.bundle import MissingClipsError
from starter_kit.connection_test.cli import add_arguments
from starter_kit.kit import KIT_FILES, connection_test_files, kit_contents, kit_zip

LAYOUT = Layout()


def client_files(clips: Path) -> dict[str, bytes]:
    return connection_test_files(
        constants=constants_source(CONFIG), clip_count=CONFIG.protocol.connection_test.clips, clips=clips
    )


def test_two_builds_give_byte_identical_zips() -> None:
    assert render_all(LAYOUT).kit_zip == rendered().kit_zip
    # Another process has another string-hash seed: nothing in the zip may depend on set or dict order.
    script = "import hashlib; from generator.build import render_all; from generator.paths import Layout; "
    script += "print(hashlib.sha256(render_all(Layout()).kit_zip).hexdigest())"
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert done.stdout.strip() == hashlib.sha256(rendered().kit_zip).hexdigest()


def test_the_zip_holds_the_rendered_kit_and_the_client_sorted_with_fixed_times_and_modes() -> None:
    client = client_files(LAYOUT.clips)
    with zipfile.ZipFile(io.BytesIO(rendered().kit_zip)) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == sorted([*KIT_FILES, *client])
        contents = {i.filename: archive.read(i) for i in infos}
    assert {path: contents[path].decode() for path in KIT_FILES} == {
        path: rendered().kit[path] for path in KIT_FILES
    }
    assert {path: contents[path] for path in client} == client
    assert {(i.date_time, i.external_attr >> 16) for i in infos} == {((1980, 1, 1, 0, 0, 0), 0o100644)}


def test_the_client_in_the_zip_carries_the_scorers_audio_measures_and_the_shortest_built_in_clips() -> None:
    client = client_files(LAYOUT.clips)
    # One implementation of the measures: the scorer's own file, byte for byte, and nothing of the generator.
    assert (
        client["cvb_scorer/audio.py"]
        == (LAYOUT.root / "scorer_wasm" / "cvb_scorer" / "audio.py").read_bytes()
    )
    assert not any(path.startswith("generator/") or path.endswith("bundle.py") for path in client)
    built = json.loads((LAYOUT.clips / "clips.json").read_text(encoding="utf-8"))
    shipped = json.loads(client["clips/clips.json"])
    assert shipped == built[: CONFIG.protocol.connection_test.clips]
    for entry in shipped:
        assert client[f"clips/{entry['file']}"] == (LAYOUT.clips / entry["file"]).read_bytes()
    assert not any(
        path.startswith("clips/")
        and path[len("clips/") :] not in {"clips.json", *(e["file"] for e in shipped)}
        for path in client
    )


def test_without_built_clips_the_build_says_how_to_make_them(tmp_path: Path) -> None:
    with pytest.raises(MissingClipsError, match=r"run `make clips` first"):
        client_files(tmp_path / "clips")


def test_the_page_states_the_zips_real_size_and_sha256() -> None:
    download = rendered().fragments.kit_download
    data = rendered().kit_zip
    assert (download.sha256.text, download.size_bytes.value) == (hashlib.sha256(data).hexdigest(), len(data))
    page = rendered().pages["integration.md"]
    assert download.sha256.text in page and f"assets/kit/{KIT.zip_name}" in page


def test_extra_files_join_the_zip_but_cannot_replace_a_kit_file() -> None:
    kit = {"server.py": "print()\n"}
    files = kit_contents(kit, {"connection_test/client.py": b"# client\n"})
    with zipfile.ZipFile(io.BytesIO(kit_zip(files))) as archive:
        assert archive.namelist() == ["connection_test/client.py", "server.py"]
    with pytest.raises(ValueError, match=r"already has a file server\.py"):
        kit_contents(kit, {"server.py": b""})


def test_the_kit_pins_the_versions_the_project_tests_it_with() -> None:
    package = json.loads((LAYOUT.root / "package.json").read_text(encoding="utf-8"))
    assert package["dependencies"]["ws"] == KIT.pins.ws
    requirements = (LAYOUT.root / "requirements" / "test.txt").read_text(encoding="utf-8")
    assert re.search(rf"^websockets=={re.escape(KIT.pins.websockets)}$", requirements, re.MULTILINE)
    kit = rendered().kit
    assert json.loads(kit["package.json"])["dependencies"] == {"ws": KIT.pins.ws}
    assert f"websockets=={KIT.pins.websockets}" in kit["requirements.txt"].splitlines()


def test_the_dockerfile_copies_only_files_the_zip_holds() -> None:
    copied = re.findall(r"^COPY (\S+) \.$", rendered().kit["Dockerfile"], re.MULTILINE)
    assert copied and set(copied) <= set(KIT_FILES)


def test_the_python_server_passes_the_projects_lint_and_format_and_node_parses_the_node_server(
    tmp_path: Path,
) -> None:
    kit = rendered().kit
    (tmp_path / "server.py").write_text(kit["server.py"], encoding="utf-8")
    (tmp_path / "server.mjs").write_text(kit["server.mjs"], encoding="utf-8")
    ruff = [str(LAYOUT.root / ".venv" / "bin" / "ruff")]
    settings = ["--config", str(LAYOUT.root / "pyproject.toml")]
    for command in (
        [*ruff, "check", *settings, "server.py"],
        [*ruff, "format", "--check", *settings, "server.py"],
    ):
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(
        ["node", "--check", "server.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_every_connection_test_option_the_readme_and_the_page_name_is_one_the_client_takes() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser, default_concurrency=None)
    options = {option for action in parser._actions for option in action.option_strings}
    readme = rendered().kit["README.md"]
    page = rendered().pages["integration.md"]
    assert "python connection_test.py" in readme and "python connection_test.py" in page
    for text in (readme, page[page.index("connection_test.py") :]):
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", text)) - {
            "--cert",
            "--key",
            "--target",
            "--rm",
            "--from",
            "--to",
            "--standalone",
        }
        assert named and named <= options, named - options
