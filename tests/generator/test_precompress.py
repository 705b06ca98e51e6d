"""Precompressed copies (generator/precompress.py) and `cvb serve`'s handler that sends them (generator/serve.py)."""

from __future__ import annotations

import functools
import gzip
import http.client
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import brotli  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.precompress import (
    LARGE_BYTES,
    accepted,
    brotli_settings,
    brotli_version,
    chosen_encoding,
    compressed,
    gzip_bytes,
    precompress_tree,
    sent_bytes,
)
from generator.serve import IMMUTABLE, REVALIDATE, SiteHandler

BOTH = ["br", "gzip"]


@pytest.mark.parametrize(
    ("header", "available", "chosen"),
    [
        ("gzip, deflate, br, zstd", BOTH, "br"),
        ("gzip, deflate", BOTH, "gzip"),
        ("gzip, deflate, br", ["gzip"], "gzip"),
        ("br;q=0, gzip", BOTH, "gzip"),
        ("gzip;q=0", ["gzip"], None),
        ("", BOTH, None),
        ("identity", BOTH, None),
        ("*", BOTH, "br"),
        ("*;q=0, gzip", BOTH, "gzip"),
        ("GZIP ; Q=0.5", BOTH, "gzip"),
        ("gzip;q=oops", BOTH, None),
        ("gzip, br", [], None),
    ],
)
def test_the_coding_sent_is_the_preferred_one_the_browser_accepts(
    header: str, available: list[str], chosen: str | None
) -> None:
    assert chosen_encoding(header, available) == chosen


def test_accept_encoding_is_read_with_its_weights() -> None:
    assert accepted("gzip;q=0.8, br, *;q=0") == {"gzip": 0.8, "br": 1.0, "*": 0.0}


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=4096))
def test_gzip_copies_are_reproducible_and_decode_to_the_input(data: bytes) -> None:
    assert gzip_bytes(data) == gzip_bytes(data)
    assert gzip.decompress(gzip_bytes(data)) == data


def test_the_cache_gives_the_bytes_the_encoder_gives(tmp_path: Path) -> None:
    data = ("喂你好 hello " * 500).encode()
    for encoding in ("gzip", "br"):
        first = compressed(data, encoding, tmp_path)
        assert compressed(data, encoding, tmp_path) == first == compressed(data, encoding, None)
    assert len(list(tmp_path.iterdir())) == 2


def site_files(root: Path) -> dict[str, bytes]:
    files = {
        "page/index.html": ("<p>保單</p>" * 400).encode(),
        "assets/runtime/0123456789abcdef/pyodide.asm.wasm": bytes(range(256)) * 64 + b"\0" * 20000,
        "assets/app.js": b"console.log('x');\n" * 300,
        "small.css": b"p{}",  # too small to be worth a copy
        "assets/noise.json": bytes((i * 7919) % 251 for i in range(8000)),  # incompressible enough
        "assets/kit.zip": b"PK" + b"z" * 5000,  # not a kind that is copied
        # Pyodide's memory as it saves it: the editor's start-up snapshot.
        "assets/runtime/fedcba9876543210/pyodide-snapshot.bin": b"\0" * 30000 + bytes(range(256)) * 40,
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return files


def test_copies_are_written_only_where_they_pay(tmp_path: Path) -> None:
    files = site_files(tmp_path)
    written = {p.relative_to(tmp_path).as_posix() for p in precompress_tree(tmp_path)}
    assert "page/index.html.gz" in written and "page/index.html.br" in written
    assert "assets/runtime/0123456789abcdef/pyodide.asm.wasm.br" in written
    assert not any(name.startswith(("small.css", "assets/kit.zip")) for name in written)
    for name in written:
        original = files[name.rsplit(".", 1)[0]]
        decode = gzip.decompress if name.endswith(".gz") else brotli.decompress
        assert decode((tmp_path / name).read_bytes()) == original
        assert (tmp_path / name).stat().st_size <= 0.9 * len(original)


def test_copies_made_on_several_threads_are_those_made_on_one(tmp_path: Path) -> None:
    one, several = tmp_path / "one", tmp_path / "several"
    site_files(one)
    site_files(several)
    written_one = precompress_tree(one, workers=1)
    written_several = precompress_tree(several, workers=4)
    assert [p.relative_to(one) for p in written_one] == [p.relative_to(several) for p in written_several]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(written_one, written_several, strict=True))


def test_files_above_the_large_size_get_brotlis_widest_window_and_a_cache_name_of_their_own() -> None:
    assert brotli_settings(LARGE_BYTES) == (11, 22)
    assert brotli_settings(LARGE_BYTES + 1) == (10, 24)
    # Copies cached before the setting varied keep their name; the large ones get another.
    assert brotli_version(LARGE_BYTES) == f"brotli-{brotli.__version__}-q11"
    assert brotli_version(LARGE_BYTES + 1) == f"brotli-{brotli.__version__}-q10-w24"


def test_sent_bytes_is_the_size_of_the_copy_a_browser_gets(tmp_path: Path) -> None:
    # The size the editor's manifest states for each runtime file: the Brotli copy's where the build writes one.
    files = site_files(tmp_path)
    written = {p.relative_to(tmp_path).as_posix() for p in precompress_tree(tmp_path)}
    for name, data in files.items():
        copy = f"{name}.br"
        want = (tmp_path / copy).stat().st_size if copy in written else len(data)
        assert sent_bytes(Path(name).name, data) == want, name
    assert (
        sent_bytes("pyodide-snapshot.bin", files["assets/runtime/fedcba9876543210/pyodide-snapshot.bin"])
        < 3000
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[http.client.HTTPConnection, dict[str, bytes]]]:
    files = site_files(tmp_path)
    precompress_tree(tmp_path)
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(tmp_path))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        yield connection, files
    finally:
        connection.close()
        server.shutdown()
        server.server_close()


def get(connection: http.client.HTTPConnection, path: str, **headers: str) -> http.client.HTTPResponse:
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    return response


@pytest.mark.parametrize(
    ("accept", "coding"),
    [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("", None), ("br;q=0, gzip;q=0", None)],
)
@pytest.mark.parametrize(
    "path",
    ["/page/", "/page/index.html", "/assets/runtime/0123456789abcdef/pyodide.asm.wasm", "/assets/app.js"],
)
def test_served_bytes_decode_to_the_files_bytes(
    served: tuple[http.client.HTTPConnection, dict[str, bytes]], path: str, accept: str, coding: str | None
) -> None:
    connection, files = served
    response = get(connection, path, **{"Accept-Encoding": accept})
    body: bytes = response.body  # type: ignore[attr-defined]
    assert response.status == 200
    assert response.getheader("Content-Encoding") == coding
    assert response.getheader("Vary") == "Accept-Encoding"
    assert int(response.getheader("Content-Length") or -1) == len(body)
    decoded = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[coding](body)
    name = path.strip("/") + ("/index.html" if path.endswith("/") else "")
    assert decoded == files[name]
    kind = "javascript" if path.endswith(".js") else "wasm" if path.endswith(".wasm") else "html"
    assert kind in (response.getheader("Content-Type") or "")


def test_the_runtime_is_immutable_and_the_rest_revalidated(
    served: tuple[http.client.HTTPConnection, dict[str, bytes]],
) -> None:
    connection, _ = served
    runtime = get(
        connection, "/assets/runtime/0123456789abcdef/pyodide.asm.wasm", **{"Accept-Encoding": "br"}
    )
    assert runtime.getheader("Cache-Control") == IMMUTABLE
    page = get(connection, "/page/", **{"Accept-Encoding": "gzip"})
    assert page.getheader("Cache-Control") == REVALIDATE
    again = get(
        connection,
        "/page/",
        **{"Accept-Encoding": "gzip", "If-Modified-Since": page.getheader("Last-Modified") or ""},
    )
    assert again.status == 304 and again.body == b""  # type: ignore[attr-defined]
    plain = get(connection, "/page/", **{"If-Modified-Since": page.getheader("Last-Modified") or ""})
    assert plain.status == 304
    missing = get(connection, "/nothing.js", **{"Accept-Encoding": "gzip"})
    assert missing.status == 404
