"""Two-channel test recordings written with the standard library."""

import math
import struct
import wave
from pathlib import Path

RATE = 16000


def conversation(path: Path, *, seconds: float = 4.0) -> Path:
    """Speakers alternate in bursts of tone with gaps, and the last second is the loudest (so a whole-file
    normalisation sees the end of the file from its first frame)."""
    n = int(seconds * RATE)
    frames = bytearray()
    for i in range(n):
        t = i / RATE
        turn = int(t / 0.7) % 2
        burst = (t % 0.7) < 0.45
        level = 0.9 if t >= seconds - 1 else 0.3
        value = level * math.sin(2 * math.pi * 220 * t) if burst else 0.0
        left, right = (value, 0.0) if turn == 0 else (0.0, value)
        frames += struct.pack("<hh", int(left * 32767), int(right * 32767))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(frames))
    return path


def mono(path: Path) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"\0\0" * RATE)
    return path
