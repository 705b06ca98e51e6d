"""Benchmark the scorer side by side with rapidfuzz and jiwer, in one run, and write
bench/results/scorer.json.

Measured: alignment at 100/500/1,500/5,000 reference characters; end-to-end scoring of a 1,000-clip corpus
against ``jiwer.cer`` on the same texts; the editor's keystroke path at 1,500 characters; the bootstrap. Every
figure is a median of repeated runs, in milliseconds. Run with ``make bench`` (or ``.venv/bin/python
bench/scorer.py``); it imports the installed wheel.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jiwer
import pycantonese
from cvb_scorer import __version__
from cvb_scorer.align import align, clear_cache, distance
from cvb_scorer.metrics import _cached_token_texts as reference_tokens
from cvb_scorer.metrics import score_corpus
from cvb_scorer.normalise import normalise_hypothesis, normalise_reference
from cvb_scorer.report import score_jsonl
from cvb_scorer.rules import load_packaged_rules
from cvb_scorer.signature import signature
from cvb_scorer.stats import bootstrap_rates
from cvb_scorer.view import render_view
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


def main() -> int:
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
    for n in (100, 500, 1500, 5000):
        start = rng.randrange(len(corpus_text) - n)
        ref = corpus_text[start : start + n]
        hyp = corrupt(ref, 0.10, rng, alphabet)
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

    # 2. A 1,000-clip corpus end to end: normalise both sides, align, sum (CER and MER) vs jiwer.cer.
    refs = [rng.choice(utterances) + rng.choice(utterances) for _ in range(1000)]
    hyps = [corrupt(r, 0.12, rng, alphabet) for r in refs]
    triples = [(f"c{k}", r, h) for k, (r, h) in enumerate(zip(refs, hyps, strict=True))]

    def ours() -> float:
        # A fresh corpus: no reference cache (normalised texts, MER tokens, alignment columns) to lean on.
        normalise_reference.cache_clear()
        reference_tokens.cache_clear()
        clear_cache()
        return score_corpus(triples).cer

    ours_ms, jiwer_ms, ratio = side_by_side_ms(ours, lambda: jiwer.cer(refs, hyps), repeat=15)
    corpus = {
        "clips": len(refs),
        "reference_chars": sum(len(r) for r in refs),
        "cvb_score_corpus": ours_ms,
        "jiwer_cer": jiwer_ms,
        # The median of the ratios of rounds timed back to back (see side_by_side_ms).
        "ratio_cvb_vs_jiwer": ratio,
        "target_ratio": 2.0,
    }
    ref_jsonl = "".join(json.dumps({"id": c, "text": r}, ensure_ascii=False) + "\n" for c, r, _ in triples)
    hyp_jsonl = "".join(json.dumps({"id": c, "text": h}, ensure_ascii=False) + "\n" for c, _, h in triples)
    rules = load_packaged_rules()
    corpus["cvb_full_report_with_bootstrap"] = median_ms(
        lambda: score_jsonl(ref_jsonl, hyp_jsonl, rules=rules, ref_name="r", hyp_name="h"), repeat=3
    )
    results["corpus_1000_clips"] = corpus

    # 3. The editor's keystroke path at 1,500 reference characters: the reference is cached; each keystroke
    # inserts a character at a random place (normalise hypothesis + align CER and MER + build the view), so on
    # average half of the alignment columns are reused. "cold" clears the column cache first (a pasted text).
    start = rng.randrange(len(corpus_text) - 1500)
    ref = corpus_text[start : start + 1500]
    hyp = corrupt(ref, 0.10, rng, alphabet)
    render_view(reference=ref, hypothesis=hyp)
    keystrokes = []
    for _ in range(60):
        pos = rng.randrange(len(hyp))
        hyp = hyp[:pos] + rng.choice(alphabet) + hyp[pos:]
        keystrokes.append(hyp)
    it = iter(keystrokes)
    ref_norm = normalise_reference(ref)
    results["keystroke_1500_chars"] = {
        "render_view_to_json": median_ms(
            lambda: render_view(reference=ref, hypothesis=next(it)).to_json(), repeat=50, warmup=5
        ),
        "normalise_hypothesis_and_align_cer_cold": median_ms(
            lambda: (clear_cache(), align(ref_norm.cer, normalise_hypothesis(hyp).cer)), repeat=50
        ),
        "render_view_to_json_cold": median_ms(
            lambda: (clear_cache(), render_view(reference=ref, hypothesis=hyp).to_json()), repeat=30
        ),
        "target_ms": 5.0,
    }

    # 4. The bootstrap: 10,000 resamples of CER and MER on one shared draw.
    boot: dict[str, Any] = {"resamples": rules.bootstrap.resamples}
    for clips in (30, 1000):
        errs = [[rng.randrange(0, 10) for _ in range(clips)] for _ in range(2)]
        tots = [[rng.randrange(10, 40) for _ in range(clips)] for _ in range(2)]
        boot[f"{clips}_clips"] = median_ms(
            lambda e=errs, t=tots: bootstrap_rates(
                e, t, resamples=rules.bootstrap.resamples, seed=rules.bootstrap.seed, interval=0.95
            ),
            repeat=3,
            warmup=0,
        )
    results["bootstrap"] = boot

    results["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    publish(OUT, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
