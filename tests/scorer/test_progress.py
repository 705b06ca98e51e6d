"""Progress of a long run (``cvb_scorer.progress``): what the callback hears, and that hearing it changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cvb_scorer.cli import main
from cvb_scorer.progress import Phase, Progress, counted, throttled
from cvb_scorer.report import report_json, score_jsonl, scored_json
from cvb_scorer.rules import load_packaged_rules
from cvb_scorer.stats import Route, bootstrap_rates, resample_sums
from hypothesis import given, settings
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
    # Every resample is told once, in order, on either route: a listener cannot tell the routes apart.
    assert heard == [("bootstrap", done, 300) for done in range(1, 301)]


@pytest.mark.parametrize("route", [Route.PURE, Route.NUMPY])
def test_resample_sums_count_every_resample_on_each_route(route: Route) -> None:
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    heard, progress = listener()
    sums = resample_sums(values, resamples=50, seed=2, route=route, progress=progress)
    assert sums == resample_sums(values, resamples=50, seed=2, route=route)
    assert heard == [("bootstrap", done, 50) for done in range(1, 51)]


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


# The report before its intervals (``scored``): what the editor's file mode shows while the bootstrap runs.
INTERVAL_KEYS = {"ci95", "interval", "signature"}


def test_the_scored_report_comes_once_between_the_clips_and_the_bootstrap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text(
        "".join(
            json.dumps({"id": f"c{k:02d}", "text": f"第{k}張保單 premium {k * 7}"}) + "\n" for k in range(40)
        ),
        encoding="utf-8",
    )
    hyp.write_text(
        "".join(
            json.dumps({"id": f"c{k:02d}", "text": f"第{k}张保单 premier {k * 7}"}) + "\n"
            for k in range(0, 40, 3)
        ),
        encoding="utf-8",
    )
    assert main([str(ref), str(hyp), "--json"]) == 0
    quiet = capsys.readouterr().out
    heard: list[object] = []
    _, progress = listener()

    def tell(phase: Phase, done: int, total: int) -> None:
        heard.append(phase)
        progress(phase, done, total)

    assert main([str(ref), str(hyp), "--json"], progress=tell, scored=heard.append) == 0
    assert capsys.readouterr().out == quiet
    scored = [item for item in heard if item not in ("clips", "bootstrap", "report")]
    assert len(scored) == 1
    at = heard.index(scored[0])
    assert set(heard[:at]) == {"clips"} and heard[at + 1] == "bootstrap"
    final = json.loads(quiet)
    assert final.keys() >= INTERVAL_KEYS
    assert json.loads(str(scored[0])) == {k: v for k, v in final.items() if k not in INTERVAL_KEYS}


def test_input_that_does_not_score_gets_no_scored_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "text": "好"}\n', encoding="utf-8")
    hyp.write_text('{"id": "b", "text": "好"}\n', encoding="utf-8")
    heard: list[str] = []
    assert main([str(ref), str(hyp), "--json"], scored=heard.append) == 2
    assert heard == []
    assert "not in" in capsys.readouterr().err


PIECES = st.sampled_from(["保單", "保单", "premium", "Wi-Fi", "九八七", "9876", "，", " ", "呀", "ok"])


# Each example runs the whole bootstrap (10,000 resamples); the first also loads the rules and the converter.
@settings(deadline=None, max_examples=40)
@given(
    st.lists(PIECES, max_size=6),
    st.lists(st.tuples(st.lists(PIECES, max_size=6), st.none() | st.lists(PIECES, max_size=6)), max_size=5),
)
def test_the_scored_report_is_the_report_without_its_intervals(
    first: list[str], pairs: list[tuple[list[str], list[str] | None]]
) -> None:
    pairs = [(first, first[::-1]), *pairs]  # a hypothesis file needs one line at least
    rules = load_packaged_rules()
    ref = "".join(json.dumps({"id": f"c{k}", "text": "".join(r)}) + "\n" for k, (r, _) in enumerate(pairs))
    hyp = "".join(
        json.dumps({"id": f"c{k}", "text": "".join(h)}) + "\n"
        for k, (_, h) in enumerate(pairs)
        if h is not None
    )
    seen: list[str] = []
    report = score_jsonl(
        ref, hyp, rules=rules, ref_name="r", hyp_name="h", scored=lambda c, m: seen.append(scored_json(c, m))
    )
    final = json.loads(report_json(report))
    assert [json.loads(s) for s in seen] == [{k: v for k, v in final.items() if k not in INTERVAL_KEYS}]
