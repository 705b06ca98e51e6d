"""Precompressed copies of the site's large text and WebAssembly files, for hosts that serve them as they are.

Beside each such file the build writes ``name.gz`` (gzip, level 9, no name or time in the header) and
``name.br`` (Brotli, quality 11), both byte-reproducible for the pinned zlib and brotli, and only when the copy
is smaller by a tenth or more. A host that knows them (nginx ``gzip_static``/``brotli_static``, Apache
``mod_rewrite`` rules, `cvb serve`) sends the copy with ``Content-Encoding`` when the browser accepts it, so the
~10 MB of Pyodide's WebAssembly travels as ~3 MB without the host compressing anything per request; a host that
does not know them sends the original files and ignores the copies. The editor's start-up snapshot (``.bin``, a
memory image that Pyodide saves uncompressed) gets them too, so the browser decodes it as it arrives. Already
compressed files (zip, wheels, images, fonts) get none.

Brotli at quality 11 takes about a minute for Pyodide's WebAssembly, so copies are kept in a cache folder
under the original's sha256 and made once per content.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import brotli  # type: ignore[import-untyped]

# (Content-Encoding, file suffix), in the order a server prefers them when the browser accepts both.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
COMPRESSIBLE = frozenset(
    {".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".txt", ".wasm", ".map", ".bin"}
)
MIN_BYTES = 1024
# A copy that saves less than this share is not worth a second file.
MAX_RATIO = 0.9


def gzip_bytes(data: bytes) -> bytes:
    # mtime=0 and no file name: the same input gives the same bytes on every build.
    return gzip.compress(data, compresslevel=9, mtime=0)


# Brotli's best setting (quality 11) takes minutes on the editor's start-up snapshot, a memory image of tens of
# megabytes that changes with every scorer wheel. Above LARGE_BYTES a file gets quality 10 with Brotli's largest
# standard window (16 MiB, which every browser decodes): still far tighter than gzip on such an image, in a
# fraction of quality 11's time (bench/editor.py --throttled-only reports what a cold start transfers).
LARGE_BYTES = 16 * 2**20


def brotli_settings(size: int) -> tuple[int, int]:
    """(quality, lgwin) for a file of `size` bytes."""
    return (11, 22) if size <= LARGE_BYTES else (10, 24)


def brotli_bytes(data: bytes) -> bytes:
    quality, lgwin = brotli_settings(len(data))
    return bytes(brotli.compress(data, quality=quality, lgwin=lgwin))


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {"br": brotli_bytes, "gzip": gzip_bytes}


def brotli_version(size: int) -> str:
    quality, lgwin = brotli_settings(size)
    # The default window (22) keeps the name copies were cached under before the setting varied.
    return f"brotli-{brotli.__version__}-q{quality}" + ("" if lgwin == 22 else f"-w{lgwin}")


# Part of the cache key: another encoder version or setting may give other (equally valid) bytes.
ENCODER_VERSIONS: dict[str, Callable[[int], str]] = {"br": brotli_version, "gzip": lambda size: "zlib-9"}


def accepted(header: str) -> dict[str, float]:
    """Accept-Encoding as coding -> q (RFC 9110): ``gzip, br;q=0.5, *;q=0``."""
    codings: dict[str, float] = {}
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        codings[name.strip().lower()] = q
    return codings


def chosen_encoding(header: str, available: list[str]) -> str | None:
    """The coding to send: the first of ENCODINGS that is available and acceptable (q > 0), else None."""
    codings = accepted(header)
    for name, _ in ENCODINGS:
        q = codings.get(name, codings.get("*", 0.0))
        if name in available and q > 0:
            return name
    return None


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def candidates(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in COMPRESSIBLE and path.stat().st_size >= MIN_BYTES:
            yield path


def compressed(data: bytes, encoding: str, cache: Path | None) -> bytes:
    if cache is None:
        return COMPRESSORS[encoding](data)
    key = hashlib.sha256(ENCODER_VERSIONS[encoding](len(data)).encode() + b"\0" + data).hexdigest()
    kept = cache / f"{key}.{encoding}"
    if kept.is_file():
        return kept.read_bytes()
    out = COMPRESSORS[encoding](data)
    cache.mkdir(parents=True, exist_ok=True)
    # Written under a temporary name and renamed, so a build stopped midway never leaves a truncated copy.
    handle, temporary = tempfile.mkstemp(dir=cache, prefix=".partial-")
    with os.fdopen(handle, "wb") as file:
        file.write(out)
    Path(temporary).replace(kept)
    return out


def copies(data: bytes, *, cache: Path | None = None) -> dict[str, bytes]:
    """The copies worth writing for a file's bytes, by encoding (empty when none saves enough)."""
    made = {encoding: compressed(data, encoding, cache) for encoding, _ in ENCODINGS}
    return {encoding: out for encoding, out in made.items() if len(out) <= len(data) * MAX_RATIO}


def sent_bytes(name: str, data: bytes, *, cache: Path | None = None) -> int:
    """What a browser that accepts every encoding receives for a file of this name and content: the size of
    the preferred copy the build writes beside it, else of the file."""
    if Path(name).suffix not in COMPRESSIBLE or len(data) < MIN_BYTES:
        return len(data)
    made = copies(data, cache=cache)
    return next((len(made[encoding]) for encoding, _ in ENCODINGS if encoding in made), len(data))


def precompress_tree(root: Path, *, cache: Path | None = None, workers: int | None = None) -> list[Path]:
    """Write the copies beside every candidate under `root`; returns the copies written, in path order.

    Files are compressed on `workers` threads (default: one per CPU): zlib and Brotli release the interpreter
    while they compress, and a file's copies depend on its bytes alone, whichever thread makes them."""
    paths = list(candidates(root))
    with ThreadPoolExecutor(max_workers=workers or _cpus()) as pool:
        made_each = list(pool.map(lambda path: copies(path.read_bytes(), cache=cache), paths))
    written = []
    for path, made in zip(paths, made_each, strict=True):
        for encoding, suffix in ENCODINGS:
            if encoding in made:
                copy = path.with_name(path.name + suffix)
                copy.write_bytes(made[encoding])
                written.append(copy)
    return written
