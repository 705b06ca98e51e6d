"""The connection test's stated duration: the schedule arithmetic as a table, and the figures the integration
page states (from the built-in clips, the pacing and the kit's stub models at the shipped concurrency) against
a measured paced run of the shipped Python server, per pillar and for all of them, within a fifth."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from generator.kit_data import kit_test_seconds
from generator.kit_servers import CONFIG, KIT, KitServer, kit_server, rendered, run
from starter_kit.connection_test.client import run_items
from starter_kit.connection_test.clips import load_clips
from starter_kit.connection_test.duration import ReplyTimes, item_seconds, run_seconds, streaming_seconds
from starter_kit.protocol.machine import PILLARS, Item
from tests.starter_kit.protocol_support import SETTINGS

pytestmark = pytest.mark.xdist_group("kit-servers")

S = SETTINGS
TOLERANCE = 0.2


@pytest.mark.parametrize(
    ("items", "concurrency", "seconds"),
    [
        ([], 3, 0.0),
        ([2.0], 3, 2.0),
        ([1.0, 1.0, 1.0], 1, 3.0),
        ([1.0, 1.0, 1.0], 3, 1.0),
        ([3.0, 1.0, 1.0, 1.0], 2, 3.0),  # the short ones share the second connection
        ([1.0, 1.0, 3.0], 2, 4.0),  # the long one waits for a free connection
    ],
)
def test_a_run_takes_its_items_in_order_on_the_first_free_connection(
    items: list[float], concurrency: int, seconds: float
) -> None:
    assert run_seconds(items, concurrency=concurrency) == pytest.approx(seconds)


def test_an_item_is_its_paced_audio_plus_the_replies() -> None:
    reply = ReplyTimes(think_s=0.5, speech_s=2.0, speed=4.0)
    frame_s = S.frame_ms / 1000
    assert streaming_seconds(S.frame_ms * 3 + 1, S) == pytest.approx(4 * frame_s)
    assert item_seconds("asr", S.frame_ms * 3, settings=S, reply=reply) == pytest.approx(3 * frame_s + 0.5)
    listen_s = S.listen_after_last_turn_ms / 1000
    assert item_seconds("tts", S.frame_ms, settings=S, reply=reply) == pytest.approx(0.5 + 0.5 + listen_s)
    turns = [
        3 * frame_s + 0.5 + (2.0 if after is None else min(2.0, after / 1000)) / 4.0
        for after in S.conversation_barge_in_after_ms
    ]
    assert item_seconds("e2e", S.frame_ms * 3, settings=S, reply=reply) == pytest.approx(
        sum(turns) + listen_s
    )


@pytest.fixture(scope="module")
def shipped_python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KitServer]:
    with kit_server("python", tmp_path_factory.mktemp("duration")) as running:
        yield running


@pytest.fixture(scope="module")
def measured(shipped_python: KitServer) -> dict[str, float]:
    folder = shipped_python.log_path.parent / "clips"
    clips = load_clips(folder, settings=S, shortest=S.connection_test_clips)
    seconds: dict[str, float] = {}
    for name, pillars in [*((p, (p,)) for p in PILLARS), ("all", PILLARS)]:
        items = [Item(pillar, clip) for pillar in pillars for clip in clips]
        started = time.monotonic()
        result = run(
            run_items(
                items,
                shipped_python.url,
                settings=S,
                concurrency=KIT.declared_concurrency,
                paced=True,
                insecure=True,
            )
        )
        seconds[name] = time.monotonic() - started
        assert result.passed, [v for v in result.verdicts if not v.passed]
    return seconds


def test_the_stated_duration_is_the_measured_one_within_a_fifth(measured: dict[str, float]) -> None:
    download = rendered().fragments.kit_download
    stated = {pillar: download.test_seconds[pillar].value for pillar in PILLARS} | {
        "all": download.test_seconds_all.value
    }
    for name, seconds in measured.items():
        assert abs(stated[name] - seconds) <= TOLERANCE * seconds, (name, stated[name], round(seconds, 2))


def test_the_page_states_the_durations_computed_from_the_clips_the_kit_carries(
    shipped_python: KitServer,
) -> None:
    clips = load_clips(shipped_python.log_path.parent / "clips", settings=S, shortest=S.connection_test_clips)
    per_pillar, everything = kit_test_seconds(CONFIG, [c.duration_ms for c in clips])
    download = rendered().fragments.kit_download
    assert {p: n.value for p, n in download.test_seconds.items()} == {
        p: n.value for p, n in per_pillar.items()
    }
    assert download.test_seconds_all.value == everything.value
    english, chinese = rendered().pages["integration.md"], rendered().zh_pages["integration.md"]
    for pillar in PILLARS:
        seconds = per_pillar[pillar].value
        assert f"{seconds} s with `{pillar}`" in english or f"{seconds} s with `--pillar {pillar}`" in english
        assert f"`{pillar}` 約 {seconds} 秒" in chinese or f"`--pillar {pillar}` 約 {seconds} 秒" in chinese
    assert f"{everything.value} s with\n`--pillar all`" in english
    assert f"`--pillar all` 約 {everything.value} 秒" in chinese
