// @ts-check
// The editor's state and the one function that changes it: no DOM, no worker, no clock, so every sequence of
// events can be replayed in Node (tests/web/editor_state.test.mjs) and the page can only show what the state
// says. editor.js owns the shell: it turns DOM and worker happenings into events, feeds them to `next`, sends
// the request `request(state)` names, and `paint()`s the result.

export const Engine = Object.freeze({ IDLE: "idle", LOADING: "loading", READY: "ready", FAILED: "failed" });

// Every sentence the editor writes, in one table. The site's pages replace all of them with the JSON object in
// the editor's `data-cvb-strings` attribute, from platform_config/glossary.yaml (`interface`, in the page's
// language; tests/web/test_editor_strings.py keeps the keys the same), so this English is only the fallback
// of a page built without the config. `{name}` is filled from the values given where the string is used.
export const STRINGS = Object.freeze({
  idle: "The figures below were computed when this page was built. Python loads when you use the editor.",
  idle_save_data:
    "The figures below were computed when this page was built. Your browser asks to save data, so the " +
    "scorer loads only when you press the button.",
  unscored: "These texts are not scored yet: their figures appear here once the scorer has loaded.",
  unscored_save_data:
    "These texts are not scored yet. Your browser asks to save data, so the scorer loads only when you press " +
    "the button; their figures appear here then.",
  slow_connection:
    "Your browser reports a slow or metered connection, so the scorer waits for you: it is a {megabytes} MB " +
    "download. Press the button to start it.",
  loading_bytes:
    "Downloading the scorer: {received} of {total} MB (Python {python}, start-up snapshot {snapshot}, " +
    "wheels {wheels}).",
  loading_part: "{received} of {total} MB",
  load: "Load the scorer",
  starting: "Starting the scorer…",
  failed: "The editor could not start: {error} The figures below are the ones computed at build time.",
  ready: "Scored in your browser by the wheel named below; nothing you type leaves this page.",
  ready_compact: "Scored in your browser by the site's own scorer; nothing you type leaves this page.",
  over_limit:
    "The {name} is {length} characters; the editor scores up to {max}, so it has stopped redrawing. " +
    "Shorten it to see the alignment again, or score long files with cvb-score.",
  reference: "reference",
  hypothesis: "hypothesis",
  request_failed: "The scorer could not score this text: {error}",
  draw_failed: "The editor could not draw this answer: {error}",
  worker_failed: "The scorer's worker stopped with an error.",
  signature_mismatch:
    "This browser's scorer reports signature {got}, but the page was built with {want}: reload the page " +
    "to get matching files.",
  summary: "CER {cer}, MER {mer}: {S} substituted, {D} deleted, {I} inserted, of {N} reference characters.",
  summary_over_limit: "No figures: the text is longer than the editor scores.",
  waiting_for_files: "The scorer is busy with the files below: your edit is drawn once they are scored.",
  files_choose_both: "Choose, drop or paste (here, with the section focused) a reference JSONL and a hypothesis JSONL (one {\"id\": ..., \"text\": ...} per line).",
  files_choose_other: "Now choose the {side} JSONL.",
  files_none: "none chosen",
  files_waiting: "The files are read as soon as the scorer has loaded.",
  files_scoring: "Scoring {reference} against {hypothesis} in your browser…",
  files_scored: "Scored {clips} clips of {reference} against {hypothesis} in your browser; nothing left this page.",
  files_failed: "{error}",
  files_cancelled: "Stopped before the end; nothing was scored. Press “Score again” to run these files again.",
  files_cancel: "Cancel",
  files_rerun: "Score again",
  files_progress_reading: "{percent}: reading the two files…",
  files_progress_clips: "{percent}: read {done} of {total} clips",
  files_progress_figures: "{percent}: all {total} clips scored; computing their figures and the table…",
  files_progress_bootstrap: "{percent}: confidence interval, {done} of {total} resamples",
  files_progress_report: "{percent}: writing the report, {done} of {total} clips",
  files_progress_closing: "{percent}: report written; handing it to the page…",
  files_large:
    "Large files: {clips} lines, {megabytes} MB (the editor scores at most {limitMegabytes} MB or {limitClips} " +
    "clips). Scoring them in this browser takes about {minutes} minutes; Cancel stops it, and cvb-score on " +
    "your own machine is faster.",
  files_too_large_bytes:
    "Too large for this browser: {megabytes} MB, more than the {limitMegabytes} MB or {limitClips} clips the " +
    "editor scores, so nothing was read. cvb-score on your own machine scores files of any size.",
  files_too_large_clips:
    "Too large for this browser: {clips} lines, more than the {limitMegabytes} MB or {limitClips} clips the " +
    "editor scores, so nothing was scored. cvb-score on your own machine scores files of any size.",
  files_corpus: "Corpus CER {cer} ({level} interval {cerLow} to {cerHigh}), MER {mer} ({merLow} to {merHigh}).",
  files_corpus_pending: "Corpus CER {cer}, MER {mer}. Their intervals follow once the resamples are drawn; a clip's alignment opens then too.",
  files_coverage: "Coverage: {covered} of {clips} clips have a hypothesis; {missing} missing, scored as all deletions.",
  files_rows: "Clips {first} to {last} of {clips}, sorted by {key}; the download has them all.",
  files_previous: "Previous page",
  files_next: "Next page",
  column_clip: "Clip",
  column_simplified_errors: "Simplified cost",
  column_fold_changes: "Fold changes",
  result_text:
    "{summary}\nReference: {reference}\nHypothesis: {hypothesis}\nScoring signature: {signature}\nLink: {link}",
  verified_plain: "(not re-checked: this page is not on https)",
  verified_same: "(checked in this browser)",
  verified_differs: "(differs from the build)",
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
  slow = false,
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
    slow, // the browser reports a slow or metered connection: the scorer loads only from the button
    downloadSize: 0, // what a cold start downloads, in bytes, once known (for the slow connection's notice)
    download: null, // {part: {received, total}} of the runtime's files while they arrive
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
  reference: null, // {name, bytes, size, lines}: bytes and lines null for a file refused unread (tooLarge)
  hypothesis: null,
  version: 0,
  sentVersion: 0,
  job: null, // {id, version}
  progress: null, // {phase, done, total} the job in the worker last reported
  step: null, // {name, since}: the step of the job under way (STEPS) and when it began, on the page's clock
  now: 0, // the page's clock at the latest event of the job (files-sent, files-progress, files-tick)
  cancelled: null, // the version whose job the reader stopped
  scored: null, // {version, data}: the report without its intervals, shown while the job draws them
  report: null, // {version, json, data}
  error: null, // {version, message}
  sort: Object.freeze({ key: "cer", descending: true }),
  selected: null, // the clip id drawn in the editor
  page: 0, // which page of the sorted table is shown (ROWS_PER_PAGE rows each)
});

// A page of the per-clip table: a 16,000-clip file is read a page at a time, so the page never builds (and
// lays out) a table of every clip; the download has them all.
export const ROWS_PER_PAGE = 200;

export const SORT_KEYS = Object.freeze(["id", "cer", "mer", "S", "D", "I", "N", "simplified_errors", "fold_changes"]);

function withFiles(state, changes) {
  return Object.freeze({ ...state, files: Object.freeze({ ...state.files, ...changes }) });
}

function with_(state, changes) {
  return Object.freeze({ ...state, ...changes });
}

/** The state after `event`. Pure: the same state and event always give the same new state. */
export function next(state, event) {
  const step = Object.hasOwn(STEPS_BY_EVENT, event.type) ? STEPS_BY_EVENT[event.type] : null;
  return step ? step(state, event) : state;
}

// The steps, one per event type, each named for its event (STEPS_BY_EVENT, below, maps them).
function onEdit(state, event) {
  const reference = event.reference ?? state.reference;
  const hypothesis = event.hypothesis ?? state.hypothesis;
  if (reference === state.reference && hypothesis === state.hypothesis) return state;
  return with_(state, { reference, hypothesis, version: state.version + 1 });
}

function onRestore(state, event) {
  const edited = next(state, { type: "edit", reference: event.reference, hypothesis: event.hypothesis });
  return next(edited, { type: "drawing", mode: event.drawing });
}

function onReset(state, event) {
  return next(next(state, { type: "edit", ...state.sample }), { type: "drawing", mode: "cer" });
}

function onDrawing(state, event) {
  if ((event.mode !== "cer" && event.mode !== "mer") || event.mode === state.drawing) return state;
  return with_(state, { drawing: event.mode, version: state.version + 1 });
}

function onDownloadSize(state, event) {
  return with_(state, { downloadSize: Number(event.bytes) || 0 });
}

function onDownload(state, event) {
  return state.engine === Engine.LOADING || state.engine === Engine.IDLE
    ? with_(state, { download: Object.freeze({ ...event.parts }) })
    : state;
}

function onStart(state, event) {
  return state.engine === Engine.IDLE ? with_(state, { engine: Engine.LOADING, stage: "" }) : state;
}

function onProgress(state, event) {
  return state.engine === Engine.LOADING || state.engine === Engine.IDLE
    ? with_(state, { engine: Engine.LOADING, stage: event.text })
    : state;
}

function onReady(state, event) {
  return with_(state, {
    engine: Engine.READY,
    sha256: event.sha256,
    verified: Boolean(event.verified),
    runtime: event.snapshot ? "snapshot" : "booted",
  });
}

function onEngineFailed(state, event) {
  return with_(state, { engine: Engine.FAILED, engineError: event.message, inFlight: null });
}

function onSent(state, event) {
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
}

function onAnswer(state, event) {
  if (state.inFlight?.id !== event.id) return state;
  const asked = state.inFlight;
  // Only the answer for the texts now in the boxes is drawn; an older one is dropped, and the newer
  // texts are sent as soon as the worker is free (see `request`).
  if (asked.version !== state.version) return with_(state, { inFlight: null });
  return with_(state, {
    inFlight: null,
    failure: null,
    drawn: {
      id: asked.id,
      version: asked.version,
      reference: asked.reference,
      hypothesis: asked.hypothesis,
      drawing: asked.drawing,
      view: event.view,
      timing: event.timing ?? null,
    },
  });
}

function onAnswerDetails(state, event) {
  // The second part of the drawing on the page (details and the whole figures); any other is moot.
  const drawn = state.drawn;
  if (drawn?.id !== event.id || drawn.view.details !== undefined) return state;
  return with_(state, {
    drawn: { ...drawn, view: { ...drawn.view, details: event.details, figures: event.figures } },
  });
}

function onAnswerFailed(state, event) {
  if (state.inFlight?.id !== event.id) return state;
  return with_(state, {
    inFlight: null,
    failure: { version: state.inFlight.version, message: event.message, kind: "request" },
  });
}

function onDrawFailed(state, event) {
  return with_(state, {
    failure: { version: state.drawn?.version ?? state.version, message: event.message, kind: "draw" },
    drawn: null,
  });
}

function onFile(state, event) {
  if (event.side !== "reference" && event.side !== "hypothesis") return state;
  // A file refused before it was read (see readable) comes without bytes: its size only, its lines unknown.
  const bytes = event.bytes ?? null;
  const size = Number(event.size ?? bytes?.byteLength) || 0;
  const lines = bytes === null ? null : Number(event.lines) || 0;
  return withFiles(state, {
    [event.side]: Object.freeze({ name: event.name, bytes, size, lines }),
    version: state.files.version + 1,
  });
}

function onFilesSent(state, event) {
  // Ids are never reused, so nothing a stopped job's worker said can be taken for a later job's.
  return withFiles(with_(state, { nextId: Math.max(state.nextId, event.id + 1) }), {
    job: { id: event.id, version: event.version },
    sentVersion: event.version,
    progress: null,
    step: Object.freeze({ name: "reading", since: Number(event.at) || 0 }),
    now: Number(event.at) || 0,
    scored: null,
    cancelled: null,
  });
}

function onFilesProgress(state, event) {
  // Only the running job's progress counts: a message still in flight when the job was stopped is dropped.
  if (state.files.job?.id !== event.id || !PHASES.includes(event.phase)) return state;
  const progress = Object.freeze({
    phase: event.phase,
    done: Number(event.done) || 0,
    total: Number(event.total) || 0,
  });
  const at = Number(event.at) || state.files.now;
  const name = stepOf(progress);
  const step = name === state.files.step?.name ? state.files.step : Object.freeze({ name, since: at });
  return withFiles(state, { progress, step, now: Math.max(state.files.now, at) });
}

function onFilesTick(state, event) {
  // The page's clock, while a job runs: an uncounted step's bar moves with the time it has taken.
  if (state.files.job === null || !(Number(event.at) > state.files.now)) return state;
  return withFiles(state, { now: Number(event.at) });
}

function onFilesScored(state, event) {
  // Shown only for the files in the boxes: a job sent for files since replaced keeps running unseen.
  const job = state.files.job;
  if (job?.id !== event.id || job.version !== state.files.version) return state;
  return withFiles(state, { scored: Object.freeze({ version: job.version, data: event.data }), page: 0 });
}

function onFilesCancel(state, event) {
  const job = state.files.job;
  if (job === null) return state; // nothing runs: a cancel after the answer changes nothing
  return withFiles(state, { job: null, progress: null, scored: null, cancelled: job.version });
}

function onFilesRerun(state, event) {
  const f = state.files;
  if (f.job !== null || !f.reference || !f.hypothesis) return state;
  return withFiles(state, { version: f.version + 1, cancelled: null });
}

function onEngineRestart(state, event) {
  // The worker was stopped (to cancel a file job) and a new one is starting: whatever it held is gone.
  // The texts stay; the one in the boxes is sent again once the new worker is ready, and a file job of
  // this editor that nobody cancelled is run again.
  const killed = state.files.job !== null;
  const restarted = with_(state, { engine: Engine.LOADING, stage: "", inFlight: null, sentVersion: 0 });
  return killed ? withFiles(restarted, { job: null, progress: null, scored: null, sentVersion: 0 }) : restarted;
}

function onFilesDone(state, event) {
  const job = state.files.job;
  if (job?.id !== event.id) return state;
  if (job.version !== state.files.version) return withFiles(state, { job: null, scored: null });
  return event.type === "files-answer"
    ? withFiles(state, {
        job: null,
        progress: null,
        scored: null,
        error: null,
        report: { version: job.version, json: event.json, data: event.data },
        // The reader who turned pages of the early table keeps their page.
        page: state.files.scored ? state.files.page : 0,
      })
    : withFiles(state, {
        job: null,
        progress: null,
        scored: null,
        report: null,
        error: { version: job.version, message: event.message },
      });
}

function onSort(state, event) {
  if (!SORT_KEYS.includes(event.key)) return state;
  const { key, descending } = state.files.sort;
  return withFiles(state, {
    sort: Object.freeze({ key: event.key, descending: key === event.key ? !descending : event.key !== "id" }),
    page: 0,
  });
}

function onFilesPage(state, event) {
  const pages = clipPages(state);
  const page = Math.min(Math.max(0, Math.trunc(Number(event.page) || 0)), Math.max(0, pages - 1));
  return page === state.files.page ? state : withFiles(state, { page });
}

function onSelect(state, event) {
  return withFiles(state, { selected: event.clip });
}

// An event of any other type changes nothing.
const STEPS_BY_EVENT = Object.freeze({
  "edit": onEdit,
  "restore": onRestore,
  "reset": onReset,
  "drawing": onDrawing,
  "download-size": onDownloadSize,
  "download": onDownload,
  "start": onStart,
  "progress": onProgress,
  "ready": onReady,
  "engine-failed": onEngineFailed,
  "sent": onSent,
  "answer": onAnswer,
  "answer-details": onAnswerDetails,
  "answer-failed": onAnswerFailed,
  "draw-failed": onDrawFailed,
  "file": onFile,
  "files-sent": onFilesSent,
  "files-progress": onFilesProgress,
  "files-tick": onFilesTick,
  "files-scored": onFilesScored,
  "files-cancel": onFilesCancel,
  "files-rerun": onFilesRerun,
  "engine-restart": onEngineRestart,
  "files-answer": onFilesDone,
  "files-failed": onFilesDone,
  "sort": onSort,
  "files-page": onFilesPage,
  "select": onSelect,
});

/** The file-scoring job to send now, or null: both files chosen, Python up, these files not yet sent. */
export function filesRequest(state) {
  const f = state.files;
  if (state.engine !== Engine.READY || f.job !== null || !f.reference || !f.hypothesis) return null;
  if (f.sentVersion === f.version || tooLarge(state) !== null) return null;
  return { id: state.nextId, version: f.version, reference: f.reference, hypothesis: f.hypothesis };
}

export function filesBusy(state) {
  return state.files.job !== null;
}

/** Whether the job in the worker is for files no longer chosen: one of them was replaced while it ran. */
export function jobOutdated(state) {
  const job = state.files.job;
  return job !== null && job.version !== state.files.version;
}

// The phases a file job's worker counts (cvb_scorer.progress), in order.
export const PHASES = Object.freeze(["clips", "bootstrap", "report"]);

// A job's steps, in order, and the share of the bar each takes, so that one bar runs from 0 to 100 once at
// an even pace. Three are counted by the worker (PHASES). Three are not: reading the files (before the first
// clip is counted), computing the figures and the table once every clip is scored (before the first
// resample), and handing the report to the page once every clip is written. The bar never waits on a
// finished count: a counted phase at its total is followed at once by the uncounted step after it, and an
// uncounted step moves with the time it has taken, against the time it is expected to take (STEP_MS_PER_CLIP),
// approaching its end without reaching it until the worker says the step is over. The shares and the rates
// follow how long each step takes on a long pair (a 100,000-clip pair of short texts through
// cvb_scorer.browser); every step grows with the clips, so the shares hold roughly for any file.
export const STEPS = Object.freeze(["reading", "clips", "figures", "bootstrap", "report", "closing"]);
const STEP_SHARE = Object.freeze({
  reading: [0, 0.03],
  clips: [0.03, 0.15],
  figures: [0.15, 0.32],
  bootstrap: [0.32, 0.93],
  report: [0.93, 0.96],
  closing: [0.96, 1],
});
const STEP_MS_PER_CLIP = Object.freeze({ reading: 0.1, figures: 0.5, closing: 0.1 });
// An uncounted step is expected to take at least this long, and its part of the bar stops short of its end.
const STEP_MIN_MS = 1000;
const TIMED_AT_MOST = 0.95;
const STEP_TEXT = Object.freeze({
  reading: "files_progress_reading",
  clips: "files_progress_clips",
  figures: "files_progress_figures",
  bootstrap: "files_progress_bootstrap",
  report: "files_progress_report",
  closing: "files_progress_closing",
});
const AFTER = Object.freeze({ clips: "figures", bootstrap: "report", report: "closing" });

// The step a report puts the job in: its counted phase, or once that phase is at its total the step after it.
function stepOf(progress) {
  return progress.total > 0 && progress.done >= progress.total ? AFTER[progress.phase] : progress.phase;
}

// The most the editor scores, the two files together: a pair above either limit is refused with a sentence
// that states both and points to cvb-score, before the worker sees a byte of it (above the bytes, before the
// page reads it: a file's size is known unread). The browser holds a pair several times over (the page's copy,
// the worker's, Python's, the report's JSON in both) and its bootstrap runs without numpy, so a pair far above
// these (bench/editor.py --large-pair-only) never finished and grew the tab to gigabytes; the notice below
// states the same limits.
export const FILE_LIMIT_BYTES = 20 * 1e6;
export const FILE_LIMIT_CLIPS = 100_000;
// Files from this size on are announced before they are scored, with the time they are expected to take
// (about a minute and more at MS_PER_CLIP).
export const LARGE_FILE_BYTES = 5 * 1e6;
export const LARGE_FILE_CLIPS = 20_000;
// The time a file job takes in the browser, per clip, all steps together, as bench/editor.py --files measures
// it (its 16,000-clip pair in Chromium): the notice's estimate, said as "about".
export const MS_PER_CLIP = 2.8;

function clipsExpected(state) {
  const f = state.files;
  return Math.max(f.reference?.lines ?? 0, f.hypothesis?.lines ?? 0, f.progress?.phase === "clips" ? f.progress.total : 0);
}

const chosenFiles = (state) => [state.files.reference, state.files.hypothesis].filter(Boolean);
const chosenBytes = (state) => chosenFiles(state).reduce((sum, file) => sum + file.size, 0);
const limits = () => ({
  limitMegabytes: numberFormat.format(FILE_LIMIT_BYTES / 1e6),
  limitClips: numberFormat.format(FILE_LIMIT_CLIPS),
});

/**
 * Whether a file of `size` bytes may be read: alone, it is within FILE_LIMIT_BYTES (the pair may still be
 * over it, and is refused whole; a file read beside a refused one is there when the other is replaced). A
 * file that may not is taken unread (a "file" event with its size and no bytes) and refused.
 */
export function readable(size) {
  return size <= FILE_LIMIT_BYTES;
}

/** The sentence refusing the files chosen, when they are over a limit the editor states; null otherwise. */
export function tooLarge(state, text = STRINGS) {
  const bytes = chosenBytes(state);
  if (bytes > FILE_LIMIT_BYTES) return fill(text.files_too_large_bytes, { megabytes: (bytes / 1e6).toFixed(1), ...limits() });
  const clips = Math.max(0, ...chosenFiles(state).map((file) => file.lines ?? 0));
  if (clips > FILE_LIMIT_CLIPS) return fill(text.files_too_large_clips, { clips: numberFormat.format(clips), ...limits() });
  return null;
}

/** The notice for large files, with the time they are expected to take; null for smaller ones and refused ones. */
export function largeFiles(state, text = STRINGS) {
  const f = state.files;
  if (!f.reference || !f.hypothesis || tooLarge(state) !== null) return null;
  const bytes = chosenBytes(state);
  const clips = clipsExpected(state);
  if (bytes < LARGE_FILE_BYTES && clips < LARGE_FILE_CLIPS) return null;
  return fill(text.files_large, {
    clips: numberFormat.format(clips),
    megabytes: (bytes / 1e6).toFixed(1),
    ...limits(),
    minutes: numberFormat.format(Math.max(1, Math.round((clips * MS_PER_CLIP) / 60_000))),
  });
}

/** The running job's progress: {fraction (0..1), step, text}, or null when idle. */
export function filesProgress(state, text = STRINGS) {
  if (!filesBusy(state)) return null;
  const f = state.files;
  const p = f.progress;
  const step = f.step ?? { name: "reading", since: f.now };
  const [from, to] = STEP_SHARE[step.name];
  const timed = step.name in STEP_MS_PER_CLIP;
  // A counted step entered as the one before it ended has counted nothing yet.
  const counted = p?.phase === step.name ? p : { done: 0, total: clipsExpected(state) };
  const expected = Math.max(STEP_MIN_MS, clipsExpected(state) * (STEP_MS_PER_CLIP[step.name] ?? 0));
  const within = timed
    ? Math.min(TIMED_AT_MOST, 1 - Math.exp(-Math.max(0, f.now - step.since) / expected))
    : counted.total > 0
      ? Math.min(1, Math.max(0, counted.done / counted.total))
      : 0;
  const fraction = from + (to - from) * within;
  return {
    fraction,
    step: step.name,
    text: fill(text[STEP_TEXT[step.name]], {
      percent: `${Math.floor(fraction * 100)}%`,
      done: numberFormat.format(counted.done),
      total: numberFormat.format(timed ? clipsExpected(state) : counted.total),
    }),
  };
}

/** Whether "Score again" is offered: both files chosen, nothing running, and the last job was stopped. */
export function offerRerun(state) {
  const f = state.files;
  return f.job === null && f.cancelled !== null && f.cancelled === f.version && Boolean(f.reference && f.hypothesis);
}

/** The name shown beside a side's chooser: the file chosen, dropped or pasted there, or that there is none. */
export function chosenName(state, side, text = STRINGS) {
  return state.files[side]?.name ?? text.files_none;
}

export function filesStatus(state, text = STRINGS) {
  const f = state.files;
  if (!f.reference && !f.hypothesis) return text.files_choose_both;
  const refused = tooLarge(state, text);
  if (refused) return refused;
  if (!f.reference || !f.hypothesis) return fill(text.files_choose_other, { side: text[f.reference ? "hypothesis" : "reference"] });
  const names = { reference: f.reference.name, hypothesis: f.hypothesis.name };
  if (f.error?.version === f.version) return fill(text.files_failed, { error: f.error.message });
  if (f.cancelled === f.version && f.job === null) return text.files_cancelled;
  if (f.report?.version === f.version) {
    return fill(text.files_scored, { ...names, clips: numberFormat.format(f.report.data.clips.length) });
  }
  if (state.engine === Engine.FAILED) return fill(text.failed, { error: state.engineError || text.worker_failed });
  const large = largeFiles(state, text);
  if (large) return large;
  if (state.engine !== Engine.READY) return text.files_waiting;
  return fill(text.files_scoring, names);
}

// The report of the files in the boxes: the final one, or while its job draws the intervals, the one without
// them (its figures and clips are the final's, report.scored_json); null when there is neither.
function shownReport(state) {
  const { report, scored, job, version } = state.files;
  if (report?.version === version) return report.data;
  if (scored?.version === version && job?.version === version) return scored.data;
  return null;
}

/** Whether a clip's drawing can be opened from the table: the report is final (the worker is free). */
export function clipsOpen(state) {
  return state.files.report?.version === state.files.version;
}

/** The report's headline sentences: corpus rates with their interval (once drawn), and coverage. */
export function filesSummary(state, text = STRINGS) {
  const d = shownReport(state);
  if (!d) return [];
  const level = d.interval?.level ?? 0;
  const ci = d[`ci${Math.round(level * 100)}`] ?? { cer: [null, null], mer: [null, null] };
  const lines = [
    clipsOpen(state)
      ? fill(text.files_corpus, {
          cer: percent(d.cer),
          mer: percent(d.mer),
          level: `${Math.round(level * 100)}%`,
          cerLow: percent(ci.cer[0]),
          cerHigh: percent(ci.cer[1]),
          merLow: percent(ci.mer[0]),
          merHigh: percent(ci.mer[1]),
        })
      : fill(text.files_corpus_pending, { cer: percent(d.cer), mer: percent(d.mer) }),
    fill(text.files_coverage, {
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
  const report = shownReport(state);
  if (!report) return [];
  const { key, descending } = state.files.sort;
  const sign = descending ? -1 : 1;
  const rows = report.clips.map((clip, index) => ({ clip, index }));
  rows.sort((a, b) => {
    const x = sortValue(a.clip, key);
    const y = sortValue(b.clip, key);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.index - b.index;
  });
  return rows.slice(0, limit).map((row) => row.clip);
}

function clipPages(state) {
  const report = shownReport(state);
  return report ? Math.ceil(report.clips.length / ROWS_PER_PAGE) : 0;
}

/** The page of the sorted table shown: its rows, which page of how many, and the clips' numbers (from 1). */
export function clipPage(state) {
  const pages = clipPages(state);
  if (!pages) return { rows: [], page: 0, pages: 0, first: 0, last: 0, clips: 0 };
  const page = Math.min(state.files.page, pages - 1);
  const all = sortedClips(state);
  const rows = all.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE);
  const first = page * ROWS_PER_PAGE + 1;
  return { rows, page, pages, first, last: first + rows.length - 1, clips: all.length };
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

/** Whether the drawing on the page waits for its details (they come once typing pauses). */
export function detailsPending(state) {
  return state.drawn !== null && state.drawn.view.details === undefined;
}

/** Whether the drawing on the page is not the drawing of the texts in the boxes, as far as anyone knows. */
export function stale(state) {
  if (overLimit(state).length) return true;
  return failed(state) || waitingForFiles(state);
}

/**
 * Whether the texts in the boxes wait for a file job: the one worker scores files for seconds (a minute for
 * 16,000 clips) and answers an edit only after, so the drawing on the page is of older texts until then.
 */
export function waitingForFiles(state) {
  return filesBusy(state) && state.engine === Engine.READY && state.drawn?.version !== state.version;
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
        fill(text.over_limit, {
          name: text[name],
          length: numberFormat.format(length),
          max: numberFormat.format(state.maxChars),
        }),
      )
      .join(" ");
  }
  switch (state.engine) {
    case Engine.IDLE:
      if (state.slow && !state.saveData) return fill(text.slow_connection, { megabytes: megabytes(state.downloadSize) });
      if (unscored(state)) return state.saveData ? text.unscored_save_data : text.unscored;
      return state.saveData ? text.idle_save_data : text.idle;
    case Engine.LOADING: {
      const bytes = downloading(state);
      if (bytes) return bytes.text;
      if (unscored(state)) return text.unscored;
      return state.stage || text.starting;
    }
    case Engine.FAILED:
      return fill(text.failed, { error: state.engineError || text.worker_failed });
    default:
      break;
  }
  if (failed(state)) {
    return fill(state.failure.kind === "draw" ? text.draw_failed : text.request_failed, {
      error: state.failure.message,
    });
  }
  if (waitingForFiles(state)) return text.waiting_for_files;
  const got = state.drawn?.view?.signature;
  if (got !== undefined && got !== state.builtSignature) {
    return fill(text.signature_mismatch, { got, want: state.builtSignature });
  }
  return state.compact ? text.ready_compact : text.ready;
}

/** The live (announced) summary line: the figures of the drawing shown, never of a text no longer there. */
export function liveText(state, text = STRINGS) {
  if (overLimit(state).length) return text.summary_over_limit;
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
  if (!state.verified) return text.verified_plain;
  return state.sha256 === state.builtSha256 ? text.verified_same : text.verified_differs;
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

/**
 * Whether the boxes hold texts no drawing has been made for yet: the only drawing on the page is the one built
 * with the page, of its sample, while the boxes hold other texts (a shared link, or an edit made before the
 * scorer was up). Its figures are not these texts' and must not be shown beside them.
 */
export function unscored(state) {
  return state.drawn === null && edited(state);
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

/**
 * What to write into the page's address now that the address has `hash`: the texts' fragment, "" to take ours
 * away, or null to leave the address as it is. Over the limit, or already there: null. For the page's sample
 * the address needs no fragment, but only one of ours is taken away: a link to a heading keeps its anchor
 * (taken away at mount, it also stopped the browser from scrolling to that heading).
 */
export function fragmentUpdate(state, hash) {
  const fragment = fragmentFor(state);
  const current = typeof hash === "string" ? hash : "";
  if (fragment === null || current === fragment) return null;
  if (fragment === "" && !current.startsWith(FRAGMENT_KEY)) return null;
  return fragment;
}

/** The result as text, to copy: the figures of the drawing shown, its texts, the signature and the link. */
export function resultText(state, link, text = STRINGS) {
  if (!state.drawn) return "";
  return fill(text.result_text, {
    summary: liveText(state, text),
    reference: state.drawn.reference,
    hypothesis: state.drawn.hypothesis,
    signature: state.drawn.view.signature,
    link,
  });
}

const megabytes = (bytes) => (bytes > 0 ? (bytes / 1e6).toFixed(1) : "…");

/** Whether the scorer waits for its button: the data saver is on, or the connection is slow or metered. */
export function asksFirst(state) {
  return state.saveData || state.slow;
}

/**
 * The runtime's download while it arrives: {fraction, received, total (bytes), text}, or null when nothing
 * is being downloaded (not loading, or every byte in).
 */
export function downloading(state, text = STRINGS) {
  if (state.engine !== Engine.LOADING || !state.download) return null;
  const parts = Object.values(state.download);
  const received = parts.reduce((sum, part) => sum + part.received, 0);
  const total = parts.reduce((sum, part) => sum + part.total, 0);
  if (!(total > 0) || received >= total) return null;
  const part = (name) => {
    const p = state.download[name] ?? { received: 0, total: 0 };
    return fill(text.loading_part, { received: megabytes(p.received || 0).replace("…", "0.0"), total: megabytes(p.total) });
  };
  return {
    fraction: received / total,
    received,
    total,
    text: fill(text.loading_bytes, {
      received: (received / 1e6).toFixed(1),
      total: megabytes(total),
      python: part("python"),
      snapshot: part("snapshot"),
      wheels: part("wheels"),
    }),
  };
}

/** Whether the "Load the scorer" button is offered: Python is not loading yet. */
export function offerLoad(state) {
  return state.engine === Engine.IDLE;
}
