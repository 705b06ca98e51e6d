"""`cvb check`'s report: the provenance nets, then the publication check of a build or a published site."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from generator.paths import Layout
from generator.publication.tokens import Drift


def format_drift(drift: Drift) -> str:
    return (
        f"{drift.where}\n"
        f"  context:   {drift.context}\n"
        f"  published: {drift.published or '(nothing)'}\n"
        f"  config:    {drift.expected or '(nothing)'}\n"
        f"  key:       {drift.key}"
    )


def run_check(
    layout: Layout, *, config_dir: Path | None, site: str | None, results: Path | None = None
) -> int:
    from generator.check import check
    from generator.publication.check import publication_drifts
    from generator.publication.sources import Folder, Published, UnreadableSite, open_published

    problems = check(layout, config_dir=config_dir, results=results)
    for problem in problems:
        print(problem, file=sys.stderr)
    drifts: Sequence[Drift] = []
    try:
        published: Published | None = open_published(site) if site else None
        if published is None and (layout.site / "index.html").is_file():
            published = Folder(layout.site)
        if published is not None:
            drifts = publication_drifts(layout, published, config_dir=config_dir, results=results)
    except UnreadableSite as exc:
        print(f"cvb check: {exc}", file=sys.stderr)
        return 2
    for drift in drifts:
        print(format_drift(drift), file=sys.stderr)
    if problems:
        print(
            f"cvb check: {len(problems)} published number(s) did not come from the config.", file=sys.stderr
        )
    if drifts:
        print(
            f"cvb check: {len(drifts)} published number(s) in {published.label if published else ''} differ "
            "from the config.",
            file=sys.stderr,
        )
    if problems or drifts:
        return 1
    compared = (
        f"; {published.label} matches it" if published else "; no build in site/ to compare (make site)"
    )
    print(f"cvb check: every published number came from the config{compared}.")
    return 0
