"""The config reader's fast parser (libyaml) against the pure-Python one it stands in for: the same data and the
same line for every key of every config file, and a file libyaml refuses is reported in the pure parser's words."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.config.errors import ConfigError
from generator.config.source import FAST_LOADER, _read, read_yaml
from generator.paths import Layout

CONFIG_FILES = sorted(Layout().config.glob("*.yaml"))
EDGE_TEXTS = [
    "a: 1\nb: [1, 2, {c: d}]\n",
    "when: 2026-12-08\nratio: 0.05\nname: '一千零十'\n",
    "text: |\n  two\n  lines\nempty:\n",
    "anchors: &x {a: 1}\nagain: *x\n",
]


def test_libyaml_is_there_to_be_compared() -> None:
    assert FAST_LOADER is not None


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_every_config_file_reads_alike_with_either_parser(path: Path) -> None:
    assert FAST_LOADER is not None
    text = path.read_text(encoding="utf-8")
    assert _read(text, path, FAST_LOADER) == _read(text, path, yaml.SafeLoader)


@pytest.mark.parametrize("text", EDGE_TEXTS)
def test_edge_texts_read_alike_with_either_parser(text: str) -> None:
    assert FAST_LOADER is not None
    shown = Path("x.yaml")
    assert _read(text, shown, FAST_LOADER) == _read(text, shown, yaml.SafeLoader)


def test_a_file_libyaml_refuses_is_reported_as_the_pure_parser_words_it(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("a: 1\nb: [2, 3\nc: 4\n", encoding="utf-8")
    with pytest.raises(ConfigError) as fast:
        read_yaml(path)
    with pytest.raises(ConfigError) as pure:
        _read(path.read_text(encoding="utf-8"), path, yaml.SafeLoader)
    assert str(fast.value) == str(pure.value)
    assert "not valid YAML" in str(fast.value)
