# A Cantonese Voice Benchmark endpoint for protocol 1.2: every pillar, with slow stub models.
#
#   python -m pip install -r requirements.txt        # one dependency: websockets
#   python server.py                                  # ws://0.0.0.0:$PORT (default 8080)
#   python server.py --cert fullchain.pem --key privkey.pem                  # wss:// with your certificate
#   SECRET=long-random-string python server.py        # serves only ws://host:port/long-random-string
#
# Replace the model functions below, one per pillar; everything after them is the protocol. The stubs
# take real time (STUB_DELAY_S, STUB_SPEECH_S, STUB_SPEED), so the connection test shows the timing of the
# protocol with a slow model, not an instant one. Logs go to stderr, never to the socket.
from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import math
import os
import signal
import ssl
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Request, Response, Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

ENCODING = "pcm_s16le_16k"
PROTOCOL = "1.2"
TTS_INDEX = 0  # speech is a single turn
FRAME_BYTES = 3200  # 100 ms of 16 kHz mono 16-bit PCM
FRAME_S = 0.1
SAMPLE_BYTES = 2
MS_PER_S = 1000
MAX_MESSAGE_BYTES = 65536
MAX_CLIP_AUDIO_BYTES = 19200000  # 600 s of audio
SHUTDOWN_GRACE_S = 10
# WebSocket close codes: the reason goes to the log, never onto the socket.
CLOSE_SHUTTING_DOWN = 1001
CLOSE_BAD_FRAME = 1008
CLOSE_TOO_LARGE = 1009
CLOSE_MODEL_FAILED = 1011

STUB_DELAY_S = float(os.environ.get("STUB_DELAY_S", "0.4"))  # thinking before the first word
STUB_SPEECH_S = float(os.environ.get("STUB_SPEECH_S", "1.5"))  # length of each spoken reply
STUB_SPEED = float(os.environ.get("STUB_SPEED", "5"))  # times faster than real time
STUB_TONE_STEP = 0.08639379797  # radians per sample: a 220 Hz tone
STUB_TONE_PEAK = 3277  # 10% of full scale: a sane level, far from clipping
# When set, the stub logs the moment it produces its first audio, on the monotonic clock.
TRACE = bool(os.environ.get("KIT_TRACE"))
PILLARS = ("asr", "llm", "tts", "e2e")

log = logging.getLogger("endpoint")


# ---- The models: one function per pillar to replace. They are plain blocking functions; the server runs
# each in a worker thread, so a slow model never stalls another connection's handshake or a barge_in.


def transcribe(pcm: bytes) -> str:
    """Recognition. `pcm` is raw audio with no WAV header (the platform strips it): do not look for RIFF."""
    stub_think()
    return "你好，我想問下我份保單。"


def answer(pcm: bytes, task: str) -> str:
    """Reasoning. Answer `task` about the call in `pcm`; a transcript sent back is scored as a non-answer."""
    stub_think()
    return "客戶想查詢保單保障範圍，需要職員回覆。"


def speak(text: str) -> Iterator[bytes]:
    """Speech synthesis. Yield audio as it is produced, in pieces of any size, so it streams: the server sends
    `speaking` the moment the first piece exists, and that is when the clock stops."""
    stub_think()
    yield from stub_speech()


def converse(pcm: bytes, text: str) -> Iterator[bytes]:
    """Conversation. Yield the spoken reply to one caller turn (`pcm` is the turn's audio, `text` its words).
    Stop when the generator is closed: that is how a barge_in reaches the model."""
    stub_think()
    yield from stub_speech()


def stub_think() -> None:
    time.sleep(STUB_DELAY_S)


def stub_speech() -> Iterator[bytes]:
    """A soft tone, produced a frame at a time at STUB_SPEED times real time, as a streaming synthesiser does."""
    samples = FRAME_BYTES // SAMPLE_BYTES
    for frame in range(round(STUB_SPEECH_S / FRAME_S)):
        time.sleep(FRAME_S / STUB_SPEED)
        start = frame * samples
        pcm = b"".join(
            round(STUB_TONE_PEAK * math.sin(STUB_TONE_STEP * n)).to_bytes(SAMPLE_BYTES, "little", signed=True)
            for n in range(start, start + samples)
        )
        if TRACE and not frame:
            log.info("trace first_audio_produced_ns=%s", time.monotonic_ns())
        yield pcm


# ---- The protocol. Each connection is one clip (or one conversation) and one Clip object.


class BadFrame(Exception):
    """The platform sent something this server does not understand: log it and close, never answer it."""


def need(frame: dict[str, Any], field: str, kind: type) -> Any:
    value = frame.get(field)
    # bool is a kind of int in Python; an index of true is still not an index.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadFrame(f"{frame['type']} has no {kind.__name__} {field}")
    return value


def parse(message: str) -> dict[str, Any]:
    try:
        frame = json.loads(message)
    except ValueError:
        raise BadFrame("a text message that is not JSON") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise BadFrame("a JSON message with no type")
    return frame


async def in_thread(produce: Callable[[], Iterator[bytes]], stop: threading.Event) -> AsyncIterator[bytes]:
    """Run a blocking generator in a worker thread and hand its pieces to the event loop as they appear."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes | BaseException | None] = asyncio.Queue()

    def run() -> None:
        pieces = produce()
        try:
            for piece in pieces:
                if stop.is_set():
                    break  # barge_in: stop the model at its next piece instead of letting it finish
                loop.call_soon_threadsafe(queue.put_nowait, piece)
        except BaseException as exc:  # the model failed: report it on the event loop
            loop.call_soon_threadsafe(queue.put_nowait, exc)
            return
        finally:
            if hasattr(pieces, "close"):
                pieces.close()
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=run, daemon=True).start()
    while (piece := await queue.get()) is not None:
        if isinstance(piece, BaseException):
            raise piece
        yield piece


class Clip:
    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.name = f"{ws.remote_address}"
        self.hello: dict[str, Any] | None = None
        self.audio = bytearray()
        self.turn: dict[str, Any] | None = None
        self.speech: asyncio.Task[None] | None = None
        self.speech_index: int | None = None
        self.stop = threading.Event()
        self.spoken: set[int] = set()  # indexes whose speaking is sent
        self.finished: set[int] = set()  # indexes whose turn_done is sent: each gets exactly one

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame, ensure_ascii=False))

    async def on_text(self, frame: dict[str, Any]) -> bool:
        """Handle one frame; False when the clip is settled and the connection should end."""
        kind = frame["type"]
        if kind == "hello":
            if self.hello is not None:
                raise BadFrame("a second hello")
            pillar = need(frame, "pillar", str)
            if pillar not in PILLARS:
                raise BadFrame(f"hello for an unknown pillar {pillar!r}")
            if frame.get("protocol") != PROTOCOL:
                spoken = frame.get("protocol")
                log.warning("%s: hello says protocol %r; this is %s", self.name, spoken, PROTOCOL)
            if pillar == "tts":
                need(frame, "text", str)
            self.hello = frame
            # TRAP: answer hello with ready before any other work. Nothing is streamed until it arrives, and a
            # connection that stays silent fails the handshake. Read deadline_ms from hello; never compute it.
            await self.send({"type": "ready", "accept": ENCODING})
            if pillar == "tts":
                # Speech runs backwards: the text is in hello, and the clock started with hello.
                self.start_speech(TTS_INDEX, lambda: speak(frame["text"]))
            return True
        if self.hello is None:
            raise BadFrame(f"{kind} before hello")
        pillar = self.hello["pillar"]
        if kind == "turn" and pillar == "e2e":
            need(frame, "index", int)
            need(frame, "text", str)
            # TRAP: do not answer on turn. The caller's turn is still playing and nobody is listening yet; an
            # answer sent now is recorded as no answer at all.
            self.turn = frame
            self.audio.clear()
            return True
        if kind == "end_of_utterance" and pillar in ("asr", "llm"):
            # The deadline runs from this frame. The model runs in a worker thread, so the event loop keeps
            # serving other connections while it thinks.
            pcm = bytes(self.audio)
            if pillar == "asr":
                text = await asyncio.to_thread(transcribe, pcm)
            else:
                text = await asyncio.to_thread(answer, pcm, str(self.hello.get("task", "")))
            await self.send({"type": "transcript", "text": text})  # the first transcript settles the clip
            return False
        if kind == "end_of_utterance" and pillar == "e2e":
            if self.turn is None:
                raise BadFrame("end_of_utterance with no turn before it")
            turn, pcm = self.turn, bytes(self.audio)
            self.turn = None
            self.audio.clear()
            await self.yield_floor()  # a new turn while the last reply still plays: the caller has the floor
            # TRAP: answer now, and carry the SAME index back; a reply with another index is invisible.
            self.start_speech(turn["index"], lambda: converse(pcm, turn["text"]))
            return True
        if kind == "barge_in" and pillar == "e2e":
            index = need(frame, "index", int)
            if index == self.speech_index and index not in self.finished:
                # TRAP: stop at once and hand the floor back; how fast you yield is what is measured.
                await self.yield_floor()
            else:
                log.info("%s: barge_in for turn %s, which is not speaking; nothing to stop", self.name, index)
            return True
        raise BadFrame(f"{kind} on the {pillar} pillar")

    def on_audio(self, data: bytes) -> None:
        if self.hello is None:
            raise BadFrame("audio before hello")
        if len(self.audio) + len(data) > MAX_CLIP_AUDIO_BYTES:
            raise TooLarge(f"more than {MAX_CLIP_AUDIO_BYTES} bytes of audio in one clip")
        self.audio.extend(data)  # the caller's voice, paced as they speak

    def start_speech(self, index: int, produce: Callable[[], Iterator[bytes]]) -> None:
        self.stop = threading.Event()
        self.speech_index = index
        self.speech = asyncio.create_task(self.stream(index, produce, self.stop, time.monotonic()))

    async def stream(
        self, index: int, produce: Callable[[], Iterator[bytes]], stop: threading.Event, began: float
    ) -> None:
        held = b""  # at most one odd byte: frames carry whole samples
        try:
            async for piece in in_thread(produce, stop):
                if piece and index not in self.spoken:
                    # TRAP: speaking goes out the moment the first audio exists; latency is measured to it,
                    # and sending it together with turn_done publishes your slowest number.
                    self.spoken.add(index)
                    await self.send({"type": "speaking", "index": index})
                    waited = round((time.monotonic() - began) * MS_PER_S)
                    log.info("%s: turn %s speaking, %s ms after its clock started", self.name, index, waited)
                data = held + piece
                whole = len(data) - len(data) % SAMPLE_BYTES
                held = data[whole:]
                for start in range(0, whole, FRAME_BYTES):
                    await self.ws.send(data[start : min(start + FRAME_BYTES, whole)])  # binary, as produced
            await self.finish(index)
        except ConnectionClosed:
            pass
        except Exception:
            log.exception("%s: the model failed; closing (%s)", self.name, CLOSE_MODEL_FAILED)
            await self.ws.close(CLOSE_MODEL_FAILED)

    async def finish(self, index: int) -> None:
        if index in self.finished:
            return
        self.finished.add(index)  # before the send: a barge_in arriving meanwhile must not send a second one
        await self.send({"type": "turn_done", "index": index})

    async def yield_floor(self) -> None:
        """Stop the reply under way, if any, and send its turn_done (once)."""
        task, index = self.speech, self.speech_index
        if task is None or index is None or index in self.finished:
            return
        self.stop.set()  # the model stops at its next piece
        task.cancel()  # and not one more frame is sent
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await self.finish(index)

    async def close(self) -> None:
        self.stop.set()
        if self.speech is not None:
            self.speech.cancel()


class TooLarge(Exception):
    """The clip's audio passed this server's limit."""


async def handle(ws: ServerConnection) -> None:
    clip = Clip(ws)
    try:
        async for message in ws:
            if isinstance(message, bytes):
                clip.on_audio(message)
            elif not await clip.on_text(parse(message)):
                break
        if clip.speech is not None:
            await clip.speech  # the platform reads until turn_done; keep the socket open until it is sent
    except BadFrame as exc:
        # TRAP: keep the socket clean. A debug line sent on it fails the clip; it belongs in the log.
        log.warning("%s: closing (%s): %s", clip.name, CLOSE_BAD_FRAME, exc)
        await ws.close(CLOSE_BAD_FRAME)
    except TooLarge as exc:
        log.warning("%s: closing (%s): %s", clip.name, CLOSE_TOO_LARGE, exc)
        await ws.close(CLOSE_TOO_LARGE)
    except ConnectionClosed:
        pass
    except Exception:
        log.exception("%s: the model failed; closing (%s)", clip.name, CLOSE_MODEL_FAILED)
        await ws.close(CLOSE_MODEL_FAILED)
    finally:
        await clip.close()


def secret_matches(path: str, secret: str) -> bool:
    """Constant time, and on digests, so neither the content nor the length of the secret leaks."""
    wanted = hashlib.sha256(f"/{secret}".encode()).digest()
    return hmac.compare_digest(hashlib.sha256(path.encode()).digest(), wanted)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A Cantonese Voice Benchmark endpoint (every pillar).")
    parser.add_argument("--cert", help="certificate chain (PEM) to serve wss:// directly")
    parser.add_argument("--key", help="private key (PEM) of that certificate")
    args = parser.parse_args()
    if bool(args.cert) != bool(args.key):
        parser.error("give both --cert and --key, or neither (and put a TLS reverse proxy in front)")
    return args


async def main() -> None:
    args = arguments()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")
    tls = None
    if args.cert:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.cert, args.key)
    secret = os.environ.get("SECRET", "")

    def check_path(connection: ServerConnection, request: Request) -> Response | None:
        if secret and not secret_matches(request.path, secret):
            log.warning("%s: refused a connection to an unknown path", connection.remote_address)
            return connection.respond(HTTPStatus.NOT_FOUND, "Not found\n")
        return None

    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "8080"))
    loop = asyncio.get_running_loop()
    stopping = loop.create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, lambda: stopping.done() or stopping.set_result(None))
    server: Server = await serve(
        handle, host, port, ssl=tls, process_request=check_path, max_size=MAX_MESSAGE_BYTES
    )
    log.info("listening on %s://%s:%s%s", "wss" if tls else "ws", host, port, "/<SECRET>" if secret else "")
    await stopping
    # Graceful shutdown: accept nothing new, let clips under way finish, then close what is left.
    server.close(close_connections=False)
    open_now = len(server.connections)
    log.info("shutting down: %s connection(s) may finish within %s s", open_now, SHUTDOWN_GRACE_S)
    try:
        await asyncio.wait_for(server.wait_closed(), SHUTDOWN_GRACE_S)
    except TimeoutError:
        await asyncio.gather(*(ws.close(CLOSE_SHUTTING_DOWN) for ws in server.connections))
        await server.wait_closed()
    log.info("stopped")


if __name__ == "__main__":
    asyncio.run(main())
