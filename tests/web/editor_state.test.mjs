// The editor's state function replayed on tables of event sequences, in Node's own test runner (run from
// tests/web/test_editor_state.py). Each case is a list of events and what the page must say afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as S from "../../scorer_wasm/web/editor_state.js";

const BUILT = "cvb-scorer:1|built";
const base = () =>
  S.initial({ reference: "保單", hypothesis: "保单", maxChars: 10, builtSignature: BUILT, builtSha256: "abc" });
const view = (cer, signature = BUILT) => ({
  alignment: ["<span>x</span>"],
  details: "<p>d</p>",
  figures: { cer, mer: cer, counts: { cer: { S: 1, D: 0, I: 0, N: 2 } } },
  signature,
});

// Runs the shell's loop without a DOM: every event goes through `next`, and whatever `request` asks for is
// sent at once, as editor.js does. Returns the final state and the requests sent.
function run(events, state = base()) {
  const sent = [];
  for (const event of events) {
    state = S.next(state, event);
    const ask = S.request(state);
    if (ask) {
      sent.push(ask);
      state = S.next(state, { type: "sent", ...ask });
    }
  }
  return { state, sent };
}

const ready = { type: "ready", sha256: "abc", verified: true, snapshot: true };

test("next is pure: it never changes the state it is given", () => {
  const before = base();
  const copy = JSON.stringify(before);
  for (const event of [{ type: "start" }, ready, { type: "edit", hypothesis: "x" }]) S.next(before, event);
  assert.equal(JSON.stringify(before), copy);
  assert.ok(Object.isFrozen(S.next(before, { type: "edit", hypothesis: "x" })));
});

const CASES = [
  {
    name: "the sample is re-scored once Python is up, and drawn",
    events: [{ type: "start" }, ready, { type: "answer", id: 1, view: view(0.5) }],
    sent: [["保單", "保单"]],
    status: S.STRINGS.ready,
    live: "CER 50.00%, MER 50.00%: 1 substituted, 0 deleted, 0 inserted, of 2 reference characters.",
    stale: false,
  },
  {
    name: "nothing is sent before the engine is ready; the texts typed meanwhile are the first sent",
    events: [{ type: "edit", hypothesis: "a" }, { type: "start" }, { type: "edit", hypothesis: "ab" }, ready],
    sent: [["保單", "ab"]],
    status: S.STRINGS.ready,
    live: "",
  },
  {
    name: "edits while a request is in the worker are folded into one next request; the old answer is dropped",
    events: [
      ready,
      { type: "edit", hypothesis: "a" },
      { type: "edit", hypothesis: "ab" },
      { type: "edit", hypothesis: "abc" },
      { type: "answer", id: 1, view: view(0.9) },
      { type: "answer", id: 2, view: view(0.1) },
    ],
    sent: [
      ["保單", "保单"],
      ["保單", "abc"],
    ],
    live: "CER 10.00%, MER 10.00%: 1 substituted, 0 deleted, 0 inserted, of 2 reference characters.",
    drawnHypothesis: "abc",
  },
  {
    // Bug 1 of issue 12: the mismatch was written by draw() and overwritten by pump() at once.
    name: "a signature that differs from the page's is reported, and stays reported",
    events: [ready, { type: "answer", id: 1, view: view(0.5, "other") }, { type: "edit", reference: "保單保" }],
    status: S.fill(S.STRINGS.signature_mismatch, { got: "other", want: BUILT }),
  },
  {
    // Bug 2 of issue 12: text typed while the request failed was not sent until the next keystroke.
    name: "text typed while a request fails is sent as soon as the failure comes back",
    events: [
      ready,
      { type: "edit", hypothesis: "bad" },
      { type: "answer-failed", id: 1, message: "boom" },
      { type: "answer", id: 2, view: view(0.2) },
    ],
    sent: [
      ["保單", "保单"],
      ["保單", "bad"],
    ],
    status: S.STRINGS.ready,
    stale: false,
    drawnHypothesis: "bad",
  },
  {
    name: "a failure for the text in the boxes is shown, the drawing marked stale, and not retried in a loop",
    events: [ready, { type: "answer-failed", id: 1, message: "ValueError: boom" }],
    sent: [["保單", "保单"]],
    status: S.fill(S.STRINGS.request_failed, { error: "ValueError: boom" }),
    stale: true,
  },
  {
    // Bug 3 of issue 12: over the limit, the summary line kept the previous text's figures.
    name: "over the limit, nothing is sent and the summary drops the old figures",
    events: [ready, { type: "answer", id: 1, view: view(0.5) }, { type: "edit", hypothesis: "x".repeat(11) }],
    sent: [["保單", "保单"]],
    status: S.fill(S.STRINGS.over_limit, { name: "hypothesis", length: "11", max: "10" }),
    live: S.STRINGS.summary_over_limit,
    stale: true,
  },
  {
    name: "back under the limit, the text is sent and drawn again",
    events: [
      ready,
      { type: "answer", id: 1, view: view(0.5) },
      { type: "edit", hypothesis: "x".repeat(11) },
      { type: "edit", hypothesis: "x" },
      { type: "answer", id: 2, view: view(1) },
    ],
    sent: [
      ["保單", "保单"],
      ["保單", "x"],
    ],
    status: S.STRINGS.ready,
    stale: false,
  },
  {
    name: "a worker crash fails the engine and drops the request in flight",
    events: [ready, { type: "engine-failed", message: "The worker died." }, { type: "answer", id: 1, view: view(0) }],
    status: S.fill(S.STRINGS.failed, { error: "The worker died." }),
    live: "",
  },
  {
    name: "progress is shown while loading",
    events: [{ type: "start" }, { type: "progress", text: "Loading the Python runtime (Pyodide)…" }],
    status: "Loading the Python runtime (Pyodide)…",
  },
  {
    name: "a drawing that fails is reported and marked stale",
    events: [ready, { type: "answer", id: 1, view: view(0.5) }, { type: "draw-failed", message: "no paragraph" }],
    status: S.fill(S.STRINGS.draw_failed, { error: "no paragraph" }),
    stale: true,
  },
  {
    name: "an edit back to the texts already there changes nothing",
    events: [ready, { type: "edit", hypothesis: "保单" }],
    sent: [["保單", "保单"]],
  },
];

for (const c of CASES) {
  test(c.name, () => {
    const { state, sent } = run(c.events);
    if (c.sent) assert.deepEqual(sent.map((r) => [r.reference, r.hypothesis]), c.sent);
    if (c.status !== undefined) assert.equal(S.statusText(state), c.status);
    if (c.live !== undefined) assert.equal(S.liveText(state), c.live);
    if (c.stale !== undefined) assert.equal(S.stale(state), c.stale);
    if (c.drawnHypothesis !== undefined) assert.equal(state.drawn?.hypothesis, c.drawnHypothesis);
  });
}

test("with the data saver on, the idle editor says the scorer waits for the button", () => {
  const state = S.initial({ saveData: true });
  assert.equal(S.statusText(state), S.STRINGS.idle_save_data);
  assert.ok(S.offerLoad(state));
  assert.ok(!S.offerLoad(S.next(state, { type: "start" })));
});

test("strings from the page's config replace the built-in ones", () => {
  const text = S.strings({ ready: "喺你嘅瀏覽器度計。" });
  const state = run([ready, { type: "answer", id: 1, view: view(0) }]).state;
  assert.equal(S.statusText(state, text), "喺你嘅瀏覽器度計。");
  assert.equal(S.fill("{a} and {b}", { a: 1 }), "1 and {b}");
});

test("random event sequences never send two requests at once nor draw an answer for other texts", () => {
  let seed = 7;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = 0; round < 300; round += 1) {
    let state = base();
    let inWorker = null;
    for (let step = 0; step < 30; step += 1) {
      const pick = random(6);
      let event;
      if (pick === 0) event = ready;
      else if (pick <= 2) event = { type: "edit", hypothesis: "ab".slice(0, random(3)) + "x".repeat(random(13)) };
      else if (pick === 3 && inWorker) event = { type: "answer-failed", id: inWorker.id, message: "e" };
      else if (inWorker) event = { type: "answer", id: inWorker.id, view: view(random(10) / 10) };
      else continue;
      state = S.next(state, event);
      if (event.type.startsWith("answer")) inWorker = null;
      const ask = S.request(state);
      if (ask) {
        assert.equal(inWorker, null, "a second request was sent while one was in the worker");
        inWorker = ask;
        state = S.next(state, { type: "sent", ...ask });
      }
      if (state.drawn && state.drawn.version === state.version) {
        assert.equal(state.drawn.hypothesis, state.hypothesis);
      }
      if (state.engine === S.Engine.READY && !inWorker && !S.overLimit(state).length && !S.stale(state)) {
        assert.equal(state.sentVersion, state.version, "a text within the limit was left unsent");
      }
    }
  }
});

test("switching to the MER drawing re-sends the same texts, drawn as tokens", () => {
  const { state, sent } = run([
    ready,
    { type: "answer", id: 1, view: view(0.5) },
    { type: "drawing", mode: "mer" },
    { type: "answer", id: 2, view: view(0.5) },
    { type: "drawing", mode: "mer" },
  ]);
  assert.deepEqual(sent.map((r) => r.drawing), ["cer", "mer"]);
  assert.equal(state.drawn.drawing, "mer");
});

test("the permalink carries both texts and the drawing, and round-trips any Unicode", () => {
  for (const [reference, hypothesis] of [
    ["保單", "保单"],
    ["9876 5432", "九八七六五四三二"],
    ["e-mail Wi-Fi okay 😀", "email WiFi ok"],
    ["", "x".repeat(5000)],
  ]) {
    const state = S.next(S.next(base(), { type: "edit", reference, hypothesis }), { type: "drawing", mode: "mer" });
    const fragment = S.encodeFragment(state);
    assert.match(fragment, /^#cvb1=[A-Za-z0-9_-]*$/);
    const restored = S.next(base(), S.decodeFragment(fragment));
    assert.equal(restored.reference, reference);
    assert.equal(restored.hypothesis, hypothesis);
    assert.equal(restored.drawing, "mer");
  }
  for (const junk of ["", "#top", "#cvb1=%%%", "#cvb1=" + btoa("[1,2]"), "#cvb1=" + btoa("\xff\xfe")]) {
    assert.equal(S.decodeFragment(junk), null, junk);
  }
});

test("the page's address carries no fragment for the sample, and none over the limit", () => {
  assert.equal(S.fragmentFor(base()), "");
  assert.equal(S.fragmentFor(S.next(base(), { type: "edit", hypothesis: "x".repeat(11) })), null);
  assert.ok(S.fragmentFor(S.next(base(), { type: "edit", hypothesis: "x" })).startsWith("#cvb1="));
});

test("the address is rewritten only for the texts' own fragment: a heading's anchor stays", () => {
  const edited = S.next(base(), { type: "edit", hypothesis: "x" });
  const ours = S.fragmentFor(edited);
  const over = S.next(base(), { type: "edit", hypothesis: "x".repeat(11) });
  const cases = [
    // [state, the address's hash, what is written (null: nothing)]
    [base(), "", null],
    [base(), "#how-cer-is-counted", null],
    [base(), ours, ""],
    [edited, "", ours],
    [edited, "#how-cer-is-counted", ours],
    [edited, ours, null],
    [over, "#how-cer-is-counted", null],
    [over, ours, null],
  ];
  for (const [state, hash, want] of cases) assert.equal(S.fragmentUpdate(state, hash), want, `${hash} -> ${want}`);
});

test("a shared link's texts are not yet scored until their own answer is drawn, never the sample's", () => {
  const link = S.decodeFragment(S.encodeFragment(S.next(base(), { type: "edit", hypothesis: "保險" })));
  const steps = [
    // [event, unscored afterwards, the status]
    [link, true, S.STRINGS.unscored],
    [{ type: "start" }, true, S.STRINGS.unscored],
    [{ type: "progress", text: "Loading…" }, true, S.STRINGS.unscored],
    [ready, true, S.STRINGS.ready],
    [{ type: "answer", id: 1, view: view(0.5) }, false, S.STRINGS.ready],
  ];
  let state = base();
  const sent = [];
  for (const [event, unscored, status] of steps) {
    state = S.next(state, event);
    const ask = S.request(state);
    if (ask) {
      sent.push([ask.reference, ask.hypothesis]);
      state = S.next(state, { type: "sent", ...ask });
    }
    assert.equal(S.unscored(state), unscored, event.type);
    assert.equal(S.statusText(state), status, event.type);
    assert.equal(S.liveText(state) === "", unscored, event.type);
  }
  assert.deepEqual(sent, [["保單", "保險"]]);
  assert.equal(state.drawn.hypothesis, "保險");
  // The page's own sample is what the built drawing shows: not unscored, and with the data saver on the
  // shared texts wait for the button, saying so.
  assert.equal(S.unscored(base()), false);
  const saving = S.next(S.initial({ reference: "保單", hypothesis: "保单", saveData: true }), link);
  assert.equal(S.statusText(saving), S.STRINGS.unscored_save_data);
  // An edit typed before the scorer is up is unscored too; so is the sample drawn as tokens.
  assert.ok(S.unscored(S.next(base(), { type: "edit", reference: "x" })));
  assert.ok(S.unscored(S.next(base(), { type: "drawing", mode: "mer" })));
});

test("a slow connection waits for the button, stating the size; the download's bytes are shown as they arrive", () => {
  const slow = S.initial({ reference: "保單", hypothesis: "保单", slow: true });
  assert.ok(S.asksFirst(slow) && S.offerLoad(slow));
  assert.equal(S.statusText(slow), S.fill(S.STRINGS.slow_connection, { megabytes: "…" }));
  const sized = S.next(slow, { type: "download-size", bytes: 17_234_567 });
  assert.equal(S.statusText(sized), S.fill(S.STRINGS.slow_connection, { megabytes: "17.2" }));
  assert.ok(!S.asksFirst(base()));
  const parts = (python, snapshot, wheels = 0) => ({
    type: "download",
    parts: { python: { received: python, total: 5e6 }, snapshot: { received: snapshot, total: 11e6 }, wheels: { received: wheels, total: 1e6 } },
  });
  let state = S.next(sized, { type: "start" });
  assert.equal(S.downloading(state), null);
  const seen = [];
  for (const [python, snapshot, wheels] of [[0, 0, 0], [1e6, 0, 0], [2.5e6, 3e6, 0], [5e6, 11e6, 1e6]]) {
    state = S.next(state, parts(python, snapshot, wheels));
    seen.push(S.downloading(state));
  }
  assert.deepEqual(seen.slice(0, 3).map((d) => d.received), [0, 1e6, 5.5e6]);
  assert.equal(seen[2].fraction, 5.5 / 17);
  assert.equal(S.statusText(S.next(state, parts(2.5e6, 3e6))), seen[2].text);
  assert.equal(
    seen[2].text,
    S.fill(S.STRINGS.loading_bytes, {
      received: "5.5",
      total: "17.0",
      python: "2.5 of 5.0 MB",
      snapshot: "3.0 of 11.0 MB",
      wheels: "0.0 of 1.0 MB",
    }),
  );
  assert.equal(seen[3], null, "every byte in: the stage says what comes next");
  // Once ready, news of bytes changes nothing.
  const live = S.next(S.next(state, ready), parts(1, 1));
  assert.equal(S.downloading(live), null);
});

test("reset brings back the page's sample and the character drawing", () => {
  const { state, sent } = run([
    ready,
    { type: "answer", id: 1, view: view(0.5) },
    { type: "edit", hypothesis: "abc" },
    { type: "drawing", mode: "mer" },
    { type: "reset" },
  ]);
  assert.equal(state.hypothesis, "保单");
  assert.equal(state.drawing, "cer");
  assert.equal(sent.length, 2);
});

// File mode: progress and cancel. `runFiles` runs the shell's loop as editor.js does: whatever `request` and
// `filesRequest` ask for is sent at once (the pair's answers are left unanswered; only the jobs are listed).
function runFiles(events, state = base()) {
  const jobs = [];
  for (let event of events) {
    if (typeof event === "function") event = event(jobs.at(-1).id); // an event about the newest job
    state = S.next(state, event);
    const ask = S.request(state);
    if (ask) state = S.next(state, { type: "sent", ...ask });
    const job = S.filesRequest(state);
    if (job) {
      jobs.push(job);
      state = S.next(state, { type: "files-sent", id: job.id, version: job.version });
    }
  }
  return { state, jobs };
}
const bytes = new Uint8Array([123, 125]).buffer;
const twoFiles = [
  ready,
  { type: "file", side: "reference", name: "ref.jsonl", bytes },
  { type: "file", side: "hypothesis", name: "hyp.jsonl", bytes },
];
const report = { clips: [{ id: "a", cer: 0, mer: 0, S: 0, D: 0, I: 0, N: 1, simplified_errors: 0, fold_changes: [] }] };
const answer = (id) => ({ type: "files-answer", id, json: "{}", data: report });
const answered = (id) => answer(id);
const progressed = (phase, done, total) => (id) => ({ type: "files-progress", id, phase, done, total });
const clean = (state) => {
  assert.equal(state.files.job, null);
  assert.equal(state.files.progress, null);
  assert.equal(S.filesBusy(state), false);
  assert.equal(S.filesProgress(state), null);
};

const FILE_CASES = [
  {
    name: "progress moves the bar through the phases, in order, and the answer ends it",
    events: [...twoFiles, progressed("clips", 50, 100)],
    check: ({ state, jobs }) => {
      const id = jobs.at(-1).id;
      const p = S.filesProgress(state);
      assert.equal(p.fraction, 0.09);
      assert.equal(p.text, S.fill(S.STRINGS.files_progress_clips, { percent: "9%", done: 50, total: 100 }));
      const later = S.next(state, progressed("bootstrap", 5000, 10000)(id));
      assert.ok(S.filesProgress(later).fraction > p.fraction);
      const done = S.next(S.next(later, progressed("report", 1, 1)(id)), answered(id));
      assert.equal(S.filesProgress(done), null);
      assert.match(S.filesStatus(done), /^Scored 1 clips/);
    },
  },
  {
    name: "before the worker reports, the bar says the files are being read and moves with the time",
    events: twoFiles,
    check: ({ state, jobs }) => {
      assert.equal(jobs.length, 1);
      const sent = S.filesProgress(state);
      assert.deepEqual(sent, { fraction: 0, step: "reading", text: S.fill(S.STRINGS.files_progress_reading, { percent: "0%" }) });
      const later = S.filesProgress(S.next(state, { type: "files-tick", at: 5000 }));
      assert.ok(later.fraction > 0 && later.fraction < 0.03, String(later.fraction));
    },
  },
  {
    name: "cancel during a run stops it, says so, keeps the texts, and offers to score again",
    events: [
      ...twoFiles,
      { type: "edit", hypothesis: "保單保" },
      progressed("bootstrap", 10, 100),
      { type: "files-cancel" },
      { type: "engine-restart" },
    ],
    check: ({ state, jobs }) => {
      clean(state);
      assert.equal(jobs.length, 1, "a cancelled job is not sent again by itself");
      assert.equal(S.filesStatus(state), S.STRINGS.files_cancelled);
      assert.equal(state.hypothesis, "保單保");
      assert.equal(state.engine, S.Engine.LOADING);
      assert.ok(S.offerRerun(state));
    },
  },
  {
    name: "after a cancel and the new worker's ready, the texts are drawn again and score-again runs the files",
    events: [
      ...twoFiles,
      { type: "edit", hypothesis: "保單保" },
      { type: "files-cancel" },
      { type: "engine-restart" },
      ready,
      { type: "files-rerun" },
      answered,
    ],
    check: ({ state, jobs }) => {
      assert.equal(jobs.length, 2);
      assert.equal(state.inFlight?.hypothesis, "保單保", "the pair's text was re-sent to the new worker");
      assert.equal(S.offerRerun(state), false);
      assert.match(S.filesStatus(state), /^Scored 1 clips/);
    },
  },
  {
    name: "cancel after the answer changes nothing",
    events: [...twoFiles, answered, { type: "files-cancel" }],
    check: ({ state }) => {
      clean(state);
      assert.equal(state.files.cancelled, null);
      assert.match(S.filesStatus(state), /^Scored 1 clips/);
      assert.equal(S.offerRerun(state), false);
    },
  },
  {
    name: "progress that arrives after a cancel is ignored",
    events: [
      ...twoFiles,
      { type: "files-cancel" },
      progressed("report", 9, 10),
    ],
    check: ({ state }) => {
      clean(state);
      assert.equal(S.filesStatus(state), S.STRINGS.files_cancelled);
    },
  },
  {
    name: "an error or an answer that arrives after a cancel is ignored",
    events: [...twoFiles, { type: "files-cancel" }, (id) => ({ type: "files-failed", id, message: "late" }), answered],
    check: ({ state }) => {
      clean(state);
      assert.equal(state.files.error, null);
      assert.equal(state.files.report, null);
      assert.equal(S.filesStatus(state), S.STRINGS.files_cancelled);
    },
  },
  {
    name: "a job nobody cancelled, killed by a restart, runs again on the new worker",
    events: [...twoFiles, { type: "engine-restart" }, ready],
    check: ({ jobs }) => assert.deepEqual(jobs.map((j) => j.version), [2, 2]),
  },
  {
    name: "a file replaced while its job runs makes that job outdated; after the restart the new pair is scored",
    events: [
      ...twoFiles,
      progressed("bootstrap", 10, 100),
      { type: "file", side: "hypothesis", name: "right.jsonl", bytes },
    ],
    check: ({ state, jobs }) => {
      assert.ok(S.jobOutdated(state));
      assert.equal(S.jobOutdated(runFiles(twoFiles).state), false, "a job for the files chosen is not outdated");
      const after = runFiles([{ type: "engine-restart" }, ready], state);
      assert.equal(S.jobOutdated(after.state), false);
      assert.deepEqual([...jobs, ...after.jobs].map((j) => j.version), [2, 3]);
      assert.equal(S.offerRerun(after.state), false, "nothing was cancelled by the reader");
    },
  },
  {
    name: "progress of an unknown phase or another job is ignored",
    events: [
      ...twoFiles,
      progressed("elsewhere", 1, 2),
      { type: "files-progress", id: 9, phase: "clips", done: 1, total: 2 },
    ],
    check: ({ state }) => assert.equal(state.files.progress, null),
  },
];

// The report without its intervals, which the worker sends once the clips are scored (report.scored_json).
const early = { cer: 0.25, mer: 0.5, coverage: { clips: 1, with_hypothesis: 1, missing: [] }, clips: report.clips };
const scored = (id) => ({ type: "files-scored", id, data: early });
const final = { ...early, ci95: { cer: [0.1, 0.4], mer: [0.3, 0.7] }, interval: { level: 0.95, warnings: [] } };
const finished = (id) => ({ type: "files-answer", id, json: "{}", data: final });

const SCORED_CASES = [
  {
    name: "the scored report shows the figures and the table while the intervals are drawn, clips closed",
    events: [...twoFiles, scored, progressed("bootstrap", 10, 100)],
    check: ({ state }) => {
      assert.ok(S.filesBusy(state), "the job still runs");
      assert.deepEqual(S.filesSummary(state), [
        S.fill(S.STRINGS.files_corpus_pending, { cer: "25.00%", mer: "50.00%" }),
        S.fill(S.STRINGS.files_coverage, { covered: "1", clips: "1", missing: "0" }),
      ]);
      assert.deepEqual(S.clipPage(state).rows, report.clips);
      assert.equal(S.clipsOpen(state), false);
      assert.equal(state.files.report, null, "nothing to download yet");
    },
  },
  {
    name: "the answer replaces the scored report: intervals shown, clips open, the page turned kept",
    events: [...twoFiles, scored, { type: "files-page", page: 0 }, finished],
    check: ({ state }) => {
      assert.equal(state.files.scored, null);
      assert.ok(S.clipsOpen(state));
      assert.equal(S.filesSummary(state)[0], S.fill(S.STRINGS.files_corpus, {
        cer: "25.00%", mer: "50.00%", level: "95%", cerLow: "10.00%", cerHigh: "40.00%", merLow: "30.00%", merHigh: "70.00%",
      }));
    },
  },
  {
    name: "a cancel or a failure takes the scored report away",
    events: [...twoFiles, scored, { type: "files-cancel" }],
    check: ({ state }) => {
      clean(state);
      assert.equal(state.files.scored, null);
      assert.deepEqual(S.filesSummary(state), []);
      assert.deepEqual(S.clipPage(state).rows, []);
      const failed = runFiles([...twoFiles, scored, (id) => ({ type: "files-failed", id, message: "MemoryError" })]).state;
      assert.deepEqual(S.filesSummary(failed), []);
      assert.deepEqual(S.clipPage(failed).rows, []);
    },
  },
  {
    name: "a worker killed by a restart takes the scored report with it",
    events: [...twoFiles, scored, { type: "engine-restart" }],
    check: ({ state }) => {
      assert.equal(state.files.scored, null);
      assert.deepEqual(S.filesSummary(state), []);
    },
  },
  {
    name: "a scored report of another job, or of files since replaced, is not shown",
    events: [
      ...twoFiles,
      { type: "files-scored", id: 9, data: early },
      { type: "file", side: "hypothesis", name: "other.jsonl", bytes },
      scored,
    ],
    check: ({ state }) => {
      assert.equal(state.files.scored, null);
      assert.deepEqual(S.filesSummary(state), []);
      assert.deepEqual(S.clipPage(state).rows, []);
    },
  },
];

// The pair's answers during a file job: the one worker answers an edit only once the files are scored.
const WAITING_CASES = [
  {
    name: "an edit made while files are scored says it waits for them, and the older drawing is marked stale",
    events: [ready, { type: "answer", id: 1, view: view(0.5) }, ...twoFiles.slice(1), { type: "edit", hypothesis: "保單呀" }],
    check: ({ state }) => {
      assert.ok(S.waitingForFiles(state));
      assert.equal(S.statusText(state), S.STRINGS.waiting_for_files);
      assert.ok(S.stale(state));
    },
  },
  {
    name: "once the files are scored and the edit answered, the drawing is current again",
    events: [
      ready,
      { type: "answer", id: 1, view: view(0.5) },
      ...twoFiles.slice(1),
      { type: "edit", hypothesis: "保單呀" },
      finished,
      (id) => ({ type: "answer", id: id + 1, view: view(0.25) }),
    ],
    check: ({ state }) => {
      assert.equal(S.waitingForFiles(state), false);
      assert.equal(S.statusText(state), S.STRINGS.ready);
      assert.equal(S.stale(state), false);
    },
  },
  {
    name: "a file job alone, with the drawing of the texts in the boxes, waits for nothing",
    events: [ready, { type: "answer", id: 1, view: view(0.5) }, ...twoFiles.slice(1)],
    check: ({ state }) => {
      assert.ok(S.filesBusy(state));
      assert.equal(S.waitingForFiles(state), false);
      assert.equal(S.statusText(state), S.STRINGS.ready);
    },
  },
];

for (const c of [...FILE_CASES, ...SCORED_CASES, ...WAITING_CASES]) test(c.name, () => c.check(runFiles(c.events)));

test("each chooser names the file its side holds, or says there is none", () => {
  const { state } = runFiles([ready, { type: "file", side: "hypothesis", name: "hyp.jsonl", bytes }]);
  assert.equal(S.chosenName(state, "hypothesis"), "hyp.jsonl");
  assert.equal(S.chosenName(state, "reference"), S.STRINGS.files_none);
  assert.equal(S.chosenName(state, "reference", S.strings({ files_none: "未選擇" })), "未選擇");
});

test("a job's bar moves through every step, in order, and never waits on a finished count", () => {
  const clips = 100_000;
  const resamples = 10_000;
  const lines = new Uint8Array(clips * 2).fill(10).buffer; // 100,000 empty lines: the clip count the notice uses
  const files = [
    ready,
    { type: "file", side: "reference", name: "ref.jsonl", bytes: lines, lines: clips },
    { type: "file", side: "hypothesis", name: "hyp.jsonl", bytes: lines, lines: clips },
  ];
  const at = (ms) => ({ type: "files-tick", at: ms });
  const counted = (phase, done, total, ms) => (id) => ({ type: "files-progress", id, phase, done, total, at: ms });
  // [event, the step shown afterwards]
  const timeline = [
    [at(2000), "reading"],
    [at(4000), "reading"],
    [counted("clips", 1, clips, 5000), "clips"],
    [counted("clips", 50_000, clips, 9000), "clips"],
    [counted("clips", clips, clips, 13_000), "figures"],
    [at(20_000), "figures"],
    [at(40_000), "figures"],
    [counted("bootstrap", 1, resamples, 45_000), "bootstrap"],
    [counted("bootstrap", 5000, resamples, 80_000), "bootstrap"],
    [counted("bootstrap", resamples, resamples, 120_000), "report"],
    [counted("report", 50_000, clips, 121_000), "report"],
    [counted("report", clips, clips, 122_000), "closing"],
    [at(124_000), "closing"],
  ];
  let { state, jobs } = runFiles(files);
  state = S.next(state, { type: "files-sent", id: jobs[0].id, version: jobs[0].version, at: 0 });
  const seen = [S.filesProgress(state)];
  for (const [event, step] of timeline) {
    state = S.next(state, typeof event === "function" ? event(jobs[0].id) : event);
    const shown = S.filesProgress(state);
    assert.equal(shown.step, step, JSON.stringify(event));
    // Each later than the one before, and never "N of N" once a count is finished.
    assert.ok(shown.fraction > seen.at(-1).fraction, `${shown.text} after ${seen.at(-1).text}`);
    assert.doesNotMatch(shown.text, /([\d,]+) of \1\b/);
    seen.push(shown);
  }
  assert.deepEqual([...new Set(seen.map((p) => p.step))], S.STEPS);
  assert.ok(seen.at(-1).fraction < 1);
  const figures = seen.find((p) => p.step === "figures");
  assert.equal(figures.text, S.fill(S.STRINGS.files_progress_figures, { percent: "15%", total: "100,000" }));
});

test("large files are announced before they are scored, with the time they are expected to take", () => {
  const pair = (bytes, lines) => [
    ready,
    { type: "file", side: "reference", name: "ref.jsonl", bytes: new ArrayBuffer(bytes), lines },
    { type: "file", side: "hypothesis", name: "hyp.jsonl", bytes: new ArrayBuffer(bytes), lines },
  ];
  // [bytes of each file, lines of each, announced]
  for (const [bytes, lines, announced] of [
    [1000, 10, false],
    [1e6, S.LARGE_FILE_CLIPS - 1, false],
    [1e6, S.LARGE_FILE_CLIPS, true],
    [S.LARGE_FILE_BYTES / 2, 10, true],
  ]) {
    const { state } = runFiles(pair(bytes, lines));
    const notice = S.largeFiles(state);
    assert.equal(notice !== null, announced, `${bytes} ${lines}`);
    assert.equal(S.filesStatus(state) === notice, announced);
  }
  const { state, jobs } = runFiles(pair(6.6e6, 100_000));
  assert.equal(
    S.largeFiles(state),
    S.fill(S.STRINGS.files_large, {
      clips: "100,000",
      megabytes: "13.2",
      limitMegabytes: "20",
      limitClips: "100,000",
      minutes: String(Math.round((100_000 * S.MS_PER_CLIP) / 60_000)),
    }),
  );
  // Before the scorer is up, too (the files wait for it), and not once the report is in.
  const waiting = runFiles(pair(1e6, S.LARGE_FILE_CLIPS).slice(1)).state;
  assert.equal(S.filesStatus(waiting), S.largeFiles(waiting));
  const done = S.next(state, answer(jobs[0].id));
  assert.match(S.filesStatus(done), /^Scored 1 clips/);
});

test("files over the stated limit are refused with a sentence naming it; the worker is never asked", () => {
  const limits = { limitMegabytes: "20", limitClips: "100,000" };
  const file = (side, size, lines) => ({ type: "file", side, name: `${side}.jsonl`, bytes: new ArrayBuffer(size), lines });
  // [reference bytes, hypothesis bytes, lines of each, refused]
  for (const [ref, hyp, lines, refused] of [
    [S.FILE_LIMIT_BYTES / 2, S.FILE_LIMIT_BYTES / 2, S.FILE_LIMIT_CLIPS, false],
    [S.FILE_LIMIT_BYTES / 2, S.FILE_LIMIT_BYTES / 2 + 1, 10, true],
    [1000, 1000, S.FILE_LIMIT_CLIPS + 1, true],
  ]) {
    const { state, jobs } = runFiles([ready, file("reference", ref, lines), file("hypothesis", hyp, lines)]);
    assert.equal(jobs.length, refused ? 0 : 1, `${ref} ${hyp} ${lines}`);
    assert.equal(S.tooLarge(state) !== null, refused);
    assert.equal(S.largeFiles(state) === null, refused);
    if (refused) assert.equal(S.filesStatus(state), S.tooLarge(state));
  }
  const clips = runFiles([ready, file("reference", 1000, 100_001), file("hypothesis", 1000, 5)]).state;
  assert.equal(S.filesStatus(clips), S.fill(S.STRINGS.files_too_large_clips, { clips: "100,001", ...limits }));

  // Above the bytes, a file is taken unread (its size only), refused at once, before the other is chosen.
  assert.equal(S.readable(S.FILE_LIMIT_BYTES), true);
  assert.equal(S.readable(S.FILE_LIMIT_BYTES + 1), false);
  const unread = { type: "file", side: "reference", name: "big.jsonl", bytes: null, size: 77_877_353, lines: null };
  const { state, jobs } = runFiles([ready, unread]);
  assert.equal(S.filesStatus(state), S.fill(S.STRINGS.files_too_large_bytes, { megabytes: "77.9", ...limits }));
  assert.equal(state.files.reference.bytes, null);
  // The other side is read (alone it is within the limit); the pair stays refused.
  const both = runFiles([file("hypothesis", 1000, 5)], state);
  assert.equal(both.jobs.length + jobs.length, 0);
  assert.match(S.filesStatus(both.state), /^Too large for this browser: 77\.9 MB/);
  // Replaced by a file within the limit, the pair is scored.
  const replaced = runFiles([file("reference", 1000, 5)], both.state);
  assert.equal(replaced.jobs.length, 1);
  assert.equal(S.tooLarge(replaced.state), null);
});

test("Chinese strings from the page replace every sentence of the state machine", () => {
  const zh = Object.fromEntries(Object.keys(S.STRINGS).map((key) => [key, `中${key}`]));
  const text = S.strings(zh);
  const { state } = runFiles([...twoFiles, { type: "files-cancel" }]);
  assert.equal(S.filesStatus(state, text), "中files_cancelled");
  assert.equal(S.statusText(base(), text), "中idle");
  const running = runFiles(twoFiles).state;
  assert.equal(S.filesProgress(running, text).text, "中files_progress_reading");
});

test("a keystroke's answer is drawn at once, and its details join that drawing only", () => {
  const quick = (cer) => ({ alignment: ["<span>x</span>"], figures: { cer, mer: cer, counts: { cer: { S: 1, D: 0, I: 0, N: 2 } } }, signature: BUILT });
  let { state } = run([ready, { type: "answer", id: 1, view: quick(0.5) }]);
  assert.ok(S.detailsPending(state));
  assert.equal(S.liveText(state), "CER 50.00%, MER 50.00%: 1 substituted, 0 deleted, 0 inserted, of 2 reference characters.");
  // Details of an older answer never join a newer drawing.
  ({ state } = run([{ type: "edit", hypothesis: "x" }, { type: "answer", id: 2, view: quick(0.1) }], state));
  const late = S.next(state, { type: "answer-details", id: 1, details: "<p>old</p>", figures: { cer: 0.5 } });
  assert.equal(late, state);
  const whole = S.next(state, { type: "answer-details", id: 2, details: "<p>d</p>", figures: { cer: 0.1, mer: 0.1, by_class: {} } });
  assert.equal(S.detailsPending(whole), false);
  assert.equal(whole.drawn.view.details, "<p>d</p>");
  assert.deepEqual(whole.drawn.view.alignment, ["<span>x</span>"]);
  assert.equal(whole.drawn.hypothesis, "x");
  // A second copy of the same details changes nothing.
  assert.equal(S.next(whole, { type: "answer-details", id: 2, details: "<p>e</p>", figures: {} }), whole);
});

test("a large report's table is read a page at a time; sorting goes back to the first page", () => {
  const many = { clips: Array.from({ length: S.ROWS_PER_PAGE * 2 + 5 }, (_, i) => ({ id: `c${String(i).padStart(4, "0")}`, cer: i / 1000, mer: 0, S: 0, D: 0, I: 0, N: 1, simplified_errors: 0, fold_changes: [] })) };
  let { state } = runFiles([...twoFiles, (id) => ({ type: "files-answer", id, json: "{}", data: many })]);
  let page = S.clipPage(state);
  assert.deepEqual([page.page, page.pages, page.first, page.last, page.rows.length], [0, 3, 1, S.ROWS_PER_PAGE, S.ROWS_PER_PAGE]);
  assert.equal(page.rows[0].id, `c${String(S.ROWS_PER_PAGE * 2 + 4).padStart(4, "0")}`, "worst first");
  state = S.next(state, { type: "files-page", page: 2 });
  page = S.clipPage(state);
  assert.deepEqual([page.first, page.last, page.rows.length], [S.ROWS_PER_PAGE * 2 + 1, S.ROWS_PER_PAGE * 2 + 5, 5]);
  // Every clip is on exactly one page.
  const seen = new Set();
  for (let p = 0; p < page.pages; p += 1) for (const clip of S.clipPage(S.next(state, { type: "files-page", page: p })).rows) seen.add(clip.id);
  assert.equal(seen.size, many.clips.length);
  assert.equal(S.next(state, { type: "files-page", page: 99 }).files.page, 2, "past the end stays on the last page");
  assert.equal(S.next(state, { type: "files-page", page: -3 }).files.page, 0);
  assert.equal(S.next(state, { type: "sort", key: "id" }).files.page, 0);
});
