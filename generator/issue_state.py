"""Whether the settings are those the issue in force was printed from. A leaf: the pages, the printer and the
issue commands all ask it, and it imports none of them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from generator.config import Config

PLATFORM_FILE = "platform.yaml"


def config_sha256(config: Config) -> str:
    """The content hash of the settings an issue is printed from: every file's data as read (comments and
    layout aside), in canonical JSON, without the issue records themselves (a record cannot hold the hash of
    the text it is part of). Read from the files, so a localised view of the config hashes the same."""
    data: dict[str, Any] = {name: source.data for name, source in sorted(config.sources.items())}
    data[PLATFORM_FILE] = {k: v for k, v in data[PLATFORM_FILE].items() if k != "issues"}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unreleased(config: Config) -> bool:
    """The settings differ from those the issue in force was printed from: no PDF may carry its date."""
    pinned = config.platform.issues[-1].config_sha256
    return pinned is not None and pinned != config_sha256(config)
