"""The recording measures give the same figures in Pyodide (the browser's Python) as in CPython, on the built-in
espeak-ng clips and on a generated signal with silence and clipping, from the same wheel."""

from __future__ import annotations

import base64
import json
import math
import random
import subprocess
from dataclasses import asdict
from pathlib import Path

import pytest
from cvb_scorer.audio import measure, wav_pcm

from generator.audio_stats import audio_format, measure_settings
from generator.config import load_config
from starter_kit.clips import build_clips
from tests.scorer.test_pyodide_parity import PYODIDE, WHEELS, _skip_reason

CONFIG = load_config(Path(__file__).resolve().parents[2] / "platform_config")
HERE = Path(__file__).resolve().parent


def generated() -> bytes:
    rng = random.Random(11)
    values = [round(9000 * math.sin(n / 7)) + rng.randint(-50, 50) for n in range(16000)]
    values[4000:6000] = [0] * 2000
    values[100:140] = [32767] * 40
    return b"".join(v.to_bytes(2, "little", signed=True) for v in values)


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_pyodide_measures_what_cpython_measures(tmp_path: Path) -> None:
    audio, settings = audio_format(CONFIG), measure_settings(CONFIG)
    clips_dir = tmp_path / "clips"
    build_clips(CONFIG, clips_dir)
    clips = [wav_pcm(p.read_bytes(), audio) for p in sorted(clips_dir.glob("*.wav"))] + [generated()]
    source, target = tmp_path / "input.json", tmp_path / "output.json"
    source.write_text(
        json.dumps(
            {
                "format": asdict(audio),
                "settings": asdict(settings),
                "clips": [base64.b64encode(c).decode() for c in clips],
            }
        ),
        encoding="utf-8",
    )
    subprocess.run(
        ["node", str(HERE / "pyodide_audio.mjs"), str(PYODIDE), str(WHEELS), str(source), str(target)],
        check=True,
        timeout=300,
    )
    in_browser = json.loads(target.read_text(encoding="utf-8"))
    in_cpython = [asdict(measure(c, audio, settings)) for c in clips]
    assert len(in_browser) == len(in_cpython)
    for browser, cpython in zip(in_browser, in_cpython, strict=True):
        assert browser.keys() == cpython.keys()
        for key, value in cpython.items():
            # Levels go through log10, whose last bit may differ between libms; everything else is exact.
            if isinstance(value, float):
                assert browser[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
            else:
                assert browser[key] == value, key
