"""The connection test's settings as one plain dict (the shape of starter_kit.protocol.settings.Settings), every
number and sentence taken from the config.

`settings_data` takes the config as plain data ({"protocol", "frames", "failures", "scoring"}, as the YAML files
hold them) or any object with those four attributes that can dump itself to plain data (the generator's
validated Config), so the repository's commands and a bare checkout compute the same settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from protocol_data.frames import frame_schemas, frame_senders

PARTS = ("protocol", "frames", "failures", "scoring")


class ProtocolDataError(ValueError):
    """A value the protocol data needs is missing or of the wrong kind; the message names the file and key."""


def _plain(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if callable(dump) else value


def config_data(config: Any) -> dict[str, Any]:
    """The four config parts as plain data, from a mapping of them or from an object holding them."""
    if isinstance(config, Mapping):
        return {part: config[part] for part in PARTS}
    return {part: _plain(getattr(config, part)) for part in PARTS}


def load(config_dir: Path) -> dict[str, Any]:
    """The four config files read as plain data (PyYAML, the one package this needs beyond the standard
    library); the generator's `cvb check` validates them in full."""
    import yaml  # here, so a caller holding the data already never needs it

    data: dict[str, Any] = {}
    for part in PARTS:
        path = config_dir / f"{part}.yaml"
        try:
            data[part] = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ProtocolDataError(f"{path} could not be read: {exc.strerror or exc}.") from None
        except yaml.YAMLError as exc:
            raise ProtocolDataError(f"{path} is not valid YAML: {exc}") from None
    return data


def _get(data: Mapping[str, Any], part: str, dotted: str) -> Any:
    value: Any = data[part]
    for key in dotted.split("."):
        if not isinstance(value, Mapping) or key not in value:
            raise ProtocolDataError(f"{part}.yaml: {dotted} is needed by the connection test and is missing.")
        value = value[key]
    return value


def _number(data: Mapping[str, Any], part: str, dotted: str) -> int | float:
    value = _get(data, part, dotted)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolDataError(f"{part}.yaml: {dotted} must be a number, not {value!r}.")
    number: int | float = value
    return number


def _int(data: Mapping[str, Any], part: str, dotted: str) -> int:
    value = _number(data, part, dotted)
    if not isinstance(value, int):
        raise ProtocolDataError(f"{part}.yaml: {dotted} must be a whole number, not {value!r}.")
    return value


def _text(data: Mapping[str, Any], part: str, dotted: str) -> str:
    value = _get(data, part, dotted)
    if not isinstance(value, str):
        raise ProtocolDataError(f"{part}.yaml: {dotted} must be text, not {value!r}.")
    return value


def settings_data(config: Any) -> dict[str, Any]:
    """Settings.to_dict()'s shape: what the protocol machine, the connection test and the kit's constants need."""
    data = config_data(config)
    p = "protocol"
    delivery_keys = (
        "min_seconds_per_character",
        "max_seconds_per_character",
        "extra_seconds_allowed",
        "min_level_dbfs",
        "max_level_dbfs",
        "max_clipped_share",
    )
    barge = _get(data, p, "connection_test.conversation_barge_in_after_ms")
    if not isinstance(barge, list) or not barge or not all(v is None or type(v) is int for v in barge):
        raise ProtocolDataError(
            "protocol.yaml: connection_test.conversation_barge_in_after_ms must be a list of whole numbers "
            "or nulls, one per conversation turn."
        )
    failures = data["failures"]
    if not isinstance(failures, list):
        raise ProtocolDataError("failures.yaml must be a list of {code, attributed_to, message} entries.")
    frames = data["frames"]
    if not isinstance(frames, Mapping):
        raise ProtocolDataError("frames.yaml must map each frame type to its description.")
    yield_within_ms = _get(data, "scoring", "pillars.e2e").get("yield_within_ms")
    if yield_within_ms is None:
        raise ProtocolDataError("scoring.yaml: pillars.e2e.yield_within_ms is needed by the connection test.")
    return {
        "protocol_version": _text(data, p, "version"),
        "encoding": _text(data, p, "audio.encoding"),
        "sample_rate_hz": _int(data, p, "audio.sample_rate_hz"),
        "channels": _int(data, p, "audio.channels"),
        "sample_bits": _int(data, p, "audio.sample_bits"),
        "frame_ms": _int(data, p, "audio.frame_ms"),
        "frame_bytes": _int(data, p, "audio.frame_bytes"),
        "wav_header_bytes": _int(data, p, "audio.wav_header_bytes"),
        "noise_floor_percentile": _number(data, p, "audio_measures.noise_floor_percentile"),
        "digital_silence_min_ms": _int(data, p, "audio_measures.digital_silence_min_ms"),
        "handshake_timeout_ms": _int(data, p, "handshake_timeout_ms"),
        "max_message_bytes": _int(data, p, "max_message_bytes"),
        "deadline_factor": _number(data, p, "deadline.factor"),
        "deadline_floor_ms": _int(data, p, "deadline.floor_ms"),
        "llm_task": _text(data, p, "llm_task"),
        "tts_turn_index": _int(data, p, "tts_turn_index"),
        "yield_within_ms": yield_within_ms,
        "connection_test_clips": _int(data, p, "connection_test.clips"),
        "default_concurrency": _int(data, p, "connection_test.default_concurrency"),
        "late_reply_wait_ms": _int(data, p, "connection_test.late_reply_wait_ms"),
        "conversation_barge_in_after_ms": list(barge),
        "listen_after_last_turn_ms": _int(data, p, "connection_test.listen_after_last_turn_ms"),
        "delivery": {k: _number(data, p, f"connection_test.delivery.{k}") for k in delivery_keys},
        "not_measured": [str(s) for s in _get(data, p, "connection_test.not_measured")],
        "failures": {
            str(f["code"]): {
                "code": str(f["code"]),
                "attributed_to": str(f["attributed_to"]),
                "message": str(f["message"]),
            }
            for f in failures
        },
        "schemas": frame_schemas(frames),
        "senders": frame_senders(frames),
    }
