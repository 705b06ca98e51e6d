"""Corpus scoring of JSONL files as a report: the data behind ``cvb-score`` (text and ``--json``), kept free
of I/O so the same function runs in the browser and in the parity test."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cvb_scorer._unicode import ud
from cvb_scorer.align import Op
from cvb_scorer.metrics import ClipScore, CorpusScore, score_corpus
from cvb_scorer.rules import ScoringRules
from cvb_scorer.signature import signature
from cvb_scorer.stats import Interval, bootstrap_rates


class InputError(ValueError):
    """Malformed scorer input; the message names the file and line and says what to fix."""


EXAMPLE_LINE = '{"id": "clip-001", "text": "..."}'


def parse_jsonl(text: str, *, name: str) -> dict[str, tuple[str, int]]:
    """Parse ``{"id": ..., "text": ...}`` lines into id -> (text, line number); blank lines are skipped."""
    records: dict[str, tuple[str, int]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{name} line {lineno} is not valid JSON ({exc.msg} at column {exc.colno}); "
                "each line must be one "
                f"object like {EXAMPLE_LINE}."
            ) from None
        if not isinstance(obj, Mapping):
            raise InputError(f"{name} line {lineno} is not a JSON object; write it like {EXAMPLE_LINE}.")
        clip_id, clip_text = obj.get("id"), obj.get("text")
        if not isinstance(clip_id, str) or not clip_id:
            raise InputError(f'{name} line {lineno} needs a non-empty string "id", like {EXAMPLE_LINE}.')
        if not isinstance(clip_text, str):
            raise InputError(
                f'{name} line {lineno} needs a string "text" (use "" for silence), like {EXAMPLE_LINE}.'
            )
        if clip_id in records:
            first = records[clip_id][1]
            raise InputError(
                f'{name} line {lineno} repeats id "{clip_id}" (first on line {first}); '
                "each id must appear once."
            )
        records[clip_id] = (clip_text, lineno)
    if not records:
        raise InputError(f"{name} has no clips; it needs one JSON object per line, like {EXAMPLE_LINE}.")
    return records


@dataclass(frozen=True)
class Report:
    corpus: CorpusScore
    cer_interval: Interval
    mer_interval: Interval
    signature: str
    missing: tuple[str, ...]


def score_jsonl(ref_text: str, hyp_text: str, *, rules: ScoringRules, ref_name: str, hyp_name: str) -> Report:
    refs = parse_jsonl(ref_text, name=ref_name)
    hyps = parse_jsonl(hyp_text, name=hyp_name)
    for clip_id, (_, lineno) in hyps.items():
        if clip_id not in refs:
            raise InputError(
                f'{hyp_name} line {lineno} has id "{clip_id}", which is not in {ref_name}; '
                "every hypothesis must "
                "answer a reference clip (check for a typo or a different reference file)."
            )
    triples = [(cid, text, hyps[cid][0] if cid in hyps else None) for cid, (text, _) in refs.items()]
    corpus = score_corpus(triples)
    boot = rules.bootstrap
    cer_iv, mer_iv = bootstrap_rates(
        [[c.cer_counts.errors for c in corpus.clips], [c.mer_counts.errors for c in corpus.clips]],
        [[c.cer_counts.N for c in corpus.clips], [c.mer_counts.N for c in corpus.clips]],
        resamples=boot.resamples,
        seed=boot.seed,
        interval=boot.interval,
    )
    missing = tuple(c.id for c in corpus.clips if not c.has_hypothesis)
    return Report(corpus, cer_iv, mer_iv, signature(rules=rules), missing)


def _ci_key(level: float) -> str:
    return f"ci{round(level * 100):d}"


def report_dict(report: Report) -> dict[str, Any]:
    corpus = report.corpus
    c, m = corpus.cer_counts, corpus.mer_counts
    level = report.cer_interval.level
    intervals = {
        "cer": [report.cer_interval.low, report.cer_interval.high],
        "mer": [report.mer_interval.low, report.mer_interval.high],
    }
    warnings = [w for w in (report.cer_interval.warning, report.mer_interval.warning) if w]
    return {
        "cer": corpus.cer,
        "mer": corpus.mer,
        _ci_key(level): intervals,
        "interval": {"level": level, "method": "percentile bootstrap over clips", "warnings": warnings},
        "counts": {"S": c.S, "D": c.D, "I": c.I, "N": c.N},
        "mer_counts": {"S": m.S, "D": m.D, "I": m.I, "N": m.N},
        "coverage": {
            "clips": len(corpus.clips),
            "with_hypothesis": corpus.covered,
            "share": corpus.coverage,
            "missing": list(report.missing),
        },
        "clips": [_clip_dict(clip) for clip in corpus.clips],
        "signature": report.signature,
    }


def _clip_dict(clip: ClipScore) -> dict[str, Any]:
    c = clip.cer_counts
    return {
        "id": clip.id,
        "cer": clip.cer,
        "mer": clip.mer,
        "S": c.S,
        "D": c.D,
        "I": c.I,
        "N": c.N,
        "mer_counts": {
            "S": clip.mer_counts.S,
            "D": clip.mer_counts.D,
            "I": clip.mer_counts.I,
            "N": clip.mer_counts.N,
        },
        "ref_norm": clip.reference.text,
        "hyp_norm": clip.hypothesis.text,
        "has_hypothesis": clip.has_hypothesis,
        "fold_changes": [[f.index, f.before, f.after] for f in clip.reference.fold_changes],
        "simplified_errors": clip.simplified.errors,
    }


def report_json(report: Report) -> str:
    return json.dumps(report_dict(report), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def score_jsonl_to_json(
    ref_text: str,
    hyp_text: str,
    *,
    rules: ScoringRules,
    ref_name: str = "REF.jsonl",
    hyp_name: str = "HYP.jsonl",
) -> str:
    """What ``cvb-score REF HYP --json`` prints, from the files' contents (no I/O)."""
    return report_json(score_jsonl(ref_text, hyp_text, rules=rules, ref_name=ref_name, hyp_name=hyp_name))


def _pct(x: float) -> str:
    return f"{x * 100:.2f}%"


def report_text(report: Report) -> str:
    corpus = report.corpus
    lines: list[str] = []
    level = f"{report.cer_interval.level:.0%}"
    for label, value, iv, cnt in (
        ("CER", corpus.cer, report.cer_interval, corpus.cer_counts),
        ("MER", corpus.mer, report.mer_interval, corpus.mer_counts),
    ):
        lines.append(
            f"Corpus {label} {_pct(value):>8}  {level} CI [{_pct(iv.low)}, {_pct(iv.high)}]  "
            f"S={cnt.S} D={cnt.D} I={cnt.I} N={cnt.N}"
        )
    lines.append(
        "  (MER is the Mix Error Rate: Han characters, Latin words and numbers count one token each.)"
    )
    for iv in (report.cer_interval, report.mer_interval):
        if iv.warning:
            lines.append(f"Warning: {iv.warning}")
    total = len(corpus.clips)
    cov = f"Coverage: {corpus.covered} of {total} clips have a hypothesis"
    if report.missing:
        shown = ", ".join(report.missing[:10]) + (" ..." if len(report.missing) > 10 else "")
        cov += f"; {len(report.missing)} missing, scored as all deletions: {shown}"
    lines.append(cov + ".")
    lines.append("")
    width = max(4, *(display_width(c.id) for c in corpus.clips))
    lines.append(f"{'clip':<{width}}  {'CER':>8} {'MER':>8} {'S':>5} {'D':>5} {'I':>5} {'N':>6}")
    for clip in corpus.clips:
        c = clip.cer_counts
        pad = " " * (width - display_width(clip.id))
        mark = "" if clip.has_hypothesis else "  (no hypothesis)"
        lines.append(
            f"{clip.id}{pad}  {_pct(clip.cer):>8} {_pct(clip.mer):>8} "
            f"{c.S:>5} {c.D:>5} {c.I:>5} {c.N:>6}{mark}"
        )
    lines.append("")
    lines.append(f"Signature: {report.signature}")
    return "\n".join(lines) + "\n"


def display_width(text: str) -> int:
    return sum(2 if ud.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


_MARK = {Op.MATCH: " ", Op.SUBSTITUTE: "S", Op.DELETE: "D", Op.INSERT: "I"}


def alignment_text(clip: ClipScore, *, width: int = 60) -> str:
    """One clip's CER alignment, wrapped to ``width`` columns, three lines per block (REF, HYP, ops)."""
    ref, hyp = clip.reference.cer, clip.hypothesis.cer
    c = clip.cer_counts
    out = [
        f"Clip {clip.id}: CER {_pct(clip.cer)} (S={c.S} D={c.D} I={c.I} N={c.N}), MER {_pct(clip.mer)}",
        "Legend: S substitution, D deletion (in REF, missing from HYP), I insertion (in HYP, not in REF), "
        "* nothing on that side, blank = match.",
        "",
    ]
    rows: list[list[str]] = [[], [], []]
    used = 0

    def flush() -> None:
        nonlocal rows, used
        if used:
            out.extend(("REF " + "".join(rows[0]), "HYP " + "".join(rows[1]), "    " + "".join(rows[2]), ""))
        rows = [[], [], []]
        used = 0

    for op, i, j in clip.cer_alignment.ops:
        r = ref[i] if i >= 0 else "*"
        h = hyp[j] if j >= 0 else "*"
        w = max(display_width(r), display_width(h), 1)
        if used + w + 1 > width:
            flush()
        rows[0].append(r + " " * (w - display_width(r)) + " ")
        rows[1].append(h + " " * (w - display_width(h)) + " ")
        rows[2].append(_MARK[op] + " " * w)
        used += w + 1
    flush()
    if not clip.cer_alignment.ops:
        out.append("(both texts are empty after normalisation)")
    return "\n".join(out).rstrip("\n") + "\n"
