"""What to run: jobs (entrant, pillar, round, run, seed, window), the entrants' registered endpoints and declared
concurrency, the round's pool of clips, and the deterministic split of a queue into shards. Bad input is
refused with a sentence naming the file and line (JobError)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from cvb_scorer.draw import DrawError, PoolClip, parse_pool

from starter_kit.connection_test.clips import ClipError, read_wav
from starter_kit.protocol.machine import PILLARS, Clip
from starter_kit.protocol.settings import Settings

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class JobError(ValueError):
    """A job, endpoint list or pool the runner cannot use; the message says what and where."""


@dataclass(frozen=True, kw_only=True)
class Job:
    entrant: str
    pillar: str
    round: str
    run: int
    seed: str
    window: str | None = None

    @property
    def name(self) -> str:
        """The file stem of the job's record, evidence and journal: one per (entrant, round, pillar, run)."""
        return f"{self.entrant}-{self.round}-{self.pillar}-{self.run}"


@dataclass(frozen=True, kw_only=True)
class Endpoint:
    entrant: str
    concurrency: int
    urls: Mapping[str, str]


def check_job(job: Job, *, where: str, rounds: Sequence[str], runs_per_round: int) -> Job:
    if not _ID.match(job.entrant):
        raise JobError(f"{where}: entrant {job.entrant!r} is not an id (letters, digits, _ . -).")
    if job.pillar not in PILLARS:
        raise JobError(f"{where}: pillar {job.pillar!r} is not one of {', '.join(PILLARS)}.")
    if job.round not in rounds:
        raise JobError(f"{where}: round {job.round!r} is not a round of platform.yaml ({', '.join(rounds)}).")
    if not 1 <= job.run <= runs_per_round:
        raise JobError(
            f"{where}: run {job.run} is outside the quota; rounds.yaml allows runs 1 to {runs_per_round}."
        )
    if not job.seed:
        raise JobError(f"{where}: the draw's seed is empty.")
    return job


def job_from_json(row: Any, *, where: str, rounds: Sequence[str], runs_per_round: int) -> Job:
    if not isinstance(row, dict):
        raise JobError(f"{where} must be an object with entrant, pillar, round, run, seed and window.")
    unknown = sorted(set(row) - {"entrant", "pillar", "round", "run", "seed", "window"})
    if unknown:
        raise JobError(f"{where} has field(s) a job does not use: {', '.join(unknown)}.")
    try:
        job = Job(
            entrant=_text(row, "entrant", where),
            pillar=_text(row, "pillar", where),
            round=_text(row, "round", where),
            run=_int(row, "run", where),
            seed=_text(row, "seed", where),
            window=None if row.get("window") is None else _text(row, "window", where),
        )
    except KeyError as exc:
        raise JobError(f"{where} lacks {exc.args[0]!r}.") from None
    return check_job(job, where=where, rounds=rounds, runs_per_round=runs_per_round)


def _text(row: Mapping[str, Any], key: str, where: str) -> str:
    value = row[key]
    if not isinstance(value, str):
        raise JobError(f"{where}: {key} must be a string, not {value!r}.")
    return value


def _int(row: Mapping[str, Any], key: str, where: str) -> int:
    value = row[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise JobError(f"{where}: {key} must be a whole number, not {value!r}.")
    return value


def load_queue(path: Path, *, rounds: Sequence[str], runs_per_round: int) -> list[Job]:
    """A queue file: JSON lines, one job each. The same job twice is refused (it would run a run twice)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise JobError(f"{path} could not be read: {exc.strerror or exc}.") from None
    jobs: list[Job] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path} line {lineno}"
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise JobError(f"{where} is not valid JSON ({exc}).") from None
        job = job_from_json(row, where=where, rounds=rounds, runs_per_round=runs_per_round)
        if job.name in seen:
            raise JobError(f"{where} repeats the job on line {seen[job.name]} ({job.name}).")
        seen[job.name] = lineno
        jobs.append(job)
    if not jobs:
        raise JobError(f"{path} lists no jobs.")
    return jobs


def load_endpoints(path: Path) -> dict[str, Endpoint]:
    """endpoints.yaml: `entrants: [{id, concurrency, urls: {pillar: url}}]`, as entrants register them."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise JobError(f"{path} could not be read: {exc.strerror or exc}.") from None
    except yaml.YAMLError as exc:
        raise JobError(f"{path} is not valid YAML ({exc}).") from None
    rows = data.get("entrants") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise JobError(f"{path} must hold `entrants:`, a list of {{id, concurrency, urls}}.")
    out: dict[str, Endpoint] = {}
    for k, row in enumerate(rows, start=1):
        where = f"{path}, entrant {k}"
        if not isinstance(row, dict):
            raise JobError(f"{where} must be an object with id, concurrency and urls.")
        entrant, concurrency, urls = row.get("id"), row.get("concurrency"), row.get("urls")
        if not isinstance(entrant, str) or not _ID.match(entrant):
            raise JobError(f"{where}: id must be an id (letters, digits, _ . -), not {entrant!r}.")
        if not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 1:
            raise JobError(f"{where} ({entrant}): concurrency must be a whole number of at least one.")
        if not isinstance(urls, dict) or not all(
            p in PILLARS and isinstance(u, str) for p, u in urls.items()
        ):
            raise JobError(f"{where} ({entrant}): urls must map pillars ({', '.join(PILLARS)}) to URLs.")
        if entrant in out:
            raise JobError(f"{where} lists {entrant} a second time.")
        out[entrant] = Endpoint(entrant=entrant, concurrency=concurrency, urls=dict(urls))
    return out


@dataclass(frozen=True)
class PoolEntry:
    clip: PoolClip
    audio: Path
    text: str


def load_pool(path: Path, *, tiers: Sequence[str]) -> dict[str, PoolEntry]:
    """A round's pool for running: JSON lines of {id, tier, audio, text}; audio is a WAV path relative to the
    pool file. The same file, read for id and tier only, is the results folder's pools/<round>.jsonl."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise JobError(f"{path} could not be read: {exc.strerror or exc}.") from None
    try:
        clips = parse_pool(text, name=str(path), tiers=tiers)
    except DrawError as exc:
        raise JobError(str(exc)) from None
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    out: dict[str, PoolEntry] = {}
    for lineno, (clip, row) in enumerate(zip(clips, rows, strict=True), start=1):
        audio, words = row.get("audio"), row.get("text")
        if not isinstance(audio, str) or not isinstance(words, str):
            raise JobError(
                f"{path} line {lineno} (clip {clip.id}) needs a string audio (WAV path) and text (reference)."
            )
        out[clip.id] = PoolEntry(clip, path.parent / audio, words)
    return out


def read_clip(entry: PoolEntry, *, settings: Settings) -> Clip:
    try:
        return read_wav(entry.audio, settings=settings, clip_id=entry.clip.id, text=entry.text)
    except ClipError as exc:
        raise JobError(f"pool clip {entry.clip.id}: {exc}") from None


def shard_of(job: Job, shards: int) -> int:
    """The shard (0-based) a job belongs to: from its name alone, so any machine with any ordering of the same
    queue agrees, and each job is in exactly one shard."""
    digest = hashlib.sha256(job.name.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % shards


def parse_shard(text: str) -> tuple[int, int]:
    """`i/n` (1-based i) as (i, n); JobError when it is not one."""
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise JobError(f"--shard must be i/n with 1 <= i <= n, like 1/2; got {text!r}.")
    return int(match.group(1)), int(match.group(2))


def select_shard(jobs: Sequence[Job], shard: tuple[int, int]) -> list[Job]:
    i, n = shard
    return [job for job in jobs if shard_of(job, n) == i - 1]
