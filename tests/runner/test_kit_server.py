"""A scored run against the starter kit's own servers, Python and Node, unpacked from the zip the site offers:
every item passes on every pillar, and the recognition record is one the board accepts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.kit_servers import LANGUAGES, kit_server
from runner.shell import RunSettings, Slots, run_job
from tests.runner.support import RUN, SMALL, board, endpoint, job, run_async, write_entrants, write_pool


@pytest.fixture(scope="module", params=LANGUAGES)
def kit_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp(f"kit-{request.param}")
    with kit_server(request.param, folder, env={"STUB_DELAY_S": "0"}) as server:
        yield server.url


@pytest.mark.parametrize(
    ("pillar", "run"),
    [("asr", RUN), ("llm", SMALL), ("tts", SMALL), ("e2e", SMALL)],
    ids=["asr", "llm", "tts", "e2e"],
)
def test_a_run_against_the_kits_server_passes_every_item(
    tmp_path: Path, kit_url: str, pillar: str, run: RunSettings
) -> None:
    pool = write_pool(tmp_path)
    write_entrants(tmp_path, ["ex-01"])
    path = run_async(
        run_job(
            job(pillar=pillar),
            endpoint=endpoint("ex-01", kit_url, concurrency=3),
            pool=pool,
            out=tmp_path,
            run=run,
            slots=Slots(8, {"ex-01": 3}),
        )
    )
    evidence = json.loads((tmp_path / "evidence" / path.name).read_text(encoding="utf-8"))
    assert len(evidence["items"]) == run.draw_size
    for item in evidence["items"]:
        (attempt,) = item["attempts"]
        assert attempt["failure"] is None, attempt
        assert all(v["passed"] for v in attempt["verdicts"])
    if pillar == "asr":
        loaded = board(tmp_path)
        assert loaded.problems == () and len(loaded.records) == 1
