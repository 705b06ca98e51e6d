// The site's search worker: mkdocs-material's own (THEME_WORKER, beside this file, which it runs), given the
// reader's query prepared first. It relies on mkdocs-material 9.8.2's worker, whose internals
// tests/web/test_search.py pins (it fails when requirements/site.txt names another version):
// - the messages: {type: 0, data: {config, docs}} sets the index up, {type: 2, data: "query"} asks;
// - the theme cuts a query's Chinese at any shorter word its index holds and never tries the query whole
//   (時限 becomes 時*, 粵語 becomes 粵*: every word that starts with that character). Here Chinese is cut into
//   the index's own words, longest first, and each word is written with lunr's "\" escape between its
//   characters: the theme's cut sees single characters and keeps them, and its query lexer drops the escapes,
//   so lunr looks the word up whole;
// - the theme gives every query word a trailing wildcard, and lunr stems no wildcard word, so the index holds
//   words as written (mkdocs.yml: no stemmer) and an English query word is shortened here to the part it
//   shares with its stem (deadlines → deadlin*, which finds deadline).
"use strict";

const THEME_WORKER = "search.a7633da7.min.js";
const SETUP = 0;
const QUERY = 2;
const HAN_RUN = /\p{Script=Han}+/gu;
const HAN_WORD = /^\p{Script=Han}+$/u;
const ENGLISH_WORD = /^[a-z]{4,}$/i;

// The index's Chinese words (from its setup message) and the longest of them, in characters.
const words = new Set();
let longest = 1;
// The messages this worker passes on, which it must not prepare twice.
const passedOn = new WeakSet();

function learn(index) {
  // As the theme compiles it (its worker, `lunr.tokenizer.separator`).
  const separator = new RegExp(index.config.separator);
  const fields = Object.keys(index.config.fields);
  for (const doc of index.docs) {
    for (const field of fields) {
      if (typeof doc[field] !== "string") continue;
      for (const token of doc[field].replace(/<[^>]*>/g, " ").split(separator)) {
        if (!token || !HAN_WORD.test(token)) continue;
        words.add(token);
        longest = Math.max(longest, [...token].length);
      }
    }
  }
}

// A run of Chinese as the index's words, longest first; characters no word covers stay together. A single
// character left between words is dropped: it would match every word that starts with it.
function cut(run) {
  const chars = [...run];
  const pieces = [];
  let pending = "";
  for (let i = 0; i < chars.length; ) {
    let length = Math.min(longest, chars.length - i);
    while (length >= 2 && !words.has(chars.slice(i, i + length).join(""))) length -= 1;
    if (length >= 2) {
      if (pending) pieces.push(pending);
      pending = "";
      pieces.push(chars.slice(i, i + length).join(""));
      i += length;
    } else {
      pending += chars[i];
      i += 1;
    }
  }
  if (pending) pieces.push(pending);
  const kept = pieces.length > 1 ? pieces.filter((piece) => [...piece].length > 1) : pieces;
  return kept.map((piece) => [...piece].join("\\")).join(" ");
}

function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return a.slice(0, i);
}

// An English word as the part it shares with its stem: frames → frame, deadlines → deadlin, policies →
// polic (which finds policy too). Only y → i is left alone (ready stems to readi: read* would find read).
function shorten(word) {
  const lower = word.toLowerCase();
  if (lower.endsWith("ies")) return lower.slice(0, -3);
  const stem = self.lunr.stemmer(new self.lunr.Token(lower)).toString();
  if (lower.endsWith("y") && stem === lower.slice(0, -1) + "i") return lower;
  const shared = commonPrefix(lower, stem);
  return shared.length >= 3 ? shared : lower;
}

function prepare(query) {
  return query
    .replace(HAN_RUN, (run) => ` ${cut(run)} `)
    .split(/\s+/)
    .map((term) => (ENGLISH_WORD.test(term) ? shorten(term) : term))
    .join(" ")
    .trim();
}

// Registered before the theme's worker registers its own listener, so this one hears each message first.
addEventListener("message", (event) => {
  if (passedOn.has(event)) return;
  const message = event.data;
  if (message?.type === SETUP) learn(message.data);
  if (message?.type !== QUERY || typeof message.data !== "string") return;
  event.stopImmediatePropagation();
  const prepared = new MessageEvent("message", { data: { ...message, data: prepare(message.data) } });
  passedOn.add(prepared);
  dispatchEvent(prepared);
});

importScripts(THEME_WORKER);
