"""Benchmark the scorer side by side with rapidfuzz and jiwer, in one run, and write
bench/results/scorer.json.

Measured: the command users run, ``cvb-score REF HYP --json`` as a whole process (interpreter start, imports,
reading and parsing the files, normalisation, alignment, the bootstrap, writing the report), against
``jiwer.cer`` as a whole process reading the same files, in alternating rounds, on 1,000 clips of 500
characters and on HKCanCor's 16,000-odd utterances (and, as a floor for the same alignment work, jiwer's
character alignment with its S/D/I split plus a second token alignment), and on the 1,000 clips with the
hypotheses (then both sides) written in Simplified characters; where that process spends its time; alignment
at 100/500/1,500/5,000 reference characters; the editor's keystroke path at 1,500 characters (what its worker
answers on a keystroke: the part drawn at once and the whole answer; an insertion anywhere, the same with a
hypothesis in Simplified characters, and typing at the end); the bootstrap alone, on each of its routes (pure
built-ins and numpy), with the route each whole-process run took, numpy's import cost and both routes as whole
processes around the clip count where ``stats.NUMPY_MIN_DRAWS`` switches. Every figure is in milliseconds:
medians (and the worst round for the whole-process runs and the keystrokes). Run with ``make bench`` (or
``.venv/bin/python bench/scorer.py``; ``--shapes`` runs only the two corpus shapes and their phases); it runs
the installed wheel.
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jiwer
import opencc
import pycantonese
from cvb_scorer import __version__
from cvb_scorer.align import align, clear_cache, distance
from cvb_scorer.normalise import normalise_hypothesis, normalise_reference
from cvb_scorer.rules import load_packaged_rules
from cvb_scorer.signature import signature
from cvb_scorer.stats import NUMPY_MIN_DRAWS, Route, bootstrap_rates
from cvb_scorer.view import render_editor_parts, render_view
from publish import publish
from rapidfuzz.distance import Levenshtein

OUT = Path(__file__).resolve().parent / "results" / "scorer.json"
SEED = 20260924


def median_ms(fn: Callable[[], object], *, repeat: int, warmup: int = 1) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 4)


def keystroke_ms(answer: Callable[[str], object], texts: list[str], *, warmup: int = 5) -> dict[str, float]:
    """Median and worst milliseconds of ``answer`` over successive keystroke texts (each one the last with one
    more character), after ``warmup`` of them (the first of which meets the column cache as the last figure
    left it)."""
    for text in texts[:warmup]:
        answer(text)
    times = []
    for text in texts[warmup:]:
        started = time.perf_counter()
        answer(text)
        times.append(time.perf_counter() - started)
    return {"median": round(statistics.median(times) * 1000, 3), "worst": round(max(times) * 1000, 3)}


def side_by_side_ms(
    ours: Callable[[], object], anchor: Callable[[], object], *, repeat: int
) -> tuple[float, float, float]:
    """Medians of ours and the anchor timed in alternation, and the median of the per-round ratios: on a
    shared machine a slow spell then falls on both sides instead of on whichever ran during it."""
    ours()
    anchor()
    mine, theirs, ratios = [], [], []
    for _ in range(repeat):
        start = time.perf_counter()
        ours()
        middle = time.perf_counter()
        anchor()
        end = time.perf_counter()
        mine.append(middle - start)
        theirs.append(end - middle)
        ratios.append((middle - start) / (end - middle))
    return (
        round(statistics.median(mine) * 1000, 4),
        round(statistics.median(theirs) * 1000, 4),
        round(statistics.median(ratios), 2),
    )


def corrupt(text: str, rate: float, rng: random.Random, alphabet: str) -> str:
    out: list[str] = []
    for ch in text:
        roll = rng.random()
        if roll < rate / 3:
            out.append(rng.choice(alphabet))
        elif roll < 2 * rate / 3:
            continue
        elif roll < rate:
            out.extend((ch, rng.choice(alphabet)))
        else:
            out.append(ch)
    return "".join(out)


def _long_text(utterances: list[str], rng: random.Random, length: int) -> str:
    """``length`` characters of consecutive HKCanCor utterances from a random start."""
    start = rng.randrange(len(utterances))
    parts: list[str] = []
    while sum(map(len, parts)) < length:
        parts.append(utterances[start % len(utterances)])
        start += 1
    return "".join(parts)[:length]


# What a jiwer user runs: read the same JSONL files, pair the texts by id, one corpus CER.
JIWER_SCRIPT = """
import json, sys, jiwer
def read(path):
    with open(path, encoding="utf-8") as f:
        return {o["id"]: o["text"] for o in map(json.loads, f)}
refs, hyps = read(sys.argv[1]), read(sys.argv[2])
print(jiwer.cer([refs[i] for i in refs], [hyps.get(i, "") for i in refs]))
"""


# jiwer doing the work our command does on the alignment side: a character alignment with its S/D/I split
# (``process_characters``) and a second alignment over tokens (``process_words``; here every character is a
# token, as our MER tokens are on Han text). No normalisation and no bootstrap: a floor, not a twin.
JIWER_SAME_WORK_SCRIPT = """
import json, sys, jiwer
def read(path):
    with open(path, encoding="utf-8") as f:
        return {o["id"]: o["text"] for o in map(json.loads, f)}
refs, hyps = read(sys.argv[1]), read(sys.argv[2])
r = [refs[i] for i in refs]
h = [hyps.get(i, "") for i in refs]
chars = jiwer.process_characters(r, h)
tokens = jiwer.process_words([" ".join(t) or "-" for t in r], [" ".join(t) for t in h])
print(chars.cer, chars.substitutions, chars.deletions, chars.insertions, tokens.wer)
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(cmd: list[str], out: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one process (CPU moves less with the shared machine's load)."""
    with out.open("wb") as sink:
        cpu = _children_cpu()
        start = time.perf_counter()
        subprocess.run(cmd, stdout=sink, check=True)
        return time.perf_counter() - start, _children_cpu() - cpu


def whole_process(
    work: Path, refs: list[str], hyps: list[str], *, rounds: int, target_ratio: float = 2.0
) -> dict[str, Any]:
    """``cvb-score REF HYP --json > out`` and the jiwer script, each a fresh process, alternating rounds (a
    slow spell of the shared machine then falls on both); medians, worst rounds and the median per-round ratio."""
    ref_path, hyp_path = work / f"ref{len(refs)}.jsonl", work / f"hyp{len(refs)}.jsonl"
    for path, texts in ((ref_path, refs), (hyp_path, hyps)):
        path.write_text(
            "".join(
                json.dumps({"id": f"c{k:05d}", "text": t}, ensure_ascii=False) + "\n"
                for k, t in enumerate(texts)
            ),
            encoding="utf-8",
        )
    ours = [str(Path(sys.executable).with_name("cvb-score")), str(ref_path), str(hyp_path), "--json"]
    theirs = [sys.executable, "-c", JIWER_SCRIPT, str(ref_path), str(hyp_path)]
    same_work = [sys.executable, "-c", JIWER_SAME_WORK_SCRIPT, str(ref_path), str(hyp_path)]
    _run(ours, work / "ours.json")  # warm the page cache for both
    _run(theirs, work / "theirs.txt")
    mine, anchor, mine_cpu, anchor_cpu, same_cpu = [], [], [], [], []
    for _ in range(rounds):
        wall, cpu = _run(ours, work / "ours.json")
        mine.append(wall)
        mine_cpu.append(cpu)
        wall, cpu = _run(theirs, work / "theirs.txt")
        anchor.append(wall)
        anchor_cpu.append(cpu)
        same_cpu.append(_run(same_work, work / "same.txt")[1])
    report = json.loads((work / "ours.json").read_text(encoding="utf-8"))
    jiwer_cer = float((work / "theirs.txt").read_text(encoding="utf-8"))
    return {
        "bootstrap_route": _route_taken(report),
        "clips": len(refs),
        "reference_chars": sum(map(len, refs)),
        "rounds": rounds,
        "cvb_score_json_median": round(statistics.median(mine) * 1000, 1),
        "cvb_score_json_worst": round(max(mine) * 1000, 1),
        "jiwer_cer_median": round(statistics.median(anchor) * 1000, 1),
        "jiwer_cer_worst": round(max(anchor) * 1000, 1),
        "ratio_cvb_vs_jiwer": round(statistics.median(m / a for m, a in zip(mine, anchor, strict=True)), 2),
        "cvb_score_json_cpu_median": round(statistics.median(mine_cpu) * 1000, 1),
        "jiwer_cer_cpu_median": round(statistics.median(anchor_cpu) * 1000, 1),
        "ratio_cvb_vs_jiwer_cpu": round(
            statistics.median(m / a for m, a in zip(mine_cpu, anchor_cpu, strict=True)), 2
        ),
        "target_ratio": target_ratio,
        "jiwer_same_alignment_work_cpu_median": round(statistics.median(same_cpu) * 1000, 1),
        "ratio_cvb_vs_jiwer_same_alignment_work_cpu": round(
            statistics.median(m / a for m, a in zip(mine_cpu, same_cpu, strict=True)), 2
        ),
        "bootstrap_resamples": report["signature"].split("|boot:")[1].split("@")[0],
        # Not the same number: ours is after the published normalisation, jiwer's on the raw texts.
        "cer_cvb": round(report["cer"], 4),
        "cer_jiwer": round(jiwer_cer, 4),
    }


# The route cvb-score's bootstrap took: stats.rates_route in a fresh interpreter (as the command starts one,
# without numpy loaded) on the report's own per-clip counts.
ROUTE_SCRIPT = """
import json, sys
from cvb_scorer.stats import rates_route
e, t, resamples = json.load(sys.stdin)
print(rates_route(e, t, resamples=resamples).name.lower())
"""


def _route_taken(report: dict[str, Any]) -> str:
    clips = report["clips"]
    errors = [
        [c["S"] + c["D"] + c["I"] for c in clips],
        [sum(c["mer_counts"][k] for k in "SDI") for c in clips],
    ]
    totals = [[c["N"] for c in clips], [c["mer_counts"]["N"] for c in clips]]
    resamples = load_packaged_rules().bootstrap.resamples
    return subprocess.run(
        [sys.executable, "-c", ROUTE_SCRIPT],
        input=json.dumps([errors, totals, resamples]),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


# Where the whole process spends its time, phase by phase, in a fresh interpreter (so imports are cold). CPU
# time of the process, not wall-clock: on a shared machine it moves less with what else is running. The command
# normalises each distinct text once, inside score_corpus; that normalisation is also timed alone first (on a
# cleared cache), so "score_corpus" includes it and "of_which_alignment" (with the clips' scores) is the
# difference.
PHASES_SCRIPT = """
import json, sys, time
t0 = time.process_time()
from cvb_scorer.cli import main
from cvb_scorer.metrics import _normalised_rows, score_corpus, simplified_costs
from cvb_scorer.normalise import normalise_reference
from cvb_scorer.report import Report, decode_jsonl, parse_jsonl, report_json
from cvb_scorer.rules import load_packaged_rules
from cvb_scorer.signature import signature
from cvb_scorer.stats import bootstrap_rates, load_route, rates_route
t1 = time.process_time()
rules = load_packaged_rules()
limit = rules.input.max_text_chars
texts = [decode_jsonl(open(p, "rb").read(), name=p) for p in sys.argv[1:3]]
refs, hyps = (parse_jsonl(t, name="f", max_chars=limit) for t in texts)
t2 = time.process_time()
triples = [(c, t, hyps[c][0] if c in hyps else None) for c, (t, _) in refs.items()]
_normalised_rows(triples)
t3 = time.process_time()
normalise_reference.cache_clear()
# As report.score_jsonl does: numpy loaded first when the bootstrap will load it (alignment then uses it too).
load_route(draws=rules.bootstrap.resamples * len(refs))
t3a = time.process_time()
corpus = score_corpus(triples)
t4 = time.process_time()
clips = sorted(corpus.clips, key=lambda c: c.id)
b = rules.bootstrap
cer, mer = bootstrap_rates(
    [[c.cer_counts.errors for c in clips], [c.mer_counts.errors for c in clips]],
    [[c.cer_counts.N for c in clips], [c.mer_counts.N for c in clips]],
    resamples=b.resamples, seed=b.seed, interval=b.interval,
)
t5 = time.process_time()
route = rates_route(
    [[c.cer_counts.errors for c in clips], [c.mer_counts.errors for c in clips]],
    [[c.cer_counts.N for c in clips], [c.mer_counts.N for c in clips]],
    resamples=b.resamples,
).name.lower()
t5a = time.process_time()
simplified_costs(corpus.clips)
t6 = time.process_time()
report_json(Report(corpus, cer, mer, signature(rules=rules), (), ())).encode("utf-8")
t7 = time.process_time()
ms = lambda a, b: round((b - a) * 1000, 1)
print(json.dumps({
    "import": ms(t0, t1),
    "read_decode_parse_json": ms(t1, t2),
    "normalise_both_sides_alone": ms(t2, t3),
    "load_numpy_for_the_bootstrap": ms(t3, t3a),
    "score_corpus": ms(t3a, t4),
    "of_which_alignment": round(ms(t3a, t4) - ms(t2, t3), 1),
    "bootstrap": ms(t4, t5),
    "bootstrap_route": route,
    "simplified_costs": ms(t5a, t6),
    # report_json computes the Simplified costs again (they are not kept between calls)
    "report_json_and_encode_with_simplified_costs": ms(t6, t7),
}))
"""


# A fresh interpreter timed in pieces runs with one OpenBLAS thread, as ``cvb-score`` does
# (``cli._one_blas_thread``): otherwise the threads numpy starts spin for about 60 ms of CPU that the command
# does not pay, and numpy's route looks dearer than it is.
AS_THE_COMMAND = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}


def phases(work: Path, clips: int = 1000) -> dict[str, Any]:
    """One fresh-interpreter breakdown of the run on ``clips`` clips, on the files ``whole_process`` wrote:
    what dominates each corpus shape."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            PHASES_SCRIPT,
            str(work / f"ref{clips}.jsonl"),
            str(work / f"hyp{clips}.jsonl"),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=AS_THE_COMMAND,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    # The phases that are parts of the whole run (score_corpus as its normalisation and the rest of it),
    # largest first, with each one's share of their sum: what dominates this shape.
    parts = {
        key: result[key]
        for key in (
            "import",
            "read_decode_parse_json",
            "load_numpy_for_the_bootstrap",
            "normalise_both_sides_alone",
            "of_which_alignment",
            "bootstrap",
            "report_json_and_encode_with_simplified_costs",
        )
    }
    total = sum(parts.values()) or 1.0
    result["dominates"] = [
        {"phase": key, "ms": ms, "share": round(ms / total, 2)}
        for key, ms in sorted(parts.items(), key=lambda item: -item[1])
    ]
    return result


def _without_bootstrap(results: dict[str, Any]) -> None:
    """Each shape's CPU ratio with the bootstrap's CPU (from its phases) taken out of ours: what the rest of the
    command costs beside jiwer, which draws no interval."""
    for shape, split in (
        ("cli_1000_clips_500_chars", "cli_1000_clips_phases_cpu"),
        ("cli_hkcancor_utterances", "cli_hkcancor_utterances_phases_cpu"),
    ):
        run = results[shape]
        rest = run["cvb_score_json_cpu_median"] - results[split]["bootstrap"]
        run["ratio_cvb_vs_jiwer_cpu_without_bootstrap"] = round(rest / run["jiwer_cer_cpu_median"], 2)


# Both bootstrap routes as whole processes (interpreter, scorer import, numpy's import on its route), so the
# clip count where the numpy route starts to pay shows beside the threshold the scorer uses.
BOOT_SCRIPT = """
import random, sys
from cvb_scorer.rules import load_packaged_rules
from cvb_scorer.stats import Route, bootstrap_rates
n, b = int(sys.argv[1]), load_packaged_rules().bootstrap
rng = random.Random(n)
e = [[rng.randrange(0, 100) for _ in range(n)] for _ in range(2)]
t = [[rng.randrange(100, 500) for _ in range(n)] for _ in range(2)]
bootstrap_rates(e, t, resamples=b.resamples, seed=b.seed, interval=b.interval, route=Route[sys.argv[2]])
"""


def bootstrap_processes(*, rounds: int) -> dict[str, Any]:
    """Wall and CPU medians (ms) of a fresh process bootstrapping n clips on each route, alternating."""
    out: dict[str, Any] = {"numpy_min_draws": NUMPY_MIN_DRAWS}
    for clips in (1, 50, 100, 150, 200, 400):
        runs: dict[str, tuple[list[float], list[float]]] = {"pure": ([], []), "numpy": ([], [])}
        for _ in range(rounds):
            for route, (walls, cpus) in runs.items():
                cpu = _children_cpu()
                start = time.perf_counter()
                command = [sys.executable, "-c", BOOT_SCRIPT, str(clips), route.upper()]
                subprocess.run(command, check=True, env=AS_THE_COMMAND)
                walls.append(time.perf_counter() - start)
                cpus.append(_children_cpu() - cpu)
        out[f"{clips}_clips"] = {
            f"{route}_{kind}_median": round(statistics.median(values) * 1000, 1)
            for route, pair in runs.items()
            for kind, values in zip(("wall", "cpu"), pair, strict=True)
        }
    return out


def import_numpy_ms(*, rounds: int) -> dict[str, float]:
    """What loading the numpy route adds to a fresh process: wall and CPU medians over ``python -c pass``."""
    costs: dict[str, list[float]] = {"wall": [], "cpu": []}
    for _ in range(rounds):
        times = []
        for code in ("import cvb_scorer.stats", "import cvb_scorer.stats, cvb_scorer.stats_numpy"):
            cpu = _children_cpu()
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=AS_THE_COMMAND)
            times.append((time.perf_counter() - start, _children_cpu() - cpu))
        costs["wall"].append(times[1][0] - times[0][0])
        costs["cpu"].append(times[1][1] - times[0][1])
    return {f"{kind}_median": round(statistics.median(v) * 1000, 1) for kind, v in costs.items()}


def numpy_route_peak_mb(errs: list[list[int]], tots: list[list[int]], *, resamples: int, seed: int) -> float:
    """Peak memory traced while the numpy route bootstraps (numpy reports its buffers to tracemalloc)."""
    tracemalloc.start()
    bootstrap_rates(errs, tots, resamples=resamples, seed=seed, interval=0.95, route=Route.NUMPY)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return round(peak / 2**20, 2)


def _alignment_texts(rng: random.Random, corpus_text: str, alphabet: str) -> list[tuple[int, str, str]]:
    """Section 1's texts: each length's reference and its hypothesis with 10% errors."""
    texts = []
    for n in (100, 500, 1500, 5000):
        start = rng.randrange(len(corpus_text) - n)
        ref = corpus_text[start : start + n]
        texts.append((n, ref, corrupt(ref, 0.10, rng, alphabet)))
    return texts


def corpus_shapes(
    work: Path, rng: random.Random, utterances: list[str], alphabet: str, results: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """The issue's two corpus shapes as whole processes against jiwer, and their phases, into `results`; the
    long clips' texts are returned for the runs that reuse them. The target for short utterances is 3x jiwer,
    for long clips 2x."""
    long_refs = [_long_text(utterances, rng, 500) for _ in range(1000)]
    long_hyps = [corrupt(r, 0.12, rng, alphabet) for r in long_refs]
    results["cli_1000_clips_500_chars"] = whole_process(work, long_refs, long_hyps, rounds=7)
    hk_refs = [u for u in utterances if u.strip()]
    results["cli_hkcancor_utterances"] = whole_process(
        work, hk_refs, [corrupt(r, 0.12, rng, alphabet) for r in hk_refs], rounds=5, target_ratio=3.0
    )
    results["cli_1000_clips_phases_cpu"] = phases(work)
    results["cli_hkcancor_utterances_phases_cpu"] = phases(work, len(hk_refs))
    _without_bootstrap(results)
    return long_refs, long_hyps


def shapes_only() -> int:
    """``--shapes``: only the two corpus shapes as whole processes and their phases (the issue's targets), on
    the same texts as a whole run, written over those keys of bench/results/scorer.json."""
    rng = random.Random(SEED)
    utterances = ["".join(w) for w in pycantonese.hkcancor().words(by_utterance=True)]
    corpus_text = "".join(utterances)
    alphabet = "".join(sorted(set(corpus_text)))
    _alignment_texts(rng, corpus_text, alphabet)  # drawn only to leave the generator where a whole run does
    results: dict[str, Any] = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    results["shapes_load_average_1min_at_start"] = round(os.getloadavg()[0], 2)
    results["shapes_signature"] = signature()  # the wheel the shapes ran; "signature" is the last whole run's
    with tempfile.TemporaryDirectory() as tmp:
        corpus_shapes(Path(tmp), rng, utterances, alphabet, results)
    results["shapes_load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    publish(OUT, results)
    return 0


def main() -> int:
    if sys.argv[1:] == ["--shapes"]:
        return shapes_only()
    rng = random.Random(SEED)
    utterances = ["".join(w) for w in pycantonese.hkcancor().words(by_utterance=True)]
    corpus_text = "".join(utterances)
    alphabet = "".join(sorted(set(corpus_text)))
    results: dict[str, Any] = {
        "scorer": __version__,
        "signature": signature(),
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "unit": "milliseconds, median",
        # Wall-clock medians on a shared 2-core machine: the load says how much else was running.
        "load_average_1min_at_start": round(os.getloadavg()[0], 2),
    }

    # 1. Alignment alone, on normalised-like text (HKCanCor characters) with 10% errors.
    alignment: dict[str, Any] = {}
    for n, ref, hyp in _alignment_texts(rng, corpus_text, alphabet):
        repeat = 30 if n <= 1500 else 10
        row = {
            # Cold: the column cache (kept for the editor's keystrokes) is cleared before every alignment.
            "cvb_align_edit_script": median_ms(
                lambda r=ref, h=hyp: (clear_cache(), align(r, h)), repeat=repeat
            ),
            "cvb_distance_only": median_ms(lambda r=ref, h=hyp: distance(r, h), repeat=repeat),
            "rapidfuzz_editops": median_ms(lambda r=ref, h=hyp: Levenshtein.editops(r, h), repeat=repeat),
            "jiwer_cer": median_ms(lambda r=ref, h=hyp: jiwer.cer(r, h), repeat=repeat),
        }
        row["ratio_cvb_vs_rapidfuzz"] = round(row["cvb_align_edit_script"] / row["rapidfuzz_editops"], 1)
        row["ratio_cvb_vs_jiwer"] = round(row["cvb_align_edit_script"] / row["jiwer_cer"], 2)
        alignment[str(n)] = row
    results["alignment_10pct_errors"] = alignment

    # 2. The command users run, as a whole process, against jiwer as a whole process on the same files.
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        long_refs, long_hyps = corpus_shapes(work, rng, utterances, alphabet, results)
        # The same clips with the hypotheses written in Simplified characters (OpenCC t2s), then the references
        # too: the Simplified-cost diagnostic folds every clip, and a Simplified reference goes through the
        # reference fold's converter.
        t2s = opencc.OpenCC("t2s").convert
        simplified_hyps = [t2s(h) for h in long_hyps]
        results["cli_1000_clips_simplified_hypotheses"] = whole_process(
            work, long_refs, simplified_hyps, rounds=3
        )
        results["cli_1000_clips_simplified_both_sides"] = whole_process(
            work, [t2s(r) for r in long_refs], simplified_hyps, rounds=3
        )

    # 3. The editor's keystroke path at 1,500 reference characters: the reference is cached; each keystroke
    # inserts a character at a random place, so on average half of the alignment columns are reused. What the
    # editor's worker runs on a keystroke is render_editor_parts: ``first`` (normalise the hypothesis, align CER
    # and MER, the drawing and the summary figures) is drawn at once, and ``rest()`` (the details: Simplified
    # cost, classes, sentences) follows while typing pauses; "the whole answer" is both, the keystroke's full
    # cost. render_view(...).to_json() is the whole view as one JSON document (the static pages' form; the
    # editor never asks for it). "cold" clears the column cache first (a pasted text).
    start = rng.randrange(len(corpus_text) - 1500)
    ref = corpus_text[start : start + 1500]
    hyp = corrupt(ref, 0.10, rng, alphabet)
    render_view(reference=ref, hypothesis=hyp)
    keystrokes = []
    for _ in range(60):
        pos = rng.randrange(len(hyp))
        hyp = hyp[:pos] + rng.choice(alphabet) + hyp[pos:]
        keystrokes.append(hyp)
    ref_norm = normalise_reference(ref)

    def whole_answer(hypothesis: str) -> str:
        parts = render_editor_parts(reference=ref, hypothesis=hypothesis)
        return parts.first + parts.rest()

    # A system that writes Simplified: the same keystrokes with 個 and 係 written 个 and 系, so the Simplified
    # cost aligns the script texts and a folded hypothesis besides CER and MER (four alignments a keystroke).
    def simplified(text: str) -> str:
        return text.replace("個", "个").replace("係", "系")

    results["keystroke_1500_chars"] = {
        "editor_whole_answer": keystroke_ms(whole_answer, keystrokes),
        "editor_first_part": keystroke_ms(
            lambda h: render_editor_parts(reference=ref, hypothesis=h).first, keystrokes
        ),
        "editor_whole_answer_simplified_hypothesis": keystroke_ms(
            whole_answer, [simplified(h) for h in keystrokes]
        ),
        "editor_first_part_simplified_hypothesis": keystroke_ms(
            lambda h: render_editor_parts(reference=ref, hypothesis=h).first,
            [simplified(h) for h in keystrokes],
        ),
        "render_view_to_json": keystroke_ms(
            lambda h: render_view(reference=ref, hypothesis=h).to_json(), keystrokes
        ),
        "normalise_hypothesis_and_align_cer_cold": median_ms(
            lambda: (clear_cache(), align(ref_norm.cer, normalise_hypothesis(hyp).cer)), repeat=50
        ),
        "render_view_to_json_cold": median_ms(
            lambda: (clear_cache(), render_view(reference=ref, hypothesis=hyp).to_json()), repeat=30
        ),
        "target_ms": 5.0,
    }
    # Typing at the end, as an entrant types: each keystroke appends the next character of the corpus, so every
    # column is reused and the walk follows the last one from where it meets it.
    typed = [hyp + corpus_text[start + 1500 : start + 1500 + k] for k in range(1, 61)]
    results["keystroke_1500_chars"]["typed_at_the_end"] = {
        "editor_whole_answer": keystroke_ms(whole_answer, typed),
        "editor_first_part": keystroke_ms(
            lambda h: render_editor_parts(reference=ref, hypothesis=h).first, typed
        ),
    }

    # 4. The bootstrap alone: 10,000 resamples of CER and MER on one shared draw, on each route (numpy already
    # imported: its import cost is measured apart), and the numpy route's traced peak memory.
    rules = load_packaged_rules()
    resamples, seed = rules.bootstrap.resamples, rules.bootstrap.seed
    boot: dict[str, Any] = {"resamples": resamples}
    for clips in (30, 1000, 16000):
        errs = [[rng.randrange(0, 10) for _ in range(clips)] for _ in range(2)]
        tots = [[rng.randrange(10, 40) for _ in range(clips)] for _ in range(2)]
        boot[f"{clips}_clips"] = {
            route.value: median_ms(
                lambda e=errs, t=tots, r=route: bootstrap_rates(
                    e, t, resamples=resamples, seed=seed, interval=0.95, route=r
                ),
                # The pure route on 16,000 clips takes about 13 s a run.
                repeat=1 if (route, clips) == (Route.PURE, 16000) else 3,
                warmup=0 if clips == 16000 else 1,
            )
            for route in (Route.PURE, Route.NUMPY)
        }
        boot[f"{clips}_clips"]["numpy_route_peak_mb"] = numpy_route_peak_mb(
            errs, tots, resamples=resamples, seed=seed
        )
    boot["import_numpy_route_whole_process"] = import_numpy_ms(rounds=7)
    boot["routes_as_whole_processes"] = bootstrap_processes(rounds=5)
    results["bootstrap"] = boot

    results["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    publish(OUT, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
