// The CER editor on the page: mounts on every [data-cvb-editor], talks to one scorer worker per document.
//
// mkdocs-material's instant navigation swaps page content without reloading this module, so editors are
// mounted from `document$` (every page view) and share one worker: navigating back finds Python already warm.
// The worker starts only when an editor comes near the viewport, because Pyodide and its start-up snapshot are ~20 MB.

const WORKER_URL = new URL("./worker.js", import.meta.url);
const NEAR_VIEWPORT = "600px 0px";

const numberFormat = new Intl.NumberFormat("en");
const percent = (x) => (typeof x === "number" && Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : "–");

// One engine per document: the worker, its boot state, and who is waiting for what.
const engine = {
  worker: null,
  state: "idle", // idle | loading | ready | failed
  stageText: "",
  error: "",
  sha256: "",
  verified: false,
  snapshot: false, // Python was restored from the build's start-up snapshot rather than booted
  nextId: 1,
  waiting: new Map(), // id -> {resolve, reject}
  editors: new Set(),

  start() {
    if (this.worker) return;
    this.state = "loading";
    this.stageText = "Starting the scorer…";
    performance.mark("cvb:worker-start");
    try {
      this.worker = new Worker(WORKER_URL, { type: "module", name: "cvb-scorer" });
    } catch (error) {
      this.fail(`This browser could not start the scorer's worker (${error.message}).`);
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(event.message || "The scorer's worker stopped with an error.");
    };
    this.broadcast();
  },

  receive(message) {
    switch (message.type) {
      case "progress":
        performance.mark(`cvb:stage-${message.stage}`);
        this.stageText = message.text;
        this.broadcast();
        break;
      case "ready":
        this.state = "ready";
        this.sha256 = message.sha256;
        this.verified = message.verified;
        this.snapshot = message.snapshot;
        performance.mark("cvb:engine-ready");
        this.broadcast();
        keepForOffline(message.serviceWorker, message.resources);
        break;
      case "result": {
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        waiter?.resolve(message);
        break;
      }
      case "error":
        if (message.id !== undefined) {
          const waiter = this.waiting.get(message.id);
          this.waiting.delete(message.id);
          waiter?.reject(new Error(message.message));
        } else {
          this.fail(message.message);
        }
        break;
    }
  },

  fail(text) {
    this.state = "failed";
    this.error = text;
    for (const waiter of this.waiting.values()) waiter.reject(new Error(text));
    this.waiting.clear();
    this.broadcast();
  },

  render(reference, hypothesis) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: "render", id, reference, hypothesis });
    });
  },

  broadcast() {
    for (const editor of this.editors) {
      if (editor.root.isConnected) editor.engineChanged();
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

function summary(figures) {
  const c = figures?.counts?.cer ?? {};
  return (
    `CER ${percent(figures?.cer)}, MER ${percent(figures?.mer)}: ` +
    `${c.S ?? 0} substituted, ${c.D ?? 0} deleted, ${c.I ?? 0} inserted, of ${c.N ?? 0} reference characters.`
  );
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
    // The limit is a site setting (platform_config/site.yaml) written into the markup; no second copy lives here.
    this.maxChars = Number.parseInt(root.dataset.cvbMaxChars, 10);
    this.builtSignature = root.dataset.cvbSignature ?? "";
    this.builtSha256 = root.dataset.cvbWheelSha256 ?? "";
    this.latest = 0; // id of the newest request; answers to older ones are dropped
    this.inFlight = false;
    this.dirty = true; // the texts differ from what was last sent (the sample is re-scored once Python is up)
    this.overLimit = "";
    this.rendered = 0;
    this.runs = null; // the alignment runs drawn last, as strings (null: the build-time drawing is shown)
    this.details = null;

    for (const box of [this.reference, this.hypothesis]) {
      // Read-only in the markup so a page without JavaScript does not invite edits that change nothing.
      box.readOnly = false;
      box.addEventListener("input", () => this.edited());
      box.addEventListener("focus", () => engine.start(), { once: true });
    }
    root.dataset.cvbState = "mounted";
    performance.mark("cvb:mounted");
    engine.editors.add(this);
    this.engineChanged();
  }

  edited() {
    this.dirty = true;
    this.pump();
  }

  engineChanged() {
    this.showStatus();
    if (engine.state === "ready") {
      if (this.verifiedNote) {
        this.verifiedNote.textContent = !engine.verified
          ? "(not re-checked: this page is not on https)"
          : engine.sha256 === this.builtSha256
            ? "(checked in this browser)"
            : "(differs from the build)";
      }
      this.pump();
    }
  }

  checkLimit() {
    const over = [
      ["reference", this.reference.value.length],
      ["hypothesis", this.hypothesis.value.length],
    ].filter(([, length]) => length > this.maxChars);
    this.overLimit = over
      .map(
        ([name, length]) =>
          `The ${name} is ${numberFormat.format(length)} characters; the editor scores up to ` +
          `${numberFormat.format(this.maxChars)}, so it has stopped redrawing. Shorten it to see the alignment ` +
          "again, or score long files with cvb-score.",
      )
      .join(" ");
    this.root.classList.toggle("cvb-editor--over-limit", this.overLimit !== "");
    return this.overLimit === "";
  }

  // At most one request per editor is in the worker; edits made meanwhile are folded into the next request,
  // so a fast typist never builds a queue and only the answer for the latest text is drawn.
  pump() {
    const withinLimit = this.checkLimit();
    this.showStatus();
    if (!withinLimit) {
      this.view.classList.add("cvb-editor__drawing--stale");
      return;
    }
    if (engine.state !== "ready" || this.inFlight || !this.dirty) return;
    this.dirty = false;
    this.inFlight = true;
    const reference = this.reference.value;
    const hypothesis = this.hypothesis.value;
    const id = ++this.latest;
    const sent = performance.timeOrigin + performance.now();
    engine.render(reference, hypothesis).then(
      (message) => {
        this.inFlight = false;
        const received = performance.timeOrigin + performance.now();
        try {
          if (id === this.latest && !this.dirty) this.draw(reference, hypothesis, message, sent, received);
        } catch (error) {
          this.status.textContent = `The editor could not draw this answer: ${error.message}`;
          return;
        }
        this.pump();
      },
      (error) => {
        this.inFlight = false;
        this.status.textContent = `The scorer could not score this text: ${error.message}`;
      },
    );
  }

  // `sent` and `received` are wall-clock times of the request and its answer, for the timing in the event.
  draw(reference, hypothesis, message, sent, received) {
    const started = performance.now();
    const view = JSON.parse(message.json);
    this.redraw(view);
    this.view.classList.remove("cvb-editor__drawing--stale");
    this.live.textContent = summary(view.figures);
    this.rendered += 1;
    if (this.rendered === 1) {
      this.root.dataset.cvbState = "live";
      performance.mark("cvb:first-live-render");
    }
    if (view.signature !== this.builtSignature) {
      this.status.textContent =
        `This browser's scorer reports signature ${view.signature}, but the page was built with ` +
        `${this.builtSignature}: reload the page to get matching files.`;
    } else {
      this.showStatus();
    }
    this.root.dispatchEvent(
      new CustomEvent("cvb:rendered", {
        detail: {
          reference,
          hypothesis,
          view,
          workerMs: message.ms,
          drawMs: performance.now() - started,
          // How long the request waited before Python took it, and the answer took to come back.
          toWorkerMs: message.started - sent,
          fromWorkerMs: received - message.finished,
        },
      }),
    );
  }

  // The drawing is the alignment paragraph (one element per run of the edit script) followed by the details.
  // A keystroke changes a few runs, so only the runs between the unchanged ends are replaced: the page does
  // not rebuild, restyle and lay out a whole long call for one character.
  redraw(view) {
    const paragraph = this.view.querySelector('[data-cvb-part="alignment"]');
    if (!paragraph || paragraph.parentElement?.parentElement !== this.view) {
      throw new Error("The editor's drawing has no alignment paragraph; the page was not built by cvb build.");
    }
    const before = this.runs;
    const after = view.alignment;
    if (before === null) {
      // Runs drawn at build time are not known as strings: the first live drawing replaces them all.
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
    this.runs = after;
    if (view.details !== this.details) {
      while (paragraph.nextSibling) paragraph.nextSibling.remove();
      paragraph.after(inertFragment(view.details));
      this.details = view.details;
    }
  }

  statusText() {
    if (this.overLimit) return this.overLimit;
    switch (engine.state) {
      case "idle":
        return "The figures below were computed when this page was built. Python loads when you reach the editor.";
      case "loading":
        return engine.stageText;
      case "failed":
        return `The editor could not start: ${engine.error} The figures below are the ones computed at build time.`;
      default:
        return this.root.classList.contains("cvb-editor--compact")
          ? "Scored in your browser by the site's own scorer; nothing you type leaves this page."
          : "Scored in your browser by the wheel named below; nothing you type leaves this page.";
    }
  }

  showStatus() {
    const text = this.statusText();
    if (this.status.textContent !== text) this.status.textContent = text;
    this.root.dataset.cvbEngine = engine.state;
    if (engine.state === "ready") this.root.dataset.cvbRuntime = engine.snapshot ? "snapshot" : "booted";
  }
}

const mounted = new WeakSet();
let nearObserver = null;

function observeNear(root) {
  if (!("IntersectionObserver" in window)) {
    engine.start();
    return;
  }
  nearObserver ??= new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        engine.start();
        nearObserver.disconnect();
      }
    },
    { rootMargin: NEAR_VIEWPORT },
  );
  nearObserver.observe(root);
}

function mountAll() {
  for (const root of document.querySelectorAll("[data-cvb-editor]")) {
    if (mounted.has(root)) continue;
    mounted.add(root);
    new Editor(root);
    if (engine.state === "idle") observeNear(root);
  }
}

if (window.document$?.subscribe) {
  window.document$.subscribe(mountAll);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountAll, { once: true });
} else {
  mountAll();
}
