"""Progress of a long run (``cvb_scorer.progress``): what the callback hears, and that hearing it changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cvb_scorer.cli import main
from cvb_scorer.progress import Phase, Progress, counted, throttled
from cvb_scorer.stats import Route, bootstrap_rates, resample_sums
from hypothesis import given
from hypothesis import strategies as st

Heard = list[tuple[str, int, int]]


def listener() -> tuple[Heard, Progress]:
    heard: Heard = []

    def progress(phase: Phase, done: int, total: int) -> None:
        heard.append((phase, done, total))

    return heard, progress


@pytest.mark.parametrize(
    ("calls", "told"),
    [
        # Each whole percent once: 3 of 300 is still 1%, so only its first call gets through.
        ([("clips", k, 300) for k in range(1, 7)], [("clips", 1, 300), ("clips", 3, 300), ("clips", 6, 300)]),
        # The last call of a phase always gets through (100%), and so does a new phase at the same percent.
        ([("clips", 2, 2), ("bootstrap", 2, 2)], [("clips", 2, 2), ("bootstrap", 2, 2)]),
        # A phase with nothing to count says so once.
        ([("report", 0, 0), ("report", 0, 0)], [("report", 0, 0)]),
    ],
)
def test_throttled_tells_each_phase_and_whole_percent_once(
    calls: list[tuple[Phase, int, int]], told: list[tuple[str, int, int]]
) -> None:
    heard, progress = listener()
    tell = throttled(progress)
    for call in calls:
        tell(*call)
    assert heard == told


@given(st.integers(min_value=1, max_value=5000))
def test_throttled_tells_at_most_101_times_and_always_the_end(total: int) -> None:
    heard, progress = listener()
    tell = throttled(progress)
    for done in range(1, total + 1):
        tell("clips", done, total)
    assert len(heard) <= 101
    assert heard[-1] == ("clips", total, total)
    assert [done for _, done, _ in heard] == sorted({done for _, done, _ in heard})


def test_counted_without_a_listener_is_the_items_themselves() -> None:
    items = [1, 2, 3]
    assert counted(items, phase="clips", total=3, progress=None) is items


def test_counted_tells_each_item_as_it_is_taken() -> None:
    heard, progress = listener()
    out = []
    for item in counted("abc", phase="report", total=3, progress=progress):
        out.append((item, len(heard)))
    assert out == [("a", 1), ("b", 2), ("c", 3)]
    assert heard == [("report", 1, 3), ("report", 2, 3), ("report", 3, 3)]


@pytest.mark.parametrize("route", [Route.PURE, Route.NUMPY])
def test_bootstrap_counts_every_resample_and_gives_the_same_interval(route: Route) -> None:
    errors = [[k % 7 for k in range(40)], [k % 5 for k in range(40)]]
    totals = [[10 + k % 3 for k in range(40)], [9 + k % 4 for k in range(40)]]
    heard, progress = listener()
    told = bootstrap_rates(
        errors, totals, resamples=300, seed=11, interval=0.9, route=route, progress=progress
    )
    assert told == bootstrap_rates(errors, totals, resamples=300, seed=11, interval=0.9, route=route)
    assert {phase for phase, _, _ in heard} == {"bootstrap"}
    assert heard[-1] == ("bootstrap", 300, 300)
    assert [done for _, done, _ in heard] == sorted(done for _, done, _ in heard)


@pytest.mark.parametrize("route", [Route.PURE, Route.NUMPY])
def test_resample_sums_count_every_resample_on_each_route(route: Route) -> None:
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    heard, progress = listener()
    sums = resample_sums(values, resamples=50, seed=2, route=route, progress=progress)
    assert sums == resample_sums(values, resamples=50, seed=2, route=route)
    assert heard[-1] == ("bootstrap", 50, 50)


def test_the_command_tells_its_phases_in_order_and_prints_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clips = 250
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text(
        "".join(json.dumps({"id": f"c{k:03d}", "text": "我哋今日去九龍塘食飯"}) + "\n" for k in range(clips)),
        encoding="utf-8",
    )
    hyp.write_text(
        "".join(
            json.dumps({"id": f"c{k:03d}", "text": "我地今日去九龍食飯"}) + "\n" for k in range(0, clips, 2)
        ),
        encoding="utf-8",
    )
    assert main([str(ref), str(hyp), "--json"]) == 0
    quiet = capsys.readouterr().out
    heard, progress = listener()
    assert main([str(ref), str(hyp), "--json"], progress=progress) == 0
    assert capsys.readouterr().out == quiet
    phases = [phase for phase, _, _ in heard]
    assert phases == sorted(phases, key=["clips", "bootstrap", "report"].index)
    for phase in ("clips", "bootstrap", "report"):
        mine = [(done, total) for p, done, total in heard if p == phase]
        assert 1 <= len(mine) <= 101, phase
        assert mine[-1][0] == mine[-1][1], phase
    assert ("clips", clips, clips) in heard and ("report", clips, clips) in heard


def test_a_failing_run_tells_only_what_it_reached(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "text": "好"}\n', encoding="utf-8")
    hyp.write_text('{"id": "a", "text": 1}\n', encoding="utf-8")
    heard, progress = listener()
    assert main([str(ref), str(hyp), "--json"], progress=progress) == 2
    assert heard == []
    assert "line 1" in capsys.readouterr().err
