"""The published band rule (generator.results.bands): any two entries whose intervals overlap share a band, and so
does everything chained to them. Known answers, a differential test against an independent sweep, the chain a
band is explained by, and the methodology and guide stating the rule and its example, generated from it, in
both editions."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import pytest
from cvb_scorer.stats import Entry
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import Rendered, render_all
from generator.config import load_config
from generator.pages.derive import derive
from generator.paths import Layout
from generator.results.bands import chain, overlap, overlap_bands
from tests.generator.conftest import REPO, project_copy


def _e(name: str, score: float, low: float, high: float) -> Entry:
    return Entry(name, score, low, high)


# (entries, expected (name, band, rank, leader) in the board's order)
CASES = {
    "nothing": ([], []),
    "one entry": ([_e("A", 50, 40, 60)], [("A", 1, 1, "A")]),
    "a chain A-B-C, A and C apart": (
        [_e("A", 81.6, 77.9, 85.3), _e("B", 79.2, 74.4, 83.1), _e("C", 75.1, 70.6, 77.2)],
        [("A", 1, 1, "A"), ("B", 1, 1, "A"), ("C", 1, 1, "A")],
    ),
    "two apart": (
        [_e("B", 65, 60, 70), _e("A", 85, 80, 90)],
        [("A", 1, 1, "A"), ("B", 2, 2, "B")],
    ),
    "touching ends overlap": (
        [_e("A", 75, 70, 80), _e("B", 65, 60, 70)],
        [("A", 1, 1, "A"), ("B", 1, 1, "A")],
    ),
    "three tied, then one apart: rank 4": (
        [_e("A", 90, 85, 95), _e("B", 89, 84, 94), _e("C", 88, 86, 92), _e("D", 50, 45, 55)],
        [("A", 1, 1, "A"), ("B", 1, 1, "A"), ("C", 1, 1, "A"), ("D", 2, 4, "D")],
    ),
    "a long chain of five": (
        [_e(n, 90 - 5 * k, 87 - 5 * k, 93 - 5 * k) for k, n in enumerate("ABCDE")],
        [(n, 1, 1, "A") for n in "ABCDE"],
    ),
    "a chain joined from below: C bridges A and B": (
        [_e("A", 90, 88, 92), _e("B", 80, 78, 82), _e("C", 85, 79, 89)],
        [("A", 1, 1, "A"), ("C", 1, 1, "A"), ("B", 1, 1, "A")],
    ),
    "equal scores by name": (
        [_e("b", 50, 40, 60), _e("a", 50, 40, 60)],
        [("a", 1, 1, "a"), ("b", 1, 1, "a")],
    ),
    "bands after a chain count every entry above": (
        [
            _e("A", 80, 75, 85),
            _e("B", 74, 70, 76),
            _e("C", 68, 66, 71),
            _e("D", 40, 35, 45),
            _e("E", 20, 15, 25),
        ],
        [("A", 1, 1, "A"), ("B", 1, 1, "A"), ("C", 1, 1, "A"), ("D", 2, 4, "D"), ("E", 3, 5, "E")],
    ),
}


@pytest.mark.parametrize(("entries", "expected"), CASES.values(), ids=CASES.keys())
def test_bands_are_the_connected_groups_of_the_overlap_relation(
    entries: list[Entry], expected: list[tuple[str, int, int, str]]
) -> None:
    assert [(b.entry.name, b.band, b.rank, b.leader) for b in overlap_bands(entries)] == expected


def _sweep_groups(entries: Sequence[Entry]) -> set[frozenset[str]]:
    """Independently: intervals sorted by their low ends merge while the next one starts within the reach so far
    (the connected groups of overlapping closed intervals)."""
    groups: list[tuple[float, set[str]]] = []
    for e in sorted(entries, key=lambda e: e.low):
        if groups and e.low <= groups[-1][0]:
            reach, names = groups[-1]
            names.add(e.name)
            groups[-1] = (max(reach, e.high), names)
        else:
            groups.append((e.high, {e.name}))
    return {frozenset(names) for _, names in groups}


@st.composite
def boards(draw: st.DrawFn) -> list[Entry]:
    n = draw(st.integers(0, 12))
    out = []
    for k in range(n):
        score = draw(st.integers(0, 100))
        below = draw(st.integers(0, 15))
        above = draw(st.integers(0, 15))
        out.append(Entry(f"E{k:02d}", float(score), float(score - below), float(score + above)))
    return out


@settings(max_examples=300, deadline=None)
@given(boards())
def test_the_bands_equal_an_independent_sweep_and_ranks_count_the_entries_above(entries: list[Entry]) -> None:
    banded = overlap_bands(entries)
    groups: dict[int, set[str]] = {}
    for b in banded:
        groups.setdefault(b.band, set()).add(b.entry.name)
    assert {frozenset(g) for g in groups.values()} == _sweep_groups(entries)
    assert sorted(b.entry.name for b in banded) == sorted(e.name for e in entries)
    # The board's order: band by band, best score first within a band; bands by their best score.
    assert [b.band for b in banded] == sorted(b.band for b in banded)
    for band, names in groups.items():
        members = [b for b in banded if b.band == band]
        above = sum(len(g) for k, g in groups.items() if k < band)
        assert {b.rank for b in members} == {above + 1}
        assert {b.leader for b in members} == {members[0].entry.name}
        assert [(-b.entry.score, b.entry.name) for b in members] == sorted(
            (-b.entry.score, b.entry.name) for b in members
        )
        assert len(names) == len(members)
    best = [next(b for b in banded if b.band == k).entry for k in sorted(groups)]
    assert [(-e.score, e.name) for e in best] == sorted((-e.score, e.name) for e in best)


def _distances(members: Sequence[Entry]) -> list[list[float]]:
    """Floyd-Warshall over the overlap relation: the fewest overlaps between each pair."""
    n = len(members)
    inf = float("inf")
    d = [
        [0.0 if i == j else 1.0 if overlap(members[i], members[j]) else inf for j in range(n)]
        for i in range(n)
    ]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                d[i][j] = min(d[i][j], d[i][k] + d[k][j])
    return d


def test_a_chain_names_its_ends_and_the_pairs_apart() -> None:
    a_b_c = [_e("A", 81.6, 77.9, 85.3), _e("B", 79.2, 74.4, 83.1), _e("C", 75.1, 70.6, 77.2)]
    found = chain(a_b_c)
    assert found is not None
    assert (found.path, found.links, found.apart, found.pairs) == (("A", "B", "C"), 2, 1, 3)
    # Each interval reaches only its neighbours': the band is a chain of four overlaps, six pairs apart.
    five = [_e(n, 90 - 5 * k, 87 - 5 * k, 93 - 5 * k) for k, n in enumerate("ABCDE")]
    found = chain(five)
    assert found is not None
    assert (found.path, found.links, found.apart, found.pairs) == (tuple("ABCDE"), 4, 6, 10)
    assert chain([_e("A", 90, 85, 95), _e("B", 89, 84, 94), _e("C", 88, 86, 92)]) is None
    assert chain([_e("A", 50, 40, 60)]) is None


@settings(max_examples=200, deadline=None)
@given(boards())
def test_each_bands_chain_is_a_longest_shortest_path_of_overlaps(entries: list[Entry]) -> None:
    banded = overlap_bands(entries)
    for band in {b.band for b in banded}:
        members = [b.entry for b in banded if b.band == band]
        d = _distances(members)
        found = chain(members)
        longest = max(max(row) for row in d)
        if longest <= 1:
            assert found is None
            continue
        assert found is not None
        by_name = {m.name: m for m in members}
        steps = [by_name[n] for n in found.path]
        assert all(overlap(x, y) for x, y in itertools.pairwise(steps))
        assert found.links == longest
        assert not overlap(steps[0], steps[-1])
        n = len(members)
        assert found.pairs == n * (n - 1) // 2
        assert found.apart == sum(1 for i in range(n) for j in range(i + 1, n) if d[i][j] > 1)


# --- the rule as the pages state it, in both editions --------------------------------------------------------


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    """Every page of both editions, the board from a results folder with no entrants (its pages are not asked)."""
    folder = tmp_path_factory.mktemp("no-records")
    (folder / "entrants.yaml").write_text("entrants: []\n", encoding="utf-8")
    return render_all(Layout(), results=folder)


def _flat(text: str) -> str:
    return " ".join(text.split())


# The shipped example (site.yaml's rank_band_example) is a chain: A overlaps B, B overlaps C, A and C are apart.
EXAMPLE = {
    "en": (
        "any pair of entries whose 95% intervals overlap share a band, and so does everything chained to them.",
        "| System A | 81.6 | 77.9–85.3 | 1 | 1 | | System B | 79.2 | 74.4–83.1 | 1 | 1 | "
        "| System C | 75.1 | 70.6–77.2 | 1 | 1 |",
        "This band is a chain of 2 overlaps: System A (77.9–85.3) – System B (74.4–83.1) – System C (70.6–77.2), "
        "each overlapping the next. System A and System C do not overlap each other (pairs apart in this "
        "band: 1 of 3), yet both share band 1 through System B, so all are tied at rank 1.",
    ),
    "zh": (
        "凡 95% 置信區間互相重疊的參賽項目，都同屬一組；凡經重疊與它們一環扣一環相連的項目，也同屬這一組。",
        "| System A | 81.6 | 77.9–85.3 | 1 | 1 | | System B | 79.2 | 74.4–83.1 | 1 | 1 | "
        "| System C | 75.1 | 70.6–77.2 | 1 | 1 |",
        "這一組由 2 個重疊連成一條鏈：System A（77.9–85.3） – System B（74.4–83.1） – System C（70.6–77.2），"
        "相鄰的都互相重疊。System A 與 System C 本身並不重疊（組內 3 對之中有 1 對不重疊），但經 System B 相連，"
        "同屬第 1 組，全部並列第 1 名。",
    ),
}
GUIDE = {
    "en": "Any pair of entries whose 95% intervals overlap share a rank band and are reported as tied, and so does "
    "everything chained to them: if A overlaps B and B overlaps C, then A, B and C are all tied.",
    "zh": "凡 95% 置信區間互相重疊的參賽項目，都同屬一個名次組，列作並列；凡經重疊與它們一環扣一環相連的項目，"
    "也同屬這一組：甲與乙重疊、乙與丙重疊，甲、乙、丙便並列。",
}


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_the_methodology_and_the_guide_state_the_rule_and_its_chain_example(
    pages: Rendered, edition: str
) -> None:
    shown = pages.pages if edition == "en" else pages.zh_pages
    methodology, guide = _flat(shown["methodology.md"]), _flat(shown["index.md"])
    rule, table, example = EXAMPLE[edition]
    assert rule in methodology.replace("**", "")
    assert table in methodology and example in methodology
    assert GUIDE[edition] in guide
    # The old leader-only wording is gone from both pages.
    for old in ("anchor", "can be ranked apart", "can share a rank", "組內第一名", "第一名的區間"):
        assert old not in methodology and old not in guide


def test_the_examples_bands_are_the_boards_rule_on_the_configs_entries() -> None:
    config = load_config(REPO / "platform_config")
    d = derive(config)
    expected = overlap_bands([Entry(e.name, e.score, e.low, e.high) for e in config.site.rank_band_example])
    assert [(str(r.name), r.band.value, r.rank.value) for r in d.band_example] == [
        (b.entry.name, b.band, b.rank) for b in expected
    ]
    assert d.band_chain is not None
    assert [str(r.name) for r in d.band_chain.path] == ["System A", "System B", "System C"]


def test_an_example_without_a_chain_states_none_and_ranks_the_entry_apart(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    path = layout.config / "site.yaml"
    # B's interval narrowed to miss C's: A and B overlap, C stands apart.
    path.write_text(
        path.read_text(encoding="utf-8").replace("low: 74.4, high: 83.1", "low: 78.5, high: 81"),
        encoding="utf-8",
    )
    d = derive(load_config(layout.config))
    assert [(str(r.name), r.band.value, r.rank.value) for r in d.band_example] == [
        ("System A", 1, 1),
        ("System B", 1, 1),
        ("System C", 2, 3),
    ]
    assert d.band_chain is None
