"""The standings stage: the standings page and each entrant's page, from the run records in the results folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
from cvb_scorer.rules import rules_from_json

from generator.config import Config
from generator.pages.board import (
    BoardModel,
    board_model,
    fictional_mark,
    in_edition,
    no_results_model,
    standing_rows,
)
from generator.pages.editions import Edition, glossary_terms
from generator.paths import Layout
from generator.render import render
from generator.results.records import ResultsFolderError, chosen_folder, draw_spec, load_folder
from generator.rules_export import scoring_rules_json


class BadRecordsError(RuntimeError):
    """A run record (or the results folder) was refused; the message lists each file and reason."""


def board_pages(
    layout: Layout,
    config: Config,
    env: jinja2.Environment,
    context: dict[str, Any],
    edition: Edition,
    *,
    results: Path | None,
    without_bad_records: bool | None,
) -> dict[str, str]:
    """The standings page and one page per entrant of one edition, from the run records in the results folder
    (the model is computed once and shared: both editions word the same facts)."""
    folder = chosen_folder(results, os.environ)
    if folder is None:
        return {
            "standings.md": render(
                env, edition.templates + "standings.md.j2", {**context, "board": no_results_model(config)}
            )
        }
    if without_bad_records is None:
        without_bad_records = os.environ.get("CVB_BUILD_WITHOUT_BAD_RECORDS") == "1"
    files = tuple(
        (str(p.relative_to(folder)), p.stat().st_mtime_ns, p.stat().st_size)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )
    # The same records seen from a project copy (a symlinked folder) give the same model: key on where the
    # files really are and on how the pages name them, not on the path taken to reach them.
    shown = str(folder.relative_to(layout.root)) if folder.is_relative_to(layout.root) else str(folder)
    key = (
        str(folder.resolve()),
        shown,
        files,
        config.scoring.model_dump_json() + config.rounds.model_dump_json() + repr(draw_spec(config).rounds),
    )
    if key not in _BOARD_CACHE:
        _BOARD_CACHE.clear()  # one folder state at a time: a model holds every resample
        _BOARD_CACHE[key] = _board_model(folder, layout.root, config)
    model, refused = _BOARD_CACHE[key]
    if refused and not without_bad_records:
        listing = "\n".join(f"  {r}" for r in refused)
        # The shipped example records are made from the config's draw; after a draw change the remedy is one
        # command, so the first line names it.
        remake = (
            f"The example records in {shown} were made for another draw or other rounds; remake them with "
            f"`{EXAMPLE_TOOL}`.\n"
            if folder.resolve() == (layout.root / "results" / "example").resolve()
            else ""
        )
        raise BadRecordsError(
            f"{remake}{len(refused)} run record(s) were refused, so the standings were not built:\n{listing}\n"
            "Fix or remove them, or build without them explicitly (cvb build --without-bad-records, or "
            "CVB_BUILD_WITHOUT_BAD_RECORDS=1), which lists them on the standings page."
        )
    language = "zh" if edition.code == "zh" else "en"
    model = in_edition(model, fictional_mark(glossary_terms(config, language)["fictional"], language))
    pages = {"standings.md": render(env, edition.templates + "standings.md.j2", {**context, "board": model})}
    for page in model.entrants:
        pages[f"entrants/{page.slug}.md"] = render(
            env, edition.templates + "entrant.md.j2", {**context, "board": model, "page": page}
        )
    return pages


EXAMPLE_TOOL = ".venv/bin/python tools/make_example_results.py"


# The board's model, computed once per results-folder state and config in a process: its bootstraps dominate a
# build, and the check renders the same pages a second time.
_BOARD_CACHE: dict[tuple[str, str, tuple[tuple[str, int, int], ...], str], tuple[BoardModel, list[str]]] = {}


def _board_model(folder: Path, root: Path, config: Config) -> tuple[BoardModel, list[str]]:
    rules = rules_from_json(scoring_rules_json(config))
    spec = draw_spec(config)
    try:
        loaded = load_folder(folder, rules=rules, spec=spec, root=root)
    except ResultsFolderError as exc:
        raise BadRecordsError(f"The results folder {folder} cannot be read: {exc}") from None
    refused = [str(p) for p in loaded.problems]
    grouped = standing_rows(config, loaded, rules=rules)  # the bootstraps: once per build
    return board_model(config, loaded, rules=rules, refused=refused, grouped=grouped), refused
