"""`cvb review scan`'s shell: walk a submission tree once, feed names and text to the detector, never run code.

Each file is opened once and read front to back in blocks; a file whose first block holds a NUL byte (and no
UTF-16 byte-order mark) is binary and is left after that block, whatever its name says. Links are reported as
names and never followed, so a scan cannot leave the submission or loop.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

from generator.review.detect import Detector, ScanRules
from generator.review.findings import Acceptance, Finding, ScanReport, parse_acceptances

BLOCK = 1 << 20
SNIFF = 8000  # as git does: a NUL in the first 8,000 bytes makes a file binary
ACCEPTANCE_SUFFIX = ".review-accepted.json"


class ScanError(Exception):
    """The submission cannot be scanned at all; the message says why."""


def acceptance_file(root: Path) -> Path:
    """Beside the submission, not inside it: an entrant cannot accept their own findings."""
    return root.parent / f"{root.name}{ACCEPTANCE_SUFFIX}"


def load_acceptances(root: Path) -> dict[str, Acceptance]:
    path = acceptance_file(root)
    if not path.exists():
        return {}
    return parse_acceptances(path.read_text(encoding="utf-8"), name=str(path))


def _decoder(first: bytes) -> tuple[codecs.IncrementalDecoder, int] | None:
    """A decoder for the file, and how many BOM bytes to skip; None for binary content."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if first.startswith(bom):
            return codecs.getincrementaldecoder(encoding)(errors="replace"), len(bom)
    if b"\0" in first[:SNIFF]:
        return None
    return codecs.getincrementaldecoder("utf-8")(errors="replace"), 0


class _Scan:
    def __init__(self, root: Path, detector: Detector) -> None:
        self.root, self.detector = root, detector
        self.findings: list[Finding] = []
        self.files_read = self.bytes_read = self.binary = 0

    def run(self) -> None:
        for folder, dirs, files in os.walk(self.root, followlinks=False, onerror=None):
            dirs.sort()
            files.sort()
            here = Path(folder)
            rel_folder = here.relative_to(self.root).as_posix()
            rel_folder = "" if rel_folder == "." else rel_folder
            for name in dirs:
                rel = f"{rel_folder}/{name}" if rel_folder else name
                self.findings.extend(self.detector.name(rel))
                if (here / name).is_symlink():
                    self._link(here / name, rel)
            self.findings.extend(self.detector.folder(rel_folder, files))
            for name in files:
                rel = f"{rel_folder}/{name}" if rel_folder else name
                self.findings.extend(self.detector.name(rel))
                path = here / name
                if path.is_symlink():
                    self._link(path, rel)
                elif path.is_file():
                    self._file(path, rel)

    def _link(self, path: Path, rel: str) -> None:
        # The target is text the entrant wrote (ln -s /data/turnbench/conv_38 ...): scan it like a line.
        target = str(path.readlink())
        self.findings.extend(self.detector.text(rel, target, 1, training_path=False))

    def _file(self, path: Path, rel: str) -> None:
        training = self.detector.is_training_path(rel)
        try:
            with path.open("rb") as handle:
                first = handle.read(BLOCK)
                self.files_read += 1
                self.bytes_read += len(first)
                found = _decoder(first)
                if found is None:
                    self.binary += 1
                    return
                decoder, skip = found
                line, carry, block, got = 1, "", first[skip:], len(first)
                while True:
                    final = got < BLOCK
                    text = carry + decoder.decode(block, final=final)
                    cut = text.rfind("\n") + 1 if not final else len(text)
                    chunk, carry = text[:cut], text[cut:]
                    if chunk:
                        self.findings.extend(self.detector.text(rel, chunk, line, training_path=training))
                        line += chunk.count("\n")
                    if final:
                        break
                    block = handle.read(BLOCK)
                    got = len(block)
                    self.bytes_read += got
        except OSError as exc:
            raise ScanError(f"{rel}: cannot be read ({exc.strerror}).") from None


def scan(root: Path, rules: ScanRules) -> ScanReport:
    if not root.is_dir():
        raise ScanError(f"{root} is not a folder; give the submission's top folder.")
    accepted = load_acceptances(root)
    run = _Scan(root, Detector(rules))
    run.run()
    findings = sorted(set(run.findings), key=lambda f: (f.path, f.line or 0, f.rule, f.match))
    return ScanReport(
        root=str(root),
        findings=tuple(findings),
        accepted={k: v for k, v in accepted.items() if any(f.id == k for f in findings)},
        files_read=run.files_read,
        bytes_read=run.bytes_read,
        binary_skipped=run.binary,
    )


def report_text(report: ScanReport) -> str:
    open_ = report.open_findings()
    lines = [
        f"Scanned {report.root}: {report.files_read} files, {report.bytes_read / 1e6:.1f} MB read, "
        f"{report.binary_skipped} binary files skipped."
    ]
    if not report.findings:
        lines.append("No findings.")
    for f in report.findings:
        where = f"{f.path}:{f.line}" if f.line is not None else f.path
        state = f"accepted: {report.accepted[f.id].note}" if f.id in report.accepted else f.severity.value
        lines.append(f"[{f.id}] {state:<8} {f.check.value:<30} {where}\n    {f.reason}\n    found: {f.match}")
    fails = sum(1 for f in open_ if f.severity.value == "fails")
    lines.append(
        f"{len(open_)} open findings ({fails} fail a check, {len(open_) - fails} need a reviewer's look), "
        f"{len(report.findings) - len(open_)} accepted."
    )
    return "\n".join(lines) + "\n"
