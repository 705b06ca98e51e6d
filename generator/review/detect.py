"""The scan's rules, pure: names and text in, findings out. No file system, no submission code.

Each detector answers one question a reviewer asks by hand: is a prohibited source named, is a held-out
conversation id used as an identifier, does training, calibration or selection code read a validation or test
split. They favour a finding a reviewer dismisses in a second over a violation nobody sees, but an ordinary
number that merely equals an id (an epoch count, a layer width) is not a finding: an id must stand beside a word
that names a conversation, or in a list made almost entirely of the release's ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from generator.config.models import EndpointingFile
from generator.review.findings import Check, Finding, Severity

# Files whose names are bare numbers count as conversation files only when they hold data of a conversation.
DATA_SUFFIXES = frozenset(
    {".wav", ".flac", ".mp3", ".ogg", ".opus", ".json", ".jsonl", ".csv", ".tsv", ".txt", ".rttm", ".lab",
     ".textgrid", ".npy", ".npz", ".pt", ".pkl", ".parquet", ".arrow"}
)  # fmt: skip
_MATCH_SHOWN = 80


@dataclass(frozen=True)
class ScanRules:
    """The config's release and scan settings, compiled once per scan."""

    shipped: frozenset[int]
    held_out: frozenset[int]
    shipped_path: str
    shipped_files: tuple[str, ...]
    sources: tuple[str, ...]
    hosts: tuple[str, ...]
    identifier_words: tuple[str, ...]
    split_words: tuple[str, ...]
    training_words: tuple[str, ...]
    min_id_list: int
    id_list_share: float

    @classmethod
    def from_config(cls, endpointing: EndpointingFile) -> ScanRules:
        release, scan = endpointing.release, endpointing.scan
        return cls(
            shipped=frozenset(release.shipped_ids),
            held_out=frozenset(release.held_out_ids),
            shipped_path=release.shipped_path.rstrip("/"),
            shipped_files=tuple(f.rstrip("/") for f in release.shipped_files),
            sources=tuple(release.prohibited_sources),
            hosts=tuple(scan.mirror_hosts),
            identifier_words=tuple(w.lower() for w in scan.identifier_words),
            split_words=tuple(w.lower() for w in scan.split_words),
            training_words=tuple(w.lower() for w in scan.training_words),
            min_id_list=scan.min_id_list,
            id_list_share=scan.id_list_share,
        )

    @property
    def release(self) -> frozenset[int]:
        return self.shipped | self.held_out


def _loose(name: str) -> str:
    """A name's letters and digits with any separator (or none) between its parts: turn-benchmark-dev,
    turn_benchmark_dev and TurnBenchmarkDev are one name."""
    parts = [re.escape(p) for p in re.split(r"[-_. ]+", name) if p]
    return r"[-_. ]?".join(parts)


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


@dataclass(frozen=True)
class _Patterns:
    source: re.Pattern[str]
    source_names: tuple[tuple[re.Pattern[str], str], ...]
    id_key: re.Pattern[str]
    id_name: re.Pattern[str]
    id_list: re.Pattern[str]
    number_line: re.Pattern[str]
    split_read: re.Pattern[str]


def compile_patterns(rules: ScanRules) -> _Patterns:
    # A source is owner/name; Hugging Face's cache writes it owner--name, and mirrors put a host in front.
    sources: list[tuple[re.Pattern[str], str]] = []
    for source in rules.sources:
        owner, _, name = source.partition("/")
        full = f"{_loose(owner)}(?:/|--|___)(?:{_loose(name)})" if name else _loose(owner)
        sources.append((re.compile(rf"(?i)(?<![a-z0-9]){full}(?![a-z0-9])"), source))
        if name:
            sources.append((re.compile(rf"(?i)(?<![a-z0-9/-]){_loose(name)}(?![a-z0-9])"), source))
    host = _alternation(rules.hosts)
    words = _alternation(rules.identifier_words)
    splits = _alternation(rules.split_words)
    return _Patterns(
        source=re.compile(rf"(?i)(?:https?://)?(?:www\.)?({host})(?:/datasets)?/?"),
        source_names=tuple(sources),
        # conversation_id: 38 / conv_ids=[38, 40] / "turnbench": "105" / session 40
        id_key=re.compile(
            rf"(?i)(?<![a-z0-9])(?:{words})(?P<plural>s)?(?P<key>[_\- ]?(?:ids?|no|nums?|numbers?|#))?"
            r"(?P<sep>[\"']?[ \t]*[:=]?[ \t]*[\[\(]?[ \t]*[\"']?|[_\-.# ]?)"
            r"(?P<ids>\d{1,4}(?:[ \t]*[\"']?[ \t]*[,;][ \t]*[\"']?[ \t]*\d{1,4})*)(?![\w.])"
        ),
        id_name=re.compile(rf"(?i)(?<![a-z0-9])(?:{words})[_\-. ]?0*(\d{{1,4}})(?![\d])"),
        id_list=re.compile(
            r"\d{1,4}(?:[ \t]*[\"']?[ \t]*[,;\t][ \t]*[\"']?[ \t]*\d{1,4})"
            rf"{{{rules.min_id_list - 1},}}(?![\d.])"
        ),
        # One number alone on a line (an id file); the leading newline lets the engine jump between lines.
        number_line=re.compile(r"\n[ \t]*[\"']?(\d{1,4})[\"']?[ \t]*[,;]?[ \t]*\r?(?=\n)"),
        split_read=re.compile(
            rf"(?i)(?:split[\"']?[ \t]*[:=][ \t]*[\"']?(?:{splits})(?:ation|id)?\b"
            rf"|--split[ =]+(?:{splits})\b"
            rf"|\[[\"'](?:{splits})(?:ation)?[\"']\]"
            rf"|(?<![a-z])(?:{splits})(?:ation)?(?:[_-]?(?:set|split|data))?"
            r"\.(?:jsonl|json|csv|tsv|txt|parquet|arrow|scp|list)\b)"
        ),
    )


def _shown(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _MATCH_SHOWN else flat[: _MATCH_SHOWN - 1] + "…"


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


class Detector:
    """All of a scan's rules; `text` and `name` are called once per chunk and once per path."""

    def __init__(self, rules: ScanRules) -> None:
        self.rules = rules
        self.p = compile_patterns(rules)
        # A source's pattern cannot match without the longest piece of its name, whatever the separators.
        self.source_words = tuple(
            max(re.split(r"[-_. ]+", (s.partition("/")[2] or s).lower()), key=len) for s in rules.sources
        )

    # --- names -------------------------------------------------------------------------------------------
    def name(self, path: str) -> list[Finding]:
        """A file or folder name (the last component of ``path``) that carries a held-out id or a source."""
        base = path.rsplit("/", 1)[-1]
        found = [
            self._source_finding(path, None, m.group(0), source)
            for pattern, source in self.p.source_names
            for m in pattern.finditer(base)
        ]
        for m in self.p.id_name.finditer(base):
            if int(m.group(1)) in self.rules.held_out:
                found.append(
                    Finding(
                        Check.PROVENANCE,
                        Severity.FAILS,
                        path,
                        None,
                        "id_name",
                        m.group(0),
                        f"The name {base!r} identifies held-out conversation {int(m.group(1))}.",
                    )
                )
        return _unique(found)

    def folder(self, folder: str, names: Sequence[str]) -> list[Finding]:
        """Files in one folder named by bare numbers (38.wav, 0040.json): a set of conversations by id."""
        numbered: dict[str, int] = {}
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if dot and f".{suffix.lower()}" in DATA_SUFFIXES and stem.isdigit() and len(stem) <= 4:
                numbered[name] = int(stem)
        held = {name: n for name, n in numbered.items() if n in self.rules.held_out}
        in_release = sum(1 for n in numbered.values() if n in self.rules.release)
        if len(held) < self.rules.min_id_list or in_release < self.rules.id_list_share * len(numbered):
            return []
        where = folder or "."
        return [
            Finding(
                Check.PROVENANCE,
                Severity.FAILS,
                f"{folder}/{name}" if folder else name,
                None,
                "id_file",
                name,
                f"{where} holds files named by release ids, and this one is held-out conversation {n}.",
            )
            for name, n in sorted(held.items())
        ]

    # --- text --------------------------------------------------------------------------------------------
    def text(self, path: str, chunk: str, first_line: int, *, training_path: bool) -> list[Finding]:
        """Findings in a chunk of a text file whose first line is ``first_line``; chunks end at a newline.

        The patterns run only on lines that hold a word they cannot match without (found by plain substring
        search on the lowered chunk): on a log of hundreds of megabytes, running them everywhere is most of the
        cost of a scan.
        """
        lower = chunk.lower()
        lines = _LineCounter(chunk, first_line)
        found: list[Finding] = []
        for start, end in _lines_with(lower, self.source_words):
            for pattern, source in self.p.source_names:
                for m in pattern.finditer(chunk, start, end):
                    shown = self._with_host(chunk, m)
                    found.append(self._source_finding(path, lines.at(m.start()), shown, source))
        found.extend(self._id_keys(path, chunk, lines, _lines_with(lower, self.rules.identifier_words)))
        found.extend(self._id_lists(path, chunk, lines))
        if training_path:
            # A split read names "split", or a split word beside a file extension or a subscript.
            near = [
                (start, end)
                for start, end in _lines_with(lower, _SPLIT_COMPANIONS)
                if any(word in lower[start:end] for word in self.rules.split_words)
            ]
            spans = sorted({*_lines_with(lower, ("split",)), *near})
            found.extend(self._split_reads(path, chunk, lines, spans))
        return found

    def text_reference(self, path: str, chunk: str, first_line: int, *, training_path: bool) -> list[Finding]:
        """What `text` finds, found the plain way: every pattern over every line, no prefilter, no skipping.

        The tests compare the two on generated text; `text` is only ever a faster route to these findings.
        """
        found: list[Finding] = []
        lines = chunk.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        inline = re.compile(r"(?<![\d.])" + self.p.id_list.pattern)
        alone = re.compile(self.p.number_line.pattern.removeprefix(r"\n").removesuffix(r"(?=\n)"))
        run: list[tuple[int, int, str]] = []
        for index, line in enumerate([*lines, "\0"]):  # the sentinel ends a last run of numbers
            number = first_line + index
            single = alone.fullmatch(line)
            if single:
                run.append((number, int(single.group(1)), line))
                continue
            if len(run) >= self.rules.min_id_list:
                found.extend(
                    self._list_finding(path, run[0][0], "\n".join(r[2] for r in run), [r[1] for r in run])
                )
            run = []
            if index == len(lines):
                break
            for pattern, source in self.p.source_names:
                for m in pattern.finditer(line):
                    found.append(self._source_finding(path, number, self._with_host(line, m), source))
            one = _LineCounter(line, number)
            found.extend(self._id_keys(path, line, one, [(0, len(line))]))
            for m in inline.finditer(line):
                found.extend(self._list_finding(path, number, m.group(0), _numbers(m.group(0))))
            if training_path:
                found.extend(self._split_reads(path, line, one, [(0, len(line))]))
        return found

    def is_training_path(self, path: str) -> bool:
        parts = re.split(r"[/._-]+", path.lower())
        return any(word in part for part in parts for word in self.rules.training_words)

    def _with_host(self, chunk: str, m: re.Match[str]) -> str:
        start = max(0, m.start() - 60)
        before = chunk[start : m.start()]
        host = None
        for h in self.p.source.finditer(before):
            if h.end() == len(before):
                host = h
        return before[host.start() :] + m.group(0) if host else m.group(0)

    def _source_finding(self, path: str, line: int | None, shown: str, source: str) -> Finding:
        where = "names" if line is None else "mentions"
        return Finding(
            Check.PROVENANCE,
            Severity.FAILS,
            path,
            line,
            "source",
            _shown(shown),
            f"The submission {where} {source}, a prohibited source (or a mirror or copy of it).",
        )

    def _id_keys(
        self, path: str, chunk: str, lines: _LineCounter, spans: list[tuple[int, int]]
    ) -> Iterator[Finding]:
        for m in (m for start, end in spans for m in self.p.id_key.finditer(chunk, start, end)):
            ids = [n for n in _numbers(m.group("ids")) if n in self.rules.held_out]
            if not ids or (m.group("plural") and not m.group("key")):
                continue  # "conversations: 38" counts conversations; it names none
            # "conv_38", "conversation_id: 38": a key or a name. "session 40" in prose may be a duration.
            keyed = bool(m.group("key")) or m.group("sep").strip(" \t") != ""
            listed = ", ".join(map(str, ids))
            yield Finding(
                Check.PROVENANCE,
                Severity.FAILS if keyed else Severity.REVIEW,
                path,
                lines.at(m.start()),
                "id_key",
                _shown(m.group(0)),
                f"Held-out conversation id {listed} is used as a conversation identifier."
                if keyed
                else f"{listed} follows a word that can name a conversation; check it is not a held-out id.",
            )

    def _id_lists(self, path: str, chunk: str, lines: _LineCounter) -> Iterator[Finding]:
        for start, end, numbers in self._number_lists(chunk):
            yield from self._list_finding(path, lines.at(start), chunk[start:end], numbers)

    def _list_finding(self, path: str, line: int, text: str, numbers: list[int]) -> list[Finding]:
        held = sorted({n for n in numbers if n in self.rules.held_out})
        in_release = sum(1 for n in numbers if n in self.rules.release)
        if len(held) < self.rules.min_id_list or in_release < self.rules.id_list_share * len(numbers):
            return []
        return [
            Finding(
                Check.PROVENANCE,
                Severity.FAILS,
                path,
                line,
                "id_list",
                _shown(text),
                f"A list of {len(numbers)} numbers, nearly all release ids, names held-out conversations "
                f"{', '.join(map(str, held))}.",
            )
        ]

    def _number_lists(self, chunk: str) -> Iterator[tuple[int, int, list[int]]]:
        """Lists of numbers: inline (38, 40, 41 on lines with a separator) or one number per line."""
        for line_start, line_end in _lines_with(chunk, ",;\t"):
            pos = line_start
            while (m := self.p.id_list.search(chunk, pos, line_end)) is not None:
                # A match that begins inside a longer number or a decimal is refused; search on from there.
                if m.start() and chunk[m.start() - 1] in _NUMBER_CHARS:
                    pos = m.start() + 1
                    continue
                pos = m.end()
                yield m.start(), m.end(), _numbers(m.group(0))
        run: list[int] = []
        run_start = previous_end = -1
        for m in self.p.number_line.finditer("\n" + chunk):  # the newline makes the first line a candidate
            if m.start() != previous_end:
                if len(run) >= self.rules.min_id_list:
                    yield run_start, previous_end - 1, run
                run, run_start = [], m.start()
            run.append(int(m.group(1)))
            previous_end = m.end()
        if len(run) >= self.rules.min_id_list:
            yield run_start, previous_end - 1, run

    def _split_reads(
        self, path: str, chunk: str, lines: _LineCounter, spans: list[tuple[int, int]]
    ) -> Iterator[Finding]:
        shipped = {f"{self.rules.shipped_path}/{name}" for name in self.rules.shipped_files}
        shipped_names = {name.rsplit("/", 1)[-1] for name in self.rules.shipped_files}
        for m in (m for start, end in spans for m in self.p.split_read.finditer(chunk, start, end)):
            text = _path_before(chunk, m.start()) + m.group(0)
            if text in shipped:
                continue  # the shipped public conversations may be used for training (operator decision)
            maybe_shipped = text.rsplit("/", 1)[-1] in shipped_names
            # split="test" or --split dev asks a loader for a dataset's split: that fails. A subscript or a
            # file name may be the entrant's own hold-out carved from training data, so a reviewer looks.
            named_split = m.group(0).lower().startswith(("split", "--split"))
            if maybe_shipped:
                reason = (
                    f"Training, calibration or selection code reads {text!r}; if this is the shipped "
                    f"{self.rules.shipped_path} copy it is allowed, otherwise it fails."
                )
            elif named_split:
                reason = (
                    f"Training, calibration or selection code asks for a validation or test split ({text!r})."
                )
            else:
                reason = (
                    f"Training, calibration or selection code reads {text!r}: fine if it is a hold-out carved "
                    "from the training data, a failure if it is a public dataset's validation or test split."
                )
            yield Finding(
                Check.PROVENANCE,
                Severity.FAILS if named_split and not maybe_shipped else Severity.REVIEW,
                path,
                lines.at(m.start()),
                "split_read",
                _shown(text),
                reason,
            )


_NUMBER_CHARS = frozenset("0123456789.")
_SPLIT_COMPANIONS = (".json", ".csv", ".tsv", ".txt", ".parquet", ".arrow", ".scp", ".list", "['", '["')


def _path_before(chunk: str, end: int) -> str:
    """The path characters just before ``end`` (data/val_set.csv is shown whole, not as val_set.csv)."""
    start = end
    while start > 0 and (chunk[start - 1].isalnum() or chunk[start - 1] in "_./-"):
        start -= 1
    return chunk[start:end]


def _lines_with(lower: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """The (start, end) offsets of every line of ``lower`` that contains one of ``words``, in order."""
    spans: set[tuple[int, int]] = set()
    for word in words:
        i = lower.find(word)
        while i != -1:
            start = lower.rfind("\n", 0, i) + 1
            end = lower.find("\n", i)
            end = len(lower) if end == -1 else end
            spans.add((start, end))
            i = lower.find(word, end)
    return sorted(spans)


class _LineCounter:
    """Line numbers of increasing offsets in one chunk, counting only newlines (U+2028 is not a line break)."""

    def __init__(self, chunk: str, first_line: int) -> None:
        self.chunk, self.pos, self.line = chunk, 0, first_line

    def at(self, offset: int) -> int:
        if offset < self.pos:  # detectors run one after another, each from the chunk's start
            self.pos, self.line = 0, self.line - self.chunk.count("\n", 0, self.pos)
        self.line += self.chunk.count("\n", self.pos, offset)
        self.pos = offset
        return self.line


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: set[str] = set()
    out = []
    for f in findings:
        if f.id not in seen:
            seen.add(f.id)
            out.append(f)
    return out


__all__ = ["DATA_SUFFIXES", "Detector", "ScanRules", "compile_patterns"]
