// The editor's state and the one function that changes it: no DOM, no worker, no clock, so every sequence of
// events can be replayed in Node (tests/web/editor_state.test.mjs) and the page can only show what the state
// says. editor.js owns the shell: it turns DOM and worker happenings into events, feeds them to `next`, sends
// the request `request(state)` names, and `paint()`s the result.

export const Engine = Object.freeze({ IDLE: "idle", LOADING: "loading", READY: "ready", FAILED: "failed" });

// Every sentence the editor writes, in one table. A page may replace any of them with a JSON object in the
// editor's `data-cvb-strings` attribute (the site's config, e.g. for the Traditional Chinese edition);
// `{name}` is filled from the values given where the string is used.
export const STRINGS = Object.freeze({
  idle: "The figures below were computed when this page was built. Python loads when you use the editor.",
  idleSaveData:
    "The figures below were computed when this page was built. Your browser asks to save data, so the " +
    "scorer loads only when you press the button.",
  load: "Load the scorer",
  starting: "Starting the scorer…",
  failed: "The editor could not start: {error} The figures below are the ones computed at build time.",
  ready: "Scored in your browser by the wheel named below; nothing you type leaves this page.",
  readyCompact: "Scored in your browser by the site's own scorer; nothing you type leaves this page.",
  overLimit:
    "The {name} is {length} characters; the editor scores up to {max}, so it has stopped redrawing. " +
    "Shorten it to see the alignment again, or score long files with cvb-score.",
  reference: "reference",
  hypothesis: "hypothesis",
  requestFailed: "The scorer could not score this text: {error}",
  drawFailed: "The editor could not draw this answer: {error}",
  signatureMismatch:
    "This browser's scorer reports signature {got}, but the page was built with {want}: reload the page " +
    "to get matching files.",
  summary: "CER {cer}, MER {mer}: {S} substituted, {D} deleted, {I} inserted, of {N} reference characters.",
  summaryOverLimit: "No figures: the text is longer than the editor scores.",
  filesChooseBoth: "Choose, drop or paste (here, with the section focused) a reference JSONL and a hypothesis JSONL (one {\"id\": ..., \"text\": ...} per line).",
  filesChooseOther: "Now choose the {side} JSONL.",
  filesWaiting: "The files are read as soon as the scorer has loaded.",
  filesScoring: "Scoring {reference} against {hypothesis} in your browser…",
  filesScored: "Scored {clips} clips of {reference} against {hypothesis} in your browser; nothing left this page.",
  filesFailed: "{error}",
  filesCorpus: "Corpus CER {cer} ({level} interval {cerLow} to {cerHigh}), MER {mer} ({merLow} to {merHigh}).",
  filesCoverage: "Coverage: {covered} of {clips} clips have a hypothesis; {missing} missing, scored as all deletions.",
  filesRows: "Showing {shown} of {clips} clips, sorted by {key}; the download has them all.",
  resultText:
    "{summary}\nReference: {reference}\nHypothesis: {hypothesis}\nScoring signature: {signature}\nLink: {link}",
  verifiedPlain: "(not re-checked: this page is not on https)",
  verifiedSame: "(checked in this browser)",
  verifiedDiffers: "(differs from the build)",
});

export function strings(overrides) {
  return Object.freeze({ ...STRINGS, ...(overrides ?? {}) });
}

export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

const numberFormat = new Intl.NumberFormat("en");
export const percent = (x) => (typeof x === "number" && Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : "–");

/**
 * The state of one editor. `version` numbers the texts: every edit makes a new version, and the version that
 * was last sent, answered and drawn are kept apart, so what the page shows always says which text it is for.
 */
export function initial({
  reference = "",
  hypothesis = "",
  maxChars = Number.POSITIVE_INFINITY,
  builtSignature = "",
  builtSha256 = "",
  compact = false,
  saveData = false,
} = {}) {
  return Object.freeze({
    engine: Engine.IDLE,
    stage: "",
    engineError: "",
    sha256: "",
    verified: false,
    runtime: "", // "snapshot" | "booted" once ready
    maxChars,
    builtSignature,
    builtSha256,
    compact,
    saveData,
    reference,
    hypothesis,
    sample: Object.freeze({ reference, hypothesis }), // what "reset" brings back: the page's own texts
    drawing: "cer", // which alignment is drawn: "cer" (characters) or "mer" (MER tokens)
    // 1 is the build-time sample; 0 was never sent, so the sample is re-scored once Python is up.
    version: 1,
    sentVersion: 0,
    inFlight: null, // {id, version, reference, hypothesis} of the one request in the worker
    nextId: 1,
    drawn: null, // {version, reference, hypothesis, view, timing} of the answer on the page
    failure: null, // {version, message, kind: "request" | "draw"} of the newest failed answer
    files: FILES,
  });
}

// File mode: two chosen files (name and bytes), the one scoring job in the worker, and its answer: the CLI's
// JSON (kept as the exact string, for the download) with its parse, or the CLI's sentence.
const FILES = Object.freeze({
  reference: null, // {name, bytes}
  hypothesis: null,
  version: 0,
  sentVersion: 0,
  job: null, // {id, version}
  report: null, // {version, json, data}
  error: null, // {version, message}
  sort: Object.freeze({ key: "cer", descending: true }),
  selected: null, // the clip id drawn in the editor
});

export const SORT_KEYS = Object.freeze(["id", "cer", "mer", "S", "D", "I", "N", "simplified_errors", "fold_changes"]);

function withFiles(state, changes) {
  return Object.freeze({ ...state, files: Object.freeze({ ...state.files, ...changes }) });
}

function with_(state, changes) {
  return Object.freeze({ ...state, ...changes });
}

/** The state after `event`. Pure: the same state and event always give the same new state. */
export function next(state, event) {
  switch (event.type) {
    case "edit": {
      const reference = event.reference ?? state.reference;
      const hypothesis = event.hypothesis ?? state.hypothesis;
      if (reference === state.reference && hypothesis === state.hypothesis) return state;
      return with_(state, { reference, hypothesis, version: state.version + 1 });
    }
    case "restore": {
      const edited = next(state, { type: "edit", reference: event.reference, hypothesis: event.hypothesis });
      return next(edited, { type: "drawing", mode: event.drawing });
    }
    case "reset":
      return next(next(state, { type: "edit", ...state.sample }), { type: "drawing", mode: "cer" });
    case "drawing":
      if ((event.mode !== "cer" && event.mode !== "mer") || event.mode === state.drawing) return state;
      return with_(state, { drawing: event.mode, version: state.version + 1 });
    case "start":
      return state.engine === Engine.IDLE ? with_(state, { engine: Engine.LOADING, stage: "" }) : state;
    case "progress":
      return state.engine === Engine.LOADING || state.engine === Engine.IDLE
        ? with_(state, { engine: Engine.LOADING, stage: event.text })
        : state;
    case "ready":
      return with_(state, {
        engine: Engine.READY,
        sha256: event.sha256,
        verified: Boolean(event.verified),
        runtime: event.snapshot ? "snapshot" : "booted",
      });
    case "engine-failed":
      return with_(state, { engine: Engine.FAILED, engineError: event.message, inFlight: null });
    case "sent":
      return with_(state, {
        inFlight: {
          id: event.id,
          version: event.version,
          reference: event.reference,
          hypothesis: event.hypothesis,
          drawing: event.drawing,
        },
        sentVersion: event.version,
        nextId: Math.max(state.nextId, event.id + 1),
      });
    case "answer": {
      if (state.inFlight?.id !== event.id) return state;
      const asked = state.inFlight;
      // Only the answer for the texts now in the boxes is drawn; an older one is dropped, and the newer
      // texts are sent as soon as the worker is free (see `request`).
      if (asked.version !== state.version) return with_(state, { inFlight: null });
      return with_(state, {
        inFlight: null,
        failure: null,
        drawn: {
          version: asked.version,
          reference: asked.reference,
          hypothesis: asked.hypothesis,
          drawing: asked.drawing,
          view: event.view,
          timing: event.timing ?? null,
        },
      });
    }
    case "answer-failed": {
      if (state.inFlight?.id !== event.id) return state;
      return with_(state, {
        inFlight: null,
        failure: { version: state.inFlight.version, message: event.message, kind: "request" },
      });
    }
    case "draw-failed":
      return with_(state, {
        failure: { version: state.drawn?.version ?? state.version, message: event.message, kind: "draw" },
        drawn: null,
      });
    case "file": {
      if (event.side !== "reference" && event.side !== "hypothesis") return state;
      return withFiles(state, {
        [event.side]: Object.freeze({ name: event.name, bytes: event.bytes }),
        version: state.files.version + 1,
      });
    }
    case "files-sent":
      return withFiles(state, { job: { id: event.id, version: event.version }, sentVersion: event.version });
    case "files-answer":
    case "files-failed": {
      const job = state.files.job;
      if (job?.id !== event.id) return state;
      if (job.version !== state.files.version) return withFiles(state, { job: null });
      return event.type === "files-answer"
        ? withFiles(state, { job: null, error: null, report: { version: job.version, json: event.json, data: event.data } })
        : withFiles(state, { job: null, report: null, error: { version: job.version, message: event.message } });
    }
    case "sort": {
      if (!SORT_KEYS.includes(event.key)) return state;
      const { key, descending } = state.files.sort;
      return withFiles(state, {
        sort: Object.freeze({ key: event.key, descending: key === event.key ? !descending : event.key !== "id" }),
      });
    }
    case "select":
      return withFiles(state, { selected: event.clip });
    default:
      return state;
  }
}

/** The file-scoring job to send now, or null: both files chosen, Python up, these files not yet sent. */
export function filesRequest(state) {
  const f = state.files;
  if (state.engine !== Engine.READY || f.job !== null || !f.reference || !f.hypothesis) return null;
  if (f.sentVersion === f.version) return null;
  return { id: state.nextId, version: f.version, reference: f.reference, hypothesis: f.hypothesis };
}

export function filesBusy(state) {
  return state.files.job !== null;
}

export function filesStatus(state, text = STRINGS) {
  const f = state.files;
  if (!f.reference && !f.hypothesis) return text.filesChooseBoth;
  if (!f.reference || !f.hypothesis) return fill(text.filesChooseOther, { side: text[f.reference ? "hypothesis" : "reference"] });
  const names = { reference: f.reference.name, hypothesis: f.hypothesis.name };
  if (f.error?.version === f.version) return fill(text.filesFailed, { error: f.error.message });
  if (f.report?.version === f.version) {
    return fill(text.filesScored, { ...names, clips: numberFormat.format(f.report.data.clips.length) });
  }
  if (state.engine !== Engine.READY) return state.engine === Engine.FAILED ? fill(text.failed, { error: state.engineError }) : text.filesWaiting;
  return fill(text.filesScoring, names);
}

/** The report's headline sentences: corpus rates with their interval, and coverage. */
export function filesSummary(state, text = STRINGS) {
  const report = state.files.report;
  if (!report || report.version !== state.files.version) return [];
  const d = report.data;
  const level = d.interval?.level ?? 0;
  const ci = d[`ci${Math.round(level * 100)}`] ?? { cer: [null, null], mer: [null, null] };
  const lines = [
    fill(text.filesCorpus, {
      cer: percent(d.cer),
      mer: percent(d.mer),
      level: `${Math.round(level * 100)}%`,
      cerLow: percent(ci.cer[0]),
      cerHigh: percent(ci.cer[1]),
      merLow: percent(ci.mer[0]),
      merHigh: percent(ci.mer[1]),
    }),
    fill(text.filesCoverage, {
      covered: numberFormat.format(d.coverage.with_hypothesis),
      clips: numberFormat.format(d.coverage.clips),
      missing: numberFormat.format(d.coverage.missing.length),
    }),
    ...(d.interval?.warnings ?? []),
  ];
  return lines;
}

function sortValue(clip, key) {
  if (key === "fold_changes") return clip.fold_changes.length;
  return clip[key];
}

/** The per-clip rows in the chosen order (ties keep the file's order), at most `limit` of them. */
export function sortedClips(state, limit = Number.POSITIVE_INFINITY) {
  const report = state.files.report;
  if (!report || report.version !== state.files.version) return [];
  const { key, descending } = state.files.sort;
  const sign = descending ? -1 : 1;
  const rows = report.data.clips.map((clip, index) => ({ clip, index }));
  rows.sort((a, b) => {
    const x = sortValue(a.clip, key);
    const y = sortValue(b.clip, key);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.index - b.index;
  });
  return rows.slice(0, limit).map((row) => row.clip);
}

/** Which boxes are longer than the editor scores: [[name, length], ...], empty when both fit. */
export function overLimit(state) {
  return [
    ["reference", state.reference.length],
    ["hypothesis", state.hypothesis.length],
  ].filter(([, length]) => length > state.maxChars);
}

/**
 * The request to send now, or null: at most one per editor is in the worker, and edits made meanwhile are
 * folded into the next one, so a fast typist never builds a queue. A failed answer frees the worker like any
 * other, so text typed while it was failing is sent at once, not at the next keystroke.
 */
export function request(state) {
  if (state.engine !== Engine.READY || state.inFlight !== null) return null;
  if (state.sentVersion === state.version || overLimit(state).length) return null;
  return {
    id: state.nextId,
    version: state.version,
    reference: state.reference,
    hypothesis: state.hypothesis,
    drawing: state.drawing,
  };
}

/** Whether the drawing on the page is not the drawing of the texts in the boxes, as far as anyone knows. */
export function stale(state) {
  if (overLimit(state).length) return true;
  return failed(state);
}

// A failure is about the texts in the boxes only while no newer text has been typed; a newer text is sent at
// once and its own answer decides.
function failed(state) {
  return state.failure !== null && state.failure.version === state.version;
}

export function statusText(state, text = STRINGS) {
  const over = overLimit(state);
  if (over.length) {
    return over
      .map(([name, length]) =>
        fill(text.overLimit, {
          name: text[name],
          length: numberFormat.format(length),
          max: numberFormat.format(state.maxChars),
        }),
      )
      .join(" ");
  }
  switch (state.engine) {
    case Engine.IDLE:
      return state.saveData ? text.idleSaveData : text.idle;
    case Engine.LOADING:
      return state.stage || text.starting;
    case Engine.FAILED:
      return fill(text.failed, { error: state.engineError });
    default:
      break;
  }
  if (failed(state)) {
    return fill(state.failure.kind === "draw" ? text.drawFailed : text.requestFailed, {
      error: state.failure.message,
    });
  }
  const got = state.drawn?.view?.signature;
  if (got !== undefined && got !== state.builtSignature) {
    return fill(text.signatureMismatch, { got, want: state.builtSignature });
  }
  return state.compact ? text.readyCompact : text.ready;
}

/** The live (announced) summary line: the figures of the drawing shown, never of a text no longer there. */
export function liveText(state, text = STRINGS) {
  if (overLimit(state).length) return text.summaryOverLimit;
  const figures = state.drawn?.view?.figures;
  if (!figures) return "";
  const c = figures.counts?.cer ?? {};
  return fill(text.summary, {
    cer: percent(figures.cer),
    mer: percent(figures.mer),
    S: c.S ?? 0,
    D: c.D ?? 0,
    I: c.I ?? 0,
    N: c.N ?? 0,
  });
}

export function verifiedText(state, text = STRINGS) {
  if (state.engine !== Engine.READY) return "";
  if (!state.verified) return text.verifiedPlain;
  return state.sha256 === state.builtSha256 ? text.verifiedSame : text.verifiedDiffers;
}

// The permalink: the two texts and the drawing, in the URL's fragment, which browsers never send to a server.
// UTF-8 JSON, base64url-encoded, after a versioned key so a later format can still read this one.
const FRAGMENT_KEY = "#cvb1=";

export function encodeFragment(state) {
  const bytes = new TextEncoder().encode(JSON.stringify([state.reference, state.hypothesis, state.drawing]));
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return FRAGMENT_KEY + btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The event a fragment asks for ({type: "restore", ...}), or null when it is not an editor permalink. */
export function decodeFragment(hash) {
  if (typeof hash !== "string" || !hash.startsWith(FRAGMENT_KEY)) return null;
  try {
    const binary = atob(hash.slice(FRAGMENT_KEY.length).replaceAll("-", "+").replaceAll("_", "/"));
    const texts = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    if (!Array.isArray(texts) || typeof texts[0] !== "string" || typeof texts[1] !== "string") return null;
    return { type: "restore", reference: texts[0], hypothesis: texts[1], drawing: texts[2] === "mer" ? "mer" : "cer" };
  } catch {
    return null;
  }
}

/** Whether the texts or the drawing differ from the page's own sample (what "reset" undoes). */
export function edited(state) {
  const sample = state.sample;
  return state.reference !== sample.reference || state.hypothesis !== sample.hypothesis || state.drawing !== "cer";
}

/** The fragment the page's address should carry now: none for the page's own sample, none over the limit. */
export function fragmentFor(state) {
  if (overLimit(state).length) return null;
  return edited(state) ? encodeFragment(state) : "";
}

/** The result as text, to copy: the figures of the drawing shown, its texts, the signature and the link. */
export function resultText(state, link, text = STRINGS) {
  if (!state.drawn) return "";
  return fill(text.resultText, {
    summary: liveText(state, text),
    reference: state.drawn.reference,
    hypothesis: state.drawn.hypothesis,
    signature: state.drawn.view.signature,
    link,
  });
}

/** Whether the "Load the scorer" button is offered: Python is not loading yet. */
export function offerLoad(state) {
  return state.engine === Engine.IDLE;
}
