"""The packages' layers, read from the source: starter_kit and protocol_data never import the generator,
protocol_data imports neither of the others, and `cvb connection-test` needs nothing that `make site` does not
install. The protocol data computed from the YAML files alone equals the one from the validated Config."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from generator.config import load_config
from generator.paths import Layout
from protocol_data.settings import ProtocolDataError, load, settings_data
from starter_kit.connection_test.bundle import settings_from_config

ROOT = Layout().root


def imported_packages(folder: Path) -> dict[str, set[str]]:
    """{file relative to `folder`: the top-level packages it imports}, from the syntax tree."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(folder))] = names
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [("starter_kit", {"generator"}), ("protocol_data", {"generator", "starter_kit", "cvb_scorer"})],
)
def test_a_lower_package_never_imports_a_higher_one(package: str, forbidden: set[str]) -> None:
    offending = {
        f: sorted(n & forbidden) for f, n in imported_packages(ROOT / package).items() if n & forbidden
    }
    assert not offending, offending


def test_the_import_reader_sees_every_form_of_import(tmp_path: Path) -> None:
    (tmp_path / "probe.py").write_text(
        "import generator.config\nfrom generator import x\nimport os, json as j\nfrom . import sibling\n",
        encoding="utf-8",
    )
    assert imported_packages(tmp_path) == {"probe.py": {"generator", "os", "json"}}


def test_the_settings_from_the_yaml_files_equal_the_ones_from_the_validated_config() -> None:
    config = load_config(Layout().config)
    from_yaml = settings_from_config(load(Layout().config))
    assert from_yaml == settings_from_config(config)


def test_a_missing_value_is_named_with_its_file_and_key() -> None:
    data = load(Layout().config)
    del data["protocol"]["max_message_bytes"]
    with pytest.raises(ProtocolDataError, match=r"protocol\.yaml: max_message_bytes is needed"):
        settings_data(data)


def requirement_pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if match:
            pins[match[1].lower()] = match[2]
    return pins


def test_cvb_connection_test_needs_only_what_make_site_installs() -> None:
    # Every package the connection test's code imports is the standard library, the project's own, or pinned in
    # requirements/site.txt (the environment `make site` leaves), at the version the kit pins.
    import sys

    own = {"starter_kit", "protocol_data", "generator", "cvb_scorer"}
    pins = requirement_pins(ROOT / "requirements" / "site.txt")
    needed = set().union(
        *imported_packages(ROOT / "starter_kit" / "connection_test").values(),
        *imported_packages(ROOT / "starter_kit" / "protocol").values(),
        *imported_packages(ROOT / "protocol_data").values(),
    )
    third_party = {
        n for n in needed if n not in sys.stdlib_module_names and n not in own and n != "__future__"
    }
    assert third_party == {"websockets", "yaml"}
    assert "pyyaml" in pins
    config = load_config(Layout().config)
    assert pins["websockets"] == config.site.starter_kit.pins.websockets
