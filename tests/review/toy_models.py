"""Toy frame-probability functions for the causality probe: one causal, three that look at later audio.

Each is ``fn(audio, sample_rate)`` with ``audio`` of shape (2, samples), and reports one probability per frame of
``HOP`` seconds, as a submission's function would.
"""

import numpy as np

HOP = 0.1
LOOKAHEAD = 2


def _energy(audio, sample_rate):
    size = round(HOP * sample_rate)
    frames = audio.shape[1] // size
    chunks = audio[:, : frames * size].reshape(2, frames, size)
    return (chunks.astype(np.float64) ** 2).mean(axis=(0, 2))


def _squash(x):
    return 1 / (1 + np.exp(-(x - 0.05) * 40))


def causal(audio, sample_rate):
    e = _energy(audio, sample_rate)
    out, state = [], 0.0
    for value in e:
        state = 0.7 * state + 0.3 * value
        out.append(_squash(state))
    return out


def lookahead(audio, sample_rate):
    e = _energy(audio, sample_rate)
    return [_squash(e[i : i + LOOKAHEAD + 1].mean()) for i in range(len(e))]


def smoothed_afterwards(audio, sample_rate):
    p = np.array(causal(audio, sample_rate))
    for i in range(len(p) - 2, -1, -1):  # a backward pass: each frame borrows from the one after it
        p[i] = 0.5 * p[i] + 0.5 * p[i + 1]
    return p


def padded_to_whole_seconds(audio, sample_rate):
    # Pads the file to whole seconds and normalises by its loudest second: early frames see the end of the file.
    second = sample_rate
    pad = (-audio.shape[1]) % second
    padded = np.pad(audio, ((0, 0), (0, pad)))
    loudest = max(float((padded[:, i : i + second] ** 2).mean()) for i in range(0, padded.shape[1], second))
    return [_squash(v / max(loudest, 1e-9) * 0.1) for v in _energy(audio, sample_rate)]


def slow(audio, sample_rate):
    import time

    time.sleep(30)
    return causal(audio, sample_rate)


def broken(audio, sample_rate):
    raise ValueError("weights file not found: model.ckpt")
