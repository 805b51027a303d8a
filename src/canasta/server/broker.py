"""Fan-out of table changes, and of who is connected, between server processes.

After storing an event or a seat of a table, a process publishes `Notice(table_id, origin)`,
`origin` being its own id; every other subscribed process that holds the table catches up from
storage and updates its clients. A process also publishes which seats of a table have a person
connected to it (`Notice(table_id, origin, present)`), when that changes and as a heartbeat, so
that no process stands in for a person connected to another.

With one process and `LocalBroker` (the default) there is nobody else to tell; several hubs in
one process may share a `LocalBroker` (the tests do). Several processes share a networked
broker (`open_broker`): Redis publish/subscribe (`canasta.server.redis_broker`) or PostgreSQL
notifications (`canasta.server.postgres_broker`), both built on `RemoteBroker`. Delivery is
asynchronous: `publish` never waits, for a subscriber or for the broker, and never raises. A
networked broker's notices are sent in order by a task of their own, each within
`PUBLISH_TIMEOUT` seconds; when one cannot be sent (the broker is down or hangs), those queued
meanwhile are dropped, and once the broker answers again every other process is told to catch
up on every table. A broker that fails is logged once until it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from canasta.server.clock import Clock, LoopClock

EVERY_TABLE = ""  # the table id of the notice that any table may have changed unheard


@dataclass(frozen=True, slots=True)
class Notice:
    """`present` None: the table changed in storage. Otherwise: the seats of the table that
    have a person connected to the process `origin` (on the wire: `ORIGIN TABLE_ID[ SEATS]`,
    SEATS being the seat numbers joined by commas, possibly none)."""

    table_id: str
    origin: str
    present: tuple[int, ...] | None = None

    def encode(self) -> str:
        text = f"{self.origin} {self.table_id}"
        return text if self.present is None else f"{text} {','.join(map(str, self.present))}"

    @staticmethod
    def decode(text: str) -> Notice:
        origin, table_id, *rest = text.split(" ")
        if not rest:
            return Notice(table_id, origin)
        return Notice(table_id, origin, tuple(int(seat) for seat in rest[0].split(",") if seat))


Handler = Callable[[Notice], Coroutine[Any, Any, None]]
RETRY_FIRST, RETRY_MAX = 0.1, 5.0  # seconds between attempts to reconnect a lost broker
PUBLISH_TIMEOUT = 2.0  # seconds one notice may take to be sent
QUEUE_LIMIT = 1000  # notices waiting to be sent; more are dropped (and caught up on later)

log = logging.getLogger("canasta.server")


class Broker(Protocol):
    async def start(self) -> None:
        """Connect, before the first subscriber (a broker may be started more than once)."""

    async def publish(self, notice: Notice) -> None:
        """Tell every subscriber but the notice's origin."""

    def subscribe(self, origin: str, handler: Handler) -> None:
        """Call `handler(notice)` on notices published by others than `origin`, and with
        `Notice(EVERY_TABLE, "")` when notices may have been missed (after a lost connection)."""

    async def close(self) -> None: ...


class LocalBroker:
    """Delivers changes to the handlers subscribed in this process (one per hub)."""

    def __init__(self) -> None:
        self._handlers: list[tuple[str, Handler]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        pass

    async def publish(self, notice: Notice) -> None:
        for subscriber, handler in self._handlers:
            if subscriber != notice.origin:
                task = asyncio.create_task(handler(notice))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def subscribe(self, origin: str, handler: Handler) -> None:
        self._handlers.append((origin, handler))

    async def close(self) -> None:
        pass


class RemoteBroker:
    """A broker that goes through a server: every notice is a message on one channel, which
    every process receives (the publisher too) and hands to its own subscribers but the
    origin. A lost connection is retried for as long as it takes; once it is back, every
    subscriber hears of `EVERY_TABLE`.

    Subclasses (re)open the connection they listen on (`_connect`), send a message (connecting
    as needed), yield the messages received, and close every connection (`_disconnect`)."""

    def __init__(self, clock: Clock) -> None:
        self._local = LocalBroker()
        self._clock = clock
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: deque[Notice] = deque()
        self._queued = asyncio.Event()
        self._missed: str | None = None  # the origin of notices dropped since the broker failed

    async def _connect(self) -> None:
        raise NotImplementedError

    async def _disconnect(self) -> None:
        raise NotImplementedError

    async def _send(self, message: str) -> None:
        raise NotImplementedError

    def _messages(self) -> AsyncIterator[str]:
        raise NotImplementedError

    async def start(self) -> None:
        if self._reader is None:
            await self._connect()  # a broker out of reach at start-up is an error
            self._reader = asyncio.create_task(self._read())
            self._writer = asyncio.create_task(self._write())

    async def publish(self, notice: Notice) -> None:
        if len(self._outbox) >= QUEUE_LIMIT:
            self._missed = notice.origin
            return
        self._outbox.append(notice)
        self._queued.set()

    async def _write(self) -> None:
        while True:
            await self._queued.wait()
            self._queued.clear()
            while self._outbox:
                notice = self._outbox.popleft()
                try:
                    if self._missed is not None:
                        await self._timed_send(Notice(EVERY_TABLE, self._missed))
                        self._missed = None
                        log.warning("broker: notices are sent again; the others catch up")
                    await self._timed_send(notice)
                except Exception as exc:
                    if self._missed is None:
                        log.warning("broker: notices not sent (%s); they will be caught up on", exc)
                    self._missed = notice.origin
                    self._outbox.clear()

    async def _timed_send(self, notice: Notice) -> None:
        """Send one notice, or raise (TimeoutError after `PUBLISH_TIMEOUT` seconds)."""
        sending = asyncio.ensure_future(self._send(notice.encode()))
        timer = self._clock.call_later(PUBLISH_TIMEOUT, sending.cancel)
        try:
            await asyncio.wait({sending})
        finally:
            timer.cancel()
            sending.cancel()
        if sending.cancelled():
            raise TimeoutError(f"no answer in {PUBLISH_TIMEOUT:g} s")
        sending.result()

    def subscribe(self, origin: str, handler: Handler) -> None:
        self._local.subscribe(origin, handler)

    async def _read(self) -> None:
        while True:
            try:
                async for message in self._messages():
                    try:
                        notice = Notice.decode(message)
                    except ValueError:
                        log.warning("broker: message %r ignored", message[:100])
                        continue
                    await self._local.publish(notice)
            except Exception as exc:
                log.warning("broker: connection lost (%s), reconnecting", exc)
            await self._reconnect()
            await self._local.publish(Notice(EVERY_TABLE, ""))

    async def _reconnect(self) -> None:
        delay = RETRY_FIRST
        while True:
            await asyncio.sleep(delay)
            try:
                await self._connect()
                return
            except Exception as exc:
                delay = min(delay * 2, RETRY_MAX)
                log.warning("broker: cannot reconnect (%s), retrying in %.1f s", exc, delay)

    async def close(self) -> None:
        for task in (self._reader, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._reader = self._writer = None
        await self._disconnect()


def open_broker(url: str | None, clock: Clock | None = None) -> Broker:
    """The broker a `--broker` URL names: None for this process alone, `redis://host:port`
    (or `rediss://`, `unix://`) for Redis, `postgresql://user@host/dbname` (or `postgres://`)
    for PostgreSQL notifications; its timeouts run on `clock` (default: the event loop's).
    Raises ValueError, on one line, for an unsupported URL, a missing client library or a
    server out of reach."""
    if url is None:
        return LocalBroker()
    scheme = url.partition("://")[0]
    if scheme in ("redis", "rediss", "unix"):
        from canasta.server.redis_broker import RedisBroker

        return RedisBroker(url, clock or LoopClock())
    if scheme in ("postgresql", "postgres"):
        from canasta.server.postgres_broker import PostgresBroker

        return PostgresBroker(url, clock or LoopClock())
    raise ValueError(
        f"unsupported broker URL {url!r}: use redis://host:port or postgresql://user@host/dbname"
    )
