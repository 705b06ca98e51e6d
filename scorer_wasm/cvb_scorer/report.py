"""Corpus scoring of JSONL files as a report: the data behind ``cvb-score`` (text and ``--json``), kept free
of I/O so the same function runs in the browser and in the parity test."""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cvb_scorer import strict_json
from cvb_scorer._unicode import ud
from cvb_scorer.align import Op
from cvb_scorer.metrics import ClipScore, CorpusScore, SimplifiedCost, score_corpus, simplified_costs
from cvb_scorer.progress import Progress, counted
from cvb_scorer.rules import ScoringRules
from cvb_scorer.signature import signature
from cvb_scorer.stats import Interval, bootstrap_rates, load_route


class InputError(ValueError):
    """Malformed scorer input; the message names the file and line and says what to fix."""


EXAMPLE_LINE = '{"id": "clip-001", "text": "..."}'
_SURROGATE = re.compile("[\ud800-\udfff]")
_BLANK = " \t\r"
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode_jsonl(data: bytes, *, name: str) -> str:
    """The text of a JSONL file given as bytes: UTF-8, with or without a leading UTF-8 byte-order mark (RFC 8259
    lets a reader ignore it, and Windows editors write it); anything else is refused with a sentence."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise InputError(
                f"{name} is {encoding} text (it starts with a {encoding} byte-order mark); save it as UTF-8."
            )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{name} line {line} is not valid UTF-8 (byte 0x{data[exc.start]:02X} at byte {column} of the line; "
            "a Latin-1, Big5 or GBK file looks like this); save the file as UTF-8."
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(
            f"{name} line {line} holds a NUL character, as UTF-16 text without a byte-order mark does; "
            "save the file as UTF-8."
        )
    return text[1:] if text.startswith("\ufeff") else text


def _line_problem(name: str, lineno: int, problem: str) -> InputError:
    return InputError(f"{name} line {lineno} {problem}")


# The longest id a clip may have, in characters: far longer than any id anyone writes, and short enough that
# every message that names an id can show it whole.
MAX_ID_CHARS = 200


def _checked_string(value: object, key: str, *, name: str, lineno: int, max_chars: int) -> str:
    if not isinstance(value, str) or (key == "id" and not value):
        need = 'a non-empty string "id"' if key == "id" else 'a string "text" (use "" for silence)'
        raise _line_problem(name, lineno, f"needs {need}, like {EXAMPLE_LINE}.")
    if key == "id" and len(value) > MAX_ID_CHARS:
        raise _line_problem(
            name,
            lineno,
            f'has an "id" of {len(value):,} characters; an id may have at most {MAX_ID_CHARS} characters.',
        )
    bad = _SURROGATE.search(value)
    if bad:
        raise _line_problem(
            name,
            lineno,
            f'has a lone surrogate (\\u{ord(bad.group()):04x}) in its "{key}", which is not a character and '
            "cannot be written as UTF-8; fix the program that wrote the file.",
        )
    if key == "text" and len(value) > max_chars:
        raise _line_problem(
            name,
            lineno,
            f'has a "text" of {len(value):,} characters; the scorer takes at most {max_chars:,} per clip '
            "(input.max_text_chars in the scoring rules), so split the recording into shorter clips.",
        )
    return value


# A decoded string can hold a surrogate only through a \uD800-\uDFFF escape (UTF-8 cannot encode one), so a
# file without such an escape needs no search of each string.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_jsonl(text: str, *, name: str, max_chars: int) -> dict[str, tuple[str, int]]:
    """Parse ``{"id": ..., "text": ...}`` lines into id -> (text, line number); blank lines are skipped.

    Lines end at ``\\n`` only (a raw U+2028 inside a JSON string is legal JSON and does not start a line), a key
    repeated in one object is refused rather than letting the last one win silently, and a text longer than
    ``max_chars`` characters is refused."""
    records: dict[str, tuple[str, int]] = {}
    escapes = _SURROGATE_ESCAPE.search(text) is not None
    loads = strict_json.loads
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip(_BLANK):
            continue
        if line[0] == "\ufeff":
            raise _line_problem(
                name,
                lineno,
                "starts with a byte-order mark (U+FEFF), as when files are joined together; remove it.",
            )
        try:
            obj = loads(line)
        except strict_json.RepeatedKey as exc:
            raise _line_problem(
                name, lineno, f"names the key {json.dumps(exc.key)} twice in one object; write each key once."
            ) from None
        except strict_json.JsonProblem as exc:
            raise _line_problem(
                name, lineno, f"is not valid JSON ({exc}); each line must be one object like {EXAMPLE_LINE}."
            ) from None
        if type(obj) is not dict:
            raise _line_problem(name, lineno, f"is not a JSON object; write it like {EXAMPLE_LINE}.")
        clip_id, clip_text = obj.get("id"), obj.get("text")
        # The checks spelt out in _checked_string, skipped for the usual line that passes them all.
        if (
            escapes
            or type(clip_id) is not str
            or not clip_id
            or len(clip_id) > MAX_ID_CHARS
            or type(clip_text) is not str
            or len(clip_text) > max_chars
        ):
            clip_id = _checked_string(clip_id, "id", name=name, lineno=lineno, max_chars=max_chars)
            clip_text = _checked_string(clip_text, "text", name=name, lineno=lineno, max_chars=max_chars)
        if clip_id in records:
            first = records[clip_id][1]
            raise _line_problem(
                name, lineno, f'repeats id "{clip_id}" (first on line {first}); each id must appear once.'
            )
        records[clip_id] = (clip_text, lineno)
    if not records:
        raise InputError(f"{name} has no clips; it needs one JSON object per line, like {EXAMPLE_LINE}.")
    return records


def code_points(text: str) -> str:
    """``text`` as its code points (U+0065 U+0301), for ids that look alike but are not."""
    return " ".join(f"U+{ord(ch):04X}" for ch in text)


def _same_text_other_form(clip_id: str, refs: dict[str, tuple[str, int]], ref_name: str) -> str:
    """A sentence for an id that differs from one of ``refs`` only in Unicode normalisation (é written as one
    character or as e and a combining mark print alike), naming both by their code points; else nothing."""
    form = ud.normalize("NFC", clip_id)
    for other, (_, lineno) in refs.items():
        if ud.normalize("NFC", other) == form:
            return (
                f"{ref_name} line {lineno} has an id that looks the same but is written differently "
                f"({json.dumps(other)}: {code_points(other)}; this one {json.dumps(clip_id)}: "
                f"{code_points(clip_id)}), so write both ids alike; "
            )
    return ""


@dataclass(frozen=True)
class Report:
    """What ``cvb-score`` reports on a corpus; ``report_text`` and ``report_json`` write it out.

    Attributes
    ----------
    corpus : CorpusScore
        Every clip's score and the corpus counts.
    cer_interval, mer_interval : Interval
        The percentile bootstrap intervals over clips, drawn under the rules' seed.
    signature : str
        The scoring signature (``cvb_scorer.signature``): everything that changes a result.
    missing : tuple[str, ...]
        The ids of reference clips with no hypothesis, scored as all deletions.
    warnings : tuple[str, ...]
        Sentences about the intervals, each naming CER or MER.

    Examples
    --------
    See ``score_jsonl``, which makes one.
    """

    corpus: CorpusScore
    cer_interval: Interval
    mer_interval: Interval
    signature: str
    missing: tuple[str, ...]
    # Sentences about the intervals (too few clips, a collapse at a bound), each naming CER or MER.
    warnings: tuple[str, ...] = ()


def interval_warnings(label: str, interval: Interval, *, clips: int, min_clips: int) -> list[str]:
    """What a reader of ``label``'s interval must know: fewer clips than the rules ask for, or a collapse."""
    out = []
    if clips < min_clips:
        out.append(
            f"{label}: the {interval.level:.0%} interval rests on {clips} clip{'s' if clips != 1 else ''}, "
            f"fewer than the {min_clips} the scoring rules ask for (bootstrap.min_clips) before resampling "
            "clips says much about a corpus; read it as a rough range."
        )
    if interval.warning:
        out.append(f"{label}: {interval.warning}")
    return out


def score_jsonl(
    ref_text: str,
    hyp_text: str,
    *,
    rules: ScoringRules,
    ref_name: str,
    hyp_name: str,
    progress: Progress | None = None,
    scored: Callable[[CorpusScore, tuple[str, ...]], None] | None = None,
) -> Report:
    """The report on two JSONL texts; ``progress`` hears of the clips read and the resamples drawn, and
    ``scored`` gets the scored corpus and the ids without a hypothesis once the clips are scored, before the
    bootstrap (which is most of a long run when numpy is not there, as in the browser).

    Parameters
    ----------
    ref_text, hyp_text : str
        The references and the hypotheses, one ``{"id": ..., "text": ...}`` object per line.
    rules : ScoringRules
        The bootstrap's resamples, seed and interval, and the input limits.
    ref_name, hyp_name : str
        How an error names the files.

    Returns
    -------
    Report

    Raises
    ------
    InputError
        Input that cannot be scored, in a sentence naming the file and the line.

    Examples
    --------
    >>> from cvb_scorer.report import report_text, score_jsonl
    >>> from cvb_scorer.rules import load_packaged_rules
    >>> ref = '{"id": "c1", "text": "我哋嘅保單"}\\n{"id": "c2", "text": "多謝晒"}\\n'
    >>> hyp = '{"id": "c1", "text": "我地嘅保單"}\\n'
    >>> report = score_jsonl(ref, hyp, rules=load_packaged_rules(), ref_name="ref.jsonl", hyp_name="hyp.jsonl")
    >>> report.corpus.cer, report.missing
    (0.5, ('c2',))
    >>> print(report_text(report).splitlines()[0])
    Corpus CER   50.00%  95% CI [20.00%, 100.00%]  S=1 D=3 I=0 N=8
    """
    limit = rules.input.max_text_chars
    refs = parse_jsonl(ref_text, name=ref_name, max_chars=limit)
    hyps = parse_jsonl(hyp_text, name=hyp_name, max_chars=limit)
    for clip_id, (_, lineno) in hyps.items():
        if clip_id not in refs:
            raise InputError(
                f'{hyp_name} line {lineno} has id "{clip_id}", which is not in {ref_name}; '
                + _same_text_other_form(clip_id, refs, ref_name)
                + "every hypothesis must "
                "answer a reference clip (check for a typo or a different reference file)."
            )
    triples = [(cid, text, hyps[cid][0] if cid in hyps else None) for cid, (text, _) in refs.items()]
    boot = rules.bootstrap
    # Loaded now when the bootstrap will load it, numpy serves the corpus alignment too.
    load_route(draws=boot.resamples * len(triples))
    corpus = score_corpus(triples, progress=progress)
    missing = tuple(c.id for c in corpus.clips if not c.has_hypothesis)
    if scored is not None:
        scored(corpus, missing)
    # Resampling runs over the clips sorted by id (code point order, the same in every Python), so the
    # interval does not depend on the order of lines in the reference file.
    by_id = sorted(corpus.clips, key=_clip_id)
    cer_iv, mer_iv = bootstrap_rates(
        [[c.cer_counts.errors for c in by_id], [c.mer_counts.errors for c in by_id]],
        [[c.cer_counts.N for c in by_id], [c.mer_counts.N for c in by_id]],
        resamples=boot.resamples,
        seed=boot.seed,
        interval=boot.interval,
        progress=progress,
    )
    n = len(by_id)
    warnings = [
        *interval_warnings("CER", cer_iv, clips=n, min_clips=boot.min_clips),
        *interval_warnings("MER", mer_iv, clips=n, min_clips=boot.min_clips),
    ]
    return Report(corpus, cer_iv, mer_iv, signature(rules=rules), missing, tuple(warnings))


def _clip_id(clip: ClipScore) -> str:
    return clip.id


def _ci_key(level: float) -> str:
    return f"ci{round(level * 100):d}"


def report_dict(report: Report, *, progress: Progress | None = None, clips: bool = True) -> dict[str, Any]:
    """The report as the JSON object ``cvb-score --json`` prints; ``progress`` hears of the clips written.
    Without ``clips``, the clips are left out and their Simplified costs are under a key of their own (for
    ``report_json``, which writes the clips itself)."""
    level = report.cer_interval.level
    intervals = {
        "cer": [report.cer_interval.low, report.cer_interval.high],
        "mer": [report.mer_interval.low, report.mer_interval.high],
    }
    warnings = list(report.warnings)
    return {
        **_scored_fields(report.corpus, report.missing, progress=progress, clips=clips),
        _ci_key(level): intervals,
        "interval": {"level": level, "method": "percentile bootstrap over clips", "warnings": warnings},
        "signature": report.signature,
    }


def _scored_fields(
    corpus: CorpusScore, missing: tuple[str, ...], *, progress: Progress | None, clips: bool = True
) -> dict[str, Any]:
    """What the report says once the clips are scored: everything but the intervals and the signature."""
    costs = simplified_costs(corpus.clips)
    if not clips:
        return {**_corpus_fields(corpus, missing, costs), _COSTS: costs}
    return {
        **_corpus_fields(corpus, missing, costs),
        "clips": [
            _clip_dict(clip, simplified)
            for clip, simplified in counted(
                zip(corpus.clips, costs, strict=True),
                phase="report",
                total=len(corpus.clips),
                progress=progress,
            )
        ],
    }


def _corpus_fields(
    corpus: CorpusScore, missing: tuple[str, ...], costs: list[SimplifiedCost]
) -> dict[str, Any]:
    c, m = corpus.cer_counts, corpus.mer_counts
    return {
        "cer": corpus.cer,
        "mer": corpus.mer,
        "counts": {"S": c.S, "D": c.D, "I": c.I, "N": c.N},
        "mer_counts": {"S": m.S, "D": m.D, "I": m.I, "N": m.N},
        "coverage": {
            "clips": len(corpus.clips),
            "with_hypothesis": corpus.covered,
            "share": corpus.coverage,
            "missing": list(missing),
        },
        # The Simplified costs of all clips at once: the clips that need alignments share them.
        "simplified": _simplified_total(corpus, costs),
    }


def _simplified_total(corpus: CorpusScore, costs: list[SimplifiedCost]) -> dict[str, Any]:
    """The corpus's Simplified cost: Simplified-only characters in the hypotheses, the CER errors that writing
    Hong Kong Traditional would have avoided, and their share of all CER errors."""
    errors = sum(c.errors for c in costs)
    total = corpus.cer_counts.errors
    return {
        "characters": sum(c.characters for c in costs),
        "errors": errors,
        "share_of_errors": errors / total if total else 0.0,
    }


def scored_json(corpus: CorpusScore, missing: tuple[str, ...]) -> str:
    """The report's JSON before its intervals: ``report_json``'s object without the ``ci..``, ``interval``
    and ``signature`` keys, every other value the same. The editor's file mode shows it while the bootstrap
    runs."""
    return _dumps(_scored_fields(corpus, missing, progress=None))


def _clip_dict(clip: ClipScore, simplified: SimplifiedCost) -> dict[str, Any]:
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
        "simplified_errors": simplified.errors,
    }


def report_json(report: Report, *, progress: Progress | None = None) -> str:
    """``_dumps(report_dict(report))``, the same text (tests/scorer/test_report_json.py compares them), with
    each clip written by ``clip_json`` instead of as a dictionary encoded by ``json``: a report has one
    object per clip, and on a corpus of short clips building and encoding them was a large part of the
    command's own work."""
    fields = report_dict(report, progress=None, clips=False)
    clips = report.corpus.clips
    costs = fields.pop(_COSTS)
    parts = [
        clip_json(clip, cost)
        for clip, cost in counted(
            zip(clips, costs, strict=True), phase="report", total=len(clips), progress=progress
        )
    ]
    fields["clips"] = _CLIPS_MARK
    head, tail = _dumps(fields).split(_ENCODED_CLIPS_MARK, 1)
    return head + "[" + ",".join(parts) + "]" + tail


# What stands for the clips while the rest of the report is encoded: the keys sorted before "clips" hold only
# numbers, so its first occurrence in the encoded report is the mark itself.
_CLIPS_MARK = "\x00clips\x00"
_ENCODED_CLIPS_MARK = json.dumps(_CLIPS_MARK)
_COSTS = "\x00costs"
# ``json``'s own string encoder (in C), as ``json.dumps(..., ensure_ascii=False)`` writes a string.
_encode_string: Callable[[str], str] = json.encoder.encode_basestring


def clip_json(clip: ClipScore, simplified: SimplifiedCost) -> str:
    """``_dumps(_clip_dict(clip, simplified))``: one clip of the report, its keys in sorted order."""
    c, m = clip.cer_counts, clip.mer_counts
    cer, mer = clip.cer, clip.mer
    folds = clip.reference.fold_changes
    return (
        (
            f'{{"D":{c.D:d},"I":{c.I:d},"N":{c.N:d},"S":{c.S:d},'
            f'"cer":{cer!r},'
            f'"fold_changes":{_dumps([[f.index, f.before, f.after] for f in folds]) if folds else "[]"},'
            f'"has_hypothesis":{"true" if clip.has_hypothesis else "false"},'
            f'"hyp_norm":{_encode_string(clip.hypothesis.text)},'
            f'"id":{_encode_string(clip.id)},'
            f'"mer":{mer!r},'
            f'"mer_counts":{{"D":{m.D:d},"I":{m.I:d},"N":{m.N:d},"S":{m.S:d}}},'
            f'"ref_norm":{_encode_string(clip.reference.text)},'
            f'"simplified_errors":{simplified.errors:d}}}'
        )
        if math.isfinite(cer) and math.isfinite(mer)
        else _dumps(_clip_dict(clip, simplified))
    )


def _dumps(fields: dict[str, Any] | list[Any]) -> str:
    return json.dumps(fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


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
    lines.extend(f"Warning: {w}" for w in report.warnings)
    total = len(corpus.clips)
    cov = f"Coverage: {corpus.covered} of {total} clips have a hypothesis"
    if report.missing:
        shown = ", ".join(report.missing[:10]) + (" ..." if len(report.missing) > 10 else "")
        cov += f"; {len(report.missing)} missing, scored as all deletions: {shown}"
    lines.append(cov + ".")
    simplified = _simplified_total(corpus, simplified_costs(corpus.clips))
    lines.append(
        f"Simplified: {simplified['characters']} Simplified-only characters in the hypotheses; "
        f"{simplified['errors']} of the {corpus.cer_counts.errors} CER errors "
        f"({_pct(simplified['share_of_errors'])}) would have been avoided by writing Hong Kong Traditional."
    )
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
    if not clip.cer_alignment.runs:
        out.append("(both texts are empty after normalisation)")
    return "\n".join(out).rstrip("\n") + "\n"
