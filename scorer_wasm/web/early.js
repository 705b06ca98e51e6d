// @ts-check
// The scorer's worker started while the page is still being parsed, for a reader whose browser keeps this
// site's runtime (the service worker answers it from disk, so nothing is downloaded for it).
//
// The page with the full editor runs this classic script first thing in <head> (docs/overrides/main.html):
// about 1.6 KB as sent (brotli), answered by the service worker, so the parser waits for it only briefly.
// editor.js, a module that needs the parsed page and the theme, runs a few hundred milliseconds later and
// adopts the worker with the messages it sent meanwhile (window.cvbEarlyWorker, taken once); on a reload that
// is most of the wait. A module here would not do: Chromium ran an async module only after the theme's
// scripts, which is most of what there is to gain.
//
// The worker goes on only if every runtime file is kept (worker.js, KEPT_ONLY; else it answers "not-kept" and
// stops), and editor.js stops it if the editor turns out to be out of view (startIfKept). The conditions are
// editor.js's keptRuntimeMayStart, written out again because a classic script cannot import it.
//
// While it starts, the theme's search waits (deferSearchIndex): the theme builds its search index in a worker
// of its own as each page loads (lunr over search/search_index.json), CPU that on a machine of few cores takes
// turns with Python's start. The index is built once the scorer is ready or has stopped (at the latest
// SEARCH_WAIT_MS after this ran) and the page has then had no input for QUIET_MS, and at once when the reader
// opens the search: built at "ready" itself, it would land on the reader's first keystrokes.
(() => {
  const SEARCH_WAIT_MS = 5000;
  const QUIET_MS = 1000;
  const SEARCH_WORKER = /\/workers\/search\.[^/]*\.js$/;

  // The theme's search worker, made only when `started` calls back: until then the theme's messages to it are
  // queued and its listeners noted, then handed over in order. The theme uses postMessage, addEventListener and
  // removeEventListener, which is all this stands in for.
  function deferSearchIndex(started) {
    const Worker = window.Worker;
    // A stand-in, not a Worker: the theme calls it with `new` and uses only what it returns.
    window.Worker = /** @type {typeof Worker} */ (/** @type {unknown} */ (function (url, options) {
      if (!SEARCH_WORKER.test(new URL(url, location.href).pathname)) return new Worker(url, options);
      let worker = null;
      const queued = [];
      const listeners = [];
      const start = () => {
        if (worker) return;
        performance.mark("cvb:search-index-start");
        worker = new Worker(url, options);
        for (const [type, listener, opts] of listeners) worker.addEventListener(type, listener, opts);
        for (const message of queued.splice(0)) worker.postMessage(message);
      };
      started(start);
      return {
        postMessage: (message) => (worker ? worker.postMessage(message) : queued.push(message)),
        addEventListener: (type, listener, opts) =>
          worker ? worker.addEventListener(type, listener, opts) : listeners.push([type, listener, opts]),
        removeEventListener: (type, listener, opts) => {
          if (worker) return worker.removeEventListener(type, listener, opts);
          const at = listeners.findIndex(([t, l]) => t === type && l === listener);
          if (at >= 0) listeners.splice(at, 1);
        },
        terminate: () => worker?.terminate(),
      };
    }));
  }

  const kept =
    navigator.connection?.saveData !== true &&
    Boolean(navigator.serviceWorker?.controller) &&
    "IntersectionObserver" in window;
  if (!kept || !document.currentScript) return;
  try {
    const script = /** @type {HTMLScriptElement} */ (document.currentScript);
    const worker = new Worker(new URL("worker.js", script.src), {
      type: "module",
      name: "cvb-scorer-kept",
    });
    performance.mark("cvb:worker-start");
    const early = { worker, messages: [], failed: false };
    worker.onmessage = (event) => early.messages.push(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      early.failed = true;
    };
    window.cvbEarlyWorker = early;
    // Until the scorer is ready, has stopped or failed: editor.js takes over onmessage, so this listens on
    // its own.
    let waiting = [];
    // Once the scorer is ready the reader may type at once: the index then waits until the page has had no
    // input for QUIET_MS, so that its CPU does not land on the first keystrokes.
    let quiet = 0;
    const later = () => {
      clearTimeout(quiet);
      quiet = setTimeout(startAll, QUIET_MS);
    };
    const startAll = () => {
      clearTimeout(quiet);
      document.removeEventListener("input", later, true);
      for (const start of waiting ?? []) start();
      waiting = null;
    };
    const scorerStarted = () => {
      if (!waiting || quiet) return;
      document.addEventListener("input", later, true);
      later();
    };
    worker.addEventListener("message", ({ data }) => {
      if (waiting && ["ready", "not-kept", "error"].includes(data?.type)) scorerStarted();
    });
    worker.addEventListener("error", () => waiting && scorerStarted());
    setTimeout(() => waiting && scorerStarted(), SEARCH_WAIT_MS);
    deferSearchIndex((start) => {
      if (!waiting) return start();
      waiting.push(start);
      document.addEventListener("focusin", (event) => {
        if (/** @type {Element} */ (event.target).matches?.("[data-md-component='search-query']")) startAll();
      });
    });
  } catch {
    // editor.js starts one the usual way
  }
})();
