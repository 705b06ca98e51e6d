// @ts-check
// The CER editor on the page: mounts on every [data-cvb-editor], talks to one scorer worker per document.
//
// Each editor is one state object (editor_state.js) changed only by `next(state, event)`; DOM and worker
// happenings become events, and `paint()` is the only code that writes to the editor's part of the page, so
// no message can be overwritten by another writer and what is shown always follows from the state.
//
// mkdocs-material's instant navigation swaps page content without reloading this module, so editors are
// mounted from `document$` (every page view) and share one worker: navigating back finds Python already warm.
// Pyodide and its start-up snapshot are ~20 MB, so nothing of them is fetched until a reader shows intent to
// use an editor (focus, click or drop on it, or its "Load the scorer" button); with the browser's data saver
// on, only the button loads it.

import * as S from "./editor_state.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
// The name of a worker started before intent: it goes on only with a kept runtime (worker.js, runtimeKept).
const KEPT_ONLY = "cvb-scorer-kept";

function saveData() {
  return navigator.connection?.saveData === true;
}

// A connection the browser reports as slow: the runtime, tens of megabytes, loads only from the button, which
// states its size first (a metered connection is what the data saver, above, reports).
const SLOW_CONNECTIONS = new Set(["slow-2g", "2g", "3g"]);
function slowConnection() {
  return SLOW_CONNECTIONS.has(navigator.connection?.effectiveType);
}

// The bytes a cold start downloads before its first drawing (the same files worker.js counts, firstDrawingURLs):
// the runtime's sizes from the manifest, as they travel (precompressed copies) where the manifest says so.
async function coldDownloadBytes() {
  const response = await fetch(new URL("../wheels/manifest.json", WORKER_URL));
  const manifest = await response.json();
  const sizes = manifest.runtime?.transfer ?? manifest.runtime?.sizes ?? {};
  const snapshot = manifest.start_up_snapshot?.path;
  // Restoring the snapshot, the standard library's file is fetched after the first drawing.
  const pyodideFiles = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"];
  const needed = [
    ...(snapshot ? pyodideFiles : [...pyodideFiles, "python_stdlib.zip"]).map(
      (name) => `${manifest.runtime.pyodide}${name}`,
    ),
    manifest.runtime.scorer,
    ...(snapshot ? [snapshot] : (manifest.runtime.packages ?? [])),
  ];
  return [...new Set(needed)].reduce((sum, path) => sum + (sizes[path] ?? 0), 0);
}

// Whether a worker may start before intent (early.js tests the same, before this module can run): never with
// the data saver on, never without a service worker keeping the runtime, and only where an editor can tell
// whether it is in view.
function keptRuntimeMayStart() {
  return !saveData() && Boolean(navigator.serviceWorker?.controller) && "IntersectionObserver" in window;
}

// One engine per document: the worker, what it last said about itself, and which editor awaits which answer.
const engine = {
  worker: null,
  events: [], // the engine events so far, replayed to an editor mounted later (instant navigation back)
  nextId: 1,
  waiting: new Map(), // worker request id -> {resolve, reject, sent}
  listeners: new Map(), // worker request id -> what to call with its further messages (progress, details)
  editors: new Set(),
  // Started before intent, from a runtime the service worker keeps (see startIfKept): the editors are told of
  // it only on intent or once it is ready, and its latest progress is held until then.
  quiet: false,
  held: null,
  early: false, // the quiet worker was started before any editor was laid out (early.js)

  // The reader wants an editor (focus, click, drop, the load button).
  intent() {
    if (!performance.getEntriesByName("cvb:intent").length) performance.mark("cvb:intent");
    this.start();
  },

  start() {
    if (this.worker) {
      if (this.quiet) this.speak();
      return;
    }
    this.spawn({ quiet: false });
  },

  spawn({ quiet }) {
    performance.mark("cvb:worker-start");
    this.quiet = quiet;
    if (!quiet) this.broadcast({ type: "start" });
    try {
      this.worker = new Worker(WORKER_URL, { type: "module", name: quiet ? KEPT_ONLY : "cvb-scorer" });
    } catch (error) {
      if (quiet) return this.hush();
      this.worker = { postMessage() {} };
      this.broadcast({ type: "engine-failed", message: `This browser could not start the scorer's worker (${error.message}).` });
      return;
    }
    this.listen();
  },

  // The worker early.js started from <head>, as if spawned quietly here, with what it has said so far.
  adoptEarly() {
    const early = window.cvbEarlyWorker;
    delete window.cvbEarlyWorker;
    if (!early) return;
    if (early.failed) {
      early.worker.terminate();
      return;
    }
    this.worker = early.worker;
    this.quiet = true;
    this.early = true;
    this.listen();
    for (const message of early.messages) this.receive(message);
  },

  listen() {
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      if (this.quiet) return this.hush();
      this.broadcast({ type: "engine-failed", message: event.message || "", key: "worker_failed" });
    };
  },

  // The quiet worker's news goes to the editors from now on.
  speak() {
    this.quiet = false;
    this.broadcast({ type: "start" });
    if (this.held) this.broadcast(this.held);
    this.held = null;
  },

  // A quiet worker that cannot go on is dropped unseen; intent starts one the usual way.
  hush() {
    if (this.worker) performance.mark("cvb:worker-stopped");
    this.worker?.terminate?.();
    this.worker = null;
    this.quiet = false;
    this.held = null;
    this.early = false;
  },

  // A reader whose browser keeps this site's runtime (the service worker keeps it once the editor has been
  // used, and answers it from disk) gets Python started as soon as an editor comes into view rather than on
  // intent: nothing is downloaded for it, and a return visit is ready sooner (full editors only; see mount).
  // The worker itself checks that every runtime file the current manifest names is kept before it fetches any
  // (KEPT_ONLY), and otherwise answers "not-kept" and stops. Never with the data saver on.
  startIfKept(root) {
    if (!keptRuntimeMayStart()) return;
    // In view already (the usual case for a reload): at once, not after the observer's first frame.
    const box = root.getBoundingClientRect();
    if (box.bottom > -innerHeight / 2 && box.top < innerHeight * 1.5) {
      if (!this.worker) this.spawn({ quiet: true });
      this.early = false;
      return;
    }
    // Out of view at this instant, which does not yet say where the reader will be: the browser scrolls to a
    // link's heading once the page is laid out, which can be after this runs (a worker stopped here would have
    // to start over a moment later). The observer's first answer, a frame later, decides: a worker started early for an editor still out of view is stopped (it has
    // read only kept files), and one starts when the editor comes near.
    if (this.worker && !this.early) return;
    const seen = new IntersectionObserver(
      (entries) => {
        const near = entries.some((entry) => entry.isIntersecting);
        if (this.early && this.quiet && !near) this.hush();
        this.early = false;
        if (!near) return;
        seen.disconnect();
        if (!this.worker && !saveData()) this.spawn({ quiet: true });
      },
      { rootMargin: "50%" },
    );
    seen.observe(root);
  },

  receive(message) {
    switch (message.type) {
      case "not-kept": {
        performance.mark("cvb:not-kept");
        const wanted = !this.quiet;
        this.hush();
        if (wanted) this.spawn({ quiet: false });
        break;
      }
      case "progress":
        performance.mark(`cvb:stage-${message.stage}`);
        if (this.quiet) this.held = { type: "progress", text: message.text };
        else this.broadcast({ type: "progress", text: message.text });
        break;
      case "ready":
        this.quiet = false;
        this.held = null;
        performance.mark("cvb:engine-ready");
        // The worker's start-up steps on this page's timeline (wall-clock times; the clocks start apart).
        for (const [step, at] of Object.entries(message.phases ?? {})) {
          performance.mark(`cvb:worker-${step}`, { startTime: Math.max(0, at - performance.timeOrigin) });
        }
        this.broadcast({ type: "ready", sha256: message.sha256, verified: message.verified, snapshot: message.snapshot });
        keepForOffline(message.serviceWorker, message.resources);
        break;
      case "fetched":
        keepForOffline(message.serviceWorker, message.resources);
        break;
      case "download":
        if (!this.quiet) this.broadcast({ type: "download", parts: message.parts });
        break;
      case "files-progress":
      case "files-scored":
        this.listeners.get(message.id)?.(message);
        break;
      case "details":
        this.listeners.get(message.id)?.(message);
        this.listeners.delete(message.id);
        break;
      case "result":
      case "error": {
        if (message.id === undefined) {
          this.broadcast({ type: "engine-failed", message: message.message });
          break;
        }
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (message.type === "error") this.listeners.delete(message.id); // no further part comes
        if (!waiter) break;
        if (message.type === "error") waiter.reject(new Error(message.message));
        else waiter.resolve({ ...message, sent: waiter.sent, received: performance.timeOrigin + performance.now() });
        break;
      }
    }
  },

  // One request to the worker; the promise settles with its answer. After a crash it never settles: the
  // editors have been told the engine failed, which says all there is to say.
  call(message, { transfer = [], progress = null } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, sent: performance.timeOrigin + performance.now() });
      if (progress) this.listeners.set(id, progress);
      this.worker.postMessage({ ...message, id }, transfer);
    });
  },

  // Python in a worker cannot be interrupted without cross-origin isolation (SharedArrayBuffer), which a
  // static host cannot be relied on to grant; so a file job is stopped by stopping its worker and starting a
  // fresh one. Every editor is told (their texts stay; what they had in the worker is sent again), and the
  // requests the old worker held are dropped unanswered.
  restart() {
    if (!this.worker) return;
    this.worker.terminate?.();
    this.worker = null;
    this.waiting.clear();
    this.listeners.clear();
    this.broadcast({ type: "engine-restart" });
    this.start();
  },

  broadcast(event) {
    this.events.push(event);
    if (event.type === "engine-failed") this.waiting.clear();
    for (const editor of this.editors) {
      if (editor.root.isConnected) editor.dispatch(event);
      else this.editors.delete(editor);
    }
  },
};

// Offline after the first visit: the site's service worker (when the build ships one) keeps a copy of this
// page and of everything the editor loaded. Registered only once Python is up, so a visitor who never reaches
// the editor never stores the ~20 MB runtime.
async function keepForOffline(serviceWorkerURL, workerResources) {
  if (!serviceWorkerURL || !("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register(serviceWorkerURL);
    const registration = await navigator.serviceWorker.ready;
    const urls = [
      location.href.split("#")[0],
      ...performance.getEntriesByType("resource").map((entry) => entry.name),
      ...(workerResources ?? []),
    ].filter((url) => new URL(url).origin === location.origin);
    registration.active?.postMessage({ type: "keep", urls: [...new Set(urls)] });
  } catch (error) {
    console.info(`The editor will not work offline: ${error.message}`);
  }
}

// Defence in depth: the scorer escapes every character it draws, but a drawing is never allowed to carry
// active content even if that ever regressed.
function inertFragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const node of template.content.querySelectorAll("script,iframe,object,embed,link,meta,style,base,form")) {
    node.remove();
  }
  for (const element of template.content.querySelectorAll("*")) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.trim().toLowerCase();
      if (name.startsWith("on") || ((name === "href" || name === "src" || name === "action") && !value.startsWith("#"))) {
        element.removeAttribute(attribute.name);
      }
    }
  }
  return template.content;
}

function configuredStrings(root) {
  try {
    return S.strings(root.dataset.cvbStrings ? JSON.parse(root.dataset.cvbStrings) : null);
  } catch {
    return S.strings(null);
  }
}

class Editor {
  constructor(root) {
    this.root = root;
    this.reference = root.querySelector("[data-cvb-ref]");
    this.hypothesis = root.querySelector("[data-cvb-hyp]");
    this.view = root.querySelector("[data-cvb-drawing]");
    this.live = root.querySelector("[data-cvb-live]");
    this.status = root.querySelector("[data-cvb-status]");
    this.verifiedNote = root.querySelector("[data-cvb-verified]");
    this.loadButton = root.querySelector("[data-cvb-load]");
    this.loading = root.querySelector("[data-cvb-loading]");
    this.text = configuredStrings(root);
    // The drawing's words when the page is not in the scorer's English: passed on, as the page has them, with
    // every request, for the worker's Python to draw in (cvb_scorer.view_text).
    this.viewText = root.dataset.cvbViewText ?? null;
    // The limit is a site setting (platform_config/site.yaml) written into the markup; no second copy lives here.
    this.state = S.initial({
      // The markup's own texts (a browser may have put older edits back into the boxes on a reload; the
      // fragment, not the form, is what carries edits).
      reference: this.reference.defaultValue,
      hypothesis: this.hypothesis.defaultValue,
      maxChars: Number.parseInt(root.dataset.cvbMaxChars, 10),
      builtSignature: root.dataset.cvbSignature ?? "",
      builtSha256: root.dataset.cvbWheelSha256 ?? "",
      compact: root.classList.contains("cvb-editor--compact"),
      saveData: saveData(),
      slow: slowConnection(),
    });
    // What paint() last wrote, so it touches only what changed. The build-time drawing's runs are not known
    // as strings: the first live drawing replaces them all.
    this.painted = { drawn: null, runs: null, details: null, rendered: 0 };
    this.painting = false;
    this.queued = [];
    this.ticker = 0;
    this.files = this.mountFiles();

    const edited = () =>
      this.dispatch({ type: "edit", reference: this.reference.value, hypothesis: this.hypothesis.value });
    for (const box of [this.reference, this.hypothesis]) box.addEventListener("input", edited);
    const intent = () => {
      if (!S.asksFirst(this.state)) engine.intent();
    };
    for (const name of ["focusin", "pointerdown", "dragenter", "drop"]) root.addEventListener(name, intent);
    this.loadButton?.addEventListener("click", () => engine.intent());
    this.keep = root.querySelector("[data-cvb-keep]");
    const on = (selector, action) => root.querySelector(selector)?.addEventListener("click", action);
    on("[data-cvb-copy]", () => navigator.clipboard?.writeText(S.resultText(this.state, this.link(), this.text)));
    on("[data-cvb-download]", () => this.downloadPair());
    on("[data-cvb-link]", () => navigator.clipboard?.writeText(this.link()));
    on("[data-cvb-reset]", () => this.dispatch({ type: "reset" }));
    // The first editor of a page keeps its texts in the address's fragment (never sent to a server), so a
    // reload, a shared link or back/forward brings them back.
    this.ownsFragment = owner === null || !owner.root.isConnected;
    if (this.ownsFragment) owner = this;
    this.fragmentTimer = 0;
    this.modeButtons = [...root.querySelectorAll("[data-cvb-drawing-mode]")];
    for (const button of this.modeButtons) {
      button.addEventListener("click", () => this.dispatch({ type: "drawing", mode: button.dataset.cvbDrawingMode }));
    }

    root.dataset.cvbState = "mounted";
    performance.mark("cvb:mounted");
    engine.editors.add(this);
    for (const event of engine.events) this.state = S.next(this.state, event);
    const restore = this.ownsFragment ? S.decodeFragment(location.hash) : null;
    if (restore) this.arrive(restore);
    else this.dispatch({ type: "mounted" });
    // On a slow connection the button states the download's size (the manifest is a small file).
    if (this.state.slow && S.offerLoad(this.state)) {
      coldDownloadBytes().then(
        (bytes) => this.dispatch({ type: "download-size", bytes }),
        () => {},
      );
    }
    // Not for the home page's compact box: a reader passing by it is not there to use it.
    if (!this.state.compact) engine.startIfKept(root);
  }

  // A shared link (opened, or pasted into this page's address) is a reader who came for its texts: they are
  // put in the boxes, the editor is brought into view and the scorer started at once (with the data saver on
  // or a slow connection, by its button), so the texts are scored as soon as it is up.
  arrive(restore) {
    this.dispatch(restore);
    this.root.scrollIntoView({ block: "start" });
    if (!S.asksFirst(this.state)) engine.intent();
  }

  dispatch(event) {
    // An event raised while painting (a listener of cvb:rendered typing, say) waits for the paint to end.
    if (this.painting) {
      this.queued.push(event);
      return;
    }
    this.state = S.next(this.state, event);
    const ask = S.request(this.state);
    if (ask) {
      this.state = S.next(this.state, { type: "sent", ...ask });
      this.render(ask);
    }
    const job = S.filesRequest(this.state);
    if (job) {
      this.state = S.next(this.state, { type: "files-sent", id: job.id, version: job.version, at: performance.now() });
      this.scoreFiles(job);
    }
    this.tickWhileScoring();
    this.painting = true;
    try {
      this.paint();
    } finally {
      this.painting = false;
    }
    if (this.queued.length) this.dispatch(this.queued.shift());
  }

  // While a file job runs, the page's clock is fed to the state a few times a second, so that a step the
  // worker does not count still moves the bar (editor_state.js, STEPS).
  tickWhileScoring() {
    const busy = S.filesBusy(this.state) && this.root.isConnected;
    if (busy && !this.ticker) {
      this.ticker = setInterval(() => this.dispatch({ type: "files-tick", at: performance.now() }), TICK_MS);
    } else if (!busy && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = 0;
    }
  }

  cancelFiles() {
    if (!S.filesBusy(this.state)) return;
    this.dispatch({ type: "files-cancel" });
    engine.restart();
  }

  render(ask) {
    // The answer comes in two parts: the drawing and the summary at once, the details when typing pauses
    // (worker.js); a newer request makes the older one's details moot.
    engine.listeners.delete(this.detailsFor);
    const details = (message) => {
      let part;
      try {
        if (message.error !== undefined) throw new Error(message.error);
        part = JSON.parse(message.json);
      } catch (error) {
        this.dispatch({ type: "draw-failed", message: error.message });
        return;
      }
      this.dispatch({ type: "answer-details", id: ask.id, details: part.details, figures: part.figures });
    };
    this.detailsFor = engine.nextId;
    const request = { type: "render", reference: ask.reference, hypothesis: ask.hypothesis, mer: ask.drawing === "mer", text: this.viewText };
    engine.call(request, { progress: details }).then(
      (message) => {
        let view;
        try {
          view = JSON.parse(message.json);
        } catch (error) {
          this.dispatch({ type: "answer-failed", id: ask.id, message: error.message });
          return;
        }
        const timing = {
          workerMs: message.ms,
          // How long the request waited before Python took it, and the answer took to come back.
          toWorkerMs: message.started - message.sent,
          fromWorkerMs: message.received - message.finished,
          warmUpDrawings: message.warmUp,
        };
        this.dispatch({ type: "answer", id: ask.id, view, timing });
      },
      (error) => this.dispatch({ type: "answer-failed", id: ask.id, message: error.message }),
    );
  }

  scoreFiles(job) {
    // Copies, handed over (transferred) rather than copied again: the state keeps its own for "Score again".
    const file = (chosen) => ({ name: chosen.name, bytes: chosen.bytes.slice(0) });
    const reference = file(job.reference);
    const hypothesis = file(job.hypothesis);
    const progress = (message) =>
      message.type === "files-scored"
        ? this.dispatch({ type: "files-scored", id: job.id, data: JSON.parse(message.json) })
        : this.dispatch({
            type: "files-progress",
            id: job.id,
            phase: message.phase,
            done: message.done,
            total: message.total,
            at: performance.now(),
          });
    const transfer = [reference.bytes, hypothesis.bytes];
    engine.call({ type: "score-files", reference, hypothesis }, { progress, transfer }).then(
      (message) => {
        engine.listeners.delete(message.id);
        const answer = JSON.parse(message.json);
        if (answer.error !== undefined) {
          this.dispatch({ type: "files-failed", id: job.id, message: answer.error });
          return;
        }
        this.dispatch({ type: "files-answer", id: job.id, json: answer.output, data: JSON.parse(answer.output) });
      },
      (error) => this.dispatch({ type: "files-failed", id: job.id, message: error.message }),
    );
  }

  async chooseFile(side, file) {
    // A file that takes the pair over the editor's limit is refused unread (editor_state.js, tooLarge), and
    // the scorer is not started for it.
    if (!S.readable(file.size)) {
      this.takeFile(side, file.name, null, file.size);
      return;
    }
    engine.start();
    const bytes = await file.arrayBuffer();
    this.takeFile(side, file.name, bytes);
  }

  // A file chosen while the worker scores the ones before it stops that job, as Cancel does but without its
  // note, and the new pair is scored on a fresh worker: a reader who picked the wrong file need not wait for
  // it to be scored (most of a minute for 16,000 clips) before the right one starts.
  takeFile(side, name, bytes, size = bytes?.byteLength ?? 0) {
    this.dispatch({ type: "file", side, name, bytes, size, lines: bytes ? lineCount(bytes) : null });
    if (S.jobOutdated(this.state)) engine.restart();
  }

  // Download and copy are things the reader takes away, not changes to the page: they read the state only.
  downloadReport() {
    const report = this.state.files.report;
    if (report) download(report.json, "cvb-score.json", this.root);
  }

  async copyReport() {
    const message = await engine.call({ type: "files-text" });
    const answer = JSON.parse(message.json);
    if (answer.output !== undefined) await navigator.clipboard?.writeText(answer.output);
  }

  async showClip(clip) {
    this.dispatch({ type: "select", clip });
    const message = await engine.call({ type: "clip", clip });
    const texts = JSON.parse(message.json);
    this.dispatch({ type: "edit", reference: texts.reference, hypothesis: texts.hypothesis });
    this.root.querySelector("[data-cvb-drawing]")?.scrollIntoView({ block: "nearest" });
  }

  mountFiles() {
    const box = this.root.querySelector("[data-cvb-files]");
    if (!box) return null;
    const parts = {
      box,
      status: box.querySelector("[data-cvb-files-status]"),
      names: [...box.querySelectorAll("[data-cvb-file-name]")],
      running: box.querySelector("[data-cvb-files-running]"),
      progress: box.querySelector("[data-cvb-files-progress]"),
      progressText: box.querySelector("[data-cvb-files-progress-text]"),
      cancel: box.querySelector("[data-cvb-files-cancel]"),
      rerun: box.querySelector("[data-cvb-files-rerun]"),
      summary: box.querySelector("[data-cvb-files-summary]"),
      table: box.querySelector("[data-cvb-files-table]"),
      actions: box.querySelector("[data-cvb-files-actions]"),
      painted: { report: null, scored: null, open: false, sort: null, selected: null, page: -1 },
    };
    for (const input of box.querySelectorAll("input[type=file][data-cvb-file]")) {
      input.addEventListener("change", () => {
        const file = input.files?.[0];
        // Emptied once taken, so that choosing the same file again (edited since) is a change too; the label
        // shows the name the side holds.
        input.value = "";
        if (file) this.chooseFile(input.dataset.cvbFile, file);
      });
    }
    // Dropped or pasted: files or text go to the side they were dropped on, else the reference first, then the
    // hypothesis.
    const take = (items, onto = null) => {
      const f = this.state.files;
      let side = onto ?? (f.reference && !f.hypothesis ? "hypothesis" : "reference");
      for (const item of items.slice(0, 2)) {
        if (item instanceof Blob) this.chooseFile(side, item);
        else this.takeFile(side, `pasted-${side}.jsonl`, new TextEncoder().encode(item).buffer);
        engine.start();
        side = side === "reference" ? "hypothesis" : "reference";
      }
    };
    box.addEventListener("dragover", (event) => event.preventDefault());
    box.addEventListener("drop", (event) => {
      if (event.target instanceof HTMLInputElement) return; // the file input takes its own drop
      event.preventDefault();
      const onto = event.target.closest?.(".cvb-files__input")?.querySelector("[data-cvb-file]")?.dataset.cvbFile;
      take([...(event.dataTransfer?.files ?? [])], onto ?? null);
    });
    box.addEventListener("paste", (event) => {
      const pasted = [...(event.clipboardData?.files ?? [])];
      const text = event.clipboardData?.getData("text/plain");
      if (!pasted.length && !text) return;
      event.preventDefault();
      take(pasted.length ? pasted : [text]);
    });
    box.querySelector("[data-cvb-files-download]")?.addEventListener("click", () => this.downloadReport());
    box.querySelector("[data-cvb-files-copy]")?.addEventListener("click", () => this.copyReport());
    parts.cancel?.addEventListener("click", () => this.cancelFiles());
    parts.rerun?.addEventListener("click", () => this.dispatch({ type: "files-rerun" }));
    parts.table.addEventListener("click", (event) => {
      const turn = event.target.closest("[data-page]");
      if (turn) {
        this.dispatch({ type: "files-page", page: Number(turn.dataset.page) });
        return;
      }
      const sort = event.target.closest("[data-sort]");
      if (sort) {
        this.dispatch({ type: "sort", key: sort.dataset.sort });
        return;
      }
      // A clip's texts come from the worker, which is busy until the job is done.
      const row = event.target.closest("[data-clip]");
      if (row && S.clipsOpen(this.state)) this.showClip(row.dataset.clip);
    });
    return parts;
  }

  paintFiles() {
    const parts = this.files;
    if (!parts) return;
    const state = this.state;
    const files = state.files;
    setText(parts.status, S.filesStatus(state, this.text));
    for (const name of parts.names) setText(name, S.chosenName(state, name.dataset.cvbFileName, this.text));
    const progress = S.filesProgress(state, this.text);
    const running = parts.running ?? parts.progress;
    if (running.hidden === (progress !== null)) running.hidden = progress === null;
    if (progress) {
      // No value while the worker has not reported yet: an indeterminate bar, not a false 0%. (The bar's
      // maximum is its default, 1; the text beside it gives the percentage.)
      const value = progress.fraction === null ? null : String(Math.round(progress.fraction * 1000) / 1000);
      if (value === null) parts.progress.removeAttribute("value");
      else if (parts.progress.getAttribute("value") !== value) parts.progress.setAttribute("value", value);
      if (parts.progressText) setText(parts.progressText, progress.text);
      const phase = progress.step;
      if (running.dataset.phase !== phase) running.dataset.phase = phase; // for bench/editor.py's phase times
      if (parts.progress.getAttribute("aria-valuetext") !== progress.text) parts.progress.setAttribute("aria-valuetext", progress.text);
    }
    if (parts.cancel) setText(parts.cancel, this.text.files_cancel);
    if (parts.rerun) {
      const offer = S.offerRerun(state);
      if (parts.rerun.hidden === offer) parts.rerun.hidden = !offer;
      setText(parts.rerun, this.text.files_rerun);
    }
    parts.actions.hidden = !(files.report && files.report.version === files.version);
    const summary = S.filesSummary(state, this.text).join("\n");
    setText(parts.summary, summary);
    const painted = parts.painted;
    const open = S.clipsOpen(state);
    const shown = { report: files.report, scored: files.scored, open, sort: files.sort, selected: files.selected, page: files.page };
    if (Object.keys(shown).every((key) => shown[key] === painted[key])) return;
    parts.painted = shown;
    const page = S.clipPage(state);
    parts.table.replaceChildren();
    if (!page.rows.length) return;
    parts.table.append(clipTable(page, files, this.text, open));
  }

  link() {
    return location.href.split("#")[0] + (S.fragmentFor(this.state) || "");
  }

  downloadPair() {
    const drawn = this.state.drawn;
    if (!drawn) return;
    const data = {
      reference: drawn.reference,
      hypothesis: drawn.hypothesis,
      figures: drawn.view.figures,
      signature: drawn.view.signature,
    };
    download(JSON.stringify(data, null, 2) + "\n", "cvb-editor.json", this.root);
  }

  // The address follows the texts a moment after typing stops: browsers throttle history updates.
  keepFragment() {
    if (!this.ownsFragment) return;
    clearTimeout(this.fragmentTimer);
    this.fragmentTimer = setTimeout(() => {
      const fragment = S.fragmentUpdate(this.state, location.hash);
      if (fragment === null || !this.root.isConnected) return;
      history.replaceState(history.state, "", location.pathname + location.search + fragment);
    }, 400);
  }

  // The only writer to the editor's part of the page.
  paint() {
    const state = this.state;
    const text = this.text;
    const root = this.root;
    for (const [box, value] of [
      [this.reference, state.reference],
      [this.hypothesis, state.hypothesis],
    ]) {
      // Read-only in the markup so a page without JavaScript does not invite edits that change nothing.
      if (box.readOnly) box.readOnly = false;
      if (box.value !== value) box.value = value;
    }
    if (this.loadButton) {
      // Kept in place, disabled, while Python loads: a button vanishing under the pointer between press and
      // release would move the buttons below it and lose the reader's click.
      const offer = S.offerLoad(state);
      const shown = offer || state.engine === S.Engine.LOADING;
      if (this.loadButton.hidden === shown) this.loadButton.hidden = !shown;
      if (this.loadButton.disabled === offer) this.loadButton.disabled = !offer;
      if (this.loadButton.textContent !== text.load) this.loadButton.textContent = text.load;
    }
    if (this.loading) {
      // The runtime's bytes received of the total, while they arrive (the status says how many, of which part).
      const bytes = S.downloading(state, text);
      if (this.loading.hidden !== (bytes === null)) this.loading.hidden = bytes === null;
      const value = bytes ? String(Math.round(bytes.fraction * 1000) / 1000) : null;
      if (value !== null && this.loading.getAttribute("value") !== value) this.loading.setAttribute("value", value);
    }
    for (const button of this.modeButtons) {
      const pressed = String(button.dataset.cvbDrawingMode === state.drawing);
      if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
      if (button.hidden !== (state.engine !== S.Engine.READY)) button.hidden = state.engine !== S.Engine.READY;
    }
    this.view.classList.toggle("cvb-editor__drawing--mer", state.drawn?.drawing === "mer");
    // The build-time drawing is of the page's sample: hidden while the boxes hold texts not yet scored.
    const unscored = S.unscored(state);
    if (this.view.hidden !== unscored) this.view.hidden = unscored;
    root.dataset.cvbEngine = state.engine;
    if (state.runtime) root.dataset.cvbRuntime = state.runtime;
    root.classList.toggle("cvb-editor--over-limit", S.overLimit(state).length > 0);
    if (this.verifiedNote) setText(this.verifiedNote, S.verifiedText(state, text));

    if (state.drawn && state.drawn !== this.painted.drawn) {
      const started = performance.now();
      try {
        this.redraw(state.drawn.view);
      } catch (error) {
        this.painted.drawn = state.drawn;
        this.queued.push({ type: "draw-failed", message: error.message });
        return;
      }
      const alignmentDrawn = this.painted.drawn?.id !== state.drawn.id;
      this.painted.drawn = state.drawn;
      this.painted.rendered += 1;
      if (this.painted.rendered === 1) {
        root.dataset.cvbState = "live";
        performance.mark("cvb:first-live-render");
      }
      this.finishPaint();
      const detail = {
        reference: state.drawn.reference,
        hypothesis: state.drawn.hypothesis,
        drawing: state.drawn.drawing,
        view: state.drawn.view,
        ...(state.drawn.timing ?? {}),
        drawMs: performance.now() - started,
      };
      // cvb:drawn: the alignment and the summary of these texts are on the page (what a keystroke changes);
      // cvb:rendered: the whole drawing is, details included.
      if (alignmentDrawn) root.dispatchEvent(new CustomEvent("cvb:drawn", { detail }));
      if (!S.detailsPending(state)) root.dispatchEvent(new CustomEvent("cvb:rendered", { detail }));
      return;
    }
    this.finishPaint();
  }

  finishPaint() {
    this.paintFiles();
    if (this.keep) {
      // Copy, download and link need a drawing; reset needs only texts other than the sample.
      const drawn = this.state.drawn !== null;
      const edited = S.edited(this.state);
      if (this.keep.hidden !== !(drawn || edited)) this.keep.hidden = !(drawn || edited);
      for (const button of this.keep.querySelectorAll("button")) {
        const shown = "cvbReset" in button.dataset ? edited : drawn;
        if (button.hidden === shown) button.hidden = !shown;
      }
      // The download carries the whole figures, which come with the details a moment after typing stops.
      const download = this.keep.querySelector("[data-cvb-download]");
      const wait = S.detailsPending(this.state);
      if (download && download.disabled !== wait) download.disabled = wait;
    }
    this.keepFragment();
    const state = this.state;
    this.view.classList.toggle("cvb-editor__drawing--stale", S.stale(state));
    this.view.classList.toggle("cvb-editor__drawing--details-pending", S.detailsPending(state));
    setText(this.status, S.statusText(state, this.text));
    setText(this.live, S.liveText(state, this.text));
  }

  // The drawing is the alignment paragraph (one element per run of the edit script) followed by the details.
  // A keystroke changes a few runs, so only the runs between the unchanged ends are replaced: the page does
  // not rebuild, restyle and lay out a whole long call for one character.
  redraw(view) {
    const paragraph = this.view.querySelector('[data-cvb-part="alignment"]');
    if (!paragraph || paragraph.parentElement?.parentElement !== this.view) {
      throw new Error("The editor's drawing has no alignment paragraph; the page was not built by cvb build.");
    }
    const before = this.painted.runs;
    const after = view.alignment;
    if (before === null) {
      paragraph.replaceChildren(inertFragment(after.join("")));
    } else {
      let head = 0;
      const most = Math.min(before.length, after.length);
      while (head < most && before[head] === after[head]) head += 1;
      let tail = 0;
      while (tail < most - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1;
      const children = paragraph.children;
      const stale = before.length - head - tail;
      if (stale > 0) {
        const range = document.createRange();
        range.setStartBefore(children[head]);
        range.setEndAfter(children[head + stale - 1]);
        range.deleteContents();
      }
      const fresh = after.slice(head, after.length - tail);
      if (fresh.length) paragraph.insertBefore(inertFragment(fresh.join("")), children[head] ?? null);
    }
    this.painted.runs = after;
    if (view.details !== undefined && view.details !== this.painted.details) {
      while (paragraph.nextSibling) paragraph.nextSibling.remove();
      paragraph.after(inertFragment(view.details));
      this.painted.details = view.details;
    }
  }
}

const TICK_MS = 250;

// The lines of a file as bytes (a last line without its newline counts): what the large-file notice calls its
// clips, counted before the worker reads a byte.
function lineCount(buffer) {
  const bytes = new Uint8Array(buffer);
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  return bytes.length && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

function download(text, name, where) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = name;
  link.hidden = true;
  where.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// Column keys and their headings: a string's name in the editor's strings, or the technical token itself.
const COLUMNS = [
  ["id", "column_clip"],
  ["cer", "CER"],
  ["mer", "MER"],
  ["S", "S"],
  ["D", "D"],
  ["I", "I"],
  ["N", "N"],
  ["simplified_errors", "column_simplified_errors"],
  ["fold_changes", "column_fold_changes"],
];
const heading = (name, text) => text[name] ?? name;

function cell(tag, text, attributes = {}) {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

// `open`: whether a clip's drawing can be asked for (the report is final); until then its button is disabled.
function clipTable({ rows, page, pages, first, last, clips }, files, text, open) {
  const table = document.createElement("table");
  table.className = "cvb-files__table";
  const label = heading(COLUMNS.find(([key]) => key === files.sort.key)?.[1] ?? files.sort.key, text);
  const count = (n) => new Intl.NumberFormat("en").format(n);
  table.append(cell("caption", S.fill(text.files_rows, { first: count(first), last: count(last), clips: count(clips), key: label })));
  const head = document.createElement("tr");
  for (const [key, name] of COLUMNS) {
    const th = cell("th", "", { scope: "col" });
    const sorted = files.sort.key === key;
    if (sorted) th.setAttribute("aria-sort", files.sort.descending ? "descending" : "ascending");
    th.append(cell("button", heading(name, text) + (sorted ? (files.sort.descending ? " ↓" : " ↑") : ""), { type: "button", "data-sort": key }));
    head.append(th);
  }
  table.append(document.createElement("thead"));
  table.tHead.append(head);
  const body = document.createElement("tbody");
  for (const clip of rows) {
    const tr = document.createElement("tr");
    tr.dataset.clip = clip.id;
    if (files.selected === clip.id) tr.setAttribute("aria-selected", "true");
    const id = cell("th", "", { scope: "row" });
    const button = cell("button", clip.id, { type: "button", "data-clip": clip.id });
    button.disabled = !open;
    id.append(button);
    tr.append(id);
    for (const value of [
      S.percent(clip.cer),
      S.percent(clip.mer),
      clip.S,
      clip.D,
      clip.I,
      clip.N,
      clip.simplified_errors,
      clip.fold_changes.length,
    ]) {
      tr.append(cell("td", String(value)));
    }
    body.append(tr);
  }
  table.append(body);
  if (pages < 2) return table;
  // One page of rows at a time; the buttons sit below the table and keep their place from page to page.
  const nav = document.createElement("p");
  nav.className = "cvb-files__pages";
  const turn = (label, to) => {
    const button = cell("button", label, { type: "button", "data-page": String(to) });
    button.disabled = to < 0 || to >= pages;
    return button;
  };
  nav.append(turn(text.files_previous, page - 1), " ", turn(text.files_next, page + 1));
  const wrapper = document.createDocumentFragment();
  wrapper.append(table, nav);
  return wrapper;
}

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

const mounted = new WeakSet();
let owner = null; // the editor whose texts the address's fragment carries

// Back/forward or a pasted link within the same page: the fragment's texts, or the sample when it has none.
window.addEventListener("popstate", () => {
  if (!owner?.root.isConnected) return;
  const restore = S.decodeFragment(location.hash);
  if (restore) owner.dispatch(restore);
  else if (!location.hash) owner.dispatch({ type: "reset" });
});
window.addEventListener("hashchange", () => {
  const restore = S.decodeFragment(location.hash);
  if (restore && owner?.root.isConnected) owner.arrive(restore);
});

function mountAll() {
  for (const root of document.querySelectorAll("[data-cvb-editor]")) {
    if (mounted.has(root)) continue;
    mounted.add(root);
    new Editor(root);
  }
}

engine.adoptEarly();
if (window.document$?.subscribe) {
  window.document$.subscribe(mountAll);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountAll, { once: true });
} else {
  mountAll();
}
