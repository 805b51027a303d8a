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
asynchronous: `publish` never waits for a subscriber, and never raises (a notice that could not
be sent is logged; the others learn of the change with the table's next one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

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

    def __init__(self) -> None:
        self._local = LocalBroker()
        self._reader: asyncio.Task[None] | None = None

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

    async def publish(self, notice: Notice) -> None:
        try:
            await self._send(notice.encode())
        except Exception as exc:
            log.warning("broker: notice about table %s not sent: %s", notice.table_id, exc)

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
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        await self._disconnect()


def open_broker(url: str | None) -> Broker:
    """The broker a `--broker` URL names: None for this process alone, `redis://host:port`
    (or `rediss://`, `unix://`) for Redis, `postgresql://user@host/dbname` (or `postgres://`)
    for PostgreSQL notifications. Raises ValueError, on one line, for an unsupported URL, a
    missing client library or a server out of reach."""
    if url is None:
        return LocalBroker()
    scheme = url.partition("://")[0]
    if scheme in ("redis", "rediss", "unix"):
        from canasta.server.redis_broker import RedisBroker

        return RedisBroker(url)
    if scheme in ("postgresql", "postgres"):
        from canasta.server.postgres_broker import PostgresBroker

        return PostgresBroker(url)
    raise ValueError(
        f"unsupported broker URL {url!r}: use redis://host:port or postgresql://user@host/dbname"
    )
