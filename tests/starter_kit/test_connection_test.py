"""The connection test against real WebSocket servers on loopback: a correct reference server passes every pillar
at a concurrency above one without the client ever opening more, and a table of deliberately broken servers
each fails with its catalogued code and sentence. Every wait is bounded by the protocol's own limits."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Coroutine, Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.asyncio.server import ServerConnection, serve

from starter_kit.connection_test.client import RunResult, UsageError, run_items, tls_for
from starter_kit.connection_test.report import render_text, to_json
from starter_kit.protocol.machine import PILLARS, Item
from tests.starter_kit.protocol_support import (
    SETTINGS,
    clip,
    frame,
    loopback,
    tone,
    write_clips,
)

S = SETTINGS
REPLY = tone(1.0)  # long enough to be interrupted in the middle
CLIPS = [clip(0.3, clip_id="a"), clip(0.2, clip_id="b"), clip(0.4, clip_id="c")]


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    # In a thread of its own: another test in this process (Playwright's sync API) may own a running loop.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=120)


async def reference(ws: ServerConnection, flaw: str | None = None) -> None:
    """A correct endpoint for every pillar, or one with a single deliberate `flaw`."""
    hello: dict[str, Any] = {}
    pending: dict[str, Any] = {}
    stop = asyncio.Event()
    speech: asyncio.Task[None] | None = None

    async def speak(index: int) -> None:
        step = S.frame_bytes + 1 if flaw == "odd_frames" else S.frame_bytes
        deaf = flaw == "no_yield" or (flaw == "no_yield_mid_reply" and index == 2)
        pcm = tone(2.0) if deaf else bytes(len(REPLY)) if flaw == "silent_speech" else REPLY
        chunks = [pcm[i : i + step] for i in range(0, len(pcm), step)]
        if flaw != "speaking_after_audio":
            await ws.send(frame("speaking", index=index))
        for chunk in chunks:
            if stop.is_set() and not deaf:
                break
            await ws.send(chunk)
            # Produced as it is synthesised; the flawed one in real time, ignoring barge_in.
            await asyncio.sleep(S.frame_ms / 1000 if deaf else 0.005)
        if flaw == "speaking_after_audio":
            await ws.send(frame("speaking", index=index))
        await ws.send(frame("turn_done", index=index))
        if flaw == "repeated_turn_done":
            await ws.send(frame("turn_done", index=index))

    async for message in ws:
        if isinstance(message, bytes):
            if flaw == "early_transcript":  # a streaming recogniser's partial result, sent as it comes
                await ws.send(frame("transcript", text="你"))
                flaw = None
            continue
        received = json.loads(message)
        kind = received["type"]
        if kind == "hello":
            hello = received
            if flaw == "silent_after_hello":
                continue
            if flaw == "closed_early":
                await ws.close()
                return
            if flaw == "work_before_ready":
                await ws.send(frame("speaking", index=S.tts_turn_index))
            if flaw == "model_before_ready":  # the model runs first and ready waits for it
                await asyncio.sleep((S.handshake_timeout_ms + S.frame_ms) / 1000)
            await ws.send(frame("ready", accept="wav" if flaw == "wrong_accept" else S.encoding))
            if flaw == "debug_line":
                await ws.send("DEBUG: hello received, starting model")
            if hello["pillar"] == "tts":
                speech = asyncio.create_task(speak(S.tts_turn_index))
        elif kind == "turn":
            pending = received
            stop.clear()
            if flaw == "answers_on_turn":
                await ws.send(frame("speaking", index=received["index"]))
        elif kind == "end_of_utterance":
            if hello["pillar"] in ("asr", "llm"):
                if flaw == "no_transcript":
                    continue
                if flaw == "late_transcript":
                    await asyncio.sleep(hello["deadline_ms"] / 1000 + 0.3)
                answer = "你" * S.max_message_bytes if flaw == "oversized_transcript" else "你好"
                await ws.send(frame("transcript", text=answer))
            else:
                index = pending["index"] + (1 if flaw == "wrong_index" else 0)
                speech = asyncio.create_task(speak(index))
        elif kind == "barge_in":
            stop.set()  # the speaking task sends the one turn_done
    if speech is not None:
        speech.cancel()


async def against(flaw: str | None, pillar: str, **options: Any) -> tuple[RunResult, int]:
    async def handler(ws: ServerConnection) -> None:
        # The client gives up on a flawed server first, as it should; the server's late send then finds it gone.
        with contextlib.suppress(websockets.ConnectionClosed):
            await reference(ws, flaw)

    async with loopback(handler) as (url, counter):
        clips = options.pop("clips", CLIPS[:1])
        items = [Item(p, c) for p in (PILLARS if pillar == "all" else (pillar,)) for c in clips]
        settings = dict(concurrency=1, paced=False, insecure=True) | options
        result = await run_items(items, url, settings=S, **settings)
        return result, counter.most


BROKEN = [
    ("silent after hello", "silent_after_hello", "asr", "handshake_incomplete"),
    ("work started before ready", "work_before_ready", "tts", "replied_before_ready"),
    ("model work before ready, so ready comes too late", "model_before_ready", "llm", "handshake_incomplete"),
    ("a debug line on the socket", "debug_line", "llm", "unrecognised_frame"),
    ("a transcript after the deadline", "late_transcript", "asr", "deadline_exceeded"),
    ("no transcript", "no_transcript", "asr", "no_response"),
    ("a socket closed early", "closed_early", "asr", "closed_before_response"),
    ("speaking only after all audio", "speaking_after_audio", "tts", "audio_before_speaking"),
    ("audio frames of odd length", "odd_frames", "tts", "malformed_audio"),
    ("a conversation answering on turn", "answers_on_turn", "e2e", "answered_during_turn"),
    ("a wrong index", "wrong_index", "e2e", "turn_index_mismatch"),
    ("still speaking after barge_in", "no_yield", "e2e", "did_not_yield"),
    ("digital silence for speech", "silent_speech", "tts", "level_out_of_range"),
    ("a transcript before end_of_utterance", "early_transcript", "asr", "early_transcript"),
    ("a repeated turn_done on speech", "repeated_turn_done", "tts", "repeated_turn_done"),
    ("a repeated turn_done at the end of a conversation", "repeated_turn_done", "e2e", "repeated_turn_done"),
    ("a transcript over the message limit", "oversized_transcript", "asr", "message_too_large"),
    ("still speaking after barge_in mid-reply", "no_yield_mid_reply", "e2e", "did_not_yield"),
]


@pytest.fixture(scope="module")
def broken_results() -> dict[tuple[str, str], RunResult]:
    # All at once: the slowest case is bounded by the handshake timeout or deadline plus the late wait.
    async def everything() -> list[tuple[RunResult, int]]:
        return list(await asyncio.gather(*(against(flaw, pillar) for _, flaw, pillar, _ in BROKEN)))

    outcomes = zip(BROKEN, run(everything()), strict=True)
    return {(flaw, pillar): result for (_, flaw, pillar, _), (result, _) in outcomes}


@pytest.mark.parametrize(("flaw", "pillar", "code"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_broken_server_fails_with_its_code_and_sentence(
    broken_results: dict[tuple[str, str], RunResult], flaw: str, pillar: str, code: str
) -> None:
    result = broken_results[flaw, pillar]
    assert not result.passed
    failed = [v for v in result.verdicts if not v.passed]
    assert [(v.pillar, v.failure.code if v.failure else None) for v in failed] == [(pillar, code)]
    assert failed[0].failure is not None and failed[0].failure.message == S.failures[code].message


def test_the_reference_server_passes_every_pillar_above_concurrency_one_without_being_exceeded() -> None:
    result, most_at_server = run(against(None, "all", clips=CLIPS, concurrency=2))
    assert result.passed, [v for v in result.verdicts if not v.passed]
    # Three clips on four pillars, a conversation a verdict per turn.
    turns = len(S.conversation_barge_in_after_ms)
    assert len(result.verdicts) == len(CLIPS) * (len(PILLARS) - 1) + turns * len(CLIPS)
    assert result.max_open == most_at_server == 2


def test_the_reference_server_passes_with_real_pacing() -> None:
    result, most_at_server = run(against(None, "all", clips=CLIPS[:2], concurrency=3, paced=True))
    assert result.passed, [v for v in result.verdicts if not v.passed]
    assert most_at_server <= 3
    for verdict in result.verdicts:
        t = verdict.timings
        assert t.handshake_ms is not None and t.response_ms is not None and t.deadline_ms is not None
        assert t.response_ms <= t.deadline_ms
        if verdict.turn is not None and S.conversation_barge_in_after_ms[verdict.turn] is not None:
            # an interrupted turn: the yield is timed from barge_in
            assert t.barge_in_to_turn_done_ms is not None and t.barge_in_to_turn_done_ms <= S.yield_within_ms
        if verdict.pillar == "tts":
            assert verdict.delivery is not None and verdict.delivery.failure is None


@pytest.mark.parametrize("declared", [1, 3])
def test_the_client_never_opens_more_connections_than_declared(declared: int) -> None:
    # Many short items and a server that holds each connection a little, so a leak would show.
    many = [clip(0.1, clip_id=f"k{n}") for n in range(6)]
    result, most_at_server = run(against(None, "asr", clips=many, concurrency=declared))
    assert result.passed
    assert most_at_server == result.max_open == declared


def test_nothing_listening_is_a_refused_connection() -> None:
    async def refused() -> RunResult:
        async with loopback(reference) as (url, _):
            pass  # closed again: the port now refuses
        return await run_items(
            [Item("asr", CLIPS[0])], url, settings=S, concurrency=1, paced=False, insecure=True
        )

    result = run(refused())
    assert [v.failure.code for v in result.verdicts if v.failure] == ["connection_refused"]


@pytest.fixture(scope="module")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> ssl.SSLContext:
    folder = tmp_path_factory.mktemp("tls")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-days", "1",
         "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    return context


@pytest.mark.parametrize(("insecure", "code"), [(False, "tls_certificate_rejected"), (True, None)])
def test_a_self_signed_certificate_is_rejected_unless_insecure_on_loopback(
    self_signed: ssl.SSLContext, insecure: bool, code: str | None
) -> None:
    async def over_tls() -> RunResult:
        async with serve(reference, "127.0.0.1", 0, ssl=self_signed) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            url = f"wss://127.0.0.1:{port}"
            return await run_items(
                [Item("asr", CLIPS[0])], url, settings=S, concurrency=1, paced=False, insecure=insecure
            )

    result = run(over_tls())
    assert [v.failure.code if v.failure else None for v in result.verdicts] == [code]


@pytest.mark.parametrize(
    ("url", "insecure", "says"),
    [
        ("ws://127.0.0.1:9", False, "only over wss://"),
        ("wss://example.org/x", True, "loopback addresses only"),
        ("http://127.0.0.1:9", True, "not a WebSocket URL"),
    ],
)
def test_plain_or_unverified_connections_are_for_loopback_only(url: str, insecure: bool, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        tls_for(url, insecure=insecure)


# ---- the command line, in the repository and inside the kit ----


@pytest.fixture(scope="module")
def reference_url() -> Iterator[str]:
    """The reference server on a loop in a thread, for commands run as subprocesses."""
    loop = asyncio.new_event_loop()
    ready: concurrent.futures.Future[str] = concurrent.futures.Future()
    stop = asyncio.Event()

    async def main() -> None:
        async with serve(reference, "127.0.0.1", 0) as server:
            ready.set_result(f"ws://127.0.0.1:{next(iter(server.sockets)).getsockname()[1]}")
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    try:
        yield ready.result(timeout=30)
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=30)


def test_cvb_connection_test_reports_json_and_exits_zero_when_all_pass(
    reference_url: str, tmp_path: Path
) -> None:
    clips = write_clips(tmp_path / "clips", [0.2, 0.3])
    command = [sys.executable, "-m", "generator.cli", "connection-test", reference_url, "--pillar", "all",
               "--concurrency", "2", "--clips", str(clips), "--fast", "--json", "--insecure"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + done.stdout
    report = json.loads(done.stdout)
    assert report["passed"] and report["max_open_connections"] <= 2 and report["concurrency"] == 2
    assert report["not_measured"] == list(S.not_measured)
    assert {r["pillar"] for r in report["results"]} == set(PILLARS)


def test_a_failure_exits_one_with_the_sentence_in_the_text_report(tmp_path: Path) -> None:
    async def go() -> subprocess.CompletedProcess[str]:
        async def debug(ws: ServerConnection) -> None:
            await reference(ws, "debug_line")

        async with loopback(debug) as (url, _):
            clips = write_clips(tmp_path / "clips", [0.2])
            command = [sys.executable, "-m", "generator.cli", "connection-test", url, "--pillar", "asr",
                       "--clips", str(clips), "--fast", "--insecure"]  # fmt: skip
            process = await asyncio.create_subprocess_exec(
                *command, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            out, err = await asyncio.wait_for(process.communicate(), 120)
            return subprocess.CompletedProcess(command, process.returncode or 0, out.decode(), err.decode())

    done = run(go())
    assert done.returncode == 1, done.stderr
    assert "FAIL  asr clip0" in done.stdout
    assert S.failures["unrecognised_frame"].message in done.stdout
    assert S.not_measured[0] in done.stdout


def test_a_clip_in_the_wrong_format_is_refused_with_a_sentence(tmp_path: Path) -> None:
    import wave

    folder = tmp_path / "clips"
    folder.mkdir()
    with wave.open(str(folder / "stereo.wav"), "wb") as wav:
        wav.setnchannels(2)
        wav.setsampwidth(2)
        wav.setframerate(44100)
        wav.writeframes(bytes(400))
    command = [
        sys.executable,
        "-m",
        "generator.cli",
        "connection-test",
        "ws://127.0.0.1:9",
        "--clips",
        str(folder),
        "--insecure",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "stereo.wav is 44100 Hz, 2 channel(s)" in done.stderr and "Traceback" not in done.stderr


def test_another_accept_value_passes_with_a_note_in_the_report() -> None:
    result, _ = run(against("wrong_accept", "asr"))
    assert result.passed
    text = render_text(result, settings=S)
    assert "FAIL" not in text and "note: ready's accept was 'wav'" in text
    (verdict,) = to_json(result, settings=S)["results"]
    assert verdict["notes"] and verdict["failure"] is None


def test_the_json_report_is_strict_json_even_for_silent_speech(
    broken_results: dict[tuple[str, str], RunResult],
) -> None:
    report = to_json(broken_results["silent_speech", "tts"], settings=S)
    text = json.dumps(report, allow_nan=False)  # a silent clip's level of -inf must not leak out as -Infinity
    (result,) = json.loads(text)["results"]
    assert result["delivery"]["level_dbfs"] is None and result["failure"]["code"] == "level_out_of_range"


def test_paced_audio_takes_at_least_the_clip_s_own_length_to_arrive() -> None:
    """Real-time pacing, measured from the server's side as a lower bound (a lower bound cannot be flaky:
    the client may run late, never early)."""
    paced_clip = clip(0.5)
    seen: dict[str, float] = {}

    async def timing(ws: ServerConnection) -> None:
        loop = asyncio.get_running_loop()
        async for message in ws:
            if isinstance(message, bytes):
                continue
            kind = json.loads(message)["type"]
            if kind == "hello":
                await ws.send(frame("ready", accept=S.encoding))
                seen["ready"] = loop.time()
            elif kind == "end_of_utterance":
                seen["eou"] = loop.time()
                await ws.send(frame("transcript", text="你好"))

    async def go() -> RunResult:
        async with loopback(timing) as (url, _):
            items = [Item("asr", paced_clip)]
            return await run_items(items, url, settings=S, concurrency=1, paced=True, insecure=True)

    result = run(go())
    assert result.passed
    assert seen["eou"] - seen["ready"] >= paced_clip.duration_ms / 1000


# ---- servers the protocol never reaches: each gets its own code, not connection_refused ----


def _refusing(status: HTTPStatus) -> Any:
    def process_request(connection: ServerConnection, request: Any) -> Any:
        return connection.respond(status, "no\n")

    return process_request


async def _first_code(url: str) -> tuple[str | None, str]:
    """The one verdict's code and detail; a failure must carry its catalogue sentence."""
    result = await run_items(
        [Item("asr", CLIPS[0])], url, settings=S, concurrency=1, paced=False, insecure=True
    )
    [verdict] = result.verdicts
    if verdict.failure is None:
        return None, verdict.detail
    assert verdict.failure.message == S.failures[verdict.failure.code].message
    return verdict.failure.code, verdict.detail


@pytest.mark.parametrize("status", [HTTPStatus.NOT_FOUND, HTTPStatus.UNAUTHORIZED])
def test_an_http_error_on_the_upgrade_is_upgrade_rejected_with_its_status(status: HTTPStatus) -> None:
    async def go() -> tuple[str | None, str]:
        async with serve(reference, "127.0.0.1", 0, process_request=_refusing(status)) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            return await _first_code(f"ws://127.0.0.1:{port}/wrong-secret")

    code, detail = run(go())
    assert code == "upgrade_rejected"
    assert detail.startswith(f"HTTP {status.value} {status.phrase}") and "/wrong-secret" in detail


@pytest.mark.parametrize("scheme", ["ws", "wss"])
def test_a_scheme_the_server_does_not_speak_is_a_scheme_mismatch(
    self_signed: ssl.SSLContext, scheme: str
) -> None:
    # ws:// against a server that speaks TLS, and wss:// against one that does not.
    tls = self_signed if scheme == "ws" else None

    async def go() -> tuple[str | None, str]:
        async with serve(reference, "127.0.0.1", 0, ssl=tls) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            return await _first_code(f"{scheme}://127.0.0.1:{port}")

    code, detail = run(go())
    assert code == "scheme_mismatch", detail


def test_a_server_that_accepts_but_never_upgrades_is_upgrade_stalled() -> None:
    # A listening socket that never accepts: the kernel completes the TCP handshake, nothing answers the upgrade,
    # as when a model computing on the event loop blocks it.
    with socket.socket() as stalled:
        stalled.bind(("127.0.0.1", 0))
        stalled.listen(8)
        code, detail = run(_first_code(f"ws://127.0.0.1:{stalled.getsockname()[1]}"))
    assert code == "upgrade_stalled", detail
    assert f"{S.handshake_timeout_ms / 1000:g} s" in detail
