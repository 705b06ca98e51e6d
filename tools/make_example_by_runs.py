"""Write an example results folder through scored runs: fictional entrants, simulated endpoints, real runs.

It is meant to make the example board the site ships with (results/example/), which today is still written from
synthetic counts by tools/make_example_results.py and checked byte for byte against that script. A folder made
by runs is not byte-reproducible (conversation latencies are measured), so switching over is a decision of its
own.

Each round of platform.yaml gets its own pool (pools/<round>.jsonl, no clip in two of them, as the rounds draw from
separate pools). The standing round's clips are spoken by espeak-ng and converted by SoX to the protocol's format,
as the kit's built-in clips are (starter_kit.clips), from sentences made of the config's built-in texts. Each
fictional entrant is a simulated endpoint (runner.simulate: the reference with errors injected at the entrant's
rate, replies after latencies drawn from its distribution), and every record comes from `cvb run --queue` against
them with --fast pacing, so the example board is what real runs produce and follows the draw and the config.

Two things a run cannot give are filled in afterwards and only here, seeded: the judge's scores of the reasoning
answers and the tone survival of the speech (the judge and the platform's recogniser are outside this project),
and each recognition record's cross-anchor figure (from another benchmark). Re-run after changing the draw in
platform_config/rounds.yaml or the rounds in platform_config/platform.yaml:

    .venv/bin/python tools/make_example_by_runs.py --out FOLDER
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.atomic import swap_in  # noqa: E402
from generator.config import Config, load_config  # noqa: E402
from runner.cli import add_arguments, run  # noqa: E402
from runner.record import record_text, write_atomic  # noqa: E402
from runner.simulate import Model, served_in_thread  # noqa: E402
from starter_kit.clips import ClipPlan, convert_command, speak_command  # noqa: E402
from starter_kit.connection_test.bundle import settings_from_config  # noqa: E402

WINDOWS = ("example-window-a", "example-window-b", "example-window-c")
# Tiers of the example pool: enough of each tier for any draw the shipped config allows.
POOL_TIERS = {"easy": 12, "normal": 22, "hard": 22}
# Openings and closings around the config's built-in sentences, so the pool has as many distinct clips as it needs.
OPENINGS = ("", "你好，", "唔該，", "喂，")
CLOSINGS = ("", "唔該晒。", "多謝你。")


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


EXAMPLES = (
    Example("ex-01", "Amber Finch", None, 0.08, 420, 82, 78, 3, 0.05),
    Example("ex-02", "Birch Heron", None, 0.10, 520, 80, 74, 3, 0.06),
    Example("ex-03", "Cedar Wren", "Example Lab", 0.12, 640, 77, 70, 3, 0.07),
    Example("ex-04", "Delta Kite", None, 0.20, 900, 70, 60, 2, None),
    Example("ex-05", "Ember Crane", None, 0.30, 1200, 62, 55, 2, 0.18),
    Example("ex-06", "Fjord Lark", None, 0.45, 1500, 50, 0, 1, 0.30),
)


class ToolError(RuntimeError):
    """A tool failed or a run was refused; the message says which."""


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


def write_pools(config: Config, folder: Path, *, tiers: dict[str, int], standing: str) -> dict[str, str]:
    """Every round's pool; the standing round's clips spoken (audio/), the others listed only. Returns the
    standing pool's references by clip id."""
    (folder / "pools").mkdir(parents=True)
    (folder / "audio").mkdir()
    words = sentences(config, sum(tiers.values()))
    plan = ClipPlan.from_config(config)
    texts: dict[str, str] = {}
    for r in config.platform.rounds:
        lines = []
        k = 0
        for tier, n in tiers.items():
            for j in range(1, n + 1):
                # The round's id in every clip id keeps the pools apart.
                clip_id = f"example-{r.id}-{tier}-{j:02d}"
                row: dict[str, Any] = {"id": clip_id, "tier": tier}
                if r.id == standing:
                    speak(plan, words[k], folder / "audio" / f"{clip_id}.wav")
                    row |= {"audio": f"../audio/{clip_id}.wav", "text": words[k]}
                    texts[clip_id] = words[k]
                lines.append(json.dumps(row, ensure_ascii=False) + "\n")
                k += 1
        (folder / "pools" / f"{r.id}.jsonl").write_text("".join(lines), encoding="utf-8")
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


def fill_in(config: Config, folder: Path, examples: tuple[Example, ...]) -> None:
    """Scores no run can give, seeded: the awaiting records become board records; recognition gets its anchor."""
    by_id = {ex.id: ex for ex in examples}
    rng = random.Random(20261201)
    for path in sorted((folder / "awaiting").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        record.pop("awaits")
        ex = by_id[record["entrant"]]
        record["clips"] = [_judged(ex, record["pillar"], c, rng) for c in record["clips"]]
        write_atomic(folder / "runs" / path.name, record_text(record))
        path.unlink()
    (folder / "awaiting").rmdir()
    for path in sorted((folder / "runs").glob("*-asr-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        anchor = by_id[record["entrant"]].anchor
        if anchor is not None:
            clips = record.pop("clips")
            record["cross_anchor"] = {"benchmark": config.scoring.cross_anchor.benchmark, "cer": anchor}
            record["clips"] = clips
            write_atomic(path, record_text(record))


def make(
    config: Config,
    out: Path,
    *,
    examples: tuple[Example, ...] = EXAMPLES,
    tiers: dict[str, int] = POOL_TIERS,
    latency_scale: float = 1.0,
    max_runs: int | None = None,
    concurrency: int = 8,
) -> dict[str, str]:
    """Write the example folder aside, by runs, then swap it in for `out` whole; returns the standing round's
    references by clip id (the shipped pools list ids and tiers only)."""
    standing = next(r.id for r in config.platform.rounds if r.standing)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".example-", dir=out.parent))
    try:
        texts = write_pools(config, work, tiers=tiers, standing=standing)
        entrants = ["# Fictional entrants for the example board; none of them exists.", "entrants:"]
        for ex in examples:
            entrants.append(f"  - id: {ex.id}\n    codename: {ex.codename}")
            if ex.name:
                entrants.append(f"    name: {ex.name}\n    publish_name: true")
        (work / "entrants.yaml").write_text("\n".join(entrants) + "\n", encoding="utf-8")
        jobs = []
        for ex in examples:
            for pillar in ("asr", "llm", "tts", "e2e"):
                runs = ex.runs if pillar == "asr" else max(1, ex.runs - 1)
                for n in range(1, min(runs, max_runs or runs) + 1):
                    seed = f"example-{ex.id}-{pillar}-{n}"
                    job = {"entrant": ex.id, "pillar": pillar, "round": standing, "run": n, "seed": seed}
                    jobs.append(json.dumps(job | {"window": WINDOWS[n - 1]}) + "\n")
        with tempfile.TemporaryDirectory() as private:
            queue = Path(private) / "queue.jsonl"
            queue.write_text("".join(jobs), encoding="utf-8")
            models = {
                ex.id: (
                    texts,
                    Model(
                        error_rate=ex.error_rate,
                        latency_ms=ex.latency_ms * latency_scale,
                        latency_sd_ms=ex.latency_ms * latency_scale / 5,
                        seed=ex.id,
                    ),
                )
                for ex in examples
            }
            with served_in_thread(settings=settings_from_config(config), endpoints=models) as (urls, _):
                endpoints = Path(private) / "endpoints.yaml"
                listed = [
                    {
                        "id": e,
                        "concurrency": concurrency,
                        "urls": dict.fromkeys(("asr", "llm", "tts", "e2e"), u),
                    }
                    for e, u in urls.items()
                ]
                endpoints.write_text(yaml.safe_dump({"entrants": listed}), encoding="utf-8")
                parser = argparse.ArgumentParser()
                add_arguments(parser)
                args = parser.parse_args(
                    [
                        "--out",
                        str(work),
                        "--endpoints",
                        str(endpoints),
                        "--queue",
                        str(queue),
                        "--fast",
                        "--insecure",
                    ]
                )
                args.quiet = True
                if run(args, config=config) != 0:
                    raise ToolError("a run was refused; see the message above.")
        fill_in(config, work, examples)
        (work / "journal").rmdir()  # every run finished, so every journal is gone: the folder is empty
        # The board reads a pool's ids and tiers only; the audio stays out of the repository.
        shutil.rmtree(work / "audio")
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, required=True, help="the results folder to write (replaced whole)"
    )
    args = parser.parse_args(argv)
    config = load_config(ROOT / "platform_config")
    try:
        make(config, args.out)
    except ToolError as exc:
        print(f"make_example_by_runs: {exc}", file=sys.stderr)
        return 2
    shown = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out
    print(f"Wrote the example records to {shown}, by runs.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
