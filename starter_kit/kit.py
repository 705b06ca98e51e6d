"""The starter kit: which files it holds, the values its templates place, and the byte-reproducible zip.

Pure: Config and rendered text in, bytes out. The build (generator/build.py) renders the templates and writes
the zip; the integration page shows the zip's size and sha256 from `KitDownload`.
"""

from __future__ import annotations

import hashlib
import io
import math
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.config import Config
from generator.provenance import Num, Text
from starter_kit.connection_test.bundle import builtin_clip_files, kit_files

# Path inside the zip -> template in starter_kit/templates/. Order is the zip's order after sorting by path.
KIT_FILES: dict[str, str] = {
    "server.py": "server.py.j2",
    "server.mjs": "server.mjs.j2",
    "requirements.txt": "requirements.txt.j2",
    "package.json": "package.json.j2",
    "Dockerfile": "Dockerfile.j2",
    "README.md": "README.md.j2",
}

# The kit README's section on the connection test (a template of its own, rendered into README.md).
CONNECTION_TEST_SECTION = "connection_test.md.j2"

# Every entry carries this time: the earliest a zip can hold, so a rebuild of the same files is the same bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# rw-r--r-- regular files: the mode bits sit in the high half of external_attr.
ZIP_FILE_MODE = 0o100644 << 16
ZIP_LEVEL = 9

MS_PER_S = 1000
BITS_PER_BYTE = 8


@dataclass(frozen=True)
class KitValues:
    """Numbers the kit's code needs that are computed from the config, each carrying its config keys."""

    sample_bytes: Num
    full_scale: Num
    tone_step: Num  # radians per sample of the stub's tone
    tone_peak: Num  # the stub tone's peak, in sample units
    max_clip_audio_bytes: Num
    ms_per_s: Num


def kit_values(config: Config) -> KitValues:
    audio = config.protocol.audio
    stub = config.site.starter_kit.stub
    sample_bytes = audio.sample_bits // BITS_PER_BYTE
    full_scale = 2 ** (audio.sample_bits - 1) - 1
    audio_keys = frozenset({"protocol.audio.sample_bits"})
    bytes_per_second = audio.sample_rate_hz * audio.channels * sample_bytes
    return KitValues(
        sample_bytes=Num(sample_bytes, audio_keys),
        full_scale=Num(full_scale, audio_keys),
        tone_step=Num(
            math.tau * stub.tone_hz / audio.sample_rate_hz,
            frozenset({"site.starter_kit.stub.tone_hz", "protocol.audio.sample_rate_hz"}),
        ),
        tone_peak=Num(round(stub.tone_peak * full_scale), audio_keys | {"site.starter_kit.stub.tone_peak"}),
        max_clip_audio_bytes=Num(
            config.site.starter_kit.limits.max_clip_audio_s * bytes_per_second,
            frozenset({"site.starter_kit.limits.max_clip_audio_s", "protocol.audio"}),
        ),
        # A unit, not a platform number: it turns the config's seconds into the milliseconds the logs print.
        ms_per_s=Num(MS_PER_S, frozenset({"units.ms_per_s"})),
    )


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


def connection_test_files(config: Config, *, clips: Path) -> dict[str, bytes]:
    """The connection-test client's files (connection_test.py and its packages) and its built-in clips from
    `clips` (build/clips/), added to the kit zip beside the servers."""
    return kit_files(config) | builtin_clip_files(config, clips)


@dataclass(frozen=True)
class KitDownload:
    """What the integration page says about the download: computed from the zip's bytes, never typed."""

    file: Text
    sha256: Text
    size_bytes: Num


def kit_download(config: Config, data: bytes) -> KitDownload:
    source = frozenset({"build.starter_kit_zip"})
    return KitDownload(
        file=Text(config.site.starter_kit.zip_name, frozenset({"site.starter_kit.zip_name"})),
        sha256=Text(hashlib.sha256(data).hexdigest(), source),
        size_bytes=Num(len(data), source),
    )
