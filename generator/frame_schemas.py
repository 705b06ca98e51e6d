"""JSON Schemas for every protocol frame, both ways, generated from platform_config/frames.yaml.

frames.yaml stays the single source: a field that exists only on some pillars (hello's `clip`, `task`, `text`)
makes one schema per pillar, so each schema is plain (no conditionals) and the connection test can check a
frame with a validator small enough to ship inside the kit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from generator.config import Config
from generator.config.models import FrameField

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "string_list": {"type": "array", "items": {"type": "string"}},
}


def _object_schema(fields: Mapping[str, FrameField], *, pillar: str) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, spec in fields.items():
        if spec.pillars is not None and pillar not in spec.pillars:
            continue
        properties[name] = _field_schema(spec, pillar=pillar)
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _field_schema(spec: FrameField, *, pillar: str) -> dict[str, Any]:
    schema = (
        _object_schema(spec.fields or {}, pillar=pillar) if spec.type == "object" else dict(_TYPES[spec.type])
    )
    if spec.const is not None:
        schema["const"] = spec.const
    if spec.note:
        schema["description"] = spec.note
    return schema


def frame_schemas(config: Config) -> dict[str, dict[str, dict[str, Any]]]:
    """{frame type: {pillar: JSON Schema}} for every frame on every pillar it is used on."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, frame in config.frames.root.items():
        out[name] = {}
        for pillar in frame.pillars:
            schema = _object_schema(frame.fields, pillar=pillar)
            out[name][pillar] = {
                "$schema": DIALECT,
                "title": f"{name} ({pillar}), sent by the {frame.sender}",
                "description": frame.purpose,
                **schema,
            }
    return out


def frame_senders(config: Config) -> dict[str, str]:
    """{frame type: 'platform' | 'entrant'}: which way each frame travels."""
    return {name: frame.sender for name, frame in config.frames.root.items()}


def frame_schemas_json(config: Config) -> str:
    """The schemas as one deterministic JSON document, for publishing beside the integration page."""
    document = {
        "protocol": config.protocol.version,
        "senders": frame_senders(config),
        "frames": frame_schemas(config),
    }
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
