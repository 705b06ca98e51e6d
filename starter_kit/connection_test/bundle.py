"""The connection test as a self-contained folder for the kit: its own source files plus a constants file
rendered from the config, runnable with only `websockets` installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.config import Config
from generator.frame_schemas import frame_schemas, frame_senders
from generator.provenance import format_number
from generator.render import mark_as_tracked
from starter_kit.protocol.settings import DeliveryLimits, Failure, Settings

_STARTER_KIT = Path(__file__).resolve().parent.parent
_SCORER_AUDIO = _STARTER_KIT.parent / "scorer_wasm" / "cvb_scorer" / "audio.py"

# The files the kit carries, relative to starter_kit/. Nothing here may import generator/, and of the scorer
# only cvb_scorer.audio (standard library only), which the kit carries under a package stub of its own.
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

# The kit's cvb_scorer is this stub plus audio.py: the scorer's other modules need packages the kit does not.
SCORER_STUB = '''"""The benchmark scorer's audio measures only (cvb_scorer.audio), as the connection test uses them."""
'''

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
        noise_floor_percentile=p.audio_measures.noise_floor_percentile,
        digital_silence_min_ms=p.audio_measures.digital_silence_min_ms,
        handshake_timeout_ms=p.handshake_timeout_ms,
        max_message_bytes=p.max_message_bytes,
        deadline_factor=p.deadline.factor,
        deadline_floor_ms=p.deadline.floor_ms,
        llm_task=p.llm_task,
        tts_turn_index=p.tts_turn_index,
        yield_within_ms=e2e.yield_within_ms,
        connection_test_clips=test.clips,
        default_concurrency=test.default_concurrency,
        late_reply_wait_ms=test.late_reply_wait_ms,
        conversation_barge_in_after_ms=tuple(test.conversation_barge_in_after_ms),
        listen_after_last_turn_ms=test.listen_after_last_turn_ms,
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
    files["cvb_scorer/__init__.py"] = SCORER_STUB.encode("utf-8")
    files["cvb_scorer/audio.py"] = _SCORER_AUDIO.read_bytes()
    files["connection_test.py"] = ENTRY_POINT.encode("utf-8")
    return files


class MissingClipsError(FileNotFoundError):
    """The built-in clips have not been built; the message says how to build them."""


def builtin_clip_files(config: Config, folder: Path) -> dict[str, bytes]:
    """{path in the kit: bytes} for clips/: the connection test's built-in clips (the shortest, as many as the
    config's connection test plays) and their clips.json, taken from `folder` as `make clips` wrote it."""
    index = folder / "clips.json"
    if not index.is_file():
        raise MissingClipsError(
            f"The built-in clips are not in {folder} (no clips.json), and the kit zip carries them; "
            "run `make clips` first."
        )
    entries = json.loads(index.read_text(encoding="utf-8"))
    chosen = sorted(entries, key=lambda e: (e["seconds"], e["id"]))[: config.protocol.connection_test.clips]
    listing = json.dumps(chosen, ensure_ascii=False, indent=2) + "\n"
    files = {"clips/clips.json": listing.encode("utf-8")}
    for entry in chosen:
        files[f"clips/{entry['file']}"] = (folder / entry["file"]).read_bytes()
    return files
