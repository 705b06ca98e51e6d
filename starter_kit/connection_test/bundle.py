"""The connection test as a self-contained folder for the kit: its own source files plus a constants file
rendered from the config, runnable with only `websockets` installed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.config import Config
from generator.frame_schemas import frame_schemas, frame_senders
from generator.provenance import format_number
from generator.render import mark_as_tracked
from starter_kit.protocol.settings import DeliveryLimits, Failure, Settings

_STARTER_KIT = Path(__file__).resolve().parent.parent

# The files the kit carries, relative to starter_kit/. Nothing here may import generator/ or the scorer.
SHIPPED = (
    "__init__.py",
    "protocol/__init__.py",
    "protocol/settings.py",
    "protocol/schema.py",
    "protocol/delivery.py",
    "protocol/records.py",
    "protocol/machine.py",
    "connection_test/__init__.py",
    "connection_test/clips.py",
    "connection_test/client.py",
    "connection_test/report.py",
    "connection_test/cli.py",
)

ENTRY_POINT = '''\
"""The benchmark's connection test (Python 3.11 or later).

python -m pip install websockets
python connection_test.py wss://your.host/path --pillar all --concurrency N
"""

import sys
from pathlib import Path

from starter_kit.connection_test.cli import main
from starter_kit.connection_test.constants import SETTINGS
from starter_kit.protocol.settings import Settings

if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    raise SystemExit(main(sys.argv[1:], settings=Settings.from_dict(SETTINGS), default_clips=here / "clips"))
'''


def settings_from_config(config: Config) -> Settings:
    p, test = config.protocol, config.protocol.connection_test
    e2e = config.scoring.pillars["e2e"]
    if e2e.yield_within_ms is None:
        raise ValueError("scoring.yaml: pillars.e2e.yield_within_ms is needed by the connection test.")
    return Settings(
        protocol_version=p.version,
        encoding=p.audio.encoding,
        sample_rate_hz=p.audio.sample_rate_hz,
        channels=p.audio.channels,
        sample_bits=p.audio.sample_bits,
        frame_ms=p.audio.frame_ms,
        frame_bytes=p.audio.frame_bytes,
        wav_header_bytes=p.audio.wav_header_bytes,
        handshake_timeout_ms=p.handshake_timeout_ms,
        deadline_factor=p.deadline.factor,
        deadline_floor_ms=p.deadline.floor_ms,
        llm_task=p.llm_task,
        tts_turn_index=p.tts_turn_index,
        yield_within_ms=e2e.yield_within_ms,
        connection_test_clips=test.clips,
        default_concurrency=test.default_concurrency,
        late_reply_wait_ms=test.late_reply_wait_ms,
        delivery=DeliveryLimits(**test.delivery.model_dump()),
        not_measured=tuple(test.not_measured),
        failures={f.code: Failure(f.code, f.attributed_to, f.message) for f in config.failures.root},
        schemas=frame_schemas(config),
        senders=frame_senders(config),
    )


def _literal(value: Any, *, mark: bool, depth: int) -> str:
    """A Python literal for `value`, numbers in the pages' own format; with mark=True every config value is
    bracketed as tracked, so `cvb check` can tell it from a typed number."""
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{k!r}: {_literal(v, mark=mark, depth=depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = [f"{inner}{_literal(v, mark=mark, depth=depth + 1)}," for v in value]
        return "[\n" + "\n".join(items) + f"\n{pad}]"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int | float):
        return mark_as_tracked(format_number(value), mark=mark)
    return mark_as_tracked(repr(value), mark=mark)


def constants_source(config: Config, *, mark: bool = False) -> str:
    """The kit's constants file: the connection test's Settings, every value from the config."""
    data = settings_from_config(config).to_dict()
    for per_pillar in data["schemas"].values():
        for one in per_pillar.values():
            one.pop("$schema", None)  # the dialect's address is not needed to validate, nor a platform value
    return (
        '"""Generated from platform_config/ by the benchmark\'s generator; do not edit."""\n\n'
        f"SETTINGS = {_literal(data, mark=mark, depth=0)}\n"
    )


def kit_files(config: Config) -> dict[str, bytes]:
    """{path in the kit: bytes}: connection_test.py, starter_kit/… and the rendered constants. Pure in the
    config and the source tree, so the kit's zip stays byte-identical across rebuilds."""
    files = {f"starter_kit/{name}": (_STARTER_KIT / name).read_bytes() for name in SHIPPED}
    files["starter_kit/connection_test/constants.py"] = constants_source(config).encode("utf-8")
    files["connection_test.py"] = ENTRY_POINT.encode("utf-8")
    return files
