// The scorer's Web Worker: runs the site's own cvb_scorer wheel in Pyodide so the page never waits on Python.
//
// Every file comes from this site's assets (Pyodide core in ../pyodide/, wheels in ../wheels/): no CDN, no
// micropip, so the editor works offline after the first visit and no request leaves the origin.
//
// Messages in:  {type: "render", id, reference, hypothesis}
// Messages out: {type: "progress", stage, text}
//               {type: "ready", sha256, verified, snapshot, ms, serviceWorker, resources}
//               {type: "result", id, json, ms, started, finished}
//               {type: "error", id?, message}

const PYODIDE_DIR = new URL("../pyodide/", import.meta.url);
const WHEELS_DIR = new URL("../wheels/", import.meta.url);

// A Python exception's message is its whole traceback; the entrant needs the last line, which names the error.
function lastLine(error) {
  const lines = String(error?.message ?? error).trim().split("\n");
  return lines[lines.length - 1];
}

function progress(stage, text) {
  postMessage({ type: "progress", stage, text });
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function fetchManifest() {
  const response = await fetch(new URL("manifest.json", WHEELS_DIR));
  if (!response.ok) {
    throw new Error(
      `The wheel manifest (${response.url}) answered ${response.status}; the site build did not copy the scorer wheels.`,
    );
  }
  const manifest = await response.json();
  if (typeof manifest.scorer !== "string" || typeof manifest.sha256 !== "string") {
    throw new Error("The wheel manifest names no scorer wheel or sha256; rebuild the site with `make site`.");
  }
  return manifest;
}

function wheelURLs(manifest) {
  return [...new Set([manifest.scorer, ...(manifest.packages ?? [])])].map((name) => new URL(name, WHEELS_DIR).href);
}

// The page promises the sha256 of the wheel in use, so hash the bytes this browser actually received.
// crypto.subtle exists only in secure contexts (https or localhost); elsewhere say so rather than pretend.
async function verifyScorer(url, expected) {
  if (!globalThis.crypto?.subtle) {
    return { sha256: expected, verified: false };
  }
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`The scorer wheel (${url}) answered ${response.status}; rebuild the site with \`make site\`.`);
  }
  const sha256 = hex(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  if (sha256 !== expected) {
    throw new Error(
      `The scorer wheel served here has sha256 ${sha256}, not the ${expected} this page was built with; ` +
        "the figures would not be the server's, so the editor stays off. Reload, or rebuild the site.",
    );
  }
  return { sha256, verified: true };
}

// The build ships a snapshot of Pyodide's memory taken after it had installed this build's scorer wheel,
// imported it and drawn the page's sample (tools/snapshot_pyodide.mjs): restoring it skips booting CPython in
// WebAssembly and compiling the scorer, which are most of a cold start. Its bytes must have the sha256 the
// manifest records, and the manifest records that it was made from the scorer wheel whose bytes are hashed
// below, so the code restored is that wheel's. Pyodide stores nothing compressed, so the file is gzipped and
// inflated here by the browser.
async function fetchSnapshot(url, expected) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The Pyodide start-up snapshot (${url}) answered ${response.status}.`);
  const packed = await response.arrayBuffer();
  const inflated = new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip")));
  const [digest, memory] = await Promise.all([
    globalThis.crypto?.subtle ? crypto.subtle.digest("SHA-256", packed) : null,
    inflated.arrayBuffer(),
  ]);
  if (digest && hex(digest) !== expected) {
    throw new Error(`The start-up snapshot served here has sha256 ${hex(digest)}, not the ${expected} of this build.`);
  }
  return new Uint8Array(memory);
}

async function startPython(manifestPromise) {
  const pyodideModule = import(new URL("pyodide.mjs", PYODIDE_DIR).href);
  const manifest = await manifestPromise;
  const record = manifest.start_up_snapshot;
  const snapshot =
    record && typeof DecompressionStream === "function"
      ? fetchSnapshot(new URL(record.path, WHEELS_DIR).href, record.sha256)
      : null;
  snapshot?.catch(() => {}); // a failure surfaces through loadPyodide below
  const { loadPyodide } = await pyodideModule;
  const options = { indexURL: PYODIDE_DIR.href, fullStdLib: false };
  if (snapshot) {
    try {
      return { pyodide: await loadPyodide({ ...options, _loadSnapshot: snapshot }), snapshot: true };
    } catch (error) {
      // A snapshot that cannot be restored costs time, never correctness: boot Python the long way instead.
      console.warn(`Starting Python without the snapshot: ${lastLine(error)}`);
    }
  }
  return { pyodide: await loadPyodide(options), snapshot: false };
}

async function boot() {
  const started = performance.now();
  progress("runtime", "Loading the Python runtime (Pyodide)…");
  const manifestPromise = fetchManifest();
  // The wheels are small, but fetching them while Pyodide starts takes them off the critical path;
  // loadPackage and the hash check below then get them from the HTTP cache (at most a 304 revalidation).
  manifestPromise.then((manifest) => Promise.all(wheelURLs(manifest).map((url) => fetch(url)))).catch(() => {});
  const { pyodide, snapshot } = await startPython(manifestPromise);

  progress("wheels", "Loading the scorer wheels…");
  const manifest = await manifestPromise;
  const scorerURL = new URL(manifest.scorer, WHEELS_DIR).href;
  const [check] = await Promise.all([
    verifyScorer(scorerURL, manifest.sha256),
    // Absolute URLs make loadPackage take these exact files instead of resolving names against a CDN.
    pyodide.loadPackage(
      wheelURLs(manifest),
      { messageCallback: () => {}, errorCallback: (message) => console.warn(message) },
    ),
  ]);

  // Restored from the snapshot, the scorer is imported already and the wheel's files are installed again
  // beside it; booted, this import compiles it.
  pyodide.runPython(`
from cvb_scorer.view import render_view as _cvb_render_view

def _cvb_render(reference, hypothesis):
    return _cvb_render_view(reference=reference, hypothesis=hypothesis).to_editor_json()
`);
  const render = pyodide.globals.get("_cvb_render");
  const serviceWorker = manifest.service_worker ? new URL(manifest.service_worker, WHEELS_DIR).href : null;
  return { render, sha256: check.sha256, verified: check.verified, started, serviceWorker, snapshot };
}

// A reference with a Simplified character makes the scorer build its OpenCC converter (about 0.6 s in
// Pyodide). The sample needs none, so the first drawing is not held up by it; it is built right after,
// while the entrant is still reading, instead of on their first pasted Simplified text.
let warmed = false;
function warmAfterFirstAnswer(engine) {
  if (warmed) return;
  warmed = true;
  setTimeout(() => {
    try {
      engine.render("這个", "");
    } catch {
      // A failure here will surface, with its message, on the render that needs the converter.
    }
  }, 0);
}

const ready = boot();

ready.then(
  ({ sha256, verified, started, serviceWorker, snapshot }) =>
    postMessage({
      type: "ready",
      sha256,
      verified,
      snapshot,
      ms: performance.now() - started,
      serviceWorker,
      // What this worker fetched (runtime, stdlib, wheels), for the service worker to keep for offline use.
      resources: performance.getEntriesByType("resource").map((entry) => entry.name),
    }),
  (error) => postMessage({ type: "error", message: lastLine(error) }),
);

onmessage = async (event) => {
  const { type, id, reference, hypothesis } = event.data ?? {};
  if (type !== "render") return;
  let engine;
  try {
    engine = await ready;
  } catch {
    return; // The boot failure was already reported once.
  }
  const t0 = performance.now();
  try {
    const json = engine.render(String(reference), String(hypothesis));
    const t1 = performance.now();
    // Wall-clock times (the worker's clock starts elsewhere than the page's) let the page tell the time its
    // request waited and its answer travelled from the time Python took.
    const at = (t) => performance.timeOrigin + t;
    postMessage({ type: "result", id, json, ms: t1 - t0, started: at(t0), finished: at(t1) });
    warmAfterFirstAnswer(engine);
  } catch (error) {
    console.error(error);
    postMessage({ type: "error", id, message: lastLine(error) });
  }
};
