"""The starter kit: which files it holds and the byte-reproducible zip.

Pure: rendered text in, bytes out. The build (generator/build.py) renders the templates with the values of
generator/kit_data.py and writes the zip; the integration page shows its size and sha256 from `KitDownload`.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

from starter_kit.connection_test.bundle import builtin_clip_files, kit_files

# Path inside the zip -> template in starter_kit/templates/. Order is the zip's order after sorting by path.
KIT_FILES: dict[str, str] = {
    "server.py": "server.py.j2",
    "server.mjs": "server.mjs.j2",
    "requirements.txt": "requirements.txt.j2",
    "package.json": "package.json.j2",
    "Dockerfile": "Dockerfile.j2",
    "README.md": "README.md.j2",
    # The connections the entrant will declare; the connection test defaults to it.
    "endpoint.json": "endpoint.json.j2",
}

# The kit README's section on the connection test (a template of its own, rendered into README.md).
CONNECTION_TEST_SECTION = "connection_test.md.j2"

# Every entry carries this time: the earliest a zip can hold, so a rebuild of the same files is the same bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# rw-r--r-- regular files: the mode bits sit in the high half of external_attr.
ZIP_FILE_MODE = 0o100644 << 16
ZIP_LEVEL = 9


def kit_zip(files: Mapping[str, bytes]) -> bytes:
    """The zip of `files`, byte-identical for the same files: sorted paths, fixed times, modes and level."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(path, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = ZIP_FILE_MODE
            info.create_system = 3  # Unix, so the mode bits above are read as such
            archive.writestr(info, files[path], compresslevel=ZIP_LEVEL)
    return buffer.getvalue()


def kit_contents(rendered: Mapping[str, str], extra: Mapping[str, bytes] | None = None) -> dict[str, bytes]:
    """The files the zip holds: the rendered kit, plus `extra` (the connection-test client's files)."""
    files = {path: text.encode("utf-8") for path, text in rendered.items()}
    for path, data in (extra or {}).items():
        if path in files:
            raise ValueError(f"the kit already has a file {path}; an extra file may not replace it.")
        files[path] = data
    return files


def connection_test_files(*, constants: str, clip_count: int, clips: Path) -> dict[str, bytes]:
    """The connection-test client's files (connection_test.py, its packages and `constants`, its settings
    rendered from the config) and its `clip_count` built-in clips from `clips` (build/clips/), added to the kit
    zip beside the servers."""
    return kit_files(constants) | builtin_clip_files(clip_count, clips)
