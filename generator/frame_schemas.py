"""JSON Schemas for every protocol frame, both ways, generated from platform_config/frames.yaml by
protocol_data.frames (which the connection test's settings use too), published beside the integration page."""

from __future__ import annotations

import json
from typing import Any

from generator.config import Config
from protocol_data import frames

DIALECT = frames.DIALECT


def frame_schemas(config: Config) -> dict[str, dict[str, dict[str, Any]]]:
    """{frame type: {pillar: JSON Schema}} for every frame on every pillar it is used on."""
    return frames.frame_schemas(config.frames.model_dump(mode="json"))


def frame_senders(config: Config) -> dict[str, str]:
    """{frame type: 'platform' | 'entrant'}: which way each frame travels."""
    return frames.frame_senders(config.frames.model_dump(mode="json"))


def frame_schemas_json(config: Config) -> str:
    """The schemas as one deterministic JSON document, for publishing beside the integration page."""
    document = {
        "protocol": config.protocol.version,
        "senders": frame_senders(config),
        "frames": frame_schemas(config),
    }
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
