"""Every published number comes from the config: change it in a copy and the pages follow; type one by hand
into a template and the check names the file and line."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.build import Rendered, render_all
from generator.check import check
from generator.config import ConfigError, load_config
from generator.issue_state import config_sha256
from generator.pages.words import cardinal, fraction_words
from generator.pages.words_zh import zh_channels, zh_fraction, zh_spell, zh_words
from generator.paths import Layout
from generator.provenance import Num, Text
from generator.render import ordinal
from generator.rules_export import scoring_rules_json
from tests.generator.conftest import project_copy

LAYOUT = Layout()
# A sha256, or a commit named by its hash: records of what was built, whose hex digits may read as numbers.
SHA256_HEX = re.compile(r"\b(?:[0-9a-f]{64}|[0-9a-f]{40})\b")
Key = tuple[str | int, ...]


def leaves(data: Any, key: Key = ()) -> Iterator[tuple[Key, Any]]:
    if isinstance(data, dict):
        for name, value in data.items():
            yield from leaves(value, (*key, name))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves(value, (*key, index))
    else:
        yield key, data


def is_platform_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float | dt.date):
        return True
    # Identifiers (pillar ids such as e2e, the encoding name) are names, not numbers.
    return (
        isinstance(value, str)
        and bool(re.search(r"[0-9]", value))
        and not re.fullmatch(r"[a-z][a-z0-9_]*", value)
    )


# libyaml (PyYAML's C binding) reads and writes these files as the pure-Python parser and emitter do, many times
# faster; each case here reads the config and writes it back several times.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def config_data(folder: Path) -> dict[str, Any]:
    return {
        p.name: yaml.load(p.read_text(encoding="utf-8"), Loader=LOADER) for p in sorted(folder.glob("*.yaml"))
    }


def dump(content: Any) -> str:
    return yaml.dump(content, Dumper=DUMPER, allow_unicode=True, sort_keys=False)


SETTINGS = [
    (file, key, value)
    for file, data in config_data(LAYOUT.config).items()
    for key, value in leaves(data)
    # An issue's PDF hashes, its commit and its settings' hash are a record of what was printed, checked by
    # `cvb check` and `cvb issue pdf`, not published numbers.
    # glossary.yaml holds wording; a number in a translation is a copy the config check compares with its English.
    if is_platform_number(value)
    and not {"pdfs", "commit", "config_sha256"} & set(map(str, key))
    and file != "glossary.yaml"
]


# The Downloads rows give each artefact's size and sha256: outputs of the other settings, not settings, and a
# hash's hex digits would add and remove "2"s and "30"s at random whenever any published byte changes.
_ARTEFACT_FIGURES = re.compile(r'<span class="cvb-size">[\d,]+</span>|\b[0-9a-f]{64}\b')


def published(rendered: Rendered) -> str:
    parts = [*rendered.pages.values(), *rendered.kit.values(), scoring_rules_json(rendered.config)]
    # A hash (the kit zip's sha256 changes with every setting the zip holds) is no printed form of a value,
    # though its hex digits may happen to read as one.
    return SHA256_HEX.sub("<sha256>", _ARTEFACT_FIGURES.sub("", "\n".join(parts)))


# Settings the Chinese edition leaves out on purpose, each with the reason.
NOT_ON_THE_CHINESE_PAGES: dict[tuple[str, Key], str] = {
    ("scoring.yaml", ("rating_scale", "min")): (
        "shown on the Chinese methodology (its rating range and its mapping table), but the first candidate value "
        "also rewrites that table, so the count of each of its printed forms stays level; the English check above "
        "covers the value"
    ),
}


def published_zh(rendered: Rendered) -> str:
    """The Chinese edition: every setting the English pages show, the Chinese pages show too."""
    return SHA256_HEX.sub("<sha256>", "\n".join([*rendered.zh_pages.values(), rendered.zh_not_found]))


@functools.cache
def baseline_zh() -> str:
    return published_zh(render_all(LAYOUT, results=no_records()))


@functools.cache
def baseline_en_pages() -> str:
    return _ARTEFACT_FIGURES.sub("", "\n".join(render_all(LAYOUT, results=no_records()).pages.values()))


def forms_zh(value: Any) -> list[str]:
    """The ways a Chinese page may print a value: as the English pages do, or in Chinese number words."""
    out = forms(value)
    if isinstance(value, str):
        # A translated sentence shows the config's numbers in the glossary's words around them.
        out += re.findall(r"[0-9]+", value)
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        # Negative values (a level in dBFS) are printed in digits; Chinese number words spell only what is >= 0.
        n = Num(value, frozenset())
        out += [zh_words(n).text, zh_spell(n).text, zh_fraction(n).text, zh_channels(n).text]
    return [f for f in dict.fromkeys(out) if f]


@functools.cache
def no_records() -> Path:
    """A results folder with no entrants: the standings then print only config values, and a changed draw or
    scoring version cannot make the example records unusable (the board's own tests cover records)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cvb-no-records-"))
    (folder / "entrants.yaml").write_text("entrants: []\n", encoding="utf-8")
    return folder


@functools.cache
def baseline() -> str:
    return published(render_all(LAYOUT, results=no_records()))


def forms(value: Any) -> list[str]:
    """The ways a page may print a value."""
    if isinstance(value, dt.date):
        return [value.isoformat()]
    if isinstance(value, str):
        return [value]
    n = Num(value, frozenset())
    out = [str(n), f"{value / 1000:g}", f"{value:,}", f"{round(value * 100)}%", f"{value * 100:.1f}%"]
    out += [cardinal(n).text, fraction_words(n).text]
    if isinstance(value, int):
        out.append(ordinal(n).text)
    return [f for f in out if f]


def count(text: str, form: str) -> int:
    if re.fullmatch(r"[a-z ]+", form):
        return len(re.findall(rf"\b{re.escape(form)}\b", text, flags=re.IGNORECASE))
    return len(re.findall(rf"(?<![0-9.]){re.escape(form)}(?![0-9]|[.,][0-9])", text))


def get(data: dict[str, Any], file: str, key: Key) -> Any:
    node: Any = data[file]
    for part in key:
        node = node[part]
    return node


def put(data: dict[str, Any], file: str, key: Key, value: Any) -> None:
    node: Any = data[file]
    for part in key[:-1]:
        node = node[part]
    node[key[-1]] = value


def bump_digits(text: str) -> str:
    if re.fullmatch(r"\d{4}-\d{2}", text):  # a month: move it back one, keeping it a real month
        year, month = text.split("-")
        return f"{year}-{int(month) - 1:02d}" if int(month) > 1 else f"{int(year) - 1}-12"
    return re.sub(r"[0-9]", lambda m: str((int(m.group(0)) + 1) % 10), text)


def candidates(value: Any) -> Iterator[Any]:
    if isinstance(value, dt.date):
        # Both ways: an issue cut the day before the next one can only move back.
        for days in range(1, 5):
            yield value + dt.timedelta(days=days)
            yield value - dt.timedelta(days=days)
    elif isinstance(value, str):
        yield bump_digits(value)
    elif isinstance(value, int):
        yield from (value + step for step in range(1, 80))
        yield value * 2
    else:
        for step in range(1, 30):
            yield round(value + step * 0.01, 4)
            yield round(value - step * 0.01, 4)


# Settings bound to others by an invariant move together; the partner's change is part of the edit.
def couple(data: dict[str, Any], file: str, key: Key, old: Any, new: Any) -> None:
    if file == "scoring.yaml" and key[0] == "pillars" and key[-1] == "weight":
        pillars = data[file]["pillars"]
        partner = next(p for p in pillars if p != key[1])
        pillars[partner]["weight"] = round(pillars[partner]["weight"] - (new - old), 4)
    elif file == "scoring.yaml" and key[0] == "pillars" and key[-2].endswith("weights"):
        group = get(data, file, key[:-1])
        partner = next(p for p in group if p != key[-1])
        group[partner] = round(group[partner] - (new - old), 4)
    elif file == "rounds.yaml" and key[:2] == ("draw", "strata"):
        strata = data[file]["draw"]["strata"]
        partner = next(p for p in strata if p != key[-1])
        strata[partner] = round(strata[partner] - (new - old), 4)
    elif (
        file == "protocol.yaml"
        and key[0] == "audio"
        and key[1] in {"sample_rate_hz", "channels", "sample_bits", "frame_ms"}
    ):
        audio = data[file]["audio"]
        audio["frame_bytes"] = (
            audio["sample_rate_hz"]
            * audio["channels"]
            * audio["sample_bits"]
            // 8
            * audio["frame_ms"]
            // 1000
        )
    elif file == "protocol.yaml" and key == ("audio", "frame_bytes"):
        audio = data[file]["audio"]
        audio["frame_ms"] = (
            new * 1000 // (audio["sample_rate_hz"] * audio["channels"] * audio["sample_bits"] // 8)
        )
    elif file == "protocol.yaml" and key == ("version",):
        data["platform.yaml"]["issues"][-1]["protocol"] = new
    elif file == "platform.yaml" and key[0] == "issues" and key[-1] == "protocol":
        if key[1] in (-1, len(data[file]["issues"]) - 1):  # the issue in force names the protocol in use
            data["protocol.yaml"]["version"] = new
    elif (
        (file, key) == ("scoring.yaml", ("current_scoring_version",))
        or (file == "platform.yaml" and key[-1] == "scoring_version")
        or (file == "scoring.yaml" and key[0] == "error_rate_floor_history" and key[-1] == "scoring_version")
    ):
        data["scoring.yaml"]["current_scoring_version"] = new
        data["scoring.yaml"]["error_rate_floor_history"][-1]["scoring_version"] = new
        data["platform.yaml"]["issues"][-1]["scoring_version"] = new
    elif file == "endpointing.yaml" and key == ("release", "conversations"):
        data[file]["release"]["held_out_ids"].extend(range(1000, 1000 + new - old))
    # The Chinese edition's copy of a translated sentence carries the same numbers (a config invariant).
    translated = data["glossary.yaml"]["zh_text"]
    dotted = file.removesuffix(".yaml") + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in key)
    if dotted in translated and isinstance(new, str):
        translated[dotted] = (
            translated[dotted].replace(str(old), str(new))
            if str(old) in translated[dotted]
            else bump_digits(translated[dotted])
        )


VERSION_CHOICES: dict[str, list[str]] = {"python": ["3.12", "3.13", "3.14"], "node": ["21", "23", "25", "27"]}
AUDIO_CHOICES: dict[str, list[int]] = {
    "sample_bits": [24, 32, 8],
    "channels": [2],
    "sample_rate_hz": [8000, 24000],
}


def mutate(folder: Path, file: str, key: Key, old: Any) -> Any:
    """Write the first valid new value for `key` whose printed form is new to the site; return it."""
    seen = baseline()
    choices = AUDIO_CHOICES.get(str(key[-1]))
    options: Iterator[Any] = iter(choices) if key[0] == "audio" and choices else candidates(old)
    if key[:2] == ("starter_kit", "versions"):
        # A version keeps its shape (the model's pattern): the next releases of the same line.
        options = iter(VERSION_CHOICES[str(key[2]).removesuffix("_tested")])
    pristine = config_data(folder)
    if file == "platform.yaml" and key[0] == "issues" and key[-1] == "protocol":
        # An earlier issue's protocol is older than the one in force: the previous minor versions.
        options = iter(["1.1", "1.0"] if key[1] != len(pristine[file]["issues"]) - 1 else candidates(old))
    for new in options:
        if isinstance(old, float) and not 0 < new <= 1 and old <= 1:
            continue
        if not any(count(seen, form) == 0 for form in forms(new) if form not in forms(old)):
            continue
        data = config_data(folder)
        put(data, file, key, new)
        couple(data, file, key, old, new)
        for name, content in data.items():
            (folder / name).write_text(dump(content), encoding="utf-8")
        try:
            load_config(folder)
            return new
        except ConfigError:
            for name, content in pristine.items():
                (folder / name).write_text(dump(content), encoding="utf-8")
    raise AssertionError(f"no valid new value found for {file} {key}")


@functools.cache
def pinned_config_sha256() -> str | None:
    return load_config(LAYOUT.config).platform.issues[-1].config_sha256


def cut(layout: Layout) -> None:
    """Pin the issue record to the changed settings, as cutting an issue would: otherwise every change also
    adds the changelog's note that the settings are unreleased, and this test is about the setting itself."""
    platform = layout.config / "platform.yaml"
    pinned = pinned_config_sha256()
    if pinned is not None:
        text = platform.read_text(encoding="utf-8")
        platform.write_text(text.replace(pinned, config_sha256(load_config(layout.config))), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "key", "old"), SETTINGS, ids=[f"{f}:{'.'.join(map(str, k))}" for f, k, _ in SETTINGS]
)
def test_changing_a_setting_changes_what_is_published(tmp_path: Path, file: str, key: Key, old: Any) -> None:
    layout = project_copy(tmp_path)
    new = mutate(layout.config, file, key, old)
    cut(layout)
    rendered = render_all(layout, results=no_records())
    before, after = baseline(), published(rendered)
    assert after != before, f"changing {file} {key} from {old!r} to {new!r} changed nothing that is published"
    shown = [form for form in forms(new) if count(after, form) > count(before, form)]
    assert shown, f"the new value {new!r} of {file} {key} is not published in any form {forms(new)}"
    gone = [form for form in forms(old) if count(after, form) < count(before, form)]
    assert gone, f"the old value {old!r} of {file} {key} is still published everywhere it was"
    if (file, key) in NOT_ON_THE_CHINESE_PAGES:
        return
    # A setting the English pages do not show (only the kit's files or the scoring rules, which both editions
    # offer as the same downloads) need not be on the Chinese pages either.
    # Hashes and sizes of downloads are masked: a changed file moves them, but that shows no value.
    en_pages = _ARTEFACT_FIGURES.sub("", "\n".join(rendered.pages.values()))
    if not any(
        count(en_pages, form) != count(baseline_en_pages(), form) for form in [*forms(new), *forms(old)]
    ):
        return
    before_zh, after_zh = baseline_zh(), published_zh(rendered)
    shown_zh = [form for form in forms_zh(new) if count(after_zh, form) > count(before_zh, form)]
    assert shown_zh, f"the new value {new!r} of {file} {key} is not on the Chinese pages in any form"
    gone_zh = [form for form in forms_zh(old) if count(after_zh, form) < count(before_zh, form)]
    assert gone_zh, f"the old value {old!r} of {file} {key} is still on the Chinese pages everywhere it was"


def test_every_setting_is_covered() -> None:
    keys = {(f, k) for f, k, _ in SETTINGS}
    assert ("protocol.yaml", ("deadline", "floor_ms")) in keys
    assert ("scoring.yaml", ("pillars", "asr", "weight")) in keys
    assert ("rounds.yaml", ("pool_size",)) in keys
    assert ("protocol.yaml", ("version",)) in keys
    assert len(SETTINGS) > 60


def test_the_deadline_floor_example_from_the_issue(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    path = layout.config / "protocol.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("floor_ms: 3000", "floor_ms: 4000"), encoding="utf-8"
    )
    rendered = render_all(layout)
    guide, integration = rendered.pages["index.md"], rendered.pages["integration.md"]
    assert "max(4000, duration_ms × 0.5)" in guide and "max(4000, duration_ms × 0.5)" in integration
    assert "never less than\n4 seconds" in guide or "never less than 4 seconds" in guide.replace("\n", " ")
    assert "shorter than 8 seconds" in guide.replace("\n", " ")
    assert count(guide + integration, "3000") == 0


PlantEdit = Callable[[str], str]


@pytest.mark.parametrize(
    ("template", "plant", "needle"),
    [
        (
            "docs/templates/index.md.j2",
            lambda t: t.replace("## The dates\n", "## The dates\n\nEach run takes 45 minutes.\n"),
            "Each run takes 45 minutes.",
        ),
        (
            "docs/templates/integration.md.j2",
            lambda t: t.replace("## The deadline\n", "## The deadline\n\nAllow about three seconds.\n"),
            "Allow about three seconds.",
        ),
        (
            "starter_kit/templates/server.py.j2",
            lambda t: t.replace("import json\n", "import json\nTIMEOUT = 5000\n"),
            "TIMEOUT = 5000",
        ),
    ],
)
def test_a_hand_typed_number_in_a_template_fails_the_check_with_file_and_line(
    tmp_path: Path, template: str, plant: PlantEdit, needle: str
) -> None:
    top = template.split("/")[0]
    layout = project_copy(tmp_path, copy=(top,))
    path = layout.root / template
    path.write_text(plant(path.read_text(encoding="utf-8")), encoding="utf-8")
    line = next(
        n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if needle in text
    )
    problems = [str(p) for p in check(layout)]
    assert any(p.startswith(f"{template}, line {line}:") for p in problems), problems


def test_the_shipped_templates_pass_the_check() -> None:
    assert [str(p) for p in check(LAYOUT)] == []


def test_a_number_printed_from_outside_the_config_fails_the_check(tmp_path: Path) -> None:
    layout = project_copy(tmp_path, copy=("docs",))
    path = layout.templates / "changelog.md.j2"
    path.write_text(path.read_text(encoding="utf-8") + "\n{{ 45 }} entries.\n", encoding="utf-8")
    problems = [str(p) for p in check(layout)]
    assert any("rendered page changelog.md" in p and "45 entries" in p for p in problems), problems


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("{{ cfg.rounds.pool_size + 45 }}", "arithmetic (+)"),
        ("{{ cfg.rounds.pool_size * cfg.rounds.runs_per_round }}", "arithmetic (*)"),
        ("{{ -cfg.rounds.pool_size }}", "arithmetic (unary -)"),
        ("{{ 45 }}", "a literal number"),
        ("{% if cfg.rounds.pool_size > 45 %}many{% endif %}", "a literal number"),
        ("{% set x = cfg.rounds.pool_size // 2 %}{{ x }}", "arithmetic (//)"),
    ],
)
def test_a_computation_inside_a_template_expression_fails_the_check_with_file_and_line(
    tmp_path: Path, expression: str, says: str
) -> None:
    layout = project_copy(tmp_path, copy=("docs",))
    path = layout.templates / "changelog.md.j2"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + f"\nPool: {expression} clips.\n", encoding="utf-8")
    line = len(text.splitlines()) + 2
    problems = [str(p) for p in check(layout)]
    assert any(
        p.startswith(f"docs/templates/changelog.md.j2, line {line}:") and says in p for p in problems
    ), problems


def test_formatting_arguments_and_item_picks_are_not_reported(tmp_path: Path) -> None:
    layout = project_copy(tmp_path, copy=("docs",))
    path = layout.templates / "changelog.md.j2"
    path.write_text(
        path.read_text(encoding="utf-8")
        + "\n{{ cfg.scoring.pillars.asr.weight | percent(1) }} {{ cfg.platform.issues[0].issued }}\n",
        encoding="utf-8",
    )
    assert [str(p) for p in check(layout)] == []


numbers = st.one_of(st.integers(-(10**6), 10**6), st.floats(allow_nan=False, allow_infinity=False))


@given(numbers, numbers, st.frozensets(st.text(max_size=3)), st.frozensets(st.text(max_size=3)))
def test_num_compares_and_hashes_by_value_like_a_number(
    a: float, b: float, sa: frozenset[str], sb: frozenset[str]
) -> None:
    x, y = Num(a, sa), Num(b, sb)
    assert (x == b) == (a == b) and (x == y) == (a == b) and (x != b) == (a != b)
    assert (x < b) == (a < b) and (x <= b) == (a <= b)
    if x == y:
        assert hash(x) == hash(y)
    if x == b:
        assert hash(x) == hash(b) and b in {x} and x in {b}


def test_num_and_text_against_their_plain_values() -> None:
    assert Num(3, frozenset({"a"})) == 3
    assert Num(3.0, frozenset()) == Num(3, frozenset({"b"}))
    assert Num(1, frozenset()) != True  # noqa: E712  # a flag is not a number
    assert len({Num(3, frozenset({"a"})), Num(3, frozenset({"b"})), 3}) == 1
    assert Text("v1.2", frozenset({"a"})) == "v1.2" and hash(Text("x", frozenset())) == hash("x")
