"""Write the example board the site ships with (results/example/) by scored runs: fictional entrants, simulated
endpoints, real runs through `cvb run`.

Each round of platform.yaml gets its own pool (pools/<round>.jsonl, no clip in two of them, as the rounds draw from
separate pools). The clips the standing round's runs draw are spoken by espeak-ng and converted by SoX to the
protocol's format, as the kit's built-in clips are (starter_kit.clips), from sentences made of the config's
built-in texts. Each fictional entrant is a simulated endpoint (runner.simulate: the reference with errors injected
at the entrant's rate, replies after latencies drawn from its distribution), and every record comes from
`cvb run --queue` against them with --fast pacing, so the example board is what real runs produce: it follows the
draw and the config, and is made again after changing either (a test regenerates a slice and compares bytes).

What a run cannot give, and so is filled in here, seeded per record: the judge's scores of the reasoning answers
and the tone survival of the speech (the judge and the platform's recogniser are outside this project), and each
recognition record's cross-anchor figure (from another benchmark). Conversation timings are floored to the
simulated latencies' grain (LATENCY_GRAIN_MS): the simulated endpoints draw whole multiples of it, so the floor is
the drawn latency whatever the machine's scheduling adds below a grain, and the folder is the same bytes on any
machine. The folder keeps what the board reads (entrants.yaml, pools/ with ids and tiers, runs/); the runs'
evidence (measured times) and the spoken audio stay out of the repository. The folder says it is example data
(entrants.yaml: ``example: true``), so a board built from it (only on request: ``cvb build --results
results/example``) carries an example-data banner on every page.

    .venv/bin/python tools/make_example_results.py [--out FOLDER]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from cvb_scorer.draw import PoolClip, draw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.atomic import swap_in  # noqa: E402
from generator.cli import main as cvb  # noqa: E402
from generator.config import Config, ConfigError, load_config  # noqa: E402
from runner.record import record_text, write_atomic  # noqa: E402
from runner.simulate import Model, served_in_thread  # noqa: E402
from starter_kit.clips import ClipPlan, convert_command, speak_command  # noqa: E402
from starter_kit.connection_test.bundle import settings_from_config  # noqa: E402

OUT = ROOT / "results" / "example"
PILLARS = ("asr", "llm", "tts", "e2e")
WINDOWS = ("example-window-a", "example-window-b", "example-window-c")
# Tiers of the example pool: enough of each tier for any draw the shipped config allows.
POOL_TIERS = {"easy": 12, "normal": 22, "hard": 22}
# Openings and closings around the config's built-in sentences, so the pool has as many distinct clips as it needs.
OPENINGS = ("", "你好，", "唔該，", "喂，", "請問，")
CLOSINGS = ("", "唔該晒。", "多謝你。", "麻煩你。")
# Above what a loaded machine adds to a measured reply or yield (the runner's loop and the simulated endpoints'
# share one process), and no more than the stall threshold, past which an attempt is ours and runs again anyway.
LATENCY_GRAIN_MS = 500
# Connections each simulated entrant declares, and the most open at once over the whole queue: the whole folder is
# made under the load of the slice its test makes again (one entrant), as the timings' grain needs.
CONCURRENCY = 8


@dataclass(frozen=True)
class Example:
    id: str
    codename: str
    name: str | None
    error_rate: float  # recognition errors per character
    latency_ms: float  # mean reply latency, with a fifth of it as the spread
    judge: float  # the simulated judge's mean score of the answers
    tone: float  # simulated tone survival (0: none survives)
    runs: int
    anchor: float | None
    # Speech items of the entrant's last speech run whose tone survival has not come back from the recogniser:
    # that record stays not final (the board shows the pillar provisional and withholds the Full Score).
    tone_pending: int = 0


EXAMPLES = (
    Example("ex-01", "Amber Finch", None, 0.08, 420, 82, 78, 3, 0.05),
    Example("ex-02", "Birch Heron", None, 0.10, 520, 80, 74, 3, 0.06),
    Example("ex-03", "Cedar Wren", "Example Lab", 0.12, 640, 77, 70, 3, 0.07, tone_pending=5),
    Example("ex-04", "Delta Kite", None, 0.20, 900, 70, 60, 2, None),
    Example("ex-05", "Ember Crane", None, 0.30, 1200, 62, 55, 2, 0.18),
    Example("ex-06", "Fjord Lark", None, 0.45, 1500, 50, 0, 1, 0.30),
)


class ToolError(RuntimeError):
    """A tool failed or a run was refused; the message says which."""


@dataclass(frozen=True)
class ExampleJob:
    entrant: str
    pillar: str
    run: int

    @property
    def seed(self) -> str:
        return f"example-{self.entrant}-{self.pillar}-{self.run}"

    @property
    def window(self) -> str:
        return WINDOWS[self.run - 1]


def example_jobs(examples: Sequence[Example], *, max_runs: int | None = None) -> list[ExampleJob]:
    """Each entrant's runs: its `runs` of recognition, one fewer (at least one) of each other pillar."""
    jobs = []
    for ex in examples:
        for pillar in PILLARS:
            runs = ex.runs if pillar == "asr" else max(1, ex.runs - 1)
            jobs += [ExampleJob(ex.id, pillar, n) for n in range(1, min(runs, max_runs or runs) + 1)]
    return jobs


def sentences(config: Config, count: int) -> list[str]:
    texts = [t.text for t in config.protocol.builtin_clips.texts]
    made = [o + t + c for c in CLOSINGS for o in OPENINGS for t in texts]
    if len(made) < count:
        raise ToolError(f"only {len(made)} distinct sentences can be made, and the pool needs {count}.")
    return made[:count]


def speak(plan: ClipPlan, text: str, out: Path) -> None:
    """`text` spoken by espeak-ng into `out`, in the protocol's format (as starter_kit.clips makes the kit's)."""
    try:
        voice = subprocess.run(speak_command(plan, text), capture_output=True, check=True, timeout=60)
        subprocess.run(
            convert_command(plan, out), input=voice.stdout, capture_output=True, check=True, timeout=60
        )
    except FileNotFoundError as exc:
        raise ToolError(f"{exc.filename} is not installed; run `make system-deps`.") from None
    except subprocess.CalledProcessError as exc:
        raise ToolError(f"{exc.cmd[0]} failed: {exc.stderr.decode(errors='replace').strip()}") from None


def write_pools(config: Config, folder: Path, *, standing: str, jobs: Sequence[ExampleJob]) -> dict[str, str]:
    """Every round's pool; the standing round's with its references and audio paths, the clips its jobs draw
    spoken into audio/. Returns the standing pool's references by clip id."""
    (folder / "pools").mkdir(parents=True)
    (folder / "audio").mkdir()
    words = sentences(config, sum(POOL_TIERS.values()))
    texts: dict[str, str] = {}
    listed: list[PoolClip] = []
    for r in config.platform.rounds:
        lines = []
        k = 0
        for tier, n in POOL_TIERS.items():
            for j in range(1, n + 1):
                # The round's id in every clip id keeps the pools apart.
                clip_id = f"example-{r.id}-{tier}-{j:02d}"
                row: dict[str, Any] = {"id": clip_id, "tier": tier}
                if r.id == standing:
                    row |= {"audio": f"../audio/{clip_id}.wav", "text": words[k]}
                    texts[clip_id] = words[k]
                    listed.append(PoolClip(clip_id, tier))
                lines.append(json.dumps(row, ensure_ascii=False) + "\n")
                k += 1
        (folder / "pools" / f"{r.id}.jsonl").write_text("".join(lines), encoding="utf-8")
    strata = {tier: str(share) for tier, share in config.rounds.draw.strata.items()}
    drawn = {
        clip_id
        for job in jobs
        for clip_id in draw(
            listed, size=config.rounds.draw.size, strata=strata, seed=job.seed, window=job.window
        ).ids
    }
    plan = ClipPlan.from_config(config)
    for clip_id in sorted(drawn):
        speak(plan, texts[clip_id], folder / "audio" / f"{clip_id}.wav")
    return texts


def _judged(ex: Example, pillar: str, clip: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The judge's scores the example fills in for a reasoning or speech item (a failed item scores zero)."""
    if pillar == "llm":
        score = rng.gauss(ex.judge, 12) if clip["answer"] is not None else 0.0
        return {"id": clip["id"], "score": round(max(0.0, min(100.0, score)), 1)}
    delivered = clip["delivered"]
    tone = rng.gauss(ex.tone, 10) if delivered and ex.tone else 0.0
    return {
        "id": clip["id"],
        "delivery": 100.0 if delivered else 0.0,
        "tone_survival": round(max(0.0, min(100.0, tone)), 1),
        "tones_recovered": rng.randint(3, 6) if tone else 0,
    }


def _grain(values: list[float]) -> list[int]:
    return [math.floor(v / LATENCY_GRAIN_MS) * LATENCY_GRAIN_MS for v in values]


def fill_in(config: Config, folder: Path, examples: Sequence[Example]) -> None:
    """What no run gives, seeded per record (so any slice of the runs gives the same files): the awaiting records
    become board records with the judge's scores (but for the speech items an example leaves pending); recognition
    gets its anchor; conversation timings their grain."""
    by_id = {ex.id: ex for ex in examples}
    for path in sorted((folder / "awaiting").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        record.pop("awaits")
        ex = by_id[record["entrant"]]
        rng = random.Random(f"example-judge-{path.stem}")
        clips = record["clips"]
        last_speech = record["pillar"] == "tts" and record["run"] == max(1, ex.runs - 1)
        if last_speech and ex.tone_pending:
            clips = clips[: len(clips) - ex.tone_pending]
            record["final"] = False
        record["clips"] = [_judged(ex, record["pillar"], c, rng) for c in clips]
        write_atomic(folder / "runs" / path.name, record_text(record))
        path.unlink()
    (folder / "awaiting").rmdir()
    for path in sorted((folder / "runs").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        anchor = by_id[record["entrant"]].anchor
        if record["pillar"] == "asr" and anchor is not None:
            clips = record.pop("clips")
            record["cross_anchor"] = {"benchmark": config.scoring.cross_anchor.benchmark, "cer": anchor}
            record["clips"] = clips
        if record["pillar"] == "e2e":
            for clip in record["clips"]:
                clip["latencies_ms"] = _grain(clip["latencies_ms"])
                clip["yield_ms"] = _grain(clip["yield_ms"])
        write_atomic(path, record_text(record))


def _entrants(examples: Sequence[Example]) -> str:
    lines = [
        "# Fictional entrants for the example board; none of them exists. A board built from this folder says on",
        "# every page that it shows example data, and asks search engines not to index it.",
        "example: true",
        "entrants:",
    ]
    for ex in examples:
        lines.append(f"  - id: {ex.id}\n    codename: {ex.codename}")
        if ex.name:
            lines.append(f"    name: {ex.name}\n    publish_name: true")
    return "\n".join(lines) + "\n"


def make(
    config_dir: Path,
    out: Path,
    *,
    examples: Sequence[Example] = EXAMPLES,
    max_runs: int | None = None,
    keep_evidence: bool = False,
) -> dict[str, str]:
    """Write the example folder aside, by `cvb run`, then swap it in for `out` whole; returns the standing
    round's references by clip id (the folder's pools list ids and tiers only). `examples` and `max_runs` make a
    slice: its records are the same bytes as the whole folder's records of the same runs."""
    config = load_config(config_dir)
    standing = next(r.id for r in config.platform.rounds if r.standing)
    jobs = example_jobs(examples, max_runs=max_runs)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".example-", dir=out.parent))
    try:
        texts = write_pools(config, work, standing=standing, jobs=jobs)
        (work / "entrants.yaml").write_text(_entrants(examples), encoding="utf-8")
        with tempfile.TemporaryDirectory() as private:
            queue = Path(private) / "queue.jsonl"
            queue.write_text(
                "".join(
                    json.dumps(
                        {"entrant": j.entrant, "pillar": j.pillar, "round": standing, "run": j.run}
                        | {"seed": j.seed, "window": j.window}
                    )
                    + "\n"
                    for j in jobs
                ),
                encoding="utf-8",
            )
            models = {
                ex.id: (
                    texts,
                    Model(
                        error_rate=ex.error_rate,
                        latency_ms=ex.latency_ms,
                        latency_sd_ms=ex.latency_ms / 5,
                        latency_grain_ms=LATENCY_GRAIN_MS,
                        seed=ex.id,
                    ),
                )
                for ex in examples
            }
            with served_in_thread(settings=settings_from_config(config), endpoints=models) as (urls, _):
                endpoints = Path(private) / "endpoints.yaml"
                listed = [
                    {"id": e, "concurrency": CONCURRENCY, "urls": dict.fromkeys(PILLARS, u)}
                    for e, u in urls.items()
                ]
                endpoints.write_text(yaml.safe_dump({"entrants": listed}), encoding="utf-8")
                said = io.StringIO()
                with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                    status = cvb(
                        [
                            *("--config", str(config_dir), "run", "--out", str(work)),
                            *("--endpoints", str(endpoints), "--queue", str(queue)),
                            *("--budget", str(CONCURRENCY), "--fast", "--insecure", "--quiet"),
                        ]
                    )
                if status != 0:
                    raise ToolError(f"cvb run refused the example's runs: {said.getvalue().strip()}")
        fill_in(config, work, examples)
        (work / "journal").rmdir()  # every run finished, so every journal is gone: the folder is empty
        # The board reads a pool's ids and tiers, and the records; measured times and audio stay out.
        shutil.rmtree(work / "audio")
        if not keep_evidence:
            shutil.rmtree(work / "evidence")
        for path in (work / "pools").glob("*.jsonl"):
            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
            path.write_text(
                "".join(json.dumps({"id": r["id"], "tier": r["tier"]}) + "\n" for r in rows), encoding="utf-8"
            )
        swap_in(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=OUT,
        help="the results folder to write, replaced whole (default: results/example)",
    )
    parser.add_argument("--config", type=Path, default=ROOT / "platform_config", help="config folder")
    args = parser.parse_args(argv)
    try:
        make(args.config, args.out)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ToolError as exc:
        print(f"make_example_results: {exc}", file=sys.stderr)
        return 2
    shown = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out
    print(f"Wrote the example records to {shown}, by runs.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
