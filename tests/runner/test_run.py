"""A scored run end to end against simulated endpoints on loopback: the record the board reads and accepts, the
scorer's counts from the transcripts, the evidence behind each item, and concurrency measured at the server."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from cvb_scorer.metrics import score_clip

from runner.record import AWAITS
from runner.shell import Slots, run_job
from runner.simulate import Model, simulated_endpoint, transcript_for
from tests.runner.support import RUN, SMALL, board, endpoint, job, run_async, write_entrants, write_pool


def _run(tmp_path: Path, *, pillar: str, model: Model, concurrency: int, **options: Any) -> tuple[Path, Any]:
    pool = write_pool(tmp_path)
    write_entrants(tmp_path, ["ex-01"])
    texts = {cid: e.text for cid, e in pool.items()}

    async def go() -> tuple[Path, Any]:
        async with simulated_endpoint(settings=RUN.settings, texts=texts, model=model) as (url, stats):
            the_job = job(pillar=pillar)
            slots = Slots(options.pop("budget", 64), {"ex-01": concurrency})
            path = await run_job(
                the_job,
                endpoint=endpoint("ex-01", url, concurrency=concurrency),
                pool=pool,
                out=tmp_path,
                run=options.pop("run", RUN),
                slots=slots,
                **options,
            )
            return path, stats

    return run_async(go())


def _evidence(folder: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "evidence" / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_a_recognition_run_writes_the_record_the_board_accepts_with_the_scorers_counts(
    tmp_path: Path,
) -> None:
    model = Model(error_rate=0.2, seed="m")
    path, stats = _run(tmp_path, pillar="asr", model=model, concurrency=3)
    assert path == tmp_path / "runs" / f"{job().name}.json"
    loaded = board(tmp_path)
    assert loaded.problems == ()
    (record,) = loaded.records
    run = record.run
    assert run.final and len(run.clips) == RUN.draw_size == len(run.draw.clips)
    pool = {e.clip.id: e.text for e in write_pool(tmp_path / "again").values()}
    for clip in run.clips:
        hypothesis = transcript_for(pool[clip.id], model=model, run_item_id=f"asr-{clip.id}")
        expected = score_clip(clip.id, pool[clip.id], hypothesis).cer_counts
        assert (clip.S, clip.D, clip.I, clip.N) == (expected.S, expected.D, expected.I, expected.N)
    assert sum(c.S + c.D + c.I for c in run.clips) > 0  # the error model did inject errors
    # Concurrency, measured at the server, never above what the entrant declared, and reached.
    assert stats.most == 3
    evidence = _evidence(tmp_path, job().name)
    assert evidence["declared_concurrency"] == 3 and evidence["max_open_connections"] == 3
    assert evidence["draw"] == {"seed": "s1", "window": "w1", "clips": run.draw.clips}
    item = evidence["items"][0]
    (attempt,) = item["attempts"]
    assert attempt["outcome"] == "scored" and attempt["costs_quota"] and attempt["failure"] is None
    frames = attempt["connection"]["frames"]
    assert [f["type"] for f in frames] == ["hello", "ready", "audio", "end_of_utterance", "transcript"]
    times = [f["t"] for f in frames]
    assert times == sorted(times) and attempt["connection"]["opened_at"] <= times[0]
    assert (
        frames[2]["bytes"]
        == Path(tmp_path / "audio" / f"{item['clip']}.wav").stat().st_size - RUN.settings.wav_header_bytes
    )
    assert attempt["deadline_ms"] == RUN.settings.deadline_ms(item["duration_ms"])
    assert attempt["connection"]["close"]["by"] == "platform"  # we close once the transcript settles the clip
    assert not (tmp_path / "journal" / f"{job().name}.jsonl").exists()


@pytest.mark.parametrize("pillar", ["llm", "tts"])
def test_pillars_scored_elsewhere_are_stored_awaiting_their_judge_not_published(
    tmp_path: Path, pillar: str
) -> None:
    path, _ = _run(tmp_path, pillar=pillar, model=Model(seed="m"), concurrency=2)
    assert path.parent.name == "awaiting"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["awaits"] == AWAITS[pillar] and record["final"]
    assert len(record["clips"]) == RUN.draw_size
    if pillar == "llm":
        assert all(isinstance(c["answer"], str) and c["answer"] for c in record["clips"])
    else:
        assert all(c["delivered"] and c["delivery_measures"]["failure"] is None for c in record["clips"])
    assert board(tmp_path).records == ()


def test_a_conversation_run_records_latency_yielding_and_turns(tmp_path: Path) -> None:
    _run(tmp_path, pillar="e2e", model=Model(seed="m"), concurrency=2)
    (record,) = board(tmp_path).records
    for clip in record.run.clips:
        barge_ins = RUN.settings.conversation_barge_in_after_ms
        assert clip.turns_completed == clip.turns_attempted == len(barge_ins)
        assert len(clip.latencies_ms) == len(barge_ins)
        # A reply that has ended before its barge-in is due is never interrupted, so it has no yield time.
        assert 1 <= len(clip.yield_ms) <= sum(1 for after in barge_ins if after is not None)
        assert clip.yield_ms[0] <= RUN.settings.yield_within_ms


def test_a_paced_run_sends_the_audio_in_real_time(tmp_path: Path) -> None:
    """Without --fast each frame goes out no sooner than its place in the clip, and end_of_utterance no sooner
    than the clip's end (lower bounds only: a loaded machine may be later, never earlier)."""
    pool = write_pool(tmp_path, seconds=0.5)
    texts = {cid: e.text for cid, e in pool.items()}
    paced = dataclasses.replace(SMALL, paced=True)

    async def go() -> None:
        async with simulated_endpoint(settings=RUN.settings, texts=texts, model=Model()) as (url, _):
            await run_job(
                job(), endpoint=endpoint("ex-01", url, concurrency=5), pool=pool, out=tmp_path, run=paced,
                slots=Slots(8, {"ex-01": 5}),
            )  # fmt: skip

    run_async(go())
    step = RUN.settings.frame_ms / 1000
    for item in _evidence(tmp_path, job().name)["items"]:
        frames = item["attempts"][0]["connection"]["frames"]
        # The clip starts when ready is read, at the very time ready's arrival is logged.
        start = next(f for f in frames if f["type"] == "ready")["t"]
        audio = next(f for f in frames if f["type"] == "audio")
        eou = next(f for f in frames if f["type"] == "end_of_utterance")
        assert audio["frames"] == 5
        assert audio["until"] >= start + (audio["frames"] - 1) * step - 1e-5
        assert eou["t"] >= start + audio["frames"] * step - 1e-5
        assert item["attempts"][0]["failure"] is None
