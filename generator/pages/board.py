"""The standings board's page model: rows, bands, labels, gaps and the interval chart, from run records.

Pure: records and the config in, tracked values out. Every figure is a Num whose source is the record file(s)
it came from (and the config keys for rules), so `cvb check` traces board numbers like any other. The model
holds facts, never sentences: each edition words them in its own templates (docs/templates/_board.md.j2 and
docs/templates/zh/_board.md.j2), so both editions read the same facts and neither translates the other.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from cvb_scorer.rules import ScoringRules
from cvb_scorer.stats import Banded

from generator.config import Config
from generator.pages.derive import tracked
from generator.provenance import Num, Text
from generator.results.aggregate import PILLAR_ORDER, Figure, PillarResult, Row, bands, rows, standing_records
from generator.results.bands import chain
from generator.results.paired import PillarClips, paired, pillar_clips
from generator.results.records import Entrant, Loaded, Refusal, standing_round

CORE = "core"


def _src(sources: Sequence[str]) -> frozenset[str]:
    return frozenset(sources)


def _num(value: float, sources: Sequence[str]) -> Num:
    return Num(value, _src(sources))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "entrant"


@dataclass(frozen=True, eq=False)
class EntrantName(Text):
    """An entrant's name as the board prints it; ``fictional`` for a name given in an example folder, which
    ``in_edition`` marks in the edition's own words (a codename is a pseudonym already and is not marked)."""

    fictional: bool = False


def shown_name(entrant: Entrant, source: str, *, example: bool = False) -> EntrantName:
    """The name the board prints: the codename unless the entrant asked for their name."""
    if entrant.publish_name and entrant.name:
        return EntrantName(entrant.name, frozenset({source}), fictional=example)
    return EntrantName(entrant.codename, frozenset({source}))


def fictional_mark(word: Text, language: str) -> Text:
    """What follows a fictional entrant's name: the glossary's word in the edition's own brackets."""
    return Text(f"（{word}）" if language == "zh" else f" ({word})", word.sources)


def _marked(value: object, mark: Text) -> object:
    if isinstance(value, EntrantName):
        return value + mark if value.fictional else value
    if isinstance(value, Text | Num | enum.Enum | str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple):
        return tuple(_marked(v, mark) for v in value)
    if isinstance(value, list):
        return [_marked(v, mark) for v in value]
    if isinstance(value, dict):
        return {k: _marked(v, mark) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _marked(getattr(value, f.name), mark) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value


def in_edition(model: BoardModel, mark: Text) -> BoardModel:
    """The board as one edition prints it: every fictional entrant's name followed by ``mark``
    (``fictional_mark``), wherever the model holds it (rows, bands' sentences, the chart, entrant pages)."""
    marked = _marked(model, mark)
    assert isinstance(marked, BoardModel)
    return marked


class BandKind(enum.Enum):
    ALONE = "alone"  # the band has one entry
    TIED = "tied"  # several entries, every pair of their intervals overlaps
    CHAIN = "chain"  # several entries, some pairs apart: they share the band through the entries between them


class Label(enum.Enum):
    """What stands beside a pillar's figure; each edition words it."""

    MEASURED_NOT_RATED = "measured_not_rated"  # published on its machine measure
    PROVISIONAL = "provisional"  # the pillar is not final
    CAPPED = "capped"  # speech capped: no tone recovered


class GapKind(enum.Enum):
    """Why a Core or Full Score is not shown."""

    MISSING_CORE = "missing_core"  # a core pillar was not entered
    PENDING = "pending"  # an entered pillar is not final (the Full Score is withheld)


@dataclass(frozen=True)
class Gap:
    kind: GapKind
    pillars: tuple[str, ...]  # the pillar ids concerned, in the board's order


@dataclass(frozen=True)
class PairView:
    """Two neighbours on a board compared on the clips both scored, resample by resample (a diagnostic: the
    band decides the rank). ``clips`` None: no clip in common, so no paired view."""

    upper: Text
    lower: Text
    clips: Num | None
    upper_better: Num | None  # share of the paired resamples in which the upper entry is better
    lower_better: Num | None


@dataclass(frozen=True)
class BandFact:
    band: Num
    rank: Num
    kind: BandKind
    leader: Text  # the band's best entry (its first name, not a test of membership)
    members: tuple[Text, ...]  # the others in the band, best first
    everyone: tuple[Text, ...]  # the leader and the others
    # CHAIN only: the band's longest chain of overlaps end to end (consecutive names overlap), its two ends and
    # the names between them, its length in overlaps, and how many of the band's pairs are apart.
    chain: tuple[Text, ...] = ()
    ends: tuple[Text, ...] = ()
    links: Num | None = None
    apart: Num | None = None
    pairs: Num | None = None
    # The paired view of each entry of the band with the entry listed next (the last with the next band's first).
    paired: tuple[PairView, ...] = ()


@dataclass(frozen=True)
class FigureView:
    value: Num
    low: Num
    high: Num
    # Zero width at a bound of the scale: the edition says the width shows the scale's limit, not certainty.
    collapsed: bool
    # A rate (CER, MER: a fraction the edition shows as a percentage), not a 0-100 score.
    rate: bool = False


@dataclass(frozen=True)
class ChartItem:
    name: Text
    figure: Figure
    band: int
    leader: bool


@dataclass(frozen=True)
class Chart:
    """What the interval chart draws; `interval_svg` draws it with the title the edition gives."""

    items: tuple[ChartItem, ...]
    lo: float
    hi: float
    sources: frozenset[str]


@dataclass(frozen=True)
class BoardRow:
    rank: Num
    band: Num
    leader: bool
    name: Text
    slug: Text
    figure: FigureView
    labels: tuple[Label, ...]
    cer: FigureView | None
    # The entrant's CER on the cross-anchor benchmark (recognition board only); None: no figure submitted.
    cross_anchor: Num | None


@dataclass(frozen=True)
class Board:
    id: str  # a pillar id, or CORE; the edition names it
    rows: tuple[BoardRow, ...]
    bands: tuple[BandFact, ...]
    chart: Chart


@dataclass(frozen=True)
class CompositeRow:
    name: Text
    slug: Text
    core: FigureView | None
    full: FigureView | None
    core_gap: Gap | None
    full_gap: Gap | None


@dataclass(frozen=True)
class VersionGroup:
    version: Text
    current: bool
    floor: Num | None
    # For a group under an older version: the current version and its floor, so the edition can explain that
    # scores either side of the floor change are on different scales. None for the current group.
    current_version: Text | None
    current_floor: Num | None
    boards: tuple[Board, ...]
    composites: tuple[CompositeRow, ...]


@dataclass(frozen=True)
class PillarDetail:
    pillar: str
    figure: FigureView
    cer: FigureView | None
    mer: FigureView | None
    cross_anchor: Num | None
    clips: Num
    runs: Num
    final: bool
    labels: tuple[Label, ...]
    sources: tuple[Text, ...]


@dataclass(frozen=True)
class EntrantPage:
    name: Text
    slug: Text
    version: Text
    pillars: tuple[PillarDetail, ...]
    core: FigureView | None
    full: FigureView | None
    core_gap: Gap | None
    full_gap: Gap | None


@dataclass(frozen=True)
class RefusalView:
    """A record the build left out: its file (relative to the results folder), the kind of fault each edition
    names, and the exact sentence (English: it quotes ids and values)."""

    source: Text
    kind: Refusal
    reason: Text


class BoardSource(enum.Enum):
    """Where the board's rows come from; each edition says so on every board page."""

    NONE = "none"  # no results folder: no rows, no entrant pages; results come after the standing round
    EXAMPLE = "example"  # a folder marked as example data: a banner on every page, kept out of search
    RECORDS = "records"  # the organisers' run records


@dataclass(frozen=True)
class BoardModel:
    groups: tuple[VersionGroup, ...]
    entrants: tuple[EntrantPage, ...]
    anchor_benchmark: Text
    interval_level: Num
    resamples: Num
    seed: Num
    refused: tuple[RefusalView, ...]
    source: BoardSource = BoardSource.RECORDS


def _view(fig: Figure, sources: Sequence[str], *, rate: bool = False) -> FigureView:
    return FigureView(
        _num(fig.value, sources), _num(fig.low, sources), _num(fig.high, sources), fig.collapsed, rate
    )


def _labels(result: PillarResult) -> tuple[Label, ...]:
    labels = []
    if result.measured_not_rated:
        labels.append(Label.MEASURED_NOT_RATED)
    if not result.final:
        labels.append(Label.PROVISIONAL)
    if result.capped:
        labels.append(Label.CAPPED)
    return tuple(labels)


def _anchor(result: PillarResult | None) -> Num | None:
    if result is None or result.cross_anchor is None or result.cross_anchor_source is None:
        return None
    return Num(result.cross_anchor, frozenset({result.cross_anchor_source}))


def gaps(row: Row, rules: ScoringRules) -> tuple[Gap | None, Gap | None]:
    """Why the row's Core and Full Scores are not shown (None where they are), as the scorer decided: the
    scorer's composite gives a reason exactly when it withholds a score, and these are the facts it names."""
    core_ids = {name for name, pillar in rules.pillars.items() if pillar.core}
    missing = tuple(p for p in PILLAR_ORDER if p in core_ids and p not in row.pillars)
    pending = tuple(p for p in PILLAR_ORDER if p in row.pillars and not row.pillars[p].final)
    core = Gap(GapKind.MISSING_CORE, missing) if row.core_reason is not None else None
    full = None
    if row.full_reason is not None:
        full = Gap(GapKind.MISSING_CORE, missing) if missing else Gap(GapKind.PENDING, pending)
    return core, full


def _band_facts(
    banded: Sequence[tuple[Row, Banded]],
    names: Mapping[str, Text],
    paired: Mapping[str, PairView] | None = None,
) -> list[BandFact]:
    by_band: dict[int, list[tuple[Row, Banded]]] = {}
    for row, b in banded:
        by_band.setdefault(b.band, []).append((row, b))
    facts = []
    for band, members in sorted(by_band.items()):
        sources = [s for row, _ in members for s in (*sorted(names[row.entrant.id].sources), *row.sources)]
        leader = members[0][1]
        found = chain([b.entry for _, b in members])
        others = tuple(names[b.entry.name] for _, b in members[1:])
        kind = BandKind.ALONE if not others else BandKind.TIED if found is None else BandKind.CHAIN
        facts.append(
            BandFact(
                band=_num(band, sources),
                rank=_num(leader.rank, sources),
                kind=kind,
                leader=names[leader.leader],
                members=others,
                everyone=(names[leader.leader], *others),
                chain=tuple(names[n] for n in found.path) if found else (),
                ends=(names[found.path[0]], names[found.path[-1]]) if found else (),
                links=_num(found.links, sources) if found else None,
                apart=_num(found.apart, sources) if found else None,
                pairs=_num(found.pairs, sources) if found else None,
                paired=tuple(paired[b.entry.name] for _, b in members if paired and b.entry.name in paired),
            )
        )
    return facts


# The chart's geometry, in SVG user units; the scale spans the score scale from the config. Labels take the
# figure's font size (docs/assets/site.css), so a unit should stay near a CSS pixel where the chart is shown: the
# wide drawing (names beside their intervals) is for screens wider than a phone, the narrow one (each name above
# its interval) for a phone's width, where the wide one would shrink its labels to about 6 px.
_W, _LABEL, _ROW, _PAD = 640, 170, 24, 8
_NARROW, _NROW = 360, 44


def _svg_open(title: str, kind: str, width: int, height: int) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cvb-intervals cvb-intervals--{kind}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]


def _mark(cx: float, mid: float, leader: bool) -> str:
    if leader:
        return f'<path d="M{cx} {mid - 6}L{cx + 6} {mid}L{cx} {mid + 6}L{cx - 6} {mid}Z" class="cvb-leader" fill="currentColor"/>'
    return f'<circle cx="{cx}" cy="{mid}" r="4" class="cvb-point" fill="none" stroke="currentColor" stroke-width="2"/>'


def interval_svg(title: str, items: Sequence[tuple[str, Figure, int, bool]], *, lo: float, hi: float) -> str:
    """Two inline SVGs of the same chart, the wide one and the narrow one (the page's CSS shows one of them): one
    line per entry from its interval's low to high, a dot at the figure, each band's best entry drawn as a filled
    diamond, bands shaded alternately. Readable without JavaScript; text equivalents are the table and the band
    sentences beside it."""
    return _wide_svg(title, items, lo=lo, hi=hi) + _narrow_svg(title, items, lo=lo, hi=hi)


def _wide_svg(title: str, items: Sequence[tuple[str, Figure, int, bool]], *, lo: float, hi: float) -> str:
    height = _PAD * 2 + _ROW * max(1, len(items)) + 16
    span = _W - _LABEL - _PAD * 2

    def x(v: float) -> float:
        return round(_LABEL + _PAD + span * (v - lo) / (hi - lo), 1)

    parts = _svg_open(title, "wide", _W, height)
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
        parts.append(_mark(x(fig.value), mid, leader))
    axis_y = _PAD + _ROW * max(1, len(items)) + 12
    parts.append(f'<text x="{x(lo)}" y="{axis_y}" class="cvb-axis" fill="currentColor">{lo:g}</text>')
    parts.append(
        f'<text x="{x(hi)}" y="{axis_y}" text-anchor="end" class="cvb-axis" fill="currentColor">{hi:g}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _narrow_svg(title: str, items: Sequence[tuple[str, Figure, int, bool]], *, lo: float, hi: float) -> str:
    """Each entry on two lines: its name, then its interval across the whole width."""
    height = _PAD * 2 + _NROW * max(1, len(items)) + 20
    span = _NARROW - _PAD * 4

    def x(v: float) -> float:
        return round(_PAD * 2 + span * (v - lo) / (hi - lo), 1)

    parts = _svg_open(title, "narrow", _NARROW, height)
    for k, (name, fig, band, leader) in enumerate(items):
        y = _PAD + _NROW * k
        if band % 2 == 0:
            parts.append(
                f'<rect x="0" y="{y}" width="{_NARROW}" height="{_NROW}" class="cvb-band-even" fill="currentColor" fill-opacity="0.07"/>'
            )
        weight = ' font-weight="bold"' if leader else ""
        parts.append(
            f'<text x="{_PAD}" y="{y + 17}" class="cvb-label" fill="currentColor"{weight}>{escape(name)}</text>'
        )
        mid = y + 32
        parts.append(
            f'<line x1="{x(fig.low)}" y1="{mid}" x2="{x(fig.high)}" y2="{mid}" class="cvb-interval" stroke="currentColor" stroke-width="2"/>'
        )
        parts.append(_mark(x(fig.value), mid, leader))
    axis_y = _PAD + _NROW * max(1, len(items)) + 16
    parts.append(f'<text x="{x(lo)}" y="{axis_y}" class="cvb-axis" fill="currentColor">{lo:g}</text>')
    parts.append(
        f'<text x="{x(hi)}" y="{axis_y}" text-anchor="end" class="cvb-axis" fill="currentColor">{hi:g}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def chart_svg(chart: object, title: object) -> Text:
    """The template filter: `{{ board.chart | chart_svg(title) }}`, the title in the page's language. Tracked by
    the records and names the chart draws (its axis figures come from the config's scale)."""
    if not isinstance(chart, Chart):
        raise TypeError(f"chart_svg draws a board's chart, and was given {chart!r}")
    items = [(str(i.name), i.figure, i.band, i.leader) for i in chart.items]
    return Text(interval_svg(str(title), items, lo=chart.lo, hi=chart.hi), chart.sources)


def _board(
    board_id: str,
    group: Sequence[Row],
    get: Callable[[Row], Figure | None],
    *,
    rules: ScoringRules,
    names: Mapping[str, Text],
    clips: Mapping[tuple[str, str, str], PillarClips] | None = None,
) -> Board | None:
    banded = bands(group, get)
    if not banded:
        return None
    figures = {row.entrant.id: f for row, _ in banded if (f := get(row)) is not None}
    views = _neighbours(board_id, banded, names, clips, rules=rules) if clips is not None else {}
    facts = _band_facts(banded, names, views)
    board_rows = []
    items = []
    for row, b in banded:
        fig = figures[row.entrant.id]
        result = row.pillars.get(board_id)
        sources = result.sources if result else row.sources
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
                cross_anchor=_anchor(row.pillars.get("asr")) if board_id == "asr" else None,
            )
        )
        items.append(ChartItem(names[row.entrant.id], fig, b.band, leader))
    all_sources = frozenset(s for row, _ in banded for s in row.sources) | frozenset(
        s for n in names.values() for s in n.sources
    )
    chart = Chart(tuple(items), rules.score_min, rules.score_max, all_sources)
    return Board(board_id, tuple(board_rows), tuple(facts), chart)


def _neighbours(
    board_id: str,
    banded: Sequence[tuple[Row, Banded]],
    names: Mapping[str, Text],
    clips: Mapping[tuple[str, str, str], PillarClips],
    *,
    rules: ScoringRules,
) -> dict[str, PairView]:
    """The paired view of each row with the row listed next, by the upper row's entrant id."""
    pillars = sorted(n for n, p in rules.pillars.items() if p.core) if board_id == CORE else [board_id]
    out = {}
    for (upper, _), (lower, _) in itertools.pairwise(banded):
        version = upper.scoring_version
        mine = {p: clips[(version, upper.entrant.id, p)] for p in pillars}
        theirs = {p: clips[(version, lower.entrant.id, p)] for p in pillars}
        found = paired(mine, theirs, pillars, rules=rules, version=version)
        sources = [*upper.sources, *lower.sources]
        out[upper.entrant.id] = PairView(
            names[upper.entrant.id],
            names[lower.entrant.id],
            _num(found.clips, sources) if found else None,
            _num(found.upper_better, sources) if found else None,
            _num(found.lower_better, sources) if found else None,
        )
    return out


def _composite_row(row: Row, names: Mapping[str, Text], rules: ScoringRules) -> CompositeRow:
    src = row.sources
    core_gap, full_gap = gaps(row, rules)
    return CompositeRow(
        name=names[row.entrant.id],
        slug=Text(slug(row.entrant.codename), names[row.entrant.id].sources),
        core=_view(row.core, src) if row.core else None,
        full=_view(row.full, src) if row.full else None,
        core_gap=core_gap,
        full_gap=full_gap,
    )


def _floors(config: Config, version: str, current: str) -> tuple[Num | None, Num | None]:
    """The group's floor, and the current version's floor when the group is under an older version."""
    cfg = tracked(config)
    history = config.scoring.error_rate_floor_history
    idx = {e.scoring_version: i for i, e in enumerate(history)}
    if version not in idx:
        return None, None
    floor = cfg.scoring.error_rate_floor_history[idx[version]].floor
    if version == current or current not in idx:
        return floor, None
    return floor, cfg.scoring.error_rate_floor_history[idx[current]].floor


def _figure_of(board_id: str) -> Callable[[Row], Figure | None]:
    """The figure a board ranks: the Core Score, or one pillar's score (None where the row lacks it)."""
    if board_id == CORE:
        return lambda row: row.core

    def pillar(row: Row) -> Figure | None:
        result = row.pillars.get(board_id)
        return result.score if result else None

    return pillar


def standing_rows(config: Config, loaded: Loaded, *, rules: ScoringRules) -> dict[str, list[Row]]:
    """The board's rows: the bootstraps over the runs of the round the standings count, by scoring version."""
    counted = standing_records(loaded.records, round_id=standing_round(config))
    return rows(counted, loaded.entrants, rules=rules)


def board_model(
    config: Config,
    loaded: Loaded,
    *,
    rules: ScoringRules,
    refused: Sequence[str] = (),
    grouped: Mapping[str, Sequence[Row]] | None = None,
) -> BoardModel:
    """``grouped``: ``aggregate.rows`` of the loaded records when the caller has them already (the build
    aggregates once and hands them here); computed here otherwise. The refusals listed are ``loaded.problems``;
    ``refused`` (their sentences) is accepted for callers of the earlier signature and not used."""
    del refused
    cfg = tracked(config)
    benchmark: Text = cfg.scoring.cross_anchor.benchmark
    names = {
        e.id: shown_name(e, loaded.entrants_source, example=loaded.example) for e in loaded.entrants.values()
    }
    if grouped is None:
        grouped = standing_rows(config, loaded, rules=rules)
    clips = pillar_clips(standing_records(loaded.records, round_id=standing_round(config)))
    current = rules.scoring_version
    current_text = Text(current, frozenset({"scoring.current_scoring_version"}))
    order = sorted(grouped, key=lambda v: (v != current, v), reverse=False)
    groups = []
    pages = []
    for version in order:
        group = grouped[version]
        boards = []
        for pid in (CORE, *PILLAR_ORDER):
            board = _board(pid, group, _figure_of(pid), rules=rules, names=names, clips=clips)
            if board is not None:
                boards.append(board)
        floor, current_floor = _floors(config, version, current)
        version_text = (
            current_text
            if version == current
            else Text(version, frozenset(s for r in group for s in r.sources))
        )
        composites = tuple(
            _composite_row(r, names, rules) for r in sorted(group, key=lambda r: str(names[r.entrant.id]))
        )
        groups.append(
            VersionGroup(
                version=version_text,
                current=version == current,
                floor=floor,
                current_version=current_text if current_floor is not None else None,
                current_floor=current_floor,
                boards=tuple(boards),
                composites=composites,
            )
        )
        for r in group:
            pages.append(_entrant_page(r, names, version_text, rules))
    return BoardModel(
        groups=tuple(groups),
        entrants=tuple(pages),
        anchor_benchmark=benchmark,
        interval_level=cfg.scoring.statistics.interval,
        resamples=cfg.scoring.statistics.bootstrap_resamples,
        seed=cfg.scoring.statistics.bootstrap_seed,
        refused=tuple(
            RefusalView(Text(p.source, frozenset({p.source})), p.kind, Text(p.reason, frozenset({p.source})))
            for p in loaded.problems
        ),
        source=BoardSource.EXAMPLE if loaded.example else BoardSource.RECORDS,
    )


def no_results_model(config: Config) -> BoardModel:
    """The board of a build without a results folder: no rows and no entrant pages, only the config's rules."""
    cfg = tracked(config)
    return BoardModel(
        groups=(),
        entrants=(),
        anchor_benchmark=cfg.scoring.cross_anchor.benchmark,
        interval_level=cfg.scoring.statistics.interval,
        resamples=cfg.scoring.statistics.bootstrap_resamples,
        seed=cfg.scoring.statistics.bootstrap_seed,
        refused=(),
        source=BoardSource.NONE,
    )


def _entrant_page(row: Row, names: Mapping[str, Text], version: Text, rules: ScoringRules) -> EntrantPage:
    details = []
    for pid in PILLAR_ORDER:
        result = row.pillars.get(pid)
        if result is None:
            continue
        src = result.sources
        details.append(
            PillarDetail(
                pillar=pid,
                figure=_view(result.score, src),
                cer=_view(result.cer, src, rate=True) if result.cer else None,
                mer=_view(result.mer, src, rate=True) if result.mer else None,
                cross_anchor=_anchor(result) if pid == "asr" else None,
                clips=_num(result.clips, src),
                runs=_num(result.runs, src),
                final=result.final,
                labels=_labels(result),
                sources=tuple(Text(s, frozenset({s})) for s in src),
            )
        )
    comp = _composite_row(row, names, rules)
    return EntrantPage(
        name=names[row.entrant.id],
        slug=comp.slug,
        version=version,
        pillars=tuple(details),
        core=comp.core,
        full=comp.full,
        core_gap=comp.core_gap,
        full_gap=comp.full_gap,
    )
