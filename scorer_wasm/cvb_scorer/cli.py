"""``cvb-score REF.jsonl HYP.jsonl [--json] [--align ID] [--rules FILE]``: corpus CER and MER with intervals,
coverage, per-clip figures and the scoring signature. ``-`` for either file reads standard input.

Errors are sentences naming the file and line, never tracebacks; the exit code is 2 for bad input and 0 on
success. Output is UTF-8 bytes whatever the console's encoding (a redirected Traditional-Chinese Windows console
is cp950, which cannot hold every character a transcript may), written in one piece once everything is computed,
so a failure never leaves a half-written report.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from cvb_scorer import __version__
from cvb_scorer.progress import Progress, throttled
from cvb_scorer.report import (
    InputError,
    Report,
    alignment_text,
    decode_jsonl,
    report_json,
    report_text,
    score_jsonl,
    scored_json,
)
from cvb_scorer.rules import RulesError, ScoringRules, load_packaged_rules, rules_from_json

STDIN = "-"


def _read(path: str) -> bytes:
    if path == STDIN:
        if sys.stdin is None:  # started without a standard input (pythonw, a closed descriptor)
            raise InputError("- means standard input, but this process has none; pass a file path.")
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        raise InputError(f"{path} does not exist; pass the path of a JSONL file.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory; pass the path of a JSONL file.") from None
    except OSError as exc:
        raise InputError(f"{path} cannot be read ({exc.strerror}).") from None


def _name(path: str) -> str:
    return "standard input" if path == STDIN else path


def _rules(path: str | None) -> ScoringRules:
    if path is None:
        return load_packaged_rules()
    data = _read(path)
    try:
        text = decode_jsonl(data, name=path)
    except InputError as exc:
        raise RulesError(str(exc)) from None
    return rules_from_json(text, source=path)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cvb-score",
        description="Score hypotheses against references: corpus CER and Mix Error Rate with intervals.",
    )
    p.add_argument(
        "ref", metavar="REF.jsonl", help='references, one {"id": ..., "text": ...} per line; - reads stdin'
    )
    p.add_argument(
        "hyp",
        metavar="HYP.jsonl",
        help="hypotheses, same format; missing ids count as all deletions; - reads stdin",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    p.add_argument("--align", metavar="ID", help="print one clip's alignment, wrapped, with a legend")
    p.add_argument("--rules", metavar="FILE", help="scoring rules JSON to use instead of the packaged ones")
    p.add_argument("--version", action="version", version=f"cvb-score {__version__}")
    return p


def _write(stream: TextIO, text: str) -> None:
    """``text`` as UTF-8 bytes on the stream's binary buffer, whatever encoding the stream was opened with."""
    data = text.encode("utf-8", "backslashreplace")
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding that replaced sys.stdout): it takes str
        stream.write(text)
        stream.flush()
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()


def _output(
    args: argparse.Namespace,
    *,
    progress: Progress | None,
    scored: Callable[[str], None] | None,
    reported: Callable[[Report], None] | None,
) -> str:
    if args.ref == STDIN and args.hyp == STDIN:
        raise InputError("REF and HYP cannot both be - (standard input); pass at most one of them as -.")
    rules = _rules(args.rules)
    ref_name, hyp_name = _name(args.ref), _name(args.hyp)
    report = score_jsonl(
        decode_jsonl(_read(args.ref), name=ref_name),
        decode_jsonl(_read(args.hyp), name=hyp_name),
        rules=rules,
        ref_name=ref_name,
        hyp_name=hyp_name,
        progress=progress,
        scored=None if scored is None else lambda corpus, missing: scored(scored_json(corpus, missing)),
    )
    if reported is not None:
        reported(report)
    if args.align is not None:
        clip = next((c for c in report.corpus.clips if c.id == args.align), None)
        if clip is None:
            raise InputError(f'{ref_name} has no clip with id "{args.align}"; pass an id from that file.')
        return alignment_text(clip)
    if args.json:
        return report_json(report, progress=progress) + "\n"
    return report_text(report)


def _one_blas_thread() -> None:
    """The bootstrap's numpy route (``cvb_scorer.stats_numpy``) gathers and sums and never calls BLAS, yet the
    OpenBLAS inside numpy's wheels starts a thread per core when numpy loads, and they spin waiting for work,
    CPU taken from the command and from anything beside it (bench/scorer.py measures it). OpenBLAS reads the
    variable when numpy loads, so it is set only before that, only when run as the command (a caller passing
    ``argv`` keeps its process as it was), and a user's own setting wins."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(
    argv: Sequence[str] | None = None,
    *,
    progress: Progress | None = None,
    scored: Callable[[str], None] | None = None,
    reported: Callable[[Report], None] | None = None,
) -> int:
    """The command; ``progress(phase, done, total)``, when given, hears how a long run advances, at most once
    per whole percent of each phase (``cvb_scorer.progress``): the editor's file mode draws its bar from it.
    ``scored(json)``, when given, gets the report's figures and clips before the intervals are computed
    (``report.scored_json``), once, and only for input that scores; ``reported(report)`` gets the ``Report``
    the output is made from (``report_text(report)`` is what the command prints without ``--json``), so a
    caller that wants both forms computes the report once. Neither hook changes what is printed."""
    if argv is None:
        _one_blas_thread()
    args = _parser().parse_args(argv)
    try:
        text = _output(
            args,
            progress=None if progress is None else throttled(progress),
            scored=scored,
            reported=reported,
        )
    except (InputError, RulesError) as exc:
        _write(sys.stderr, f"cvb-score: {exc}\n")
        return 2
    except RecursionError:
        _write(sys.stderr, "cvb-score: the input nests too deeply to score; check the files are JSONL.\n")
        return 2
    except MemoryError:
        _write(sys.stderr, "cvb-score: the input needs more memory than this machine has; split it.\n")
        return 2
    except KeyboardInterrupt:
        return 130  # the shell's code for a run stopped by Ctrl-C; nothing was written
    try:
        _write(sys.stdout, text)
    except BrokenPipeError:
        # The reader went away (`cvb-score ... | head`); what it read was whole lines of a complete report.
        # Point stdout at /dev/null so the interpreter's final flush does not raise a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError) as exc:  # a full disk, a closed descriptor, no stdout at all
        _write(sys.stderr, f"cvb-score: the report could not be written to standard output ({exc}).\n")
        return 1
    return 0


def run() -> NoReturn:
    """The ``cvb-score`` command: ``main`` in a short process of its own, which it treats as one.

    Scoring makes millions of small objects and no reference cycles, so the cycle collector's passes find
    nothing: what the imports made is set aside and a pass runs only every 100,000 new objects. At the end the
    report is written and flushed, and the process ends without the interpreter freeing every object one by
    one (mypy ends the same way): nothing is left to release once the output is out. ``main`` called from
    Python keeps both to itself (bench/scorer.py measures the command as a whole process)."""
    gc.freeze()
    gc.set_threshold(100_000, 20, 100)
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed or full stream: main has said what it could
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
