"""`cvb` as an organiser uses it: check, build, and serve with a rebuild when the config changes."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from generator.config import load_config
from generator.paths import Layout
from generator.rules_export import scoring_rules_json
from tests.generator.conftest import project_copy

CVB = str(Layout().root / ".venv" / "bin" / "cvb")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        # The build puts break points after underscores in identifiers (generator/pages/markup.py).
        return str(response.read().decode("utf-8")).replace("<wbr>", "")


def test_a_bad_config_exits_non_zero_with_the_located_sentence(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    rounds = layout.config / "rounds.yaml"
    rounds.write_text(
        rounds.read_text(encoding="utf-8").replace("pool_size: 56", "pool_size: 20"), encoding="utf-8"
    )
    result = subprocess.run(
        [CVB, "--config", str(layout.config), "build", "--out", str(tmp_path / "site")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert (
        f"{layout.config / 'rounds.yaml'}, line 3, key draw.size: a draw of 30 clips cannot come from a pool of 20."
        in result.stderr
    )
    assert not (tmp_path / "site").exists()


def test_serve_on_a_port_in_use_says_so_at_once_and_builds_nothing(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = tmp_path / "site"
        result = subprocess.run(
            [CVB, "serve", "--out", str(out), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 2
    assert result.stderr.startswith(f"cvb serve: cannot listen on 127.0.0.1:{port} ("), result.stderr
    assert "--port" in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def start_serving(layout: Layout, out: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    """`cvb serve` started, and the line it prints once it serves."""
    server = subprocess.Popen(
        [CVB, "--config", str(layout.config), "serve", "--out", str(out), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    return server, server.stdout.readline()


def test_serve_rebuilds_when_the_config_changes_and_not_when_nothing_did(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    port = free_port()
    out = tmp_path / "site"
    server, first = start_serving(layout, out, port)
    try:
        assert "Serving" in first and "not rebuilt" not in first
        url = f"http://127.0.0.1:{port}/integration/"
        assert "max(3000, duration_ms" in fetch(url)
        protocol = layout.config / "protocol.yaml"
        protocol.write_text(
            protocol.read_text(encoding="utf-8").replace("floor_ms: 3000", "floor_ms: 4000"), encoding="utf-8"
        )
        # A rebuild is the whole site (PDFs included), and this machine's cores may be shared with the browser
        # tests: the limit is generous, and the wait ends as soon as the page changes.
        deadline = time.monotonic() + 180
        page = ""
        while time.monotonic() < deadline:
            try:
                page = fetch(url)
            except (urllib.error.URLError, TimeoutError):
                # The moment the rebuilt site takes the old one's place, or a server slowed by the rebuild.
                page = ""
            if "max(4000, duration_ms" in page:
                break
            time.sleep(0.5)
        assert "max(4000, duration_ms" in page and "max(3000, duration_ms" not in page
        # The new site is served the moment it is swapped in; the server notes what it was built from after.
        assert server.stdout is not None
        assert any(line.strip() == "Rebuilt." for line in iter(server.stdout.readline, ""))
    finally:
        server.terminate()
        server.wait(timeout=10)
    built = out.stat().st_ino
    # Started again on the same address with nothing changed, it serves the site it built.
    server, again = start_serving(layout, out, port)
    try:
        assert "(up to date with its inputs, not rebuilt)" in again, again
        assert "max(4000, duration_ms" in fetch(url)
        assert out.stat().st_ino == built
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_scoring_rules_are_written_before_any_scorer_is_installed(tmp_path: Path) -> None:
    # `make wheel` writes the rules the wheel carries before the wheel exists: on a fresh machine no
    # cvb_scorer can be imported yet, so that step must not need one.
    import sys

    out = tmp_path / "rules.json"
    blocked = "import sys; sys.modules['cvb_scorer'] = None; import runpy; "
    code = (
        blocked
        + f"sys.argv = ['x', '--out', {str(out)!r}]; runpy.run_module('generator.rules_export', run_name='__main__')"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert out.read_text(encoding="utf-8") == scoring_rules_json(load_config(Layout().config))
