"""Example frames built from the frame schemas and the config's example values, and checked against them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from generator.config import Config
from generator.config.models import FrameField
from generator.pages.derive import deadline_for, tracked
from generator.provenance import Num, Text

_PY_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "integer": int,
    "boolean": bool,
    "string_list": list,
}


def frame_problems(
    fields: Mapping[str, FrameField], frame: Mapping[str, Any], *, pillar: str, where: str
) -> list[str]:
    """Every way `frame` disagrees with its schema for `pillar`; empty when it conforms."""
    problems: list[str] = []
    expected = {name: f for name, f in fields.items() if f.pillars is None or pillar in f.pillars}
    for name in frame:
        if name not in expected:
            problems.append(f"{where}: field {name!r} is not in the schema for pillar {pillar!r}.")
    for name, spec in expected.items():
        if name not in frame:
            problems.append(f"{where}: field {name!r} is missing.")
            continue
        value = frame[name]
        if spec.type == "object":
            if not isinstance(value, Mapping):
                problems.append(f"{where}: field {name!r} must be an object.")
            else:
                problems += frame_problems(spec.fields or {}, value, pillar=pillar, where=f"{where}.{name}")
        elif spec.type == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append(f"{where}: field {name!r} must be an integer, not {value!r}.")
        elif not isinstance(value, _PY_TYPES.get(spec.type, object)):
            problems.append(f"{where}: field {name!r} must be a {spec.type}, not {value!r}.")
        elif spec.type == "string_list" and not all(isinstance(v, str) for v in value):
            problems.append(f"{where}: field {name!r} must list strings.")
        if spec.const is not None and value != spec.const:
            problems.append(f"{where}: field {name!r} must be {spec.const!r}.")
    return problems


def _plain(value: Any) -> Any:
    if isinstance(value, Num):
        return int(value.value) if float(value.value).is_integer() else value.value
    if isinstance(value, Text):
        return value.text
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _sources(value: Any) -> frozenset[str]:
    if isinstance(value, Num | Text):
        return value.sources
    if isinstance(value, dict):
        return frozenset().union(*(_sources(v) for v in value.values())) if value else frozenset()
    if isinstance(value, list):
        return frozenset().union(*(_sources(v) for v in value)) if value else frozenset()
    return frozenset()


# A frame longer than this is shown indented, one field a line: on a phone a single long line of JSON scrolls
# out of sight under the copy button. Shorter frames stay on one line, as they travel on the wire.
PRETTY_FROM_CHARS = 60


def frame_text(plain: Any) -> str:
    compact = json.dumps(plain, ensure_ascii=False, separators=(",", ":"))
    if len(compact) <= PRETTY_FROM_CHARS:
        return compact
    return json.dumps(plain, ensure_ascii=False, indent=2)


def example_frames(config: Config) -> dict[str, Text]:
    """Every example frame the pages show, as JSON tracked by the config keys it was built from: compact when
    short, indented when long (frame_text)."""
    cfg = tracked(config)
    protocol, examples, audio = cfg.protocol, cfg.protocol.examples, cfg.protocol.audio
    clip = {
        "sample_rate": audio.sample_rate_hz,
        "encoding": audio.encoding,
        "duration_ms": examples.clip_duration_ms,
    }
    deadline = deadline_for(cfg, examples.clip_duration_ms)
    turn = examples.turn
    frames: dict[str, tuple[str, str, dict[str, Any]]] = {
        "hello_asr": (
            "hello",
            "asr",
            {
                "type": "hello",
                "protocol": protocol.version,
                "run_item_id": examples.asr_run_item_id,
                "pillar": "asr",
                "clip": clip,
                "deadline_ms": deadline,
                "formats": [audio.encoding],
            },
        ),
        "hello_llm": (
            "hello",
            "llm",
            {
                "type": "hello",
                "protocol": protocol.version,
                "run_item_id": examples.llm_run_item_id,
                "pillar": "llm",
                "clip": clip,
                "task": protocol.llm_task,
                "deadline_ms": deadline,
                "formats": [audio.encoding],
            },
        ),
        "ready": ("ready", "asr", {"type": "ready", "accept": audio.encoding}),
        "end_of_utterance": ("end_of_utterance", "asr", {"type": "end_of_utterance"}),
        "transcript": ("transcript", "asr", {"type": "transcript", "text": examples.transcript_text}),
        "llm_answer": ("transcript", "llm", {"type": "transcript", "text": examples.llm_answer_text}),
        "turn": (
            "turn",
            "e2e",
            {
                "type": "turn",
                "index": turn.index,
                "text": turn.text,
                "audio": {
                    "sample_rate": audio.sample_rate_hz,
                    "encoding": audio.encoding,
                    "duration_ms": turn.duration_ms,
                },
                "expect_interruption": turn.expect_interruption,
            },
        ),
        "barge_in": ("barge_in", "e2e", {"type": "barge_in", "index": turn.index}),
        "speaking": ("speaking", "e2e", {"type": "speaking", "index": turn.index}),
        "turn_done": ("turn_done", "e2e", {"type": "turn_done", "index": turn.index}),
    }
    out: dict[str, Text] = {}
    for name, (frame_type, pillar, frame) in frames.items():
        plain = _plain(frame)
        problems = frame_problems(config.frames.root[frame_type].fields, plain, pillar=pillar, where=name)
        if problems:
            raise ValueError("An example frame does not match its schema: " + " ".join(problems))
        text = frame_text(plain)
        out[name] = Text(text, _sources(frame) | {f"frames.{frame_type}"})
    return out
