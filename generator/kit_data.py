"""The generator's side of the starter kit: the numbers its templates place, its connection test's settings
rendered as a constants file, and what the integration page says about the download. Each value carries its
config keys (Num, Text) so `cvb check` can trace it; the kit's own code (starter_kit/) imports none of this.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from dataclasses import dataclass
from typing import Any

from generator.config import Config
from generator.provenance import Num, Text, format_number
from generator.render import mark_as_tracked
from starter_kit.connection_test.bundle import settings_from_config
from starter_kit.connection_test.duration import ReplyTimes, pillar_seconds
from starter_kit.protocol.records import PILLARS

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
        f"PYTHON_AT_LEAST = {_literal(config.site.starter_kit.versions.python, mark=mark, depth=0)}\n\n"
        f"SETTINGS = {_literal(data, mark=mark, depth=0)}\n"
    )


@dataclass(frozen=True)
class KitDownload:
    """What the integration page says about the download: computed from the zip's bytes, never typed."""

    file: Text
    sha256: Text
    size_bytes: Num
    # The kit's connection test, paced, against the kit's stub models at the declared concurrency: whole
    # seconds per pillar (--pillar asr, ...) and for --pillar all, from the built-in clips the zip carries.
    test_seconds: dict[str, Num]
    test_seconds_all: Num
    test_turns: Num  # a conversation's turns in the connection test


def kit_test_seconds(config: Config, clip_ms: list[int]) -> tuple[dict[str, Num], Num]:
    """The stated durations of the kit's connection test with its stub models (starter_kit.connection_test
    .duration), per pillar and for all of them."""
    kit = config.site.starter_kit
    settings = settings_from_config(config)
    reply = ReplyTimes(think_s=kit.stub.delay_s, speech_s=kit.stub.speech_s, speed=kit.stub.speed)
    source = frozenset(
        {"build.clips", "protocol.audio.frame_ms", "protocol.connection_test", "site.starter_kit.stub"}
        | {"site.starter_kit.declared_concurrency"}
    )

    def seconds(pillars: tuple[str, ...]) -> Num:
        run = pillar_seconds(
            pillars, clip_ms, settings=settings, reply=reply, concurrency=kit.declared_concurrency
        )
        return Num(max(1, round(run)), source)

    return {pillar: seconds((pillar,)) for pillar in PILLARS}, seconds(PILLARS)


def kit_download(config: Config, data: bytes) -> KitDownload:
    source = frozenset({"build.starter_kit_zip"})
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        listed = json.loads(archive.read("clips/clips.json"))
    clip_ms = [round(entry["seconds"] * MS_PER_S) for entry in listed]
    per_pillar, everything = kit_test_seconds(config, clip_ms)
    return KitDownload(
        file=Text(config.site.starter_kit.zip_name, frozenset({"site.starter_kit.zip_name"})),
        sha256=Text(hashlib.sha256(data).hexdigest(), source),
        size_bytes=Num(len(data), source),
        test_seconds=per_pillar,
        test_seconds_all=everything,
        test_turns=Num(
            len(config.protocol.connection_test.conversation_barge_in_after_ms),
            frozenset({"protocol.connection_test.conversation_barge_in_after_ms"}),
        ),
    )
