"""The asyncio shell: sockets and the clock around starter_kit.protocol's Exchange, never above the declared
concurrency."""

from __future__ import annotations

import asyncio
import ipaddress
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidMessage,
    InvalidStatus,
    InvalidURI,
)
from websockets.frames import CloseCode

from starter_kit.protocol.delivery import AudioMeasures
from starter_kit.protocol.machine import Exchange, Item, Verdict
from starter_kit.protocol.settings import Settings

Clock = Callable[[], float]


class UsageError(ValueError):
    """A URL or option the test refuses before connecting, as one sentence."""


@dataclass(frozen=True)
class RunResult:
    verdicts: list[Verdict]
    concurrency: int
    max_open: int  # the most connections this client had open at once
    declared_from: str = ""  # where the concurrency came from: endpoint.json, --concurrency, the default

    @property
    def passed(self) -> bool:
        return bool(self.verdicts) and all(v.passed for v in self.verdicts)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tls_for(url: str, *, insecure: bool) -> ssl.SSLContext | None:
    """The TLS context for `url`: public roots, verified, unless --insecure on a loopback address."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme not in ("ws", "wss"):
        raise UsageError(f"{url!r} is not a WebSocket URL; registered endpoints start with wss://.")
    if insecure and not is_loopback(host):
        raise UsageError(f"--insecure is for loopback addresses only, and {host!r} is not one.")
    if parts.scheme == "ws":
        if not insecure:
            raise UsageError(
                "The platform connects only over wss:// with a publicly trusted certificate; "
                "plain ws:// is allowed here only with --insecure on a loopback address."
            )
        return None
    if insecure:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return ssl.create_default_context()


class _Gauge:
    def __init__(self) -> None:
        self.now = 0
        self.most = 0

    def __enter__(self) -> None:
        self.now += 1
        self.most = max(self.most, self.now)

    def __exit__(self, *_: object) -> None:
        self.now -= 1


async def run_exchange(
    exchange: Exchange, url: str, *, tls: ssl.SSLContext | None, clock: Clock = time.monotonic
) -> None:
    settings = exchange.settings
    handshake_s = settings.handshake_timeout_ms / 1000
    try:
        ws = await connect(
            url,
            ssl=tls,
            open_timeout=handshake_s,
            close_timeout=handshake_s,
            ping_interval=None,
            compression=None,
            max_size=settings.max_message_bytes,
        )
    except ssl.SSLCertVerificationError as exc:
        exchange.connection_failed("tls_certificate_rejected", exc.verify_message or str(exc), clock())
        return
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
        code, detail = await _why_not_connected(exc, url, timeout_s=handshake_s)
        exchange.connection_failed(code, detail, clock())
        return
    watch = _PongWatch(ws, every_s=settings.yield_within_ms / 1000, clock=clock)
    pinging = asyncio.create_task(watch.run())
    try:
        exchange.connected(clock())
        while True:
            for message in exchange.data_to_send():
                await ws.send(message)
            if exchange.done:
                break
            wakeup = exchange.next_wakeup()
            # The machine bounds every wait; the fallback only keeps a machine bug from hanging the shell.
            timeout = max(0.0, (wakeup if wakeup is not None else clock() + handshake_s) - clock())
            try:
                message = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                exchange.tick(clock())
                continue
            except ConnectionClosed as exc:
                _closed(exchange, exc, clock())
                continue
            if isinstance(message, str):
                exchange.receive_text(message, clock())
            else:
                exchange.receive_bytes(message, clock())
    except ConnectionClosed as exc:
        _closed(exchange, exc, clock())
    finally:
        pinging.cancel()
        await ws.close()
    _note_stall(exchange, watch.longest_s)


# The failures a blocked event loop causes: their detail says so when a pong took longer than the yield threshold
# (the longest a healthy server may take to act on a frame).
_STALL_FAILURES = frozenset({"handshake_incomplete", "no_response", "deadline_exceeded", "did_not_yield"})


class _PongWatch:
    """Pings the endpoint every `every_s` and keeps the longest wait for a pong. Pongs are answered by the
    server's event loop, so a long wait means that loop was blocked (a model computing on it)."""

    def __init__(self, ws: ClientConnection, *, every_s: float, clock: Clock) -> None:
        self.ws, self.every_s, self.clock = ws, every_s, clock
        self.longest_s = 0.0

    async def run(self) -> None:
        while True:
            sent = self.clock()
            try:
                waiter = asyncio.ensure_future(await self.ws.ping())
            except ConnectionClosed:
                return
            while not waiter.done():
                await asyncio.wait({waiter}, timeout=self.every_s)
                self.longest_s = max(self.longest_s, self.clock() - sent)
            await asyncio.sleep(self.every_s)


def _note_stall(exchange: Exchange, longest_s: float) -> None:
    if longest_s * 1000 <= exchange.settings.yield_within_ms:
        return
    for n, verdict in enumerate(exchange.verdicts):
        if verdict.failure is not None and verdict.failure.code in _STALL_FAILURES:
            exchange.verdicts[n] = replace(
                verdict,
                detail=f"{verdict.detail}; meanwhile a ping waited {longest_s * 1000:.0f} ms for its pong, "
                "so the server's event loop was blocked",
            )


async def _why_not_connected(exc: Exception, url: str, *, timeout_s: float) -> tuple[str, str]:
    """The failure code and what was seen, for a connection that never reached the WebSocket protocol."""
    parts = urlsplit(url)
    secure = parts.scheme == "wss"
    if isinstance(exc, InvalidStatus):
        response = exc.response
        return (
            "upgrade_rejected",
            f"HTTP {response.status_code} {response.reason_phrase} in answer to the upgrade of {parts.path or '/'}",
        )
    if secure and isinstance(exc, ssl.SSLError | ConnectionResetError):
        return (
            "scheme_mismatch",
            f"the TLS handshake failed ({type(exc).__name__}: {exc}); is the server plain ws://?",
        )
    if not secure and isinstance(exc, InvalidMessage):
        return (
            "scheme_mismatch",
            "the server closed without an HTTP answer to the upgrade, as a server that expects TLS (wss://) does",
        )
    if isinstance(exc, TimeoutError) and await _accepts_tcp(
        parts.hostname or "", parts.port, secure, timeout_s
    ):
        return (
            "upgrade_stalled",
            f"a TCP connection opened, and no upgrade answer came within {timeout_s:g} s",
        )
    return "connection_refused", f"{type(exc).__name__}: {exc}"


async def _accepts_tcp(host: str, port: int | None, secure: bool, timeout_s: float) -> bool:
    """Whether something accepts a TCP connection at host:port: then the server is there but stalled."""
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port or (443 if secure else 80)), timeout_s
        )
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True


def _closed(exchange: Exchange, exc: ConnectionClosed, now: float) -> None:
    # websockets closes with 1009 itself when a message passes max_size, before reading the rest of it.
    if exc.sent is not None and exc.sent.code == CloseCode.MESSAGE_TOO_BIG:
        exchange.message_too_large(now)
    else:
        exchange.receive_close(now)


async def run_items(
    items: Sequence[Item],
    url: str,
    *,
    settings: Settings,
    concurrency: int,
    paced: bool,
    insecure: bool,
    measures: AudioMeasures | None = None,
    clock: Clock = time.monotonic,
    declared_from: str = "",
) -> RunResult:
    """Every item on its own connection, at most `concurrency` open at once, verdicts in item order."""
    if concurrency < 1:
        raise UsageError("--concurrency must be at least one connection.")
    tls = tls_for(url, insecure=insecure)
    slots = asyncio.Semaphore(concurrency)
    gauge = _Gauge()
    exchanges = [Exchange(item, settings=settings, paced=paced, measures=measures) for item in items]

    async def one(exchange: Exchange) -> None:
        async with slots:
            with gauge:
                await run_exchange(exchange, url, tls=tls, clock=clock)

    await asyncio.gather(*(one(e) for e in exchanges))
    return RunResult([v for e in exchanges for v in e.verdicts], concurrency, gauge.most, declared_from)
