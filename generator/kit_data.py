"""The generator's side of the starter kit: the numbers its templates place, its connection test's settings
rendered as a constants file, and what the integration page says about the download. Each value carries its
config keys (Num, Text) so `cvb check` can trace it; the kit's own code (starter_kit/) imports none of this.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any

from generator.config import Config
from generator.provenance import Num, Text, format_number
from generator.render import mark_as_tracked
from starter_kit.connection_test.bundle import settings_from_config

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


def _literal(value: Any, *, mark: bool, depth: int) -> str:
    """A Python literal for `value`, numbers in the pages' own format; with mark=True every config value is
    bracketed as tracked, so `cvb check` can tell it from a typed number."""
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{k!r}: {_literal(v, mark=mark, depth=depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = [f"{inner}{_literal(v, mark=mark, depth=depth + 1)}," for v in value]
        return "[\n" + "\n".join(items) + f"\n{pad}]"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int | float):
        return mark_as_tracked(format_number(value), mark=mark)
    return mark_as_tracked(repr(value), mark=mark)


def constants_source(config: Config, *, mark: bool = False) -> str:
    """The kit's constants file: the connection test's Settings, every value from the config."""
    data = settings_from_config(config).to_dict()
    for per_pillar in data["schemas"].values():
        for one in per_pillar.values():
            one.pop("$schema", None)  # the dialect's address is not needed to validate, nor a platform value
    return (
        '"""Generated from platform_config/ by the benchmark\'s generator; do not edit."""\n\n'
        f"SETTINGS = {_literal(data, mark=mark, depth=0)}\n"
    )


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
