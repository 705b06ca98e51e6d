"""JSON Schemas for every protocol frame, both ways, from frames.yaml as plain data.

frames.yaml stays the single source: a field that exists only on some pillars (hello's `clip`, `task`, `text`)
makes one schema per pillar, so each schema is plain (no conditionals) and the connection test can check a
frame with a validator small enough to ship inside the kit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "string_list": {"type": "array", "items": {"type": "string"}},
}

Frames = Mapping[str, Mapping[str, Any]]


def _object_schema(fields: Mapping[str, Mapping[str, Any]], *, pillar: str) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, spec in fields.items():
        pillars = spec.get("pillars")
        if pillars is not None and pillar not in pillars:
            continue
        properties[name] = _field_schema(spec, pillar=pillar)
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _field_schema(spec: Mapping[str, Any], *, pillar: str) -> dict[str, Any]:
    schema = (
        _object_schema(spec.get("fields") or {}, pillar=pillar)
        if spec["type"] == "object"
        else dict(_TYPES[spec["type"]])
    )
    if spec.get("const") is not None:
        schema["const"] = spec["const"]
    if spec.get("note"):
        schema["description"] = spec["note"]
    return schema


def frame_schemas(frames: Frames) -> dict[str, dict[str, dict[str, Any]]]:
    """{frame type: {pillar: JSON Schema}} for every frame on every pillar it is used on."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, frame in frames.items():
        out[name] = {}
        for pillar in frame["pillars"]:
            out[name][pillar] = {
                "$schema": DIALECT,
                "title": f"{name} ({pillar}), sent by the {frame['sender']}",
                "description": frame["purpose"],
                **_object_schema(frame["fields"], pillar=pillar),
            }
    return out


def frame_senders(frames: Frames) -> dict[str, str]:
    """{frame type: 'platform' | 'entrant'}: which way each frame travels."""
    return {name: str(frame["sender"]) for name, frame in frames.items()}
