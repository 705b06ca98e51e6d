"""The board's fast per-resample statistics give the very floats of the plain statistics (the reference):
compared bit for bit on generated record sets, over resamples from ``cvb_scorer.stats.draws``."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import pytest
from cvb_scorer import stats
from cvb_scorer.rules import ScoringRules, rules_from_json
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.config import load_config
from generator.results import aggregate, fast
from generator.results.records import E2eClip, Record, RunRecord, TtsClip
from generator.rules_export import scoring_rules_json
from tests.generator.conftest import REPO

RULES = rules_from_json(scoring_rules_json(load_config(REPO / "platform_config")))


def _bits(values: Sequence[float]) -> list[str]:
    # float.hex tells 0.0 from -0.0 and every last bit apart: "identical", not "close".
    return [float(v).hex() for v in values]


def _with_e2e(rules: ScoringRules, **changes: Any) -> ScoringRules:
    e2e = rules.pillar("e2e")
    assert e2e.latency is not None
    latency = dataclasses.replace(e2e.latency, **changes.pop("latency", {}))
    pillars = {**rules.pillars, "e2e": dataclasses.replace(e2e, latency=latency, **changes)}
    return dataclasses.replace(rules, pillars=pillars)


# Latencies from a small set as well as anywhere, so resamples hold ties and the percentile lands on them.
latency = st.one_of(
    st.sampled_from([0.0, 250.0, 300.0, 301.5, 999.0, 2000.0, 2500.0]),
    st.integers(0, 4000).map(float),
    st.floats(0, 5000, allow_nan=False, allow_infinity=False),
)


@st.composite
def e2e_clips(draw: st.DrawFn, *, rated: bool) -> list[E2eClip]:
    n = draw(st.integers(1, 9))
    clips = []
    for k in range(n):
        tried = draw(st.integers(1, 6))
        clips.append(
            E2eClip(
                id=f"c{k}",
                latencies_ms=draw(st.lists(latency, min_size=1, max_size=5)),
                yield_ms=draw(st.lists(latency, min_size=1, max_size=3)),
                turns_completed=draw(st.integers(0, tried)),
                turns_attempted=tried,
                naturalness_rating=draw(st.floats(RULES.rating_min, RULES.rating_max)) if rated else None,
            )
        )
    return clips


def _draws(n: int, resamples: int, seed: int) -> list[list[int]]:
    return list(stats.draws(n, resamples=resamples, seed=seed))


@settings(max_examples=150, deadline=None)
@given(
    clips=st.booleans().flatmap(lambda rated: e2e_clips(rated=rated)),
    resamples=st.integers(1, 40),
    seed=st.integers(0, 2**32),
    percentile=st.sampled_from([95.0, 0.0, 50.0, 90.0, 99.0, 100.0, 37.5]),
)
def test_the_fast_conversation_statistic_equals_the_plain_one_bit_for_bit(
    clips: list[E2eClip], resamples: int, seed: int, percentile: float
) -> None:
    rules = _with_e2e(RULES, latency={"percentile": percentile})
    draws = _draws(len(clips), resamples, seed)
    got = fast.e2e_samples(clips, draws, fast.clip_counts(draws, len(clips)), rules=rules)
    stat = aggregate.e2e_statistic(clips, rules, True)
    assert got is not None
    assert _bits(got) == _bits([stat(idx).score for idx in draws])


tts_value = st.one_of(
    st.integers(0, 1000).map(lambda v: v / 10),  # as records carry them: one decimal
    st.floats(0, 100, allow_nan=False),
    st.sampled_from([0.0, 100.0, 5e-324, 99.99999999999999]),
)


@settings(max_examples=150, deadline=None)
@given(
    values=st.lists(st.tuples(tts_value, tts_value, st.integers(0, 2)), min_size=1, max_size=12),
    resamples=st.integers(1, 40),
    seed=st.integers(0, 2**32),
)
def test_the_fast_speech_statistic_equals_the_plain_one_bit_for_bit(
    values: list[tuple[float, float, int]], resamples: int, seed: int
) -> None:
    # tones_recovered is often 0 in a resample here, so the no-tone cap is exercised both ways.
    clips = [
        TtsClip(id=f"c{k}", delivery=d, tone_survival=t, tones_recovered=tones)
        for k, (d, t, tones) in enumerate(values)
    ]
    draws = _draws(len(clips), resamples, seed)
    got = fast.tts_samples(clips, draws, rules=RULES)
    stat = aggregate.tts_statistic(clips, RULES, True)
    assert got is not None
    assert _bits(got) == _bits([stat(idx).score for idx in draws])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1e300, allow_nan=False, allow_infinity=False), min_size=1, max_size=30))
def test_a_fixed_point_sum_divided_once_is_what_fsum_gives(values: list[float]) -> None:
    fixed = fast.fixed_point(values)
    assert fixed is not None
    ints, shift = fixed
    assert (sum(ints) / (1 << shift)).hex() == math.fsum(values).hex()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"yield_ms": []}, "a machine-measured clip without an interruption"),
        ({"latencies_ms": []}, "a clip without a latency"),
        ({"turns_completed": 5, "turns_attempted": 4}, "more turns completed than attempted"),
    ],
)
def test_the_fast_route_declines_what_only_the_reference_can_explain(
    change: dict[str, Any], why: str
) -> None:
    good = {"latencies_ms": [400.0], "yield_ms": [100.0], "turns_completed": 4, "turns_attempted": 4}
    clips = [E2eClip(id="a", **good), E2eClip.model_construct(id="b", **{**good, **change})]
    draws = _draws(2, 5, 1)
    assert fast.e2e_samples(clips, draws, fast.clip_counts(draws, 2), rules=RULES) is None, why


def test_a_negative_or_infinite_value_has_no_fixed_point() -> None:
    assert fast.fixed_point([1.0, -0.5]) is None
    assert fast.fixed_point([1.0, math.inf]) is None
    assert fast.fixed_point([]) == ([], 0)


def test_the_board_takes_the_fast_route_and_its_figures_equal_the_plain_ones() -> None:
    """Through ``pillar_result`` with fewer resamples: the samples (so the interval) match the reference."""
    rules = dataclasses.replace(RULES, bootstrap=dataclasses.replace(RULES.bootstrap, resamples=300))
    records = []
    for run, lat in ((1, [420.0, 1800.0, 650.0]), (2, [300.0, 2100.0])):
        clips = [
            {
                "id": f"c{k}",
                "latencies_ms": [v, v / 2],
                "yield_ms": [k * 200.0],
                "turns_completed": 3,
                "turns_attempted": 4,
            }
            for k, v in enumerate(lat)
        ]
        ids = [c["id"] for c in clips]
        run_record = RunRecord.model_validate(
            {
                "entrant": "a",
                "round": "r",
                "pillar": "e2e",
                "run": run,
                "scoring_version": "v",
                "final": True,
                "draw": {"seed": "s", "clips": ids},
                "clips": [],
            }
        ).model_copy(update={"clips": [E2eClip.model_validate(c) for c in clips]})
        records.append(Record(f"{run}.json", run_record))
    result = aggregate.pillar_result(records, rules=rules, version="v")
    clips_in_order = [c for r in records for c in sorted(r.run.clips, key=lambda c: c.id)]
    assert all(isinstance(c, E2eClip) for c in clips_in_order)
    stat = aggregate.e2e_statistic([c for c in clips_in_order if isinstance(c, E2eClip)], rules, True)
    plain = [stat(idx).score for idx in _draws(len(clips_in_order), 300, rules.bootstrap.seed)]
    assert _bits(result.samples) == _bits(plain)
    assert len(set(plain)) > 1  # the resamples differ, so equal lists say something
