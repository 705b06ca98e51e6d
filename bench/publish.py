"""How every benchmark hands over its figures: one JSON file under bench/results/, and the same on stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def publish(path: Path, results: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(results, indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    print(text)
