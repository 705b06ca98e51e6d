"""Run records as the organisers drop them into a results folder: typed, validated, and refused with a reason.

A results folder holds:
- ``entrants.yaml``: every entrant that may appear (id, codename, optional name and whether to publish it);
- ``pools/<round>.jsonl``: each round's pool, one ``{"id", "tier"}`` per line, the file named by the round's id in
  platform.yaml (the draw reconstructs a run from the pool of the round the record names; when rounds.yaml says
  the rounds draw from separate pools, no clip may sit in two of them);
- ``runs/*.json``: one file per run of one entrant on one pillar in one round.

Loading never raises on a bad record: each one is returned as a ``RecordProblem`` (file and reason) beside the
records that passed, and the build decides whether to go on without them.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import yaml
from cvb_scorer.draw import DrawError, PoolClip, draw, parse_pool
from cvb_scorer.rules import ScoringRules
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from generator.config import Config

Id = Annotated[str, StringConstraints(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
Count = Annotated[int, Field(ge=0)]
Score = Annotated[float, Field(ge=0, le=100)]
Rate = Annotated[float, Field(ge=0)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Entrant(Model):
    id: Id
    codename: Annotated[str, StringConstraints(min_length=1)]
    name: str | None = None
    # Entrants appear under their codename unless they asked for their name.
    publish_name: bool = False


class EntrantsFile(Model):
    # A folder of made-up records (results/example/): every page of a board built from it says so.
    example: bool = False
    entrants: list[Entrant]


class MerCounts(Model):
    S: Count
    D: Count
    I: Count  # noqa: E741  # the alignment's own letter for insertions
    N: Count


class AsrClip(Model):
    """One clip as ``cvb-score --json`` reports it (fields the board does not use are ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)
    id: str
    S: Count
    D: Count
    I: Count  # noqa: E741
    N: Count
    mer_counts: MerCounts


class LlmClip(Model):
    id: str
    # The judges' score for this clip on the 0-100 scale.
    score: Score


class TtsClip(Model):
    id: str
    delivery: Score
    tone_survival: Score
    tones_recovered: Count


class E2eClip(Model):
    """One scripted conversation: its turns' first-byte latencies, interruptions and completion."""

    id: str
    latencies_ms: list[Annotated[float, Field(ge=0)]]
    yield_ms: list[Annotated[float, Field(ge=0)]]
    turns_completed: Count
    turns_attempted: Annotated[int, Field(gt=0)]
    naturalness_rating: float | None = None


class DrawRef(Model):
    seed: str
    window: str | None = None
    clips: list[str]


class CrossAnchor(Model):
    benchmark: str
    cer: Rate


class RunRecord(Model):
    entrant: Id
    # The round (platform.yaml's id) whose pool the run drew from.
    round: Id
    pillar: Literal["asr", "llm", "tts", "e2e"]
    run: Annotated[int, Field(gt=0)]
    scoring_version: str
    final: bool
    draw: DrawRef
    clips: list[AsrClip] | list[LlmClip] | list[TtsClip] | list[E2eClip]
    cross_anchor: CrossAnchor | None = None


CLIP_MODELS: Mapping[str, type[Model]] = {"asr": AsrClip, "llm": LlmClip, "tts": TtsClip, "e2e": E2eClip}


@dataclass(frozen=True)
class Record:
    """A run record that passed every check, with the file it came from (its provenance)."""

    source: str
    run: RunRecord


class Refusal(enum.Enum):
    """What kind of fault refused a record: each edition names it in its own words beside the exact sentence."""

    UNREADABLE = "unreadable"  # not JSON, or not a run record of its pillar
    ENTRANT = "entrant"  # an entrant entrants.yaml does not list
    VERSION = "version"  # a scoring version the config does not know
    ROUND = "round"  # a round platform.yaml does not have
    POOL = "pool"  # its round has no pool in the folder
    DRAW = "draw"  # the draw cannot be reconstructed, or is not the one its seed gives
    CLIPS = "clips"  # the clips scored are not the draw's (twice, stray, missing, none)
    CROSS_ANCHOR = "cross_anchor"  # a cross-anchor figure on a pillar other than recognition
    OVER_QUOTA = "over_quota"  # a run number beyond the round's runs_per_round
    DUPLICATE_RUN = "duplicate_run"  # another file records the same entrant, pillar, round and run
    DUPLICATE_DRAW = "duplicate_draw"  # another file records the same draw under another run number


@dataclass(frozen=True)
class RecordProblem:
    source: str  # the file, relative to the results folder
    reason: str
    kind: Refusal = Refusal.UNREADABLE

    def __str__(self) -> str:
        return f"{self.source}: {self.reason}"


@dataclass(frozen=True)
class DrawSpec:
    size: int
    strata: Mapping[str, str]
    # The rounds' ids in platform.yaml's order; each round draws from pools/<id>.jsonl.
    rounds: tuple[str, ...]
    # rounds.yaml's separate_pools_per_round: then no clip may be in two rounds' pools.
    separate_pools: bool
    # rounds.yaml's runs_per_round: a record's run number may not exceed it (None: not checked).
    runs_per_round: int | None = None


def draw_spec(config: Config) -> DrawSpec:
    """The draw and the rounds as the config states them."""
    return DrawSpec(
        size=config.rounds.draw.size,
        strata={t: str(f) for t, f in config.rounds.draw.strata.items()},
        rounds=tuple(r.id for r in config.platform.rounds),
        separate_pools=config.rounds.separate_pools_per_round,
        runs_per_round=config.rounds.runs_per_round,
    )


def standing_round(config: Config) -> str:
    """The id of the round the published standings count (the invariants make it exactly one)."""
    return next(r.id for r in config.platform.rounds if r.standing)


@dataclass(frozen=True)
class Loaded:
    entrants_source: str
    entrants: Mapping[str, Entrant]
    records: tuple[Record, ...]
    problems: tuple[RecordProblem, ...]
    # entrants.yaml says the folder is example data.
    example: bool = False


class RecordError(ValueError):
    """A record whose content does not fit its pillar's model; the message names the clip."""


class ResultsFolderError(ValueError):
    """The folder itself (its entrants or pool) is unusable, so no record can be judged."""


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the top level"
    return f"{where}: {err['msg']}"


def load_entrants(path: Path, *, shown: str) -> dict[str, Entrant]:
    return dict(load_entrants_file(path, shown=shown)[0])


def load_entrants_file(path: Path, *, shown: str) -> tuple[dict[str, Entrant], bool]:
    """The entrants by id, and whether the file marks its folder as example data."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        parsed = EntrantsFile.model_validate(data)
    except FileNotFoundError:
        raise ResultsFolderError(f"{shown} is missing; list the entrants there (id, codename).") from None
    except yaml.YAMLError as exc:
        raise ResultsFolderError(f"{shown} is not valid YAML ({exc}).") from None
    except ValidationError as exc:
        raise ResultsFolderError(f"{shown}, {_first_error(exc)}.") from None
    out: dict[str, Entrant] = {}
    for entrant in parsed.entrants:
        if entrant.id in out:
            raise ResultsFolderError(f"{shown} lists entrant {entrant.id!r} twice.")
        if entrant.publish_name and not entrant.name:
            raise ResultsFolderError(f"{shown}: entrant {entrant.id!r} asks for their name but gives none.")
        out[entrant.id] = entrant
    return out, parsed.example


def parse_record(text: str) -> RunRecord:
    """A record's JSON, with its clips validated against the model of the pillar it names."""
    data = json.loads(text)
    if isinstance(data, dict) and isinstance(data.get("clips"), list) and data.get("pillar") in CLIP_MODELS:
        model = CLIP_MODELS[data["pillar"]]
        clips = []
        for k, clip in enumerate(data["clips"]):
            try:
                clips.append(model.model_validate(clip))
            except ValidationError as exc:
                cid = clip.get("id") if isinstance(clip, dict) else None
                named = f" ({cid})" if isinstance(cid, str) else ""
                raise RecordError(
                    f"clip {k + 1}{named} is not a {data['pillar']} clip: {_first_error(exc)}."
                ) from None
        # Validate the rest with the clips already typed, so the union cannot pick another pillar's model.
        rest = {k: v for k, v in data.items() if k != "clips"}
        record = RunRecord.model_validate({**rest, "clips": []})
        return record.model_copy(update={"clips": clips})
    return RunRecord.model_validate(data)


def judge(
    record: RunRecord,
    *,
    entrants: Mapping[str, Entrant],
    pools: Mapping[str, Sequence[PoolClip]],
    spec: DrawSpec,
    versions: Sequence[str],
) -> str | None:
    """The reason a parsed record cannot be published, or None. Pure: the folder's facts come in as arguments
    (``pools``: each round's pool that the folder holds)."""
    found = judge_kind(record, entrants=entrants, pools=pools, spec=spec, versions=versions)
    return None if found is None else found[1]


def judge_kind(
    record: RunRecord,
    *,
    entrants: Mapping[str, Entrant],
    pools: Mapping[str, Sequence[PoolClip]],
    spec: DrawSpec,
    versions: Sequence[str],
) -> tuple[Refusal, str] | None:
    """As ``judge``, with the kind of fault beside the sentence."""
    if record.entrant not in entrants:
        return Refusal.ENTRANT, f"entrant {record.entrant!r} is not in entrants.yaml."
    if record.scoring_version not in versions:
        return Refusal.VERSION, (
            f"scoring version {record.scoring_version!r} is unknown; the config's floor history names "
            f"{', '.join(versions)}."
        )
    if record.round not in spec.rounds:
        return (
            Refusal.ROUND,
            f"round {record.round!r} is not a round of platform.yaml, whose rounds are {', '.join(spec.rounds)}.",
        )
    if spec.runs_per_round is not None and record.run > spec.runs_per_round:
        return Refusal.OVER_QUOTA, (
            f"it is run {record.run}, but each entrant has {spec.runs_per_round} scored run(s) per pillar in a "
            "round (rounds.yaml, runs_per_round)."
        )
    pool = pools.get(record.round)
    if pool is None:
        return Refusal.POOL, (
            f"round {record.round!r} has no pool in this results folder (pools/{record.round}.jsonl), so its "
            "draw cannot be reconstructed."
        )
    try:
        expected = draw(
            pool, size=spec.size, strata=spec.strata, seed=record.draw.seed, window=record.draw.window
        )
    except DrawError as exc:
        return Refusal.DRAW, f"its draw cannot be reconstructed: {exc}"
    drawn = set(expected.ids)
    if sorted(record.draw.clips) != sorted(drawn):
        return Refusal.DRAW, (
            f"the clips it lists for seed {record.draw.seed!r}"
            f"{' window ' + repr(record.draw.window) if record.draw.window else ''} are not the clips that seed "
            f"draws from the pool of round {record.round!r}."
        )
    ids = [c.id for c in record.clips]
    if len(ids) != len(set(ids)):
        return Refusal.CLIPS, "a clip is scored twice."
    strays = sorted(set(ids) - drawn)
    if strays:
        return Refusal.CLIPS, f"clip(s) {', '.join(strays[:3])} were scored but are not in the draw."
    if len(ids) > len(drawn):
        return Refusal.CLIPS, f"it scores {len(ids)} clips, but the draw has {len(drawn)}."
    missing = sorted(drawn - set(ids))
    if missing and record.final:
        return Refusal.CLIPS, (
            f"it is marked final but lacks {len(missing)} of the draw's {len(drawn)} clips "
            f"({', '.join(missing[:3])}{'…' if len(missing) > 3 else ''})."
        )
    if not ids:
        return Refusal.CLIPS, "it scores no clips."
    if record.pillar != "asr" and record.cross_anchor is not None:
        return Refusal.CROSS_ANCHOR, "a cross-anchor figure belongs to a recognition (asr) record only."
    return None


def known_versions(rules: ScoringRules) -> list[str]:
    named = [e.scoring_version for e in rules.floors.history if e.scoring_version is not None]
    return sorted({*named, rules.scoring_version})


def shared_clips(pools: Mapping[str, Sequence[PoolClip]], *, names: Mapping[str, str]) -> str | None:
    """The sentence refusing pools of different rounds that share a clip, or None when they are disjoint."""
    owner: dict[str, str] = {}
    for round_id, pool in pools.items():
        clash: dict[str, list[str]] = {}
        for clip in pool:
            if clip.id in owner:
                clash.setdefault(owner[clip.id], []).append(clip.id)
            else:
                owner[clip.id] = round_id
        for other, ids in clash.items():
            listed = ", ".join(ids[:3]) + ("…" if len(ids) > 3 else "")
            return (
                f"{names[other]} and {names[round_id]} share {len(ids)} clip(s) ({listed}), but rounds.yaml has "
                "the rounds draw from separate pools (separate_pools_per_round), so a clip that qualifies an "
                "entrant must never score them; take each shared clip out of one of the pools."
            )
    return None


def load_pools(folder: Path, *, spec: DrawSpec, shown: Callable[[Path], str]) -> dict[str, list[PoolClip]]:
    """Every round's pool the folder holds (pools/<round>.jsonl), checked against the rounds of the config."""
    where = folder / "pools"
    legacy = folder / "pool.jsonl"
    layout = f"one pool per round, as pools/<round>.jsonl (the rounds: {', '.join(spec.rounds)})"
    if legacy.exists():
        raise ResultsFolderError(
            f"{shown(legacy)} is a single pool, but each round's records are checked against that round's "
            f"pool: keep {layout}."
        )
    # A folder without pools is readable (a round that has not started has none); each record naming a round
    # whose pool is missing is refused on its own.
    paths = sorted(where.glob("*.jsonl")) if where.is_dir() else []
    pools: dict[str, list[PoolClip]] = {}
    names: dict[str, str] = {}
    by_round = {path.stem: path for path in paths}
    for round_id in [r for r in spec.rounds if r in by_round] + sorted(set(by_round) - set(spec.rounds)):
        path = by_round[round_id]
        if round_id not in spec.rounds:
            raise ResultsFolderError(
                f"{shown(path)} is named after no round; platform.yaml's rounds are {', '.join(spec.rounds)}."
            )
        try:
            pools[round_id] = parse_pool(
                path.read_text(encoding="utf-8"), name=shown(path), tiers=sorted(spec.strata)
            )
        except DrawError as exc:
            raise ResultsFolderError(str(exc)) from None
        names[round_id] = shown(path)
    if spec.separate_pools and (problem := shared_clips(pools, names=names)) is not None:
        raise ResultsFolderError(problem)
    return pools


def chosen_folder(given: Path | None, environ: Mapping[str, str]) -> Path | None:
    """The results folder a build reads: the one asked for (``cvb build --results``), else ``$CVB_RESULTS``, else
    none, and then the standings say that results are published after the standing round. The example records
    are never a default: a published site must not show made-up results (build them with
    ``--results results/example``)."""
    if given is not None:
        return given
    named = environ.get("CVB_RESULTS")
    return Path(named) if named else None


def load_folder(folder: Path, *, rules: ScoringRules, spec: DrawSpec, root: Path | None = None) -> Loaded:
    """Read a results folder. Problems with single records are collected; a broken folder raises.

    Files are named relative to the folder (``runs/e1-asr-1.json``), wherever it is, so no page or message
    carries a local path. ``root`` is accepted for callers of the earlier signature and not used.

    Two files recording the same run (entrant, pillar, round and run number), or the same draw under other run
    numbers, are all refused, each naming the others: which of them is genuine is the organisers' call, never
    the order the files happen to sort in."""
    del root

    def shown(path: Path) -> str:
        return path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name

    entrants, example = load_entrants_file(folder / "entrants.yaml", shown=shown(folder / "entrants.yaml"))
    pools = load_pools(folder, spec=spec, shown=shown)
    versions = known_versions(rules)
    passed: list[Record] = []
    problems: list[RecordProblem] = []
    for path in sorted((folder / "runs").glob("*.json")):
        source = shown(path)
        try:
            run = parse_record(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            problems.append(RecordProblem(source, f"it is not valid JSON ({exc})."))
            continue
        except ValidationError as exc:
            problems.append(RecordProblem(source, f"{_first_error(exc)}."))
            continue
        except RecordError as exc:
            problems.append(RecordProblem(source, str(exc)))
            continue
        found = judge_kind(run, entrants=entrants, pools=pools, spec=spec, versions=versions)
        if found is not None:
            problems.append(RecordProblem(source, found[1], found[0]))
            continue
        passed.append(Record(source, run))
    records, repeated = _refuse_repeats(passed)
    problems.extend(repeated)
    problems.sort(key=lambda p: p.source)
    return Loaded(shown(folder / "entrants.yaml"), entrants, tuple(records), tuple(problems), example)


def _refuse_repeats(records: Sequence[Record]) -> tuple[list[Record], list[RecordProblem]]:
    """The records no other file repeats, and a refusal for every file of a repeated run or draw."""
    by_run: dict[tuple[str, str, str, int], list[str]] = {}
    by_draw: dict[tuple[str, str, str, str, str | None], list[str]] = {}
    for r in records:
        run = r.run
        by_run.setdefault((run.round, run.entrant, run.pillar, run.run), []).append(r.source)
        by_draw.setdefault((run.round, run.entrant, run.pillar, run.draw.seed, run.draw.window), []).append(
            r.source
        )
    kept: list[Record] = []
    problems: list[RecordProblem] = []
    for r in records:
        run = r.run
        same_run = by_run[(run.round, run.entrant, run.pillar, run.run)]
        same_draw = by_draw[(run.round, run.entrant, run.pillar, run.draw.seed, run.draw.window)]
        if len(same_run) > 1:
            others = ", ".join(s for s in same_run if s != r.source)
            problems.append(
                RecordProblem(
                    r.source,
                    f"it records run {run.run} of {run.entrant} on {run.pillar} in round {run.round}, as {others} "
                    "does; every copy is left out until only one remains.",
                    Refusal.DUPLICATE_RUN,
                )
            )
        elif len(same_draw) > 1:
            others = ", ".join(s for s in same_draw if s != r.source)
            problems.append(
                RecordProblem(
                    r.source,
                    f"it repeats the draw of {others} (same entrant, pillar, round, seed and window); every copy "
                    "is left out until only one remains.",
                    Refusal.DUPLICATE_DRAW,
                )
            )
        else:
            kept.append(r)
    return kept, problems
