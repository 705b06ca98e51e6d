"""The kit runs where its README says: each file states the Python or Node it needs and stops with one line
(no stack trace) on an older one or without its one package, and the README's steps, virtual environment
included, run verbatim against the unpacked zip and pass at the concurrency endpoint.json declares.

The versions the kit claims run for real elsewhere: the host's Python here, a fresh Debian's in
test_kit_fresh_debian.py, Node's in test_kit_node_versions.py. A version older than the kit needs is faked in the
subprocess (sys.version_info for Python, process.versions for Node), to see the refusal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.kit_servers import KIT, WAIT_S, free_port, rendered, unpack_kit

pytestmark = pytest.mark.xdist_group("kit-servers")

PYTHON_MIN = tuple(int(part) for part in KIT.versions.python.split("."))
OLDER_PYTHON = (PYTHON_MIN[0], PYTHON_MIN[1] - 1, 9)
OLDER_NODE = f"{int(KIT.versions.node) - 2}.20.2"
FAKE_PYTHON = """
import runpy, sys
sys.version_info = ({major}, {minor}, {micro}, "final", 0)
sys.version = "{major}.{minor}.{micro} (main, Jan  1 2025, 00:00:00) [GCC 12.2.0]"
sys.path.insert(0, ".")
sys.argv = [{file!r}, "--help"]
runpy.run_path({file!r}, run_name="__main__")
"""
FAKE_NODE = (
    "Object.defineProperty(process, 'versions', {{ value: {{ ...process.versions, node: '{version}' }} }});\n"
)


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("kit")
    unpack_kit(folder)
    return folder


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "    at " not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("file", ["server.py", "connection_test.py"])
def test_a_python_file_refuses_an_older_python_in_one_line(kit: Path, file: str) -> None:
    major, minor, micro = OLDER_PYTHON
    script = FAKE_PYTHON.format(major=major, minor=minor, micro=micro, file=file)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=kit, capture_output=True, text=True, timeout=WAIT_S, check=False
    )
    line = one_line_refusal(done)
    assert (
        line == f"{file} needs Python {KIT.versions.python} or later; this is Python {major}.{minor}.{micro}."
    )


@pytest.mark.parametrize("file", ["server.py", "connection_test.py"])
def test_a_python_file_runs_on_the_python_it_claims(kit: Path, file: str) -> None:
    assert sys.version_info[:2] >= PYTHON_MIN
    done = subprocess.run(
        [sys.executable, file, "--help"], cwd=kit, capture_output=True, text=True, timeout=WAIT_S, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_the_python_server_without_websockets_says_how_to_install_it(kit: Path) -> None:
    # -I -S: isolated and without site-packages, so no websockets; a free port in case it ever did start.
    done = subprocess.run(
        [sys.executable, "-I", "-S", "server.py"],
        cwd=kit,
        env={"PORT": str(free_port()), "HOST": "127.0.0.1"},
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        check=False,
    )
    line = one_line_refusal(done)
    assert line == "server.py needs the websockets package: python -m pip install -r requirements.txt"


def test_the_node_server_refuses_an_older_node_in_one_line(kit: Path, tmp_path: Path) -> None:
    fake = tmp_path / "older.cjs"
    fake.write_text(FAKE_NODE.format(version=OLDER_NODE), encoding="utf-8")
    done = subprocess.run(
        ["node", "--require", str(fake), "server.mjs"],
        cwd=kit,
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        check=False,
    )
    line = one_line_refusal(done)
    assert line == f"server.mjs needs Node {KIT.versions.node} or later; this is Node {OLDER_NODE}."


def test_the_node_server_runs_on_the_node_it_claims_and_says_so_in_package_json(kit: Path) -> None:
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout
    assert int(version.strip().lstrip("v").split(".")[0]) >= int(KIT.versions.node)
    assert f'"node": ">={KIT.versions.node}"' in rendered().kit["package.json"]
    done = subprocess.run(
        ["node", "server.mjs", "--unknown"],
        cwd=kit,
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        check=False,
    )
    # Past the version check and the ws import, to its own argument parsing: one line, no trace.
    assert one_line_refusal(done).startswith("Unknown option")


def test_the_node_server_without_ws_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "server.mjs").write_text(rendered().kit["server.mjs"], encoding="utf-8")
    done = subprocess.run(
        ["node", "server.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=WAIT_S, check=False
    )
    assert one_line_refusal(done) == "server.mjs needs the ws package: npm install"


def spoken_list(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c": how the kit's README and servers list the versions tested."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def readme_block(readme: str, after: str) -> list[str]:
    """The indented command block that follows the paragraph starting with `after`."""
    start = readme.index(after)
    lines = readme[start:].splitlines()
    block: list[str] = []
    for line in lines[1:]:
        if line.startswith("    "):
            block.append(line.strip())
        elif block:
            break
    return block


def readme_script(port: int) -> str:
    """The README's Python steps, as written, then its local connection-test command, as one bash script. The one
    change: a free port in place of the default (the server reads PORT), and --fast to keep the suite quick."""
    readme = rendered().kit["README.md"]
    steps = readme_block(readme, f"Python {KIT.versions.python} or later")
    assert steps == [
        "python3 -m venv .venv",
        ". .venv/bin/activate",
        "python -m pip install -r requirements.txt",
        "python server.py",
    ]
    test_command = next(
        line for line in readme_block(readme, "On your own machine") if "connection_test.py" in line
    )
    test_command = test_command.replace(f":{KIT.default_port}", f":{port}") + " --fast"
    return "\n".join(
        [
            "set -e",
            *steps[:-1],
            f"{steps[-1]} 2> server.log &",
            "server=$!",
            "trap 'kill $server' EXIT",
            f"for _ in $(seq 100); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 0.1; done",
            test_command,
        ]
    )


def python_that_passed(done: subprocess.CompletedProcess[str], server_log: str) -> str:
    """The README's steps passed: the Python (major.minor) the server ran on, from its first line."""
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:] + server_log[-2000:]
    concurrency = KIT.declared_concurrency
    assert f"Tested at concurrency {concurrency} (from endpoint.json)" in done.stdout
    assert re.search(r"All \d+ clips and turns passed\.", done.stdout)
    tested = re.escape(spoken_list(KIT.versions.python_tested))
    started = re.search(rf"Python (\d+\.\d+)\.\d+ \(tested on {tested}\); the models run in", server_log)
    assert started, server_log[-2000:]
    return started[1]


def test_the_readme_steps_run_verbatim_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    """The README's Python steps, as written, with Debian's own python3 (its pip refuses the system Python, which
    is why the README makes a venv), then its local connection-test command, at endpoint.json's concurrency."""
    port = free_port()
    unpack_kit(tmp_path)
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PORT": str(port), "HOST": "127.0.0.1"}
    environment |= {k: v for k, v in os.environ.items() if k.startswith(("PIP_", "http_", "https_", "HTTP"))}
    done = subprocess.run(
        ["bash", "-c", readme_script(port)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # Debian's python3 here is one of the versions the kit says it is tested on.
    assert python_that_passed(done, (tmp_path / "server.log").read_text(encoding="utf-8")) in (
        KIT.versions.python_tested
    )
