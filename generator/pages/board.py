"""The standings board's page model: rows, bands, labels, sentences and the interval chart, from run records.

Pure: records and the config in, tracked values out. Every figure is a Num whose source is the record file(s)
it came from (and the config keys for rules), so `cvb check` traces board numbers like any other. Sentences are
built here, with the facts they state kept beside them (``BandFact``), so another edition can word them its way.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from cvb_scorer.rules import ScoringRules

from generator.config import Config
from generator.config.tracked_view import VConfig
from generator.pages.derive import tracked
from generator.provenance import Num, Text
from generator.results.aggregate import PILLAR_ORDER, Figure, PillarResult, Row, bands, rows
from generator.results.records import Entrant, Loaded

MEASURED_NOT_RATED = "measured, not rated"
CORE = "core"


def _src(sources: Sequence[str]) -> frozenset[str]:
    return frozenset(sources)


def _num(value: float, sources: Sequence[str]) -> Num:
    return Num(value, _src(sources))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "entrant"


def shown_name(entrant: Entrant, source: str) -> Text:
    """The name the board prints: the codename unless the entrant asked for their name."""
    if entrant.publish_name and entrant.name:
        return Text(entrant.name, frozenset({source}))
    return Text(entrant.codename, frozenset({source}))


class BandKind(enum.Enum):
    ALONE = "alone"  # the band has one entry
    TIED = "tied"  # several entries overlap the leader's interval
    BROKEN_CHAIN = "broken_chain"  # the leader overlaps someone in the band above, but not its leader


@dataclass(frozen=True)
class BandFact:
    band: Num
    rank: Num
    kind: BandKind
    leader: Text
    members: tuple[Text, ...]  # the others in the band
    chained_to: tuple[Text, ...]  # for BROKEN_CHAIN: entries of the band above whose intervals it overlaps
    above_leader: Text | None
    sentence: Text


@dataclass(frozen=True)
class FigureView:
    value: Num
    low: Num
    high: Num
    collapsed: bool
    collapse_note: Text | None


@dataclass(frozen=True)
class BoardRow:
    rank: Num
    band: Num
    leader: bool
    name: Text
    slug: Text
    figure: FigureView
    labels: tuple[Text, ...]
    cer: FigureView | None
    cross_anchor: Num | None
    cross_anchor_text: Text


@dataclass(frozen=True)
class Board:
    id: str
    title: Text
    rows: tuple[BoardRow, ...]
    bands: tuple[BandFact, ...]
    svg: Text


@dataclass(frozen=True)
class CompositeRow:
    name: Text
    slug: Text
    core: FigureView | None
    full: FigureView | None
    core_note: Text | None
    full_note: Text | None


@dataclass(frozen=True)
class VersionGroup:
    version: Text
    current: bool
    floor: Num | None
    note: Text | None
    boards: tuple[Board, ...]
    composites: tuple[CompositeRow, ...]


@dataclass(frozen=True)
class PillarDetail:
    title: Text
    figure: FigureView
    cer: FigureView | None
    mer: FigureView | None
    cross_anchor: Num | None
    cross_anchor_text: Text
    clips: Num
    runs: Num
    final: bool
    labels: tuple[Text, ...]
    sources: tuple[Text, ...]


@dataclass(frozen=True)
class EntrantPage:
    name: Text
    slug: Text
    version: Text
    pillars: tuple[PillarDetail, ...]
    core: FigureView | None
    full: FigureView | None
    core_note: Text | None
    full_note: Text | None


@dataclass(frozen=True)
class BoardModel:
    groups: tuple[VersionGroup, ...]
    entrants: tuple[EntrantPage, ...]
    anchor_benchmark: Text
    interval_level: Num
    resamples: Num
    seed: Num
    refused: tuple[Text, ...]
    measured_not_rated: Text


def _view(fig: Figure, sources: Sequence[str], *, rate: bool = False) -> FigureView:
    note = None
    if fig.collapsed:
        bound = _num(fig.low if not rate else fig.low * 100, sources)
        unit = "%" if rate else ""
        note = Text(
            f"The interval collapsed to {bound}{unit}: the resamples all sit at the edge of the scale, so the zero "
            "width shows the scale's limit, not certainty.",
            bound.sources,
        )
    return FigureView(
        _num(fig.value, sources), _num(fig.low, sources), _num(fig.high, sources), fig.collapsed, note
    )


def _labels(result: PillarResult) -> tuple[Text, ...]:
    src = _src(result.sources)
    labels = []
    if result.measured_not_rated:
        labels.append(Text(MEASURED_NOT_RATED, src))
    if not result.final:
        labels.append(Text("provisional", src))
    if result.capped:
        labels.append(Text("capped: no tone recovered", src))
    return tuple(labels)


def _anchor(result: PillarResult | None, benchmark: Text) -> tuple[Num | None, Text]:
    if result is None or result.cross_anchor is None or result.cross_anchor_source is None:
        src = _src(result.sources) if result else frozenset()
        return None, Text("no figure submitted", src | benchmark.sources)
    value = Num(result.cross_anchor, frozenset({result.cross_anchor_source}))
    return value, Text(
        f"{round(result.cross_anchor * 100, 1):g}% on {benchmark}", value.sources | benchmark.sources
    )


def _band_facts(
    banded: Sequence[tuple[Row, object]], figures: Mapping[str, Figure], names: Mapping[str, Text]
) -> list[BandFact]:
    from cvb_scorer.stats import Banded

    entries: list[Banded] = [b for _, b in banded if isinstance(b, Banded)]
    by_band: dict[int, list[Banded]] = {}
    for b in entries:
        by_band.setdefault(b.band, []).append(b)
    facts = []
    for band, members in sorted(by_band.items()):
        leader = members[0]
        lead_name = names[leader.leader]
        sources = [s for m in members for s in sorted(names[m.entry.name].sources)] + sorted(
            {s for m in members for s in _row_sources(banded, m.entry.name)}
        )
        band_n = _num(band, sources)
        rank_n = _num(leader.rank, sources)
        others = tuple(names[m.entry.name] for m in members[1:])
        above = by_band.get(band - 1, [])
        lf = figures[leader.entry.name]
        chained = tuple(
            names[a.entry.name]
            for a in above
            if figures[a.entry.name].high >= lf.low and figures[a.entry.name].low <= lf.high
        )
        above_leader = names[above[0].leader] if above else None
        if others:
            kind = BandKind.TIED
            listed = ", ".join(str(o) for o in others)
            text = (
                f"Band {band_n}: {lead_name} leads; the interval of {listed} overlaps {lead_name}'s, so "
                f"{'they are' if len(others) > 1 else 'the two are'} tied at rank {rank_n}."
            )
        else:
            kind = BandKind.ALONE
            text = f"Band {band_n}: {lead_name} alone at rank {rank_n}; no interval below overlaps it."
        if chained and above_leader is not None:
            kind = BandKind.BROKEN_CHAIN if not others else kind
            text += (
                f" Its interval overlaps {', '.join(str(c) for c in chained)} in the band above but not that "
                f"band's leader, {above_leader}, so overlaps do not chain it upwards."
            )
        src = band_n.sources | lead_name.sources
        facts.append(
            BandFact(band_n, rank_n, kind, lead_name, others, chained, above_leader, Text(text, src))
        )
    return facts


def _row_sources(banded: Sequence[tuple[Row, object]], entrant_id: str) -> tuple[str, ...]:
    for row, _ in banded:
        if row.entrant.id == entrant_id:
            return row.sources
    return ()


# The chart's geometry, in SVG user units; the scale spans the score scale from the config.
_W, _LABEL, _ROW, _PAD = 640, 170, 24, 8


def interval_svg(title: str, items: Sequence[tuple[str, Figure, int, bool]], *, lo: float, hi: float) -> str:
    """An inline SVG: one line per entry from its interval's low to high, a dot at the figure, the band leader
    drawn as a filled diamond, bands shaded alternately. Readable without JavaScript; text equivalents are the
    table and the band sentences beside it."""
    height = _PAD * 2 + _ROW * max(1, len(items)) + 16
    span = _W - _LABEL - _PAD * 2

    def x(v: float) -> float:
        return round(_LABEL + _PAD + span * (v - lo) / (hi - lo), 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cvb-intervals" viewBox="0 0 {_W} {height}" '
        f'role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    for k, (name, fig, band, leader) in enumerate(items):
        y = _PAD + _ROW * k
        mid = y + _ROW / 2
        if band % 2 == 0:
            parts.append(
                f'<rect x="0" y="{y}" width="{_W}" height="{_ROW}" class="cvb-band-even" fill="currentColor" fill-opacity="0.07"/>'
            )
        weight = ' font-weight="bold"' if leader else ""
        parts.append(
            f'<text x="{_LABEL - 4}" y="{mid + 4}" text-anchor="end" class="cvb-label" fill="currentColor"{weight}>{escape(name)}</text>'
        )
        parts.append(
            f'<line x1="{x(fig.low)}" y1="{mid}" x2="{x(fig.high)}" y2="{mid}" class="cvb-interval" stroke="currentColor" stroke-width="2"/>'
        )
        cx = x(fig.value)
        if leader:
            parts.append(
                f'<path d="M{cx} {mid - 6}L{cx + 6} {mid}L{cx} {mid + 6}L{cx - 6} {mid}Z" class="cvb-leader" fill="currentColor"/>'
            )
        else:
            parts.append(
                f'<circle cx="{cx}" cy="{mid}" r="4" class="cvb-point" fill="none" stroke="currentColor" stroke-width="2"/>'
            )
    axis_y = _PAD + _ROW * max(1, len(items)) + 12
    parts.append(f'<text x="{x(lo)}" y="{axis_y}" class="cvb-axis" fill="currentColor">{lo:g}</text>')
    parts.append(
        f'<text x="{x(hi)}" y="{axis_y}" text-anchor="end" class="cvb-axis" fill="currentColor">{hi:g}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _board(
    board_id: str,
    title: Text,
    group: Sequence[Row],
    figure_of: object,
    *,
    rules: ScoringRules,
    names: Mapping[str, Text],
    benchmark: Text,
) -> Board | None:
    from collections.abc import Callable

    assert callable(figure_of)
    get: Callable[[Row], Figure | None] = figure_of
    banded = bands(group, get)
    if not banded:
        return None
    figures = {row.entrant.id: f for row, _ in banded if (f := get(row)) is not None}
    facts = _band_facts(banded, figures, names)
    board_rows = []
    items = []
    for row, b in banded:
        fig = figures[row.entrant.id]
        result = row.pillars.get(board_id)
        sources = result.sources if result else row.sources
        anchor, anchor_text = _anchor(row.pillars.get("asr"), benchmark)
        cer = row.pillars["asr"].cer if board_id == "asr" else None
        leader = b.leader == row.entrant.id
        board_rows.append(
            BoardRow(
                rank=_num(b.rank, sources),
                band=_num(b.band, sources),
                leader=leader,
                name=names[row.entrant.id],
                slug=Text(slug(row.entrant.codename), names[row.entrant.id].sources),
                figure=_view(fig, sources),
                labels=_labels(result) if result else (),
                cer=_view(cer, sources, rate=True) if cer else None,
                cross_anchor=anchor if board_id == "asr" else None,
                cross_anchor_text=anchor_text,
            )
        )
        items.append((str(names[row.entrant.id]), fig, b.band, leader))
    all_sources = frozenset(s for row, _ in banded for s in row.sources) | frozenset(
        s for n in names.values() for s in n.sources
    )
    svg = interval_svg(f"{title}: intervals by entrant", items, lo=rules.score_min, hi=rules.score_max)
    return Board(board_id, title, tuple(board_rows), tuple(facts), Text(svg, all_sources))


def _composite_row(row: Row, names: Mapping[str, Text]) -> CompositeRow:
    src = row.sources
    return CompositeRow(
        name=names[row.entrant.id],
        slug=Text(slug(row.entrant.codename), names[row.entrant.id].sources),
        core=_view(row.core, src) if row.core else None,
        full=_view(row.full, src) if row.full else None,
        core_note=Text(row.core_reason, _src(src)) if row.core_reason else None,
        full_note=Text(row.full_reason, _src(src)) if row.full_reason else None,
    )


def _floor_note(config: Config, version: str, current: str) -> tuple[Num | None, Text | None]:
    cfg = tracked(config)
    history = config.scoring.error_rate_floor_history
    idx = {e.scoring_version: i for i, e in enumerate(history)}
    if version not in idx:
        return None, None
    floor = cfg.scoring.error_rate_floor_history[idx[version]].floor
    if version == current:
        return floor, None
    now = cfg.scoring.error_rate_floor_history[idx[current]].floor if current in idx else None
    if now is None:
        return floor, None
    text = (
        f"These rows were scored under version {version}, when a recognition score reached zero at an error rate "
        f"of {round(floor.value * 100):d}%; version {current} puts that floor at {round(now.value * 100):d}%. "
        "Recognition scores either side of a floor change are on different scales, so this group is ranked on "
        "its own and never against the rows above."
    )
    return floor, Text(text, floor.sources | now.sources)


def board_model(
    config: Config,
    loaded: Loaded,
    *,
    rules: ScoringRules,
    refused: Sequence[str] = (),
    grouped: Mapping[str, Sequence[Row]] | None = None,
) -> BoardModel:
    """``grouped``: ``aggregate.rows`` of the loaded records when the caller has them already (the build
    aggregates once and hands them here); computed here otherwise."""
    cfg = tracked(config)
    benchmark: Text = cfg.scoring.cross_anchor.benchmark
    names = {e.id: shown_name(e, loaded.entrants_source) for e in loaded.entrants.values()}
    if grouped is None:
        grouped = rows(loaded.records, loaded.entrants, rules=rules)
    current = rules.scoring_version
    order = sorted(grouped, key=lambda v: (v != current, v), reverse=False)
    groups = []
    pages = []
    for version in order:
        group = grouped[version]
        boards = []
        for pid in PILLAR_ORDER:
            title: Text = cfg.scoring.pillars[pid].name
            board = _board(
                pid,
                title,
                group,
                lambda r, p=pid: r.pillars[p].score if p in r.pillars else None,
                rules=rules,
                names=names,
                benchmark=benchmark,
            )
            if board is not None:
                boards.append(board)
        core = _board(
            CORE,
            Text("Core Score", frozenset()),
            group,
            lambda r: r.core,
            rules=rules,
            names=names,
            benchmark=benchmark,
        )
        if core is not None:
            boards.insert(0, core)
        floor, note = _floor_note(config, version, current)
        version_text = Text(
            version,
            frozenset({"scoring.current_scoring_version"})
            if version == current
            else frozenset(s for r in group for s in r.sources),
        )
        composites = tuple(
            _composite_row(r, names) for r in sorted(group, key=lambda r: str(names[r.entrant.id]))
        )
        groups.append(VersionGroup(version_text, version == current, floor, note, tuple(boards), composites))
        for r in group:
            pages.append(_entrant_page(r, names, version_text, cfg, benchmark))
    mnr = Text(MEASURED_NOT_RATED, frozenset())
    return BoardModel(
        groups=tuple(groups),
        entrants=tuple(pages),
        anchor_benchmark=benchmark,
        interval_level=cfg.scoring.statistics.interval,
        resamples=cfg.scoring.statistics.bootstrap_resamples,
        seed=cfg.scoring.statistics.bootstrap_seed,
        refused=tuple(Text(r, frozenset({"refused record"})) for r in refused),
        measured_not_rated=mnr,
    )


def _entrant_page(
    row: Row, names: Mapping[str, Text], version: Text, cfg: VConfig, benchmark: Text
) -> EntrantPage:
    details = []
    pillars = cfg.scoring.pillars
    for pid in PILLAR_ORDER:
        result = row.pillars.get(pid)
        if result is None:
            continue
        src = result.sources
        anchor, anchor_text = _anchor(result, benchmark) if pid == "asr" else (None, Text("", frozenset()))
        details.append(
            PillarDetail(
                title=pillars[pid].name,
                figure=_view(result.score, src),
                cer=_view(result.cer, src, rate=True) if result.cer else None,
                mer=_view(result.mer, src, rate=True) if result.mer else None,
                cross_anchor=anchor,
                cross_anchor_text=anchor_text,
                clips=_num(result.clips, src),
                runs=_num(result.runs, src),
                final=result.final,
                labels=_labels(result),
                sources=tuple(Text(s, frozenset({s})) for s in src),
            )
        )
    comp = _composite_row(row, names)
    return EntrantPage(
        name=names[row.entrant.id],
        slug=comp.slug,
        version=version,
        pillars=tuple(details),
        core=comp.core,
        full=comp.full,
        core_note=comp.core_note,
        full_note=comp.full_note,
    )
