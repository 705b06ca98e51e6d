"""`cvb serve`'s handler and its up-to-date check, over real sockets on loopback.

The handler answers a missing page with the site's own 404 page of the address's edition, and a client that
goes away mid-answer is one line in the log, after which the server answers the next request. The site a
`cvb serve` built is served again without a rebuild while its inputs and address are the same.
"""

from __future__ import annotations

import functools
import http.client
import http.server
import os
import queue
import re
import shutil
import signal
import socket
import struct
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from generator import serve
from generator.kit_servers import free_port
from generator.paths import Layout
from tests.generator.conftest import REPO, project_copy

ENGLISH_404 = "<html><body>Not here (English)</body></html>"
CHINESE_404 = "<html><body>找不到此頁</body></html>"
# Larger than any loopback socket buffers, so that the server is still writing when the client goes away.
LARGE = 48 * 1024 * 1024
CVB = str(REPO / ".venv" / "bin" / "cvb")
# A guard against a wait that would never end (a stale stamp starts a whole build), not a time measured.
LINE_WAIT_S = 120


class JoinedServer(http.server.ThreadingHTTPServer):
    # Handler threads are joined on close, so the log is complete when the test reads it.
    daemon_threads = False


@contextmanager
def serving(root: Path) -> Iterator[int]:
    server = JoinedServer(("127.0.0.1", 0), functools.partial(serve.SiteHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def small_site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "zh").mkdir(parents=True)
    (root / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    (root / "404.html").write_text(ENGLISH_404, encoding="utf-8")
    (root / "zh" / "404.html").write_text(CHINESE_404, encoding="utf-8")
    return root


def request(port: int, method: str, path: str) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/no-such-page/", ENGLISH_404),
        ("/assets/no-such-file.js", ENGLISH_404),
        ("/zh/no-such-page/", CHINESE_404),
        ("/zh/no-such-page/?q=1", CHINESE_404),
        # Only a path inside the edition's folder is that edition's.
        ("/zhx/no-such-page/", ENGLISH_404),
    ],
)
def test_a_missing_page_gets_the_editions_own_404_page_with_status_404(
    small_site: Path, path: str, page: str
) -> None:
    with serving(small_site) as port:
        status, content_type, body = request(port, "GET", path)
    assert (status, content_type, body.decode("utf-8")) == (404, "text/html; charset=utf-8", page)


def test_a_head_request_for_a_missing_page_gets_404_and_no_body(small_site: Path) -> None:
    with serving(small_site) as port:
        assert request(port, "HEAD", "/zh/no-such-page/")[::2] == (404, b"")
        assert request(port, "GET", "/")[0] == 200


def test_without_a_404_page_the_plain_error_answers(small_site: Path) -> None:
    (small_site / "404.html").unlink()
    with serving(small_site) as port:
        status, _, body = request(port, "GET", "/no-such-page/")
    assert status == 404 and b"Error response" in body


def test_a_client_that_goes_away_mid_answer_is_one_line_and_the_server_carries_on(
    small_site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (small_site / "large.bin").write_bytes(bytes(LARGE))
    with serving(small_site) as port:
        client = socket.create_connection(("127.0.0.1", port), timeout=30)
        client.sendall(b"GET /large.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert client.recv(4096).startswith(b"HTTP/1.1 200")
        # Closed with a reset, as a browser drops a connection it no longer wants.
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        assert request(port, "GET", "/")[0] == 200
    log = capsys.readouterr().err
    aborted = [line for line in log.splitlines() if "closed the connection" in line]
    assert len(aborted) == 1, log
    assert (
        '"GET /large.bin HTTP/1.1": the client closed the connection before the answer was sent' in aborted[0]
    )
    assert "Traceback" not in log


def test_a_site_is_up_to_date_only_for_the_inputs_and_the_folder_it_was_built_from(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    target = tmp_path / "site"
    target.mkdir()
    code = serve.code_digest()

    def digest(site_url: str = "http://127.0.0.1:8000/") -> str:
        return serve.inputs_digest(layout, layout.config, code=code, site_url=site_url)

    before = digest()
    assert not serve.is_up_to_date(layout, target, before)
    serve.record_build(layout, target, before)
    assert serve.is_up_to_date(layout, target, digest())
    # Another address is another build: mkdocs writes the address into the pages.
    assert not serve.is_up_to_date(layout, target, digest("http://127.0.0.1:8001/"))
    protocol = layout.config / "protocol.yaml"
    protocol.write_text(protocol.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert not serve.is_up_to_date(layout, target, digest())
    serve.record_build(layout, target, digest())
    assert serve.is_up_to_date(layout, target, digest())
    # A site swapped in since (cvb build writes a new folder) is not the one recorded.
    target.rename(tmp_path / "old")
    target.mkdir()
    assert not serve.is_up_to_date(layout, target, digest())


def test_the_inputs_cover_what_a_build_reads() -> None:
    layout = Layout()
    roots = [*serve.watched_roots(layout, layout.config), *serve.build_roots(layout)]
    for needed in (
        layout.config,
        layout.templates,
        layout.static_assets,
        layout.mkdocs_config,
        layout.wheels,
    ):
        assert any(needed == root or needed.is_relative_to(root) for root in roots), needed


def lines_of(stream: IO[str], every: list[str]) -> tuple[queue.Queue[str], threading.Thread]:
    """The stream's lines as they come, read on a thread of their own (which ends with the stream); each one is
    also added to `every`."""
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            every.append(line)
            found.put(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return found, reader


def line_with(lines: queue.Queue[str], words: str) -> str:
    while True:
        try:
            line = lines.get(timeout=LINE_WAIT_S)
        except queue.Empty:
            raise AssertionError(f"cvb serve never said {words!r}") from None
        if words in line:
            return line


def test_cvb_serve_serves_a_site_up_to_date_unbuilt_and_keeps_it_when_a_change_breaks_the_config(
    small_site: Path, tmp_path: Path
) -> None:
    """The command itself: a site recorded as built from the current inputs, for this address, is served at once
    without a build; a missing page gets the edition's 404 page; a config change is seen (watchdog) and the
    rebuild it starts, refused, leaves the last good site served; Ctrl-C ends it cleanly."""
    layout = Layout()
    config = tmp_path / "platform_config"
    shutil.copytree(layout.config, config)
    port = free_port()
    digest = serve.inputs_digest(
        layout, config, code=serve.code_digest(), site_url=f"http://127.0.0.1:{port}/"
    )
    serve.record_build(layout, small_site, digest)
    process = subprocess.Popen(
        [CVB, "--config", str(config), "serve", "--out", str(small_site), "--port", str(port)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    assert process.stdout is not None and process.stderr is not None
    log: list[str] = []
    (said, _), (logged, log_reader) = lines_of(process.stdout, []), lines_of(process.stderr, log)
    try:
        first = line_with(said, "Serving ")
        assert f"Serving {small_site.resolve()} (up to date with its inputs, not rebuilt)" in first, first
        assert request(port, "GET", "/zh/no-such-page/") == (
            404,
            "text/html; charset=utf-8",
            CHINESE_404.encode(),
        )
        protocol = config / "protocol.yaml"
        text = protocol.read_text(encoding="utf-8")
        assert "floor_ms: " in text
        protocol.write_text(re.sub(r"floor_ms: \d+", 'floor_ms: "soon"', text, count=1), encoding="utf-8")
        line_with(logged, "Not rebuilt; the site still shows the last good build.")
        assert "protocol.yaml, line" in line_with(logged, "protocol.yaml")
        assert request(port, "GET", "/")[0] == 200
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=LINE_WAIT_S)
        except subprocess.TimeoutExpired:
            # Seen once under heavy load: the process outlived Ctrl-C. Abort it, so that faulthandler prints
            # where each thread was, and fail with that.
            process.send_signal(signal.SIGABRT)
            process.wait(timeout=LINE_WAIT_S)
            log_reader.join(timeout=LINE_WAIT_S)
            pytest.fail("cvb serve was still running after Ctrl-C:\n" + "".join(log))
        log_reader.join(timeout=LINE_WAIT_S)
        serve._stamp_path(layout, small_site).unlink(missing_ok=True)
    assert process.returncode == 0, log
    assert "Traceback" not in "".join(log), log
