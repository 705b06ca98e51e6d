"""Run a submitted frame-probability function on a recording and its altered copies; print the results as JSON.

This file runs as a script in its own process, with the Python the reviewer chose (usually the submission's
environment), so it imports nothing from this project: only the standard library and numpy, which the
submitted function receives its audio in. The function is called as ``fn(audio, sample_rate)`` where ``audio``
is a float32 array of shape (channels, samples) in [-1, 1), and returns one probability per frame.
"""

import importlib
import json
import sys
import wave
from typing import Any


def read_wav(path: str) -> tuple[Any, int]:
    import numpy as np

    with wave.open(path, "rb") as w:
        channels, width, rate, n = w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
        raw = w.readframes(n)
    if width == 1:
        data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128) / 128
    elif width == 2:
        data = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768
    elif width == 3:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        data = (np.where(v >= 1 << 23, v - (1 << 24), v)).astype(np.float32) / (1 << 23)
    else:
        data = np.frombuffer(raw, dtype="<i4").astype(np.float32) / (1 << 31)
    return np.ascontiguousarray(data.reshape(-1, channels).T), rate


def altered(audio: Any, cut: dict[str, Any], np: Any) -> Any:
    if cut["variant"] == "truncated":
        return np.ascontiguousarray(audio[:, : cut["sample"]])
    out = audio.copy()
    tail = out[:, cut["sample"] :]
    level = float(np.sqrt(np.mean(tail.astype(np.float64) ** 2))) if tail.size else 0.0
    rng = np.random.default_rng(cut["seed"])
    noise = rng.standard_normal(tail.shape) * max(level, 0.03)
    out[:, cut["sample"] :] = np.clip(noise, -1, 1 - 2**-15).astype(np.float32)
    return out


def main() -> None:
    job = json.loads(sys.stdin.read())
    sys.path[:0] = job["paths"]
    module_name, _, function_name = job["target"].partition(":")
    fn = getattr(importlib.import_module(module_name), function_name)
    import numpy as np

    audio, rate = read_wav(job["audio"])

    def run(a: Any) -> list[float]:
        values: list[float] = np.asarray(fn(a, rate), dtype=np.float64).ravel().tolist()
        return values

    result = {"full": run(audio), "altered": [run(altered(audio, cut, np)) for cut in job["cuts"]]}
    # The function may have printed to stdout; the result goes last, on a line of its own.
    sys.stdout.write("\n" + json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
