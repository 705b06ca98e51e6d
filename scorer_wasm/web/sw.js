// The site's service worker: what a visitor has seen keeps working offline, the CER editor included.
//
// Network first, cache as fallback (the runtime's files: cache only when offline, see below): while online every request behaves as without this file (so a rebuilt
// site is never hidden behind an old copy, and a rebuilt scorer wheel is never mixed with an old page);
// offline, the copy kept from the last visit answers. It must be served from the site's root so its scope
// covers every page. Only same-origin GETs are touched; nothing here ever contacts another origin.

const CACHE = "cvb-site-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// A response identical to the kept one (same validators and length) is not written again: the runtime is
// ~20 MB and would otherwise be rewritten to disk on every visit.
function sameVersion(a, b) {
  const keys = ["etag", "last-modified", "content-length"];
  return keys.some((key) => a.headers.get(key)) && keys.every((key) => a.headers.get(key) === b.headers.get(key));
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !request.headers.has("range")) {
      const kept = await cache.match(request);
      if (!kept || !sameVersion(kept, response)) await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    throw error;
  }
}

// The editor's runtime (Pyodide, the wheels, the start-up snapshot: ~20 MB) is left to the browser's own HTTP
// cache while online, so a return visit reads it from disk instead of streaming it through this worker; the
// copy kept here answers only offline. The manifest that names the runtime's hashes is not part of it: it
// always goes network-first, and the worker checks every byte it runs against it.
const RUNTIME = /\/assets\/(pyodide\/|wheels\/(?!manifest\.json))/;

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (RUNTIME.test(url.pathname) && self.navigator.onLine) return;
  event.respondWith(networkFirst(request));
});

// The page that registered this worker loaded before it existed; it sends the URLs it used (theme, editor,
// Pyodide, wheels) so that this first visit is already enough to work offline.
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  const own = event.data.urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        // Refreshed when the site was rebuilt (the runtime is no longer refreshed on its way to the page), and
        // not written again when it is the same version.
        own.map(async (url) => {
          try {
            const response = await fetch(url);
            const kept = await cache.match(url);
            if (response.ok && (!kept || !sameVersion(kept, response))) await cache.put(url, response);
          } catch {
            // Offline or gone: the copy kept, if any, stays.
          }
        }),
      ),
    ),
  );
});
