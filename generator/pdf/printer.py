"""The one place that calls WeasyPrint, behind a cache keyed by everything that can change the bytes.

WeasyPrint's output is a function of the HTML (which inlines the stylesheet), its own version and the fonts it
finds; the same key gives the same bytes, so a cached PDF is the PDF a fresh print would make.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/dejavu"))


@dataclass(frozen=True)
class Printed:
    data: bytes
    cached: bool


def _fonts_fingerprint() -> str:
    """Which font files exist and how big they are: a Debian font update changes the bytes of every PDF."""
    parts = []
    for folder in FONT_DIRS:
        if folder.is_dir():
            parts += [f"{p.name}:{p.stat().st_size}" for p in sorted(folder.iterdir()) if p.is_file()]
    return "|".join(parts)


def cache_key(html: str) -> str:
    import weasyprint

    digest = hashlib.sha256()
    for part in (weasyprint.__version__, _fonts_fingerprint(), html):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def print_html(html: str) -> bytes:
    """The PDF of a self-contained HTML document (no external resources are fetched)."""
    from weasyprint import HTML

    def refuse(url: str, *args: object, **kwargs: object) -> dict[str, object]:
        # A printed issue must not depend on the network or on files outside its HTML.
        raise ValueError(f"the print template refers to {url}; print documents are self-contained")

    # No base URL: "#anchor" links then stay internal links of the PDF.
    data = HTML(string=html, url_fetcher=refuse).write_pdf()
    assert isinstance(data, bytes)
    return data


def _kept(cache: Path, key: str) -> Path:
    return cache / f"{key}.pdf"


def _keep(cache: Path, key: str, data: bytes) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    # Written beside and renamed: a build killed half-way never leaves a truncated PDF behind a valid key.
    fd, tmp = tempfile.mkstemp(dir=cache, suffix=".part")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    Path(tmp).replace(_kept(cache, key))


def print_cached(html: str, *, cache: Path | None) -> Printed:
    return print_all([html], cache=cache)[0]


def cpus() -> int:
    """The CPUs this process may run on (the machine's count when the platform cannot say)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class PrintError(RuntimeError):
    """A worker process could not print; the message carries what it said."""


def print_all(htmls: Sequence[str], *, cache: Path | None, workers: int | None = None) -> list[Printed]:
    """The PDF of each document, in order; only those the cache lacks are printed (each document's key is its
    own HTML, so a change reprints just the documents it reaches). Two or more are printed at once, one worker
    process per CPU (`workers` at most): WeasyPrint lays out in Python, so threads would take turns."""
    printed: list[Printed | None] = [None] * len(htmls)
    keys = [cache_key(html) for html in htmls] if cache is not None else []
    missing: dict[str, list[int]] = {}
    for index, html in enumerate(htmls):
        if cache is not None and _kept(cache, keys[index]).is_file():
            printed[index] = Printed(_kept(cache, keys[index]).read_bytes(), cached=True)
        else:
            # The same document twice is printed once.
            missing.setdefault(html, []).append(index)
    made = _print_missing(list(missing), workers=min(len(missing), workers or cpus()))
    for indices, data in zip(missing.values(), made, strict=True):
        if cache is not None:
            _keep(cache, keys[indices[0]], data)
        for index in indices:
            printed[index] = Printed(data, cached=False)
    return [p for p in printed if p is not None]


def _ended(returncode: int) -> str:
    """How a worker that said nothing ended: the signal that stopped it, or its exit status."""
    if returncode < 0:
        try:
            return f"stopped by {signal.Signals(-returncode).name}, saying nothing"
        except ValueError:
            return f"stopped by signal {-returncode}, saying nothing"
    return f"exit status {returncode}, saying nothing"


def shares(sizes: Sequence[int], workers: int) -> list[list[int]]:
    """The indices of `sizes` dealt to `workers` workers, the largest first, each to the least loaded so far
    (the work a document takes grows with its size; the last to finish is then a small one)."""
    loads = [0] * workers
    dealt: list[list[int]] = [[] for _ in range(workers)]
    for index in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        least = loads.index(min(loads))
        dealt[least].append(index)
        loads[least] += sizes[index]
    return [share for share in dealt if share]


def _print_missing(htmls: list[str], *, workers: int) -> list[bytes]:
    if workers <= 1:
        return [print_html(html) for html in htmls]
    # Separate interpreters started as `python -m` (not multiprocessing, which re-runs the caller's main
    # script in each child and, with fork, may copy a lock another thread holds). They import the generator
    # this process runs, wherever that is (`cvb issue pdf` prints from another commit's tree).
    code_root = str(Path(__file__).resolve().parents[2])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [code_root, os.environ.get("PYTHONPATH")])),
    }
    made: list[bytes] = [b""] * len(htmls)
    with tempfile.TemporaryDirectory(prefix="cvb-print-") as tmp:
        running = []
        for number, share in enumerate(shares([len(html) for html in htmls], workers)):
            job = Path(tmp) / f"job-{number}.json"
            items = [{"html": htmls[i], "out": str(Path(tmp) / f"{i}.pdf")} for i in share]
            job.write_text(json.dumps(items), encoding="utf-8")
            command = [sys.executable, "-m", "generator.pdf.printer", str(job)]
            running.append(
                subprocess.Popen(
                    command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
                )
            )
        try:
            said = [(worker.communicate()[1] or "").strip() for worker in running]
        finally:
            for worker in running:  # a build interrupted here leaves no printer running
                if worker.poll() is None:
                    worker.kill()
                    worker.wait()
        failed = [
            text.splitlines()[-1] if text else _ended(worker.returncode)
            for worker, text in zip(running, said, strict=True)
            if worker.returncode
        ]
        if failed:
            raise PrintError(f"printing the PDFs failed in a worker process: {'; '.join(failed)}")
        for index in range(len(htmls)):
            made[index] = (Path(tmp) / f"{index}.pdf").read_bytes()
    return made


def _worker(job: Path) -> None:
    for item in json.loads(job.read_text(encoding="utf-8")):
        Path(item["out"]).write_bytes(print_html(item["html"]))


if __name__ == "__main__":
    _worker(Path(sys.argv[1]))
