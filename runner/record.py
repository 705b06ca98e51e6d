"""From finished items to the files a run leaves: the board's record, the pillar's record awaiting its judge,
the evidence, and the journal that lets an interrupted run resume. Scoring and layout are pure; the writes are
atomic (a temporary file beside the target, flushed, then renamed), so no reader ever sees half a file.

A results folder after runs:
- runs/<name>.json: the board's record (recognition and conversation), as generator/results/records.py reads;
- awaiting/<name>.json: reasoning answers for the judge, and speech's delivery awaiting tone survival (a
  recogniser on the platform); the board publishes neither until they are scored;
- evidence/<name>.json: per item, every attempt's frames, times, bytes, close, verdicts and attribution;
- journal/<name>.jsonl: while a run is under way, one line per finished item.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cvb_scorer.draw import Draw
from cvb_scorer.metrics import score_clip

from runner.jobs import Job, JobError

# Which pillar a judge or a measure must still score before the board can publish it, and what it awaits.
AWAITS = {
    "llm": "the judge: the answers are stored for it and the pillar is unscored until it returns",
    "tts": "tone survival, measured by the platform's recogniser; delivery is measured here",
}


def board_clip(pillar: str, entry: Mapping[str, Any], reference: str, *, e2e_turns: int) -> dict[str, Any]:
    """One item's result for the record, from its scored attempt's verdicts (and, for recognition, the
    scorer's per-clip counts of the transcript against the reference)."""
    verdicts = entry["attempts"][-1]["verdicts"]
    passed = bool(verdicts) and all(v["passed"] for v in verdicts)
    if pillar == "asr":
        # A clip that failed is scored with no hypothesis (all deletions), never dropped.
        score = score_clip(entry["clip"], reference, entry.get("transcript") if passed else None)
        c, m = score.cer_counts, score.mer_counts
        return {
            "id": entry["clip"],
            "S": c.S,
            "D": c.D,
            "I": c.I,
            "N": c.N,
            "mer_counts": {"S": m.S, "D": m.D, "I": m.I, "N": m.N},
        }
    if pillar == "e2e":
        turns = [v for v in verdicts if v["turn"] is not None]
        return {
            "id": entry["clip"],
            "latencies_ms": [
                round(v["timings"]["response_ms"], 1)
                for v in turns
                if v["passed"] and v["timings"]["response_ms"] is not None
            ],
            "yield_ms": [
                round(v["timings"]["barge_in_to_turn_done_ms"], 1)
                for v in turns
                if v["passed"] and v["timings"]["barge_in_to_turn_done_ms"] is not None
            ],
            "turns_completed": sum(1 for v in turns if v["passed"]),
            "turns_attempted": e2e_turns,
        }
    if pillar == "llm":
        return {"id": entry["clip"], "answer": entry.get("transcript") if passed else None}
    delivery = verdicts[-1].get("delivery") if verdicts else None
    return {"id": entry["clip"], "delivered": passed, "delivery_measures": delivery}


def build_outputs(
    job: Job,
    *,
    drawn: Draw,
    entries: Mapping[str, Mapping[str, Any]],
    references: Mapping[str, str],
    scoring_version: str,
    e2e_turns: int,
    concurrency: int,
    max_open: int,
    paced: bool,
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(folder, record, evidence): the record goes to runs/ or awaiting/. Items left unresolved (our fault on
    every attempt) are left out, and then the record is not final."""
    scored = [cid for cid in drawn.ids if entries[cid]["outcome"] == "scored"]
    record: dict[str, Any] = {
        "entrant": job.entrant,
        "round": job.round,
        "pillar": job.pillar,
        "run": job.run,
        "scoring_version": scoring_version,
        "final": len(scored) == len(drawn.ids),
        "draw": {"seed": drawn.seed, "window": drawn.window, "clips": list(drawn.ids)},
        "clips": [
            board_clip(job.pillar, entries[cid], references[cid], e2e_turns=e2e_turns) for cid in scored
        ],
    }
    folder = "runs"
    if job.pillar in AWAITS:
        folder = "awaiting"
        record["awaits"] = AWAITS[job.pillar]
    reruns = sum(
        1 for e in entries.values() for a in e["attempts"] if a["outcome"] in ("rerun", "unresolved")
    )
    evidence = {
        "run": {k: record[k] for k in ("entrant", "round", "pillar", "run", "scoring_version", "final")},
        "draw": record["draw"],
        "paced": paced,
        "declared_concurrency": concurrency,
        "max_open_connections": max_open,
        "attempts_not_counted": reruns,
        "items": [entries[cid] for cid in drawn.ids],
    }
    return folder, record, evidence


def record_text(record: Mapping[str, Any]) -> str:
    """One clip per line: readable in a diff, the same bytes for the same record."""
    head = json.dumps({k: v for k, v in record.items() if k != "clips"}, ensure_ascii=False)[:-1]
    body = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in record["clips"])
    return f'{head}, "clips": [\n{body}\n]}}\n'


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        Path(temp).replace(path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


class Journal:
    """One run's journal: a header naming the job and its draw, then one JSON line per finished item, each
    flushed to disk before the next item counts as done. A line cut short by a crash is ignored on resume."""

    def __init__(self, path: Path, *, job: Job, drawn: Draw) -> None:
        self.path = path
        self.header = {"job": job.name, "seed": drawn.seed, "window": drawn.window, "clips": list(drawn.ids)}

    def finished(self) -> dict[str, dict[str, Any]]:
        """The items already finished, by clip id; {} when there is no journal yet."""
        if not self.path.exists():
            return {}
        lines = self.path.read_text(encoding="utf-8").split("\n")
        # Every complete line ends in a newline; whatever follows the last one was being written when it stopped.
        complete = lines[:-1]
        if not complete:
            return {}
        try:
            header = json.loads(complete[0])
        except ValueError:
            header = None
        if header != self.header:
            raise JobError(
                f"{self.path} is the journal of another job or draw; remove it to start {self.header['job']} "
                "afresh."
            )
        done: dict[str, dict[str, Any]] = {}
        for line in complete[1:]:
            entry = json.loads(line)
            done[entry["clip"]] = entry
        return done

    def append(self, entry: Mapping[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("a", encoding="utf-8") as out:
            if not fresh:
                self._mend(out)
            else:
                out.write(json.dumps(self.header, ensure_ascii=False) + "\n")
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def _mend(self, out: Any) -> None:
        """Cut a torn last line (a crash mid-write) before appending after it."""
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            out.truncate(keep)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def outputs_exist(folder: Path, job: Job) -> Path | None:
    for sub in ("runs", "awaiting"):
        path = folder / sub / f"{job.name}.json"
        if path.exists():
            return path
    return None


def write_outputs(folder: Path, name: str, where: str, record: Mapping[str, Any], evidence: Any) -> Path:
    """Evidence first, then the record: a record on disk always has its evidence beside it."""
    write_atomic(
        folder / "evidence" / f"{name}.json", json.dumps(evidence, ensure_ascii=False, indent=1) + "\n"
    )
    target = folder / where / f"{name}.json"
    write_atomic(target, record_text(record))
    return target
