// Make the start-up snapshot of the pinned Pyodide that the editor's worker restores instead of booting Python.
//
// usage: node tools/snapshot_pyodide.mjs PYODIDE_DIR OUT_FILE MODULE [MODULE ...]
//
// Booting CPython inside WebAssembly (the interpreter's own start-up and its first imports) is most of what
// an entrant waits for on a cold visit: seconds on a modest machine. That work is the same on every visit, so
// it is done once here, at build time, and the memory it leaves is saved. The snapshot holds the Python
// runtime and the standard-library modules named on the command line, nothing of the scorer: the worker still
// installs the scorer wheel (checked against its sha256) into the restored runtime, so the browser runs the
// very wheel the server runs. Pyodide compresses nothing, so the file is gzipped here and the worker
// inflates it with the browser's own DecompressionStream.
//
// `_makeSnapshot` / `makeMemorySnapshot` / `_loadSnapshot` are Pyodide's (underscored) snapshot API; the
// Pyodide version is pinned in scorer_wasm/web/pyodide-pin.json, and a snapshot is only ever restored by the
// Pyodide files it was made from (both are copied from the same build/pyodide/ into the site).
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [pyodideDir, outFile, ...modules] = process.argv.slice(2);
if (!pyodideDir || !outFile) {
  console.error("usage: node tools/snapshot_pyodide.mjs PYODIDE_DIR OUT_FILE MODULE [MODULE ...]");
  process.exit(2);
}
// Under Node, Pyodide takes its index as a directory path (ending in a slash), not a file: URL.
const indexURL = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });

// The names go in as a literal and the answer comes out as a string: no JavaScript proxy of a Python object is
// alive when the memory is saved.
const missing = pyodide
  .runPython(`
def _cvb_import_all(names):
    import importlib

    missing = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return " ".join(missing)

_cvb_import_all(${JSON.stringify(modules)})
`)
  .split(" ")
  .filter(Boolean);
pyodide.runPython("del _cvb_import_all");
if (missing.length) {
  console.error(
    `snapshot_pyodide: this Pyodide has no ${missing.join(", ")}; remove them from the snapshot's module list ` +
      "in scorer_wasm/web/pyodide-pin.json.",
  );
  process.exit(1);
}

const memory = pyodide.makeMemorySnapshot();
// mtime 0 in the gzip header (Node writes none), so the same memory always gives the same file.
writeFileSync(outFile, gzipSync(memory, { level: 9 }));
