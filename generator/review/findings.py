"""What a scan reports: findings with a check, a severity and one sentence, and a reviewer's acceptances."""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.Enum):
    FAILS = "fails"  # the finding alone fails the check it names
    REVIEW = "review"  # a reviewer must look before deciding


class Check(enum.Enum):
    """The review checks of platform_config/endpointing.yaml that a scan can find evidence for."""

    PROVENANCE = "training_provenance"
    NO_LOOKUP = "no_lookup_of_evaluation_audio"


@dataclass(frozen=True)
class Finding:
    check: Check
    severity: Severity
    path: str  # relative to the submission, with forward slashes
    line: int | None  # None for a finding about a file or folder name
    rule: str  # which detector: source, id_name, id_key, id_list, id_file, split_read
    match: str  # the text that matched, as found
    reason: str  # one sentence for the reviewer

    @property
    def id(self) -> str:
        """Stable across scans and line shifts: a reviewer's acceptance survives edits above the finding."""
        key = "\0".join((self.check.value, self.rule, self.path, self.match))
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:12]

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "check": self.check.value,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "rule": self.rule,
            "match": self.match,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Acceptance:
    finding: str
    note: str


class AcceptanceError(ValueError):
    """The reviewer's acceptance file cannot be read; the message names the file and what is wrong."""


def parse_acceptances(text: str, *, name: str) -> dict[str, Acceptance]:
    """The acceptance file: {"accepted": [{"finding": ID, "note": "why"}, ...]}."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AcceptanceError(f"{name}, line {exc.lineno}: not valid JSON ({exc.msg}).") from None
    entries = data.get("accepted") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise AcceptanceError(f'{name}: expected an object with a list "accepted".')
    out: dict[str, Acceptance] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("finding"), str):
            raise AcceptanceError(f'{name}: accepted[{index}] needs a "finding" id.')
        note = entry.get("note")
        if not isinstance(note, str) or not note.strip():
            raise AcceptanceError(f'{name}: accepted[{index}] needs a "note" saying why it is accepted.')
        out[entry["finding"]] = Acceptance(entry["finding"], note.strip())
    return out


def acceptances_json(acceptances: Mapping[str, Acceptance]) -> str:
    entries = [
        {"finding": a.finding, "note": a.note} for a in sorted(acceptances.values(), key=lambda a: a.finding)
    ]
    return json.dumps({"accepted": entries}, ensure_ascii=False, indent=2) + "\n"


@dataclass(frozen=True)
class ScanReport:
    root: str
    findings: tuple[Finding, ...]
    accepted: Mapping[str, Acceptance] = field(default_factory=dict)
    files_read: int = 0
    bytes_read: int = 0
    binary_skipped: int = 0

    def open_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.id not in self.accepted]

    def exit_code(self) -> int:
        """0: nothing open; 1: a finding fails a check; 3: only findings a reviewer must look at."""
        still = self.open_findings()
        if any(f.severity is Severity.FAILS for f in still):
            return 1
        return 3 if still else 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "exit_code": self.exit_code(),
            "files_read": self.files_read,
            "bytes_read": self.bytes_read,
            "binary_files_skipped": self.binary_skipped,
            "findings": [
                {**f.as_dict(), "accepted": self.accepted[f.id].note if f.id in self.accepted else None}
                for f in self.findings
            ],
        }
