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
    status: S.fill(S.STRINGS.signatureMismatch, { got: "other", want: BUILT }),
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
    status: S.fill(S.STRINGS.requestFailed, { error: "ValueError: boom" }),
    stale: true,
  },
  {
    // Bug 3 of issue 12: over the limit, the summary line kept the previous text's figures.
    name: "over the limit, nothing is sent and the summary drops the old figures",
    events: [ready, { type: "answer", id: 1, view: view(0.5) }, { type: "edit", hypothesis: "x".repeat(11) }],
    sent: [["保單", "保单"]],
    status: S.fill(S.STRINGS.overLimit, { name: "hypothesis", length: "11", max: "10" }),
    live: S.STRINGS.summaryOverLimit,
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
    status: S.fill(S.STRINGS.drawFailed, { error: "no paragraph" }),
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
  assert.equal(S.statusText(state), S.STRINGS.idleSaveData);
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
