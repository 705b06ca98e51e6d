"""The timings the connection test itself reports against the starter kit as shipped (the slow stub models),
Python and Node alternating round by round, written to bench/results/connection_test.json.

Each round runs the real client (starter_kit.connection_test.client.run_items) on every pillar with the built-in
clips the kit zip carries, in real time, at a declared concurrency above one: handshake, end of utterance (speech:
hello) to the first reply against the deadline, hello to speaking, barge_in to the last audio frame and to
turn_done. Medians in milliseconds, with the load average before and after, and what the report says it cannot
measure locally.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from publish import publish  # noqa: E402

from generator.kit_servers import CONFIG, LANGUAGES, kit_server, run  # noqa: E402
from starter_kit.connection_test.bundle import settings_from_config  # noqa: E402
from starter_kit.connection_test.client import run_items  # noqa: E402
from starter_kit.connection_test.clips import load_clips  # noqa: E402
from starter_kit.protocol.machine import PILLARS, Item, Verdict  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "connection_test.json"
ROUNDS = 5
CONCURRENCY = 2
SETTINGS = settings_from_config(CONFIG)


def figures(verdict: Verdict) -> dict[str, float]:
    """The measures of one verdict, named by pillar (and turn for a conversation)."""
    t = verdict.timings
    where = verdict.pillar + ("" if verdict.turn is None else f"_turn{verdict.turn}")
    start = "hello" if verdict.pillar == "tts" else "end_of_utterance"
    reply = "transcript" if verdict.pillar in ("asr", "llm") else "speaking"
    out = {
        "handshake_ms": t.handshake_ms,
        f"{where}_{start}_to_{reply}_ms": t.response_ms,
        f"{where}_deadline_ms": t.deadline_ms,
        f"{where}_barge_in_to_last_audio_ms": t.barge_in_to_last_audio_ms,
        f"{where}_barge_in_to_turn_done_ms": t.barge_in_to_turn_done_ms,
    }
    if verdict.pillar == "e2e":
        # From hello, so it includes the caller's audio played before: not a model timing.
        out[f"{where}_hello_to_speaking_ms"] = t.hello_to_speaking_ms
    return {key: float(value) for key, value in out.items() if value is not None}


def main() -> None:
    load_before = os.getloadavg()
    samples: dict[str, dict[str, list[float]]] = {language: defaultdict(list) for language in LANGUAGES}
    failures: dict[str, list[str]] = {language: [] for language in LANGUAGES}
    not_measured: list[str] = []
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        servers = {}
        for language in LANGUAGES:
            place = Path(folder) / language
            place.mkdir()
            servers[language] = stack.enter_context(kit_server(language, place))
        clips = load_clips(
            Path(folder) / LANGUAGES[0] / "clips", settings=SETTINGS, shortest=SETTINGS.connection_test_clips
        )
        items = [Item(pillar, clip) for pillar in PILLARS for clip in clips]
        for _ in range(ROUNDS):
            for language in LANGUAGES:  # alternating, so a slow spell of a shared machine hits both
                result = run(
                    run_items(
                        items,
                        servers[language].url,
                        settings=SETTINGS,
                        concurrency=CONCURRENCY,
                        paced=True,
                        insecure=True,
                    )
                )
                for verdict in result.verdicts:
                    if verdict.failure is not None:
                        failures[language].append(
                            f"{verdict.pillar} {verdict.clip_id}: {verdict.failure.code}"
                        )
                    for key, value in figures(verdict).items():
                        samples[language][key].append(value)
        not_measured = list(SETTINGS.not_measured)
    publish(
        OUT,
        {
            "rounds": ROUNDS,
            "declared_concurrency": CONCURRENCY,
            "paced": True,
            "clips": [{"id": c.id, "duration_ms": c.duration_ms} for c in clips],
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "medians_ms": {
                language: {
                    key: round(statistics.median(v), 1) for key, v in sorted(samples[language].items())
                }
                for language in LANGUAGES
            },
            "failures": failures,
            "not_measured": not_measured,
        },
    )


if __name__ == "__main__":
    main()
