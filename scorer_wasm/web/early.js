// The scorer's worker started while the page is still being parsed, for a reader whose browser keeps this
// site's runtime (the service worker answers it from disk, so nothing is downloaded for it).
//
// The page with the full editor runs this classic script first thing in <head> (docs/overrides/main.html):
// a few hundred bytes, answered by the service worker, so the parser waits for it only briefly. editor.js, a
// module that needs the parsed page and the theme, runs a few hundred milliseconds later and adopts the worker
// with the messages it sent meanwhile (window.cvbEarlyWorker, taken once); on a reload that is most of the
// wait. A module here would not do: Chromium ran an async module only after the theme's scripts, which is
// most of what there is to gain.
//
// The worker goes on only if every runtime file is kept (worker.js, KEPT_ONLY; else it answers "not-kept" and
// stops), and editor.js stops it if the editor turns out to be out of view (startIfKept). The conditions are
// editor.js's keptRuntimeMayStart, written out again because a classic script cannot import it.
(() => {
  const kept =
    navigator.connection?.saveData !== true &&
    Boolean(navigator.serviceWorker?.controller) &&
    "IntersectionObserver" in window;
  if (!kept || !document.currentScript) return;
  try {
    const worker = new Worker(new URL("worker.js", document.currentScript.src), {
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
  } catch {
    // editor.js starts one the usual way
  }
})();
