"""`cvb draw` as an organiser or entrant uses it: the clips a seed draws, with tiers, as text or JSON, and a
sentence (exit 2, no traceback) for a pool the draw cannot use."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cvb_scorer.draw import PoolClip, draw

from generator.paths import Layout

CVB = str(Layout().root / ".venv" / "bin" / "cvb")
EXAMPLE_POOL = Layout().root / "results" / "example" / "pools" / "online_challenge.jsonl"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CVB, "draw", *args], capture_output=True, text=True, check=False)


def test_the_draw_prints_each_clip_with_its_tier_and_matches_the_scorer() -> None:
    result = _run(
        "--pool", str(EXAMPLE_POOL), "--seed", "example-ex-01-asr-1", "--window", "example-window-a"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "Draw for seed example-ex-01-asr-1, window example-window-a: 30 clips (6 easy, 12 hard, 12 normal)."
    )
    pool = [PoolClip(**json.loads(line)) for line in EXAMPLE_POOL.read_text(encoding="utf-8").splitlines()]
    strata = {"easy": "0.2", "normal": "0.4", "hard": "0.4"}
    expected = draw(pool, size=30, strata=strata, seed="example-ex-01-asr-1", window="example-window-a")
    assert [line.split()[0] for line in lines[1:]] == list(expected.ids)
    shipped = json.loads(
        (EXAMPLE_POOL.parent.parent / "runs" / "ex-01-online_challenge-asr-1.json").read_text(
            encoding="utf-8"
        )
    )
    assert shipped["draw"]["clips"] == list(expected.ids)


def test_json_output_is_the_draw() -> None:
    result = _run("--pool", str(EXAMPLE_POOL), "--seed", "s", "--json")
    data = json.loads(result.stdout)
    assert data["seed"] == "s" and data["window"] is None and len(data["clips"]) == 30


def test_a_pool_too_small_for_a_tier_is_a_sentence(tmp_path: Path) -> None:
    pool = tmp_path / "pool.jsonl"
    pool.write_text(
        "".join(json.dumps({"id": f"c{k}", "tier": "easy"}) + "\n" for k in range(40)), encoding="utf-8"
    )
    result = _run("--pool", str(pool), "--seed", "s")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "cvb draw: The pool has 0 hard clip(s), but a draw takes 12; add hard clips to the pool or lower that "
        "tier's share."
    )
    assert "Traceback" not in result.stderr


def test_an_unknown_tier_names_the_line(tmp_path: Path) -> None:
    pool = tmp_path / "pool.jsonl"
    pool.write_text('{"id": "a", "tier": "brutal"}\n', encoding="utf-8")
    result = _run("--pool", str(pool), "--seed", "s")
    assert result.returncode == 2
    assert f"{pool} line 1 puts clip 'a' in tier 'brutal'" in result.stderr
