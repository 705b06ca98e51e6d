"""The connection test as a self-contained folder for the kit: its own source files plus a constants file
rendered from the config, runnable with only `websockets` installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from protocol_data.settings import settings_data
from starter_kit.protocol.settings import Settings

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
"""The benchmark's connection test (the Python version it needs is in PYTHON_AT_LEAST, checked at start).

python -m pip install -r requirements.txt
python connection_test.py wss://your.host/path --pillar all      # concurrency: endpoint.json's
"""

import platform
import sys
from pathlib import Path

# Plain data, safe on any Python 3: the check below runs before anything newer is imported.
from starter_kit.connection_test.constants import PYTHON_AT_LEAST, SETTINGS

if sys.version_info < tuple(int(part) for part in PYTHON_AT_LEAST.split(".")):
    sys.exit(f"connection_test.py needs Python {PYTHON_AT_LEAST} or later; this is Python {platform.python_version()}.")

from starter_kit.connection_test.cli import main  # noqa: E402
from starter_kit.protocol.settings import Settings  # noqa: E402

if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    raise SystemExit(
        main(
            sys.argv[1:],
            settings=Settings.from_dict(SETTINGS),
            default_clips=here / "clips",
            default_declared=here / "endpoint.json",
        )
    )
'''


def settings_from_config(config: Any) -> Settings:
    """The connection test's Settings from the config: the generator's Config, or the config files' plain data
    (protocol_data.settings.load)."""
    return Settings.from_dict(settings_data(config))


def kit_files(constants: str) -> dict[str, bytes]:
    """{path in the kit: bytes}: connection_test.py, starter_kit/… and `constants`, the settings rendered from
    the config by the generator. Pure in those and the source tree, so the zip stays byte-identical."""
    files = {f"starter_kit/{name}": (_STARTER_KIT / name).read_bytes() for name in SHIPPED}
    files["starter_kit/connection_test/constants.py"] = constants.encode("utf-8")
    files["cvb_scorer/__init__.py"] = SCORER_STUB.encode("utf-8")
    files["cvb_scorer/audio.py"] = _SCORER_AUDIO.read_bytes()
    files["connection_test.py"] = ENTRY_POINT.encode("utf-8")
    return files


class MissingClipsError(FileNotFoundError):
    """The built-in clips have not been built; the message says how to build them."""


def builtin_clip_files(count: int, folder: Path) -> dict[str, bytes]:
    """{path in the kit: bytes} for clips/: the connection test's `count` built-in clips (the shortest) and their
    clips.json, taken from `folder` as `make clips` wrote it."""
    index = folder / "clips.json"
    if not index.is_file():
        raise MissingClipsError(
            f"The built-in clips are not in {folder} (no clips.json), and the kit zip carries them; "
            "run `make clips` first."
        )
    entries = json.loads(index.read_text(encoding="utf-8"))
    chosen = sorted(entries, key=lambda e: (e["seconds"], e["id"]))[:count]
    listing = json.dumps(chosen, ensure_ascii=False, indent=2) + "\n"
    files = {"clips/clips.json": listing.encode("utf-8")}
    for entry in chosen:
        files[f"clips/{entry['file']}"] = (folder / entry["file"]).read_bytes()
    return files
