"""What each page is and what it is given. Pure: Config (and pre-rendered fragments) in, contexts out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.config import Config
from generator.issue_state import unreleased
from generator.kit_data import KitDownload
from generator.pages.derive import derive, tracked
from generator.pages.downloads import Artefact, downloads
from generator.pages.frames import example_frames
from generator.provenance import Num, Text


@dataclass(frozen=True)
class Page:
    template: str
    output: str
    title: str


PAGES: tuple[Page, ...] = (
    Page("index.md.j2", "index.md", "Entrant's guide"),
    Page("integration.md.j2", "integration.md", "Integration"),
    Page("methodology.md.j2", "methodology.md", "Methodology"),
    Page("grading-pipeline.md.j2", "grading-pipeline.md", "Grading pipeline"),
    Page("changelog.md.j2", "changelog.md", "Changelog"),
)


@dataclass(frozen=True)
class Fragments:
    """Pieces rendered outside the page model (by the shell) that pages place verbatim."""

    python_server: str
    node_server: str
    dockerfile: str
    kit_download: KitDownload
    editor: str
    compact_editor: str
    normalisation_rows: list[dict[str, str]]
    scorer_signature: str
    # The worked examples of how much a number weighs, scored by the scorer (see number_weight_rows).
    number_weight_rows: list[dict[str, str]] = field(default_factory=list)
    # The current issue's PDFs as the build printed them (name, href, size, sha256); empty when none were built.
    issue_pdfs: list[dict[str, str]] = field(default_factory=list)


def site_context(
    config: Config, fragments: Fragments, *, artefacts: Sequence[Artefact] = ()
) -> dict[str, Any]:
    cfg = tracked(config)
    history = config.scoring.error_rate_floor_history
    latest_issue = cfg.platform.issues[len(config.platform.issues) - 1]
    failures_by_party = {
        party: [f for f in cfg.failures if f.attributed_to.text == party]
        for party in ("entrant", "network", "platform")
    }
    return {
        "cfg": cfg,
        "d": derive(config),
        "frames": example_frames(config),
        "latest_issue": latest_issue,
        # The settings differ from those the issue in force was printed from (generator.issues): no PDF.
        "unreleased": unreleased(config),
        "floor_history": [cfg.scoring.error_rate_floor_history[i] for i in range(len(history))],
        "previous_floor": (
            cfg.scoring.error_rate_floor_history[len(history) - 2].floor if len(history) > 1 else None
        ),
        "current_floor_entry": cfg.scoring.error_rate_floor_history[len(history) - 1],
        "failures_by_party": failures_by_party,
        "pillar_count": Num(len(config.scoring.pillars), frozenset({"scoring.pillars"})),
        "review_check_count": Num(
            len(config.endpointing.review_checks), frozenset({"endpointing.review_checks"})
        ),
        "shipped_count": Num(
            len(config.endpointing.release.shipped_ids), frozenset({"endpointing.release.shipped_ids"})
        ),
        "held_out_count": Num(
            len(config.endpointing.release.held_out_ids), frozenset({"endpointing.release.held_out_ids"})
        ),
        "fragments": fragments,
        # Only what the build wrote: site_build/markdown.py `artefacts` is the one list of downloadable files.
        "downloads": downloads(artefacts),
        "pages": {page.output: page for page in PAGES},
        "tba": Text("to be announced", frozenset()),
    }
