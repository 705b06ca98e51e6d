"""Run inside the C++ OpenCC venv (.venv-opencc-cpp): convert each line of a file with s2hk and print the
results as one JSON list. Kept apart because the C++ binding and opencc-py both import as ``opencc``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import opencc


def main() -> int:
    config = sys.argv[2] if len(sys.argv) > 2 else "s2hk"
    converter = opencc.OpenCC(config)
    lines = Path(sys.argv[1]).read_text(encoding="utf-8").split("\n")
    json.dump([converter.convert(line) for line in lines], sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
