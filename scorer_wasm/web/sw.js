// The site's service worker: what a visitor has seen keeps working offline, the CER editor included.
//
// Two kinds of file, two rules. It must be served from the site's root so its scope covers every page. Only
// same-origin GETs are touched; nothing here ever contacts another origin.
//
// - The editor's runtime (Pyodide, the wheels, the start-up snapshot: ~20 MB) lives at addresses named by its
//   content (assets/runtime/<hash>/, generator/runtime_assets.py): the bytes at such an address never change,
//   so once kept they are answered from this cache without asking the network, online or not. Cache Storage
//   hands the browser the stored body itself, so a return visit reads it from disk rather than streaming it
//   through this worker's code. The worker checks every byte it runs against the manifest's sha256s anyway.
// - Everything else (pages, scripts, the wheel manifest that names the runtime) goes network first: while
//   online it behaves as without this file, so a rebuilt site is never hidden behind an old copy; offline,
//   the copy kept from the last visit answers.
//
// When a fresh manifest names other runtime files (the site was rebuilt), the kept ones it no longer names
// are deleted: one version of the runtime is kept, never a pile of them.

const CACHE = "cvb-site-v1";
const RUNTIME_CACHE = "cvb-runtime-v1";
const RUNTIME = /\/assets\/runtime\/[0-9a-f]+\//;
const MANIFEST = /\/assets\/wheels\/manifest\.json$/;

self.addEventListener("install", () => self.skipWaiting());
// Sites built before the runtime had content-named addresses kept it in the site cache (assets/pyodide/,
// assets/wheels/*.whl); nothing asks for those addresses any more.
const OLD_RUNTIME = /\/assets\/(pyodide\/|wheels\/[^/]+\.whl$)/;

async function dropOldLayout() {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    if (OLD_RUNTIME.test(new URL(request.url).pathname)) await cache.delete(request);
  }
}

self.addEventListener("activate", (event) => event.waitUntil(Promise.all([self.clients.claim(), dropOldLayout()])));

// A page that asks to be kept is taken under control then too, not only at "activate": a page whose navigation
// was still in flight when this worker activated (the reader left the page that registered it while it
// installed) is not yet a client that claim() reaches, and registering again from it starts no new worker, so
// it would stay uncontrolled for its whole life, its later requests never reaching this handler.
const claimed = (work) => Promise.all([self.clients.claim(), work]);

// A response identical to the kept one (same validators and length) is not written again.
function sameVersion(a, b) {
  const keys = ["etag", "last-modified", "content-length"];
  return keys.some((key) => a.headers.get(key)) && keys.every((key) => a.headers.get(key) === b.headers.get(key));
}

const keepable = (request, response) =>
  response.ok && response.type === "basic" && !request.headers.has("range") && response.status === 200;

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (keepable(request, response)) {
      const kept = await cache.match(request);
      if (!kept || !sameVersion(kept, response)) await cache.put(request, response.clone());
      // Not awaited: the worker waiting for the manifest need not wait for the clean-up.
      if (MANIFEST.test(new URL(request.url).pathname)) dropOldRuntime(request.url, response.clone()).catch(() => {});
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(RUNTIME_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (keepable(request, response)) await cache.put(request, response.clone());
  return response;
}

// The runtime files the current manifest names, as absolute URLs.
function runtimeFiles(manifestURL, manifest) {
  const files = manifest?.runtime?.files;
  return Array.isArray(files) ? new Set(files.map((path) => new URL(path, manifestURL).href)) : null;
}

async function dropOldRuntime(manifestURL, response) {
  let wanted;
  try {
    wanted = runtimeFiles(manifestURL, await response.json());
  } catch {
    return; // not a manifest this worker understands: keep what is kept
  }
  if (!wanted) return;
  const cache = await caches.open(RUNTIME_CACHE);
  for (const request of await cache.keys()) {
    if (!wanted.has(request.url)) await cache.delete(request);
  }
}

// The runtime's addresses are not handed to the static router (InstallEvent.addRoutes with a cache source),
// which would answer them without running this handler: Chromium 156 applies a worker's static routes to a
// page's own requests but not to those of the page's dedicated worker, which is what asks for the runtime
// (measured: a runtime file this handler delayed stayed delayed for the worker, not for the page). Nor does
// the worker read kept files from Cache Storage itself: measured A/B over 81 warm reloads each, it was no
// faster than asking this handler (its compile alone was, when nothing else ran).
self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(RUNTIME.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
});

// A page of an edition asks for the whole edition to be kept (docs/assets/site.js): the files the page loaded
// before this worker existed, then every page the edition's search index lists, with each page's own styles,
// scripts and images, so that after one visit every page of that edition opens offline. Kept through the same
// network-first rule as any visit, so a rebuilt site replaces them.
const PAGE_ASSET = /<(?:link|script|img)\b[^>]*?\s(?:href|src)="([^"#]+)"/g;

async function keepOne(cache, url) {
  try {
    const kept = await cache.match(url);
    const response = await fetch(url);
    if (!response.ok || response.status !== 200 || response.type !== "basic") return null;
    if (!kept || !sameVersion(kept, response)) await cache.put(url, response.clone());
    return response;
  } catch {
    return null; // offline or gone: the copy kept, if any, stays
  }
}

async function keepEdition(edition, urls) {
  const cache = await caches.open(CACHE);
  const own = (url) => new URL(url).origin === self.location.origin && !RUNTIME.test(new URL(url).pathname);
  await Promise.all(urls.filter(own).map((url) => keepOne(cache, url)));
  const index = await keepOne(cache, new URL("search/search_index.json", edition).href);
  if (!index) return;
  let docs;
  try {
    docs = (await index.json()).docs ?? [];
  } catch {
    return;
  }
  const pages = new Set([edition]);
  for (const doc of docs) pages.add(new URL(String(doc.location ?? "").split("#")[0], edition).href);
  // Pages left out of search (an entrant's page) are in the edition's sitemap. Its addresses name the public
  // site; their paths are this origin's.
  const sitemap = await keepOne(cache, new URL("sitemap.xml", edition).href);
  const base = new URL(edition).pathname;
  for (const match of sitemap ? (await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g) : []) {
    try {
      const path = new URL(match[1].trim()).pathname;
      if (path.startsWith(base)) pages.add(new URL(path, self.location.origin).href);
    } catch {
      // not an address: skip it
    }
  }
  const assets = new Set();
  for (const page of pages) {
    if (!own(page)) continue;
    const response = await keepOne(cache, page);
    if (!response || !(response.headers.get("content-type") ?? "").includes("html")) continue;
    for (const match of (await response.text()).matchAll(PAGE_ASSET)) {
      const asset = new URL(match[1], page).href;
      if (own(asset)) assets.add(asset);
    }
  }
  // A page's links to other pages (canonical, next, previous) are pages, kept above, not assets.
  const wanted = [...assets].filter((url) => !pages.has(url) && !url.endsWith("/") && !urls.includes(url));
  await Promise.all(wanted.map((url) => keepOne(cache, url)));
}

self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep-edition" || typeof event.data.edition !== "string") return;
  const edition = new URL(event.data.edition, self.location.href);
  if (edition.origin !== self.location.origin) return;
  event.waitUntil(claimed(keepEdition(edition.href, Array.isArray(event.data.urls) ? event.data.urls : [])));
});

// The page that registered this worker loaded before it existed; it sends the URLs it used (theme, editor,
// Pyodide, wheels) so that this first visit is already enough to work offline and the next one needs no
// network for the runtime. The browser's HTTP cache usually still holds them, so this costs no download.
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  const own = event.data.urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(claimed(keepUrls(own)));
});

// Each URL into the runtime's cache (content-named, never replaced) or the site's (network first).
function keepUrls(own) {
  return Promise.all([caches.open(CACHE), caches.open(RUNTIME_CACHE)]).then(([site, runtime]) =>
    Promise.all(
      own.map(async (url) => {
        const immutable = RUNTIME.test(new URL(url).pathname);
        const cache = immutable ? runtime : site;
        try {
          const kept = await cache.match(url);
          if (kept && immutable) return; // the same address always holds the same bytes
          const response = await fetch(url);
          if (!response.ok || response.status !== 200) return;
          if (!kept || !sameVersion(kept, response)) await cache.put(url, response);
          if (MANIFEST.test(new URL(url).pathname)) await dropOldRuntime(url, await cache.match(url));
        } catch {
          // Offline or gone: the copy kept, if any, stays.
        }
      }),
    ),
  );
}
