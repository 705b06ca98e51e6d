"""The paired view beside the bands (generator.results.paired): on the clips both neighbours scored, the share of
the published resamples, the same clips for both, in which each is better. Checked against an independent numpy
computation from the records' JSON, shown as a diagnostic beside a shared band in both editions."""

from __future__ import annotations

from typing import Any

import numpy as np
from cvb_scorer import scores, stats

from generator.results.paired import Paired, PillarClips, matched, paired
from generator.results.records import LlmClip
from tests.generator.test_board import _board, _config, _e, _model, _record, say


def _numpy_shares(
    upper: dict[str, Any], lower: dict[str, Any], pillar: str, version: str
) -> tuple[int, float, float]:
    """Independently: match the two records' clips by id, draw the published resamples of that many clips, and
    compare each resample's statistic with numpy."""
    _, rules = _config()
    boot = rules.bootstrap
    a = {c["id"]: c for c in upper["clips"]}
    b = {c["id"]: c for c in lower["clips"]}
    common = sorted(set(a) & set(b))
    idx = np.array(list(stats.draws(len(common), resamples=boot.resamples, seed=boot.seed)))
    if pillar == "llm":
        va = np.array([a[c]["score"] for c in common])[idx].mean(axis=1)
        vb = np.array([b[c]["score"] for c in common])[idx].mean(axis=1)
    else:

        def score(side: dict[str, Any]) -> np.ndarray:
            errors = np.array([side[c]["S"] + side[c]["D"] + side[c]["I"] for c in common])[idx].sum(axis=1)
            totals = np.array([side[c]["N"] for c in common])[idx].sum(axis=1)
            rate = errors / totals
            return np.array([scores.error_rate_score(r, rules=rules, scoring_version=version) for r in rate])

        va, vb = score(a), score(b)
    return len(common), float((va > vb).mean()), float((va < vb).mean())


def test_the_paired_shares_equal_an_independent_numpy_computation() -> None:
    config, rules = _config()
    records = [
        _record("a", "llm", [60.0, 100.0, 71.0]),
        _record("b", "llm", [56.0, 95.0, 72.0]),
        _record("a", "asr", [(3, 40), (9, 35), (0, 20)]),
        _record("b", "asr", [(4, 40), (8, 35), (2, 20)]),
    ]
    model = _model(records, [_e("a"), _e("b")], config, rules)
    for pillar, (upper, lower) in (("llm", (0, 1)), ("asr", (2, 3))):
        board = _board(model, pillar)
        (view,) = [p for f in board.bands for p in f.paired]
        first = str(board.rows[0].name)
        up, low = (records[upper], records[lower]) if first == "Code A" else (records[lower], records[upper])
        clips, better, worse = _numpy_shares(up, low, pillar, "2026-1")
        assert (view.clips.value, view.upper_better.value, view.lower_better.value) == (clips, better, worse)
        assert 0 < clips < 30  # the draws differ: only the clips both scored are compared
        assert str(view.upper) == first


def _numpy_pillar(side: dict[str, Any], common: list[str], idx: np.ndarray, pillar: str) -> np.ndarray:
    """One entrant's statistic on each resample of the matched clips, recomputed with numpy and the scorer's
    score formulas."""
    _, rules = _config()
    if pillar == "llm":
        means: np.ndarray = np.array([side[c]["score"] for c in common])[idx].mean(axis=1)
        return means
    if pillar == "asr":
        errors = np.array([side[c]["S"] + side[c]["D"] + side[c]["I"] for c in common])[idx].sum(axis=1)
        totals = np.array([side[c]["N"] for c in common])[idx].sum(axis=1)
        return np.array(
            [scores.error_rate_score(r, rules=rules, scoring_version="2026-1") for r in errors / totals]
        )
    delivery = np.array([side[c]["delivery"] for c in common])[idx].mean(axis=1)
    tone = np.array([side[c]["tone_survival"] for c in common])[idx].mean(axis=1)
    tones = np.array([side[c]["tones_recovered"] for c in common])[idx].sum(axis=1)
    return np.array(
        [
            scores.tts_score(delivery=d, tone_survival=t, tones_recovered=int(k), rules=rules).score
            for d, t, k in zip(delivery, tone, tones, strict=True)
        ]
    )


def test_the_core_scores_paired_shares_equal_a_numpy_weighting_of_its_pillars() -> None:
    config, rules = _config()
    core = sorted(p for p, pillar in config.scoring.pillars.items() if pillar.core)
    values: dict[str, tuple[list[Any], list[Any]]] = {"asr": ([(3, 40), (9, 35)], [(4, 40), (8, 35)]),
              "llm": ([60.0, 90.0], [62.0, 85.0]), "tts": ([70.0, 90.0], [72.0, 86.0])}  # fmt: skip
    records = {(e, p): _record(e, p, values[p][k]) for p in core for k, e in enumerate("ab")}
    model = _model(list(records.values()), [_e("a"), _e("b")], config, rules)
    board = _board(model, "core")
    (view,) = [p for f in board.bands for p in f.paired]
    upper, lower = ("a", "b") if str(board.rows[0].name) == "Code A" else ("b", "a")
    boot = rules.bootstrap
    weights = np.array([config.scoring.pillars[p].weight for p in core])
    combined = {}
    matched_clips = 0
    for who in (upper, lower):
        columns = []
        for p in core:
            mine = {c["id"]: c for c in records[(who, p)]["clips"]}
            other = {c["id"]: c for c in records[("b" if who == "a" else "a", p)]["clips"]}
            common = sorted(set(mine) & set(other))
            matched_clips += len(common) if who == upper else 0
            idx = np.array(list(stats.draws(len(common), resamples=boot.resamples, seed=boot.seed)))
            columns.append(_numpy_pillar(mine, common, idx, p))
        combined[who] = (weights[:, None] * np.array(columns)).sum(axis=0) / weights.sum()
    better = float((combined[upper] > combined[lower]).mean())
    worse = float((combined[upper] < combined[lower]).mean())
    assert view.clips.value == matched_clips
    # numpy sums in another order than math.fsum: a resample within a rounding error of a tie may fall either way.
    assert abs(view.upper_better.value - better) <= 2 / boot.resamples
    assert abs(view.lower_better.value - worse) <= 2 / boot.resamples
    assert 0 < better < 1


def test_a_shared_band_can_hide_a_clear_paired_difference_and_both_editions_say_so() -> None:
    config, rules = _config()
    a = _record("a", "llm", [40.0, 100.0, 55.0, 85.0])
    # B scored the very clips A did, each three points lower: the intervals overlap, the pairs never favour B.
    b = {**a, "entrant": "b", "clips": [{**c, "score": c["score"] - 3.0} for c in a["clips"]]}
    model = _model([a, b], [_e("a"), _e("b")], config, rules)
    (band,) = _board(model, "llm").bands
    (view,) = band.paired
    assert band.rank.value == 1 and len(band.members) == 1
    assert (view.clips.value, view.upper_better.value, view.lower_better.value) == (30, 1.0, 0.0)
    assert str(say(model, config, "en").paired_sentence(view)) == (
        "Paired view (a diagnostic, not a rank): on the 30 clips both scored, Code A was better than Code B in "
        "100% of the paired resamples, and Code B better in 0%."
    )
    assert str(say(model, config, "zh").paired_sentence(view)) == (
        "配對比較（只作參考，不影響名次）：在雙方都有計分的 30 段錄音上，Code A 在 100% 的配對重抽樣中勝過 "
        "Code B，Code B 則在 0% 中較佳。"
    )


def test_neighbours_without_a_clip_in_common_have_no_paired_view() -> None:
    _, rules = _config()
    one = {"llm": PillarClips((LlmClip(id="x", score=50.0),), True)}
    other = {"llm": PillarClips((LlmClip(id="y", score=40.0),), True)}
    assert paired(one, other, ["llm"], rules=rules, version="2026-1") is None
    same = paired(one, one, ["llm"], rules=rules, version="2026-1")
    assert same == Paired(1, 0.0, 0.0)  # identical clips: every resample a tie


def test_clips_scored_in_several_runs_pair_as_often_as_both_scored_them() -> None:
    x1, x2, y = LlmClip(id="x", score=1.0), LlmClip(id="x", score=2.0), LlmClip(id="y", score=3.0)
    left, right = matched([x1, x2, y], [x1, y])
    assert left == [x1, y] and right == [x1, y]
