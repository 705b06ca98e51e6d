"""A validator for exactly the JSON Schema subset frame_schemas generates, small enough to ship in the kit.

Keywords: type, const, properties, required, additionalProperties (false), items. Anything else in a schema is
refused loudly rather than ignored, so the generator cannot start emitting a keyword this silently skips; a
test checks it against the jsonschema package on generated frames.
"""

from __future__ import annotations

from typing import Any

_KNOWN = {
    "$schema",
    "title",
    "description",
    "type",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
}


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        # JSON has one number type: 3.0 is an integer to JSON Schema, True is not.
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    raise ValueError(f"schema type {kind!r} is not one this validator knows")


def problems(schema: dict[str, Any], value: Any, *, where: str = "frame") -> list[str]:
    """Every way `value` breaks `schema`, as sentences naming the field; empty when it conforms."""
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"schema keywords {sorted(unknown)} are not supported here")
    found: list[str] = []
    kind = schema.get("type")
    if kind is not None and not _type_ok(kind, value):
        return [f"{where} must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where} must be {schema['const']!r}")
    if isinstance(value, dict):
        properties: dict[str, Any] = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                found.append(f"{where} lacks the field {name!r}")
        if schema.get("additionalProperties") is False:
            for name in value:
                if name not in properties:
                    found.append(f"{where} has a field {name!r} the protocol does not define")
        for name, sub in properties.items():
            if name in value:
                found += problems(sub, value[name], where=f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for position, item in enumerate(value):
            found += problems(schema["items"], item, where=f"{where}[{position}]")
    return found
