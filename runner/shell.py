"""The asyncio shell of a scored run: sockets, the monotonic clock and the connection slots around the pure
parts (the connection test's protocol machine, the attribution rule, the records).

Connections: an entrant never has more open at once than they declared (one semaphore per entrant, shared by
all their jobs), and the machine never more than the total budget (one semaphore for all). Each finished item
goes to the job's journal before it counts as done; the record is written only when every item is finished.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cvb_scorer.draw import Draw, draw
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from runner.attribution import Outcome, judge_attempt, stall
from runner.evidence import Close, ConnectionLog, RecordingExchange, verdict_json
from runner.jobs import Endpoint, Job, JobError, PoolEntry, read_clip
from runner.policy import RunPolicy
from runner.record import Journal, build_outputs, outputs_exist, write_outputs
from starter_kit.connection_test.client import UsageError, tls_for
from starter_kit.protocol.machine import Item
from starter_kit.protocol.settings import Settings

Clock = Callable[[], float]
# (run_item_id, attempt) -> whether our side should fail that attempt on purpose: the tests' fault injection.
FaultPlan = Callable[[str, int], bool]
Progress = Callable[[Job, int, int], None]


class InjectedFault(RuntimeError):
    """A platform fault the caller asked for (FaultPlan), raised inside our client mid-item."""


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """Everything a run reads from the config, plus how it is run."""

    settings: Settings
    draw_size: int
    strata: Mapping[str, str]
    rounds: tuple[str, ...]
    runs_per_round: int
    scoring_version: str
    paced: bool = True
    insecure: bool = False
    policy: RunPolicy


@dataclass
class Slots:
    """The connection slots: per entrant (their declared concurrency) and in total (the machine's budget),
    with gauges of the most ever open, per entrant and in total."""

    budget: int
    declared: Mapping[str, int]
    total: asyncio.Semaphore = field(init=False)
    per_entrant: dict[str, asyncio.Semaphore] = field(init=False)
    open_now: dict[str, int] = field(default_factory=dict)
    most: dict[str, int] = field(default_factory=dict)
    total_now: int = 0
    total_most: int = 0
    clock: Clock = time.monotonic
    watch: LoopWatch = field(init=False)
    _pulse: asyncio.Task[None] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.budget < 1:
            raise UsageError("the connection budget must be at least one connection.")
        self.total = asyncio.Semaphore(self.budget)
        self.per_entrant = {e: asyncio.Semaphore(n) for e, n in self.declared.items()}
        self.watch = LoopWatch(clock=self.clock)

    def start_watch(self) -> None:
        """Start the loop's pulse (once, on the running loop; asyncio.run cancels it at the end)."""
        if self._pulse is None:
            self._pulse = asyncio.get_running_loop().create_task(self.watch.run())

    async def __call__(self, entrant: str, work: Callable[[], Any]) -> Any:
        # Always the entrant's slot first, then the budget's: one order, so no two waits can deadlock.
        async with self.per_entrant[entrant], self.total:
            self.open_now[entrant] = self.open_now.get(entrant, 0) + 1
            self.most[entrant] = max(self.most.get(entrant, 0), self.open_now[entrant])
            self.total_now += 1
            self.total_most = max(self.total_most, self.total_now)
            try:
                return await work()
            finally:
                self.open_now[entrant] -= 1
                self.total_now -= 1


class LoopWatch:
    """Our event loop's pulse: a task that asks to wake every `interval_s` and notes each time it woke late.
    A late wake means the loop (and so every clock reading on it) was held up, whatever it was doing then; an
    attempt open during such a stall is the platform's fault (attribution rule 1)."""

    # Late wakes shorter than this are not worth keeping: no policy's threshold is this small.
    KEEP_S = 0.05

    def __init__(self, *, clock: Clock, interval_s: float = 0.05) -> None:
        self.clock = clock
        self.interval_s = interval_s
        self.late: list[tuple[float, float]] = []  # (when it asked to wake, when it woke)
        self._asked: float | None = None

    async def run(self) -> None:
        while True:
            self._asked = self.clock() + self.interval_s
            await asyncio.sleep(self.interval_s)
            woke = self.clock()
            if woke - self._asked > self.KEEP_S:
                self.late.append((self._asked, woke))

    def stall_during(self, start: float, now: float, policy: RunPolicy) -> str | None:
        """The stall sentence for the longest late wake overlapping [start, now], counting one still under way
        (the attempt may finish before the pulse wakes), or None."""
        spans = [(a, w) for a, w in self.late if w >= start and a <= now]
        if self._asked is not None and now > self._asked:
            spans.append((self._asked, now))
        if not spans:
            return None
        asked, woke = max(spans, key=lambda span: span[1] - span[0])
        return stall(asked=asked, woke=woke, policy=policy)


@dataclass
class _Attempt:
    exchange: RecordingExchange
    log: ConnectionLog
    platform_fault: str | None = None
    network_drop: str | None = None


def _close_of(ws: ClientConnection, now: float) -> Close:
    proto = ws.protocol
    rcvd, sent = proto.close_rcvd, proto.close_sent
    if rcvd is not None and (sent is None or proto.close_rcvd_then_sent):
        return Close(rcvd.code, rcvd.reason, True, "entrant", now)
    if sent is not None:
        return Close(sent.code, sent.reason, rcvd is not None, "platform", now)
    return Close(None, "", False, "network", now)


async def _attempt(
    item: Item,
    url: str,
    *,
    tls: ssl.SSLContext | None,
    run: RunSettings,
    clock: Clock,
    inject: bool,
) -> _Attempt:
    settings = run.settings
    exchange = RecordingExchange(item, settings=settings, paced=run.paced)
    result = _Attempt(exchange, ConnectionLog())
    log = result.log
    handshake_s = settings.handshake_timeout_ms / 1000
    try:
        ws = await connect(
            url,
            ssl=tls,
            open_timeout=handshake_s,
            close_timeout=handshake_s,
            ping_interval=None,
            compression=None,
            max_size=None,
        )
    except ssl.SSLCertVerificationError as exc:
        exchange.connection_failed("tls_certificate_rejected", exc.verify_message or str(exc), clock())
        return result
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
        exchange.connection_failed("connection_refused", f"{type(exc).__name__}: {exc}", clock())
        return result
    try:
        now = clock()
        log.opened(now)
        exchange.connected(now)
        while True:
            for message in exchange.data_to_send():
                await ws.send(message)
                now = clock()
                if isinstance(message, str):
                    log.text("out", message, now)
                else:
                    log.audio("out", message, now)
                    if inject:
                        raise InjectedFault("our client stopped mid-clip (a fault injected on purpose)")
            if exchange.done:
                break
            wakeup = exchange.next_wakeup()
            timeout = max(0.0, (wakeup if wakeup is not None else clock() + handshake_s) - clock())
            try:
                received = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                now = clock()
                result.platform_fault = stall(asked=wakeup, woke=now, policy=run.policy)
                if result.platform_fault is not None:
                    break
                exchange.tick(now)
                continue
            now = clock()
            if isinstance(received, str):
                log.text("in", received, now)
                exchange.receive_text(received, now)
            else:
                log.audio("in", received, now)
                exchange.receive_bytes(received, now)
    except ConnectionClosed as exc:
        now = clock()
        if exc.rcvd is None and not exchange.done:
            result.network_drop = (
                f"the connection ended with no close frame from the endpoint while {exchange.state.value}"
            )
        else:
            exchange.receive_close(now)
    except InjectedFault as exc:
        result.platform_fault = str(exc)
    except Exception as exc:  # a bug of ours must cost the entrant nothing: it is the platform's fault
        result.platform_fault = f"our client failed: {type(exc).__name__}: {exc}"
    finally:
        if result.platform_fault is not None:
            await ws.close(1011, "platform fault")
        else:
            await ws.close()
        log.closed(_close_of(ws, clock()))
    return result


async def run_item(
    item: Item,
    *,
    tier: str,
    url: str,
    entrant: str,
    run: RunSettings,
    slots: Slots,
    clock: Clock,
    faults: FaultPlan | None,
) -> dict[str, Any]:
    """One item to its end: attempts until one is scored (or our faults use up the policy's attempts)."""
    tls = tls_for(url, insecure=run.insecure)
    attempts: list[dict[str, Any]] = []
    transcript: str | None = None
    outcome = Outcome.SCORED
    for number in range(1, run.policy.max_attempts + 1):
        inject = faults is not None and faults(item.run_item_id, number)

        async def work(inject: bool = inject) -> _Attempt:
            started = clock()
            attempt = await _attempt(item, url, tls=tls, run=run, clock=clock, inject=inject)
            if attempt.platform_fault is None:
                attempt.platform_fault = slots.watch.stall_during(started, clock(), run.policy)
            return attempt

        slots.start_watch()
        done: _Attempt = await slots(entrant, work)
        judgement = judge_attempt(
            attempt=number,
            platform_fault=done.platform_fault,
            network_drop=done.network_drop,
            policy=run.policy,
            settings=run.settings,
        )
        outcome = judgement.outcome
        exchange = done.exchange
        if outcome is Outcome.SCORED and judgement.failure is not None:
            # Rule 2: the drop stands as the item's result, so its verdicts say it failed, and why.
            exchange.connection_failed(judgement.failure.code, judgement.detail, clock())
        verdicts = [verdict_json(v) for v in exchange.verdicts] if outcome is Outcome.SCORED else []
        failure = judgement.failure
        detail = judgement.detail
        if failure is None:
            failing = next((v for v in exchange.verdicts if v.failure is not None), None)
            failure = failing.failure if failing is not None else None
            detail = failing.detail if failing is not None else ""
        attempts.append(
            {
                "attempt": number,
                "outcome": outcome.value,
                "costs_quota": outcome is Outcome.SCORED,
                "failure": None
                if failure is None
                else {
                    "code": failure.code,
                    "attributed_to": failure.attributed_to,
                    "message": failure.message,
                },
                "detail": detail,
                "deadline_ms": exchange.deadline_ms,
                "connection": done.log.to_json(),
                "verdicts": verdicts,
            }
        )
        if outcome is Outcome.SCORED:
            transcript = exchange.transcript
        if outcome is not Outcome.RERUN:
            break
    last = attempts[-1]["failure"]
    return {
        "clip": item.clip.id,
        "tier": tier,
        "run_item_id": item.run_item_id,
        "duration_ms": item.clip.duration_ms,
        "outcome": outcome.value,
        "attributed_to": None if last is None else last["attributed_to"],
        "transcript": transcript,
        "attempts": attempts,
    }


def draw_for(job: Job, pool: Mapping[str, PoolEntry], run: RunSettings) -> Draw:
    return draw(
        [e.clip for e in pool.values()],
        size=run.draw_size,
        strata=run.strata,
        seed=job.seed,
        window=job.window,
    )


async def run_job(
    job: Job,
    *,
    endpoint: Endpoint,
    pool: Mapping[str, PoolEntry],
    out: Path,
    run: RunSettings,
    slots: Slots,
    clock: Clock = time.monotonic,
    faults: FaultPlan | None = None,
    progress: Progress | None = None,
) -> Path:
    """Run one job to its record, resuming from its journal; a job whose record exists is not run again."""
    existing = outputs_exist(out, job)
    if existing is not None:
        return existing
    url = endpoint.urls.get(job.pillar)
    if url is None:
        raise JobError(f"{job.entrant} registered no endpoint for {job.pillar}; a run needs one.")
    drawn = draw_for(job, pool, run)
    journal = Journal(out / "journal" / f"{job.name}.jsonl", job=job, drawn=drawn)
    entries = journal.finished()
    total = len(drawn.ids)
    # The journal's fsync takes milliseconds: it runs in a thread, one write at a time, never stalling the loop
    # (and so never the timing of the connections still open).
    writing = asyncio.Lock()
    if progress is not None:
        progress(job, len(entries), total)

    async def one(clip_id: str) -> None:
        entry = pool[clip_id]
        item = Item(job.pillar, read_clip(entry, settings=run.settings))
        result = await run_item(
            item,
            tier=entry.clip.tier,
            url=url,
            entrant=job.entrant,
            run=run,
            slots=slots,
            clock=clock,
            faults=faults,
        )
        async with writing:
            await asyncio.to_thread(journal.append, result)
        entries[clip_id] = result
        if progress is not None:
            progress(job, len(entries), total)

    await asyncio.gather(*(one(cid) for cid in drawn.ids if cid not in entries))
    where, record, evidence = build_outputs(
        job,
        drawn=drawn,
        entries=entries,
        references={cid: pool[cid].text for cid in drawn.ids},
        scoring_version=run.scoring_version,
        # The machine plays a conversation clip as one turn per entry of the config's barge-in list.
        e2e_turns=len(run.settings.conversation_barge_in_after_ms),
        concurrency=endpoint.concurrency,
        max_open=slots.most.get(job.entrant, 0),
        paced=run.paced,
    )
    target = await asyncio.to_thread(write_outputs, out, job.name, where, record, evidence)
    journal.remove()
    return target


async def run_jobs(
    jobs: Sequence[Job],
    *,
    endpoints: Mapping[str, Endpoint],
    pools: Mapping[str, Mapping[str, PoolEntry]],
    out: Path,
    run: RunSettings,
    budget: int,
    clock: Clock = time.monotonic,
    faults: FaultPlan | None = None,
    progress: Progress | None = None,
) -> tuple[list[Path], Slots]:
    """Every job at once, within the budget and each entrant's declared concurrency; records in job order."""
    for job in jobs:
        if job.entrant not in endpoints:
            raise JobError(f"job {job.name}: entrant {job.entrant} has no registered endpoints.")
        if job.round not in pools:
            raise JobError(f"job {job.name}: there is no pool for round {job.round}.")
    slots = Slots(budget, {e: endpoints[e].concurrency for e in {j.entrant for j in jobs}}, clock=clock)
    paths = await asyncio.gather(
        *(
            run_job(
                job,
                endpoint=endpoints[job.entrant],
                pool=pools[job.round],
                out=out,
                run=run,
                slots=slots,
                clock=clock,
                faults=faults,
                progress=progress,
            )
            for job in jobs
        )
    )
    return list(paths), slots
