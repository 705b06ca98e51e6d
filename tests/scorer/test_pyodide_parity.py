"""The same wheel in Pyodide (under Node) gives byte-identical output to CPython: the ``--json`` report of a
corpus of more than 1,000 clips (with its bootstrap: the pure route there, numpy's on CPython) and the editor's
view of a sample of pairs."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from cvb_scorer.report import score_jsonl_to_json
from cvb_scorer.rules import load_packaged_rules
from cvb_scorer.stats import Route, draws, rates_route
from cvb_scorer.view import render_view

from tests.scorer.conftest import ROOT, hkcancor_utterances

PYODIDE = ROOT / "build" / "pyodide"
WHEELS = ROOT / "build" / "wheels"
HERE = Path(__file__).resolve().parent

NOISE = [
    *list("个这说干净头发晒吓搵唔該埋單一二三百千萬兩廿 iPhoneSKU15，。!?$%"),
    *list("點万系几后只脚、,.-"),
    "́",
    "😀",
    "HK$",
    "一百二十蚊",
]


def _pairs(count: int) -> list[tuple[str, str]]:
    rng = random.Random(20260924)
    utterances = hkcancor_utterances()
    pairs = []
    for _ in range(count):
        ref = "".join(rng.choice(utterances) for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.2:
            ref = "".join(rng.choice(NOISE) if rng.random() < 0.1 else ch for ch in ref)
        chars = list(ref)
        for _ in range(rng.randint(0, max(1, len(chars) // 4))):
            roll = rng.random()
            pos = rng.randint(0, len(chars))
            if roll < 0.4 and chars:
                chars[min(pos, len(chars) - 1)] = rng.choice(NOISE)
            elif roll < 0.7:
                chars.insert(pos, rng.choice(NOISE))
            elif chars:
                del chars[min(pos, len(chars) - 1)]
        pairs.append((ref, "".join(chars)))
    return pairs


def _new_rule_views() -> list[tuple[str, str]]:
    """Pairs exercising the rules of normalisation version 3: issue 8's number cases, every published rule
    example, and the golden corpus against its OpenCC t2s conversion (the fold and the Simplified-cost
    diagnostic)."""
    import opencc
    from cvb_scorer.reference.normalise import RULES

    from tests.scorer.golden_normalisation import GOLDEN
    from tests.scorer.test_numbers import PAIRS

    t2s = opencc.OpenCC("t2s").convert
    golden = [text for text, _, _ in json.loads(GOLDEN.read_text(encoding="utf-8"))["cases"]]
    views = [(ref, hyp) for ref, hyp, _, _ in PAIRS]
    views += [(before, after) for rule in RULES for before, after in rule.examples]
    views += [(text, t2s(text)) for text in golden]
    return views


def _node() -> str | None:
    return shutil.which("node")


def _skip_reason() -> str | None:
    missing = [n for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                           "pyodide-lock.json") if not (PYODIDE / n).exists()]  # fmt: skip
    if missing:
        return f"build/pyodide lacks {', '.join(missing)}: run `make pyodide`"
    if not list(WHEELS.glob("cvb_scorer-*.whl")):
        return "build/wheels has no scorer wheel: run `make wheel`"
    if _node() is None:
        return "node is not installed"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_pyodide_output_is_byte_identical_to_cpython(tmp_path: Path) -> None:
    pairs = _pairs(1200)
    ref_jsonl = "".join(json.dumps({"id": f"clip-{k:04d}", "text": r}, ensure_ascii=False) + "\n"
                        for k, (r, _) in enumerate(pairs))  # fmt: skip
    # Every 50th clip has no hypothesis: coverage and all-deletion scoring must agree too.
    hyp_jsonl = "".join(json.dumps({"id": f"clip-{k:04d}", "text": h}, ensure_ascii=False) + "\n"
                        for k, (_, h) in enumerate(pairs) if k % 50)  # fmt: skip
    views = [*pairs[:150], ("个人HK$1,200<script>", "個人一千二百蚊<img onerror=x>"), ("", "\x00\u202e")]
    views += _new_rule_views()
    source = tmp_path / "input.json"
    # The bootstrap's draw in both lane widths (16-bit up to 65,536 clips, 32-bit above).
    draw_sizes = [3, 65536, 65537]
    source.write_text(
        json.dumps(
            {"ref_jsonl": ref_jsonl, "hyp_jsonl": hyp_jsonl, "views": views, "draw_sizes": draw_sizes}
        ),
        "utf-8",
    )
    out = tmp_path / "output.json"
    result = subprocess.run(
        [str(_node()), str(HERE / "pyodide_run.mjs"), str(PYODIDE), str(WHEELS), str(source), str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    pyodide = json.loads(out.read_text("utf-8"))
    assert pyodide["unicode"] == "16.0.0"
    # The report bootstrapped 10,000 x 1,200 draws, far above the numpy route's threshold on CPython.
    assert (pyodide["bootstrap_route"], pyodide["numpy_loaded"]) == ("PURE", False)

    # ... while CPython's report takes the numpy route: the byte comparison below is also route against route.
    assert rates_route([[1] * 1200], [[2] * 1200], resamples=10000) is Route.NUMPY
    cpython_report = score_jsonl_to_json(ref_jsonl, hyp_jsonl, rules=load_packaged_rules())
    assert json.loads(cpython_report)["coverage"]["clips"] >= 1000
    if pyodide["report"] != cpython_report:
        a, b = json.loads(pyodide["report"]), json.loads(cpython_report)
        diff = [k for k in a if a[k] != b.get(k)]
        clips = [x["id"] for x, y in zip(a["clips"], b["clips"], strict=True) if x != y][:5]
        pytest.fail(f"Pyodide's report differs from CPython's in {diff}; clips {clips}")
    assert pyodide["draws"] == [list(draws(n, resamples=2, seed=7)) for n in draw_sizes]
    for (ref, hyp), view in zip(views, pyodide["views"], strict=True):
        assert view == render_view(reference=ref, hypothesis=hyp).to_json(), (ref, hyp)
