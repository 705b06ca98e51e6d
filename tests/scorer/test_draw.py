"""The seeded stratified draw: exact strata, the stated (non-)rounding rule, clear refusals, reproducibility on
CPython and in Pyodide, and the exposure figure against a simulation."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from cvb_scorer.draw import (
    DrawError,
    PoolClip,
    draw,
    draw_reference,
    draw_text,
    expected_exposure,
    parse_pool,
    seed_integer,
    stratum_counts,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scorer.test_pyodide_parity import PYODIDE, WHEELS, _node, _skip_reason

HERE = Path(__file__).resolve().parent
STRATA = {"easy": "0.2", "normal": "0.4", "hard": "0.4"}


def _pool(easy: int = 12, normal: int = 22, hard: int = 22) -> list[PoolClip]:
    sizes = {"easy": easy, "normal": normal, "hard": hard}
    return [PoolClip(f"{tier}-{k:03d}", tier) for tier, n in sizes.items() for k in range(n)]


@pytest.mark.parametrize(
    ("size", "strata", "expected"),
    [
        (30, STRATA, {"easy": 6, "normal": 12, "hard": 12}),
        (30, {"easy": 0.2, "normal": 0.4, "hard": 0.4}, {"easy": 6, "normal": 12, "hard": 12}),
        (10, {"easy": "0.5", "hard": "0.5"}, {"easy": 5, "hard": 5}),
        (7, {"all": 1}, {"all": 7}),
    ],
)
def test_stratum_counts_are_exact_shares(
    size: int, strata: dict[str, object], expected: dict[str, int]
) -> None:
    assert stratum_counts(size, strata) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("size", "strata", "words"),
    [
        (30, {"easy": "0.25", "normal": "0.35", "hard": "0.4"}, "7.5 clips; fractions are not rounded"),
        (30, {"easy": "0.2", "normal": "0.4"}, "give 18 clips"),
        (30, {"easy": "1.5"}, "between 0 and 1"),
        (0, STRATA, "at least one clip"),
    ],
)
def test_strata_that_need_rounding_or_do_not_add_up_are_refused(
    size: int, strata: dict[str, str], words: str
) -> None:
    with pytest.raises(DrawError, match=words):
        stratum_counts(size, strata)


def test_a_pool_too_small_for_a_stratum_is_refused_with_the_tier_and_counts() -> None:
    with pytest.raises(DrawError, match="The pool has 5 easy clip\\(s\\), but a draw takes 6"):
        draw(_pool(easy=5), size=30, strata=STRATA, seed="s")


def test_a_clip_in_an_unknown_tier_is_refused() -> None:
    with pytest.raises(DrawError, match="tier 'brutal', which the draw's strata do not name"):
        draw([*_pool(), PoolClip("x", "brutal")], size=30, strata=STRATA, seed="s")
    with pytest.raises(DrawError, match="line 2 puts clip 'b' in tier 'brutal'"):
        parse_pool(
            '{"id": "a", "tier": "easy"}\n{"id": "b", "tier": "brutal"}\n',
            name="pool.jsonl",
            tiers=list(STRATA),
        )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json\n", "line 1 is not valid JSON"),
        ('{"id": 3, "tier": "easy"}\n', 'line 1 must be an object with a string "id"'),
        ('{"id": "a", "tier": "easy"}\n{"id": "a", "tier": "hard"}\n', "line 2 repeats clip 'a' from line 1"),
    ],
)
def test_bad_pool_lines_are_refused_by_line(text: str, words: str) -> None:
    with pytest.raises(DrawError, match=words):
        parse_pool(text, name="pool.jsonl")


def test_the_draw_respects_the_strata_exactly_for_many_seeds() -> None:
    pool = _pool()
    for k in range(200):
        result = draw(pool, size=30, strata=STRATA, seed=f"seed-{k}", window="w")
        tiers = [c.tier for c in result.clips]
        assert (tiers.count("easy"), tiers.count("normal"), tiers.count("hard")) == (6, 12, 12)
        assert len(set(result.ids)) == 30


def test_the_draw_does_not_depend_on_the_pool_files_order() -> None:
    pool = _pool()
    assert draw(pool, size=30, strata=STRATA, seed="a", window="w") == draw(
        list(reversed(pool)), size=30, strata=STRATA, seed="a", window="w"
    )


def test_seed_and_window_both_change_the_draw() -> None:
    pool = _pool()
    base = draw(pool, size=30, strata=STRATA, seed="a", window="w1").ids
    assert draw(pool, size=30, strata=STRATA, seed="a", window="w2").ids != base
    assert draw(pool, size=30, strata=STRATA, seed="b", window="w1").ids != base


@settings(max_examples=60, deadline=None)
@given(seed=st.text(max_size=20), window=st.one_of(st.none(), st.text(max_size=10)), extra=st.integers(0, 30))
def test_the_fast_draw_equals_the_plain_reference(seed: str, window: str | None, extra: int) -> None:
    pool = _pool(easy=6 + extra, normal=12 + extra // 2, hard=12 + extra // 3)
    assert draw(pool, size=30, strata=STRATA, seed=seed, window=window) == draw_reference(
        pool, size=30, strata=STRATA, seed=seed, window=window
    )


def test_the_seed_construction_is_sha256_of_the_documented_text() -> None:
    import hashlib

    digest = hashlib.sha256(b"cvb-draw\x00abc\x00w").digest()
    assert seed_integer("abc", "w") == int.from_bytes(digest, "big")
    assert seed_integer("abc", None) == seed_integer("abc", "")


def test_the_draw_is_the_same_in_a_fresh_process() -> None:
    """hash() of a str is salted per process; a draw that used it would differ here."""
    script = (
        "from cvb_scorer.draw import PoolClip, draw\n"
        "pool=[PoolClip(f'{t}-{k:03d}', t) for t, n in (('easy',12),('normal',22),('hard',22)) for k in range(n)]\n"
        "print(','.join(draw(pool, size=30, strata={'easy':'0.2','normal':'0.4','hard':'0.4'}, seed='x', window='w').ids))\n"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": h},
        ).stdout
        for h in ("1", "2", "random")
    }
    assert len(outs) == 1
    assert outs.pop().strip() == ",".join(draw(_pool(), size=30, strata=STRATA, seed="x", window="w").ids)


def test_cli_text_lists_every_clip_with_its_tier() -> None:
    result = draw(_pool(), size=30, strata=STRATA, seed="x", window="w")
    text = draw_text(result)
    assert text.splitlines()[0] == "Draw for seed x, window w: 30 clips (6 easy, 12 hard, 12 normal)."
    assert len(text.splitlines()) == 31
    assert json.loads(result.to_json())["clips"][0] == {
        "id": result.clips[0].id,
        "tier": result.clips[0].tier,
    }


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_the_draw_is_identical_in_pyodide(tmp_path: Path) -> None:
    seeds = [("seed-" + str(k), None if k % 3 == 0 else f"window-{k}") for k in range(40)] + [("粵語", "窗")]
    script = tmp_path / "draw.py"
    script.write_text(
        "import json\n"
        "from cvb_scorer.draw import PoolClip, draw, expected_exposure\n"
        "pool=[PoolClip(f'{t}-{k:03d}', t) for t, n in (('easy',12),('normal',22),('hard',22)) for k in range(n)]\n"
        "strata={'easy':'0.2','normal':'0.4','hard':'0.4'}\n"
        f"seeds={seeds!r}\n"
        "result=json.dumps({'draws':[list(draw(pool,size=30,strata=strata,seed=s,window=w).ids) for s,w in seeds],"
        "'exposure':expected_exposure(size=30,strata=strata,runs=3,pool_size=56).share})\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    run = subprocess.run(
        [str(_node()), str(HERE / "pyodide_eval.mjs"), str(PYODIDE), str(WHEELS), str(script), str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(out.read_text(encoding="utf-8"))
    pool = _pool()
    assert got["draws"] == [list(draw(pool, size=30, strata=STRATA, seed=s, window=w).ids) for s, w in seeds]
    assert got["exposure"] == expected_exposure(size=30, strata=STRATA, runs=3, pool_size=56).share


def test_exposure_for_a_proportional_pool_is_the_closed_form() -> None:
    figure = expected_exposure(size=30, strata=STRATA, runs=3, pool_size=56)
    assert figure.share == pytest.approx(1 - (26 / 56) ** 3, abs=1e-15)
    assert figure.assumed_proportional_pool


@pytest.mark.parametrize(
    ("runs", "tiers"),
    [
        (3, {"easy": 12, "normal": 22, "hard": 22}),
        (1, {"easy": 6, "normal": 30, "hard": 12}),
        (5, {"easy": 20, "normal": 13, "hard": 40}),
    ],
)
def test_exposure_matches_a_simulation_within_its_sampling_error(runs: int, tiers: dict[str, int]) -> None:
    pool = _pool(**tiers)
    exact = expected_exposure(size=30, strata=STRATA, runs=runs, pool_tiers=tiers).share
    trials = 1500
    shares = []
    for t in range(trials):
        seen: set[str] = set()
        for r in range(runs):
            seen.update(draw(pool, size=30, strata=STRATA, seed=f"sim-{t}", window=f"w{r}").ids)
        shares.append(len(seen) / len(pool))
    mean = sum(shares) / trials
    sd = math.sqrt(sum((s - mean) ** 2 for s in shares) / (trials - 1))
    # Four standard errors: a correct figure fails this about once in 16,000 runs; a wrong formula (e.g. the
    # unstratified one on an unbalanced pool) is off by far more.
    assert abs(mean - exact) <= 4 * sd / math.sqrt(trials) + 1e-12, (mean, exact, sd)
    if runs > 1:
        assert sd > 0
