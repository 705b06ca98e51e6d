// A Cantonese Voice Benchmark endpoint for protocol 1.2: every pillar, with slow stub models.
//
//   npm install                                       // one dependency: ws
//   node server.mjs                                   // ws://0.0.0.0:$PORT (default 8080)
//   node server.mjs --cert fullchain.pem --key privkey.pem                   // wss:// with your certificate
//   SECRET=long-random-string node server.mjs         // serves only ws://host:port/long-random-string
//
// Replace the model functions below, one per pillar; everything after them is the protocol. The stubs
// take real time (STUB_DELAY_S, STUB_SPEECH_S, STUB_SPEED), so the connection test shows the timing of the
// protocol with a slow model, not an instant one. Logs go to stderr, never to the socket.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';

const ENCODING = 'pcm_s16le_16k';
const PROTOCOL = '1.2';
const TTS_INDEX = 0; // speech is a single turn
const FRAME_BYTES = 3200; // 100 ms of 16 kHz mono 16-bit PCM
const FRAME_S = 0.1;
const SAMPLE_BYTES = 2;
const MS_PER_S = 1000;
const MAX_MESSAGE_BYTES = 65536;
const MAX_CLIP_AUDIO_BYTES = 19200000; // 600 s of audio
const SHUTDOWN_GRACE_S = 10;
// WebSocket close codes: the reason goes to the log, never onto the socket.
const CLOSE_SHUTTING_DOWN = 1001;
const CLOSE_BAD_FRAME = 1008;
const CLOSE_TOO_LARGE = 1009;
const CLOSE_MODEL_FAILED = 1011;

const STUB_DELAY_S = Number(process.env.STUB_DELAY_S ?? '0.4'); // thinking before the first word
const STUB_SPEECH_S = Number(process.env.STUB_SPEECH_S ?? '1.5'); // length of each spoken reply
const STUB_SPEED = Number(process.env.STUB_SPEED ?? '5'); // times faster than real time
const STUB_TONE_STEP = 0.08639379797; // radians per sample: a 220 Hz tone
const STUB_TONE_PEAK = 3277; // 10% of full scale: a sane level, far from clipping
const TRACE = Boolean(process.env.KIT_TRACE); // log when the stub produces its first audio, on the monotonic clock
const PILLARS = ['asr', 'llm', 'tts', 'e2e'];

const log = (...parts) => console.error(new Date().toISOString(), ...parts);

// ---- The models: one function per pillar to replace. They are async, so waiting on a model never blocks the event loop.
// TRAP: a model that computes on this thread (a synchronous inference call) stalls every connection,
// handshakes and barge_in included: run it in a worker_threads Worker or behind an HTTP call instead.

/** Recognition. `pcm` is raw audio with no WAV header (the platform strips it): do not look for RIFF. */
async function transcribe(pcm) {
  await stubThink();
  return '你好，我想問下我份保單。';
}

/** Reasoning. Answer `task` about the call in `pcm`; a transcript sent back is scored as a non-answer. */
async function answer(pcm, task) {
  await stubThink();
  return '客戶想查詢保單保障範圍，需要職員回覆。';
}

/** Speech synthesis. Yield audio as it is produced, in Buffers of any size, so it streams: the server sends
 * `speaking` the moment the first one exists, and that is when the clock stops. */
async function* speak(text, signal) {
  await stubThink(signal);
  yield* stubSpeech(signal);
}

/** Conversation. Yield the spoken reply to one caller turn (`pcm` is the turn's audio, `text` its words).
 * Stop when `signal` aborts: that is how a barge_in reaches the model. */
async function* converse(pcm, text, signal) {
  await stubThink(signal);
  yield* stubSpeech(signal);
}

async function stubThink(signal) {
  await sleep(STUB_DELAY_S * MS_PER_S, undefined, { signal });
}

/** A soft tone, produced a frame at a time at STUB_SPEED times real time, as a streaming synthesiser does. */
async function* stubSpeech(signal) {
  const samples = FRAME_BYTES / SAMPLE_BYTES;
  const frames = Math.round(STUB_SPEECH_S / FRAME_S);
  let first = true;
  for (let start = 0; start < frames * samples; start += samples) {
    await sleep((FRAME_S / STUB_SPEED) * MS_PER_S, undefined, { signal });
    const pcm = Buffer.alloc(FRAME_BYTES);
    for (let n = start; n < start + samples; n++) {
      pcm.writeIntLE(Math.round(STUB_TONE_PEAK * Math.sin(STUB_TONE_STEP * n)), (n - start) * SAMPLE_BYTES, SAMPLE_BYTES);
    }
    if (TRACE && first) log(`trace first_audio_produced_ns=${process.hrtime.bigint()}`);
    first = false;
    yield pcm;
  }
}

// ---- The protocol. Each connection is one clip (or one conversation) and one Clip object.

/** The platform sent something this server does not understand: log it and close, never answer it. */
class BadFrame extends Error {}
class TooLarge extends Error {}

function need(frame, field, kind) {
  const value = frame[field];
  const ok = kind === 'integer' ? Number.isInteger(value) : typeof value === kind;
  if (!ok) throw new BadFrame(`${frame.type} has no ${kind} ${field}`);
  return value;
}

function parse(text) {
  let frame;
  try {
    frame = JSON.parse(text);
  } catch {
    throw new BadFrame('a text message that is not JSON');
  }
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame) || typeof frame.type !== 'string') {
    throw new BadFrame('a JSON message with no type');
  }
  return frame;
}

class Clip {
  constructor(ws, name) {
    this.ws = ws;
    this.name = name;
    this.hello = null;
    this.audio = [];
    this.audioRoom = MAX_CLIP_AUDIO_BYTES; // bytes of audio this clip may still receive
    this.turn = null;
    this.speech = null; // { index, abort, done }
    this.spoken = new Set(); // indexes whose speaking is sent
    this.finished = new Set(); // indexes whose turn_done is sent: each gets exactly one
  }

  send(frame) {
    this.ws.send(JSON.stringify(frame));
  }

  /** Handle one frame; false when the clip is settled and the connection should end. */
  async onText(frame) {
    const kind = frame.type;
    if (kind === 'hello') {
      if (this.hello !== null) throw new BadFrame('a second hello');
      const pillar = need(frame, 'pillar', 'string');
      if (!PILLARS.includes(pillar)) throw new BadFrame(`hello for an unknown pillar ${pillar}`);
      if (frame.protocol !== PROTOCOL) log(`${this.name}: hello speaks protocol ${frame.protocol}; this server speaks ${PROTOCOL}`);
      if (pillar === 'tts') need(frame, 'text', 'string');
      this.hello = frame;
      // TRAP: answer hello with ready before any other work. Nothing is streamed until it arrives, and a
      // connection that stays silent fails the handshake. Read deadline_ms from hello; never compute it.
      this.send({ type: 'ready', accept: ENCODING });
      // Speech runs backwards: the text is in hello, and the clock started with hello.
      if (pillar === 'tts') this.startSpeech(TTS_INDEX, (signal) => speak(frame.text, signal));
      return true;
    }
    if (this.hello === null) throw new BadFrame(`${kind} before hello`);
    const pillar = this.hello.pillar;
    if (kind === 'turn' && pillar === 'e2e') {
      need(frame, 'index', 'integer');
      need(frame, 'text', 'string');
      // TRAP: do not answer on turn. The caller's turn is still playing and nobody is listening yet; an
      // answer sent now is recorded as no answer at all.
      this.turn = frame;
      this.clearAudio();
      return true;
    }
    if (kind === 'end_of_utterance' && (pillar === 'asr' || pillar === 'llm')) {
      // The deadline runs from this frame.
      const pcm = Buffer.concat(this.audio);
      const text = pillar === 'asr' ? await transcribe(pcm) : await answer(pcm, String(this.hello.task ?? ''));
      this.send({ type: 'transcript', text }); // the first transcript settles the clip
      return false;
    }
    if (kind === 'end_of_utterance' && pillar === 'e2e') {
      if (this.turn === null) throw new BadFrame('end_of_utterance with no turn before it');
      const turn = this.turn;
      const pcm = Buffer.concat(this.audio);
      this.turn = null;
      this.clearAudio();
      this.yieldFloor(); // a new turn while the last reply still plays: the caller has the floor
      // TRAP: answer now, and carry the SAME index back; a reply with another index is invisible.
      this.startSpeech(turn.index, (signal) => converse(pcm, turn.text, signal));
      return true;
    }
    if (kind === 'barge_in' && pillar === 'e2e') {
      const index = need(frame, 'index', 'integer');
      if (this.speech !== null && this.speech.index === index && !this.finished.has(index)) {
        // TRAP: stop at once and hand the floor back; how fast you yield is what is measured.
        this.yieldFloor();
      } else {
        log(`${this.name}: barge_in for turn ${index}, which is not speaking; nothing to stop`);
      }
      return true;
    }
    throw new BadFrame(`${kind} on the ${pillar} pillar`);
  }

  onAudio(data) {
    if (this.hello === null) throw new BadFrame('audio before hello');
    if (data.length > this.audioRoom) {
      throw new TooLarge(`more than ${MAX_CLIP_AUDIO_BYTES} bytes of audio in one clip`);
    }
    this.audio.push(data); // the caller's voice, paced as they speak
    this.audioRoom -= data.length;
  }

  clearAudio() {
    this.audio = [];
    this.audioRoom = MAX_CLIP_AUDIO_BYTES;
  }

  startSpeech(index, produce) {
    const abort = new AbortController();
    const speech = { index, abort, done: null };
    speech.done = this.stream(speech, produce(abort.signal), performance.now());
    this.speech = speech;
  }

  async stream(speech, pieces, began) {
    const { index, abort } = speech;
    let held = Buffer.from([]); // at most one odd byte: frames carry whole samples
    try {
      for await (const piece of pieces) {
        if (abort.signal.aborted) break; // barge_in: not one more frame
        if (piece.length && !this.spoken.has(index)) {
          // TRAP: speaking goes out the moment the first audio exists; latency is measured to it, and
          // sending it together with turn_done publishes your slowest number.
          this.spoken.add(index);
          this.send({ type: 'speaking', index });
          log(`${this.name}: turn ${index} speaking, ${Math.round(performance.now() - began)} ms after its clock started`);
        }
        const data = Buffer.concat([held, piece]);
        const whole = data.length - (data.length % SAMPLE_BYTES);
        held = data.subarray(whole);
        for (let start = 0; start < whole; start += FRAME_BYTES) {
          this.ws.send(data.subarray(start, Math.min(start + FRAME_BYTES, whole))); // binary, as produced
        }
      }
      if (!abort.signal.aborted) this.finish(index);
    } catch (error) {
      if (abort.signal.aborted) return; // the model stopped because we asked it to
      log(`${this.name}: the model failed; closing (${CLOSE_MODEL_FAILED}):`, error);
      this.ws.close(CLOSE_MODEL_FAILED);
    }
  }

  finish(index) {
    if (this.finished.has(index)) return;
    this.finished.add(index);
    this.send({ type: 'turn_done', index });
  }

  /** Stop the reply under way, if any, and send its turn_done (once). */
  yieldFloor() {
    const speech = this.speech;
    if (speech === null || this.finished.has(speech.index)) return;
    speech.abort.abort(); // the model and the sending loop both stop before another frame
    this.finish(speech.index);
  }

  close() {
    if (this.speech !== null) this.speech.abort.abort();
  }
}

function secretMatches(path, secret) {
  // Constant time, and on digests, so neither the content nor the length of the secret leaks.
  const digest = (text) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(path ?? ''), digest(`/${secret}`));
}

function onConnection(ws, request) {
  const name = `${request.socket.remoteAddress}:${request.socket.remotePort}`;
  const clip = new Clip(ws, name);
  // Frames are handled one at a time, in order, but a model's wait never holds up the event loop.
  let queue = Promise.resolve();
  const refuse = (code, error) => {
    // TRAP: keep the socket clean. A debug line sent on it fails the clip; it belongs in the log.
    log(`${name}: closing (${code}): ${error.message}`);
    clip.close();
    ws.close(code);
  };
  ws.on('message', (data, isBinary) => {
    queue = queue.then(async () => {
      if (ws.readyState !== ws.OPEN) return;
      try {
        if (isBinary) {
          clip.onAudio(data);
        } else if (!(await clip.onText(parse(data.toString())))) {
          ws.close();
        }
      } catch (error) {
        if (error instanceof BadFrame) refuse(CLOSE_BAD_FRAME, error);
        else if (error instanceof TooLarge) refuse(CLOSE_TOO_LARGE, error);
        else refuse(CLOSE_MODEL_FAILED, error);
      }
    });
  });
  // ws closes with its own code (a message over MAX_MESSAGE_BYTES, a broken frame); an unhandled error would
  // end the whole process, so it is logged here.
  ws.on('error', (error) => log(`${name}: ${error.message}`));
  ws.on('close', () => clip.close());
}

function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' } } }));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  if (Boolean(values.cert) !== Boolean(values.key)) {
    console.error('give both --cert and --key, or neither (and put a TLS reverse proxy in front)');
    process.exit(1);
  }
  const secret = process.env.SECRET ?? '';
  const host = process.env.HOST ?? '0.0.0.0';
  const port = Number(process.env.PORT ?? '8080');
  const tls = Boolean(values.cert);
  const server = tls
    ? createHttpsServer({ cert: readFileSync(values.cert), key: readFileSync(values.key) })
    : createHttpServer();
  const wss = new WebSocketServer({
    server,
    maxPayload: MAX_MESSAGE_BYTES,
    verifyClient: ({ req }) => {
      if (!secret || secretMatches(req.url, secret)) return true;
      log(`${req.socket.remoteAddress}: refused a connection to an unknown path`);
      return false;
    },
  });
  wss.on('connection', onConnection);
  wss.on('error', (error) => log(`server: ${error.message}`));
  server.on('error', (error) => {
    log(`cannot listen on ${host}:${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => log(`listening on ${tls ? 'wss' : 'ws'}://${host}:${port}${secret ? '/<SECRET>' : ''}`));

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Graceful shutdown: accept nothing new, let clips under way finish, then close what is left.
    log(`shutting down: ${wss.clients.size} connection(s) may finish within ${SHUTDOWN_GRACE_S} s`);
    server.close(() => log('stopped'));
    const finish = () => {
      if (!wss.clients.size) wss.close();
    };
    for (const ws of wss.clients) ws.on('close', finish);
    finish();
    setTimeout(() => {
      for (const ws of wss.clients) ws.close(CLOSE_SHUTTING_DOWN);
    }, SHUTDOWN_GRACE_S * MS_PER_S).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Nothing a connection does may end the process.
  process.on('unhandledRejection', (error) => log('unhandled:', error));
}

main();
