// Runs cvb_scorer.audio.measure inside Pyodide under Node on the wheel CPython installs, for the audio parity
// test (tests/scorer/test_audio_pyodide.py).
//
// usage: node pyodide_audio.mjs PYODIDE_DIR WHEELS_DIR INPUT.json OUTPUT.json
// INPUT.json: {"format": {...AudioFormat}, "settings": {...MeasureSettings}, "clips": ["<base64 PCM>", ...]}
// OUTPUT.json: [{...AudioStats}, ...]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, inputPath, outputPath] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
const wheel = readdirSync(wheelsDir).filter((name) => /^cvb_scorer-.*\.whl$/.test(name));
// The audio measures import nothing beyond the standard library, so the scorer's own wheel is enough.
await pyodide.loadPackage(wheel.map((name) => pathToFileURL(join(wheelsDir, name)).href), { messageCallback: () => {} });
pyodide.globals.set("cvb_input", readFileSync(inputPath, "utf-8"));
const output = pyodide.runPython(`
import base64, json
from dataclasses import asdict
from cvb_scorer.audio import AudioFormat, MeasureSettings, measure

data = json.loads(cvb_input)
audio, settings = AudioFormat(**data["format"]), MeasureSettings(**data["settings"])
json.dumps([asdict(measure(base64.b64decode(clip), audio, settings)) for clip in data["clips"]])
`);
writeFileSync(outputPath, output, "utf-8");
