"""Fan-out of table changes between server processes.

After storing an event or a seat of a table, a process publishes `(table_id, origin)`, `origin`
being its own id; every other subscribed process that holds the table catches up from storage
and updates its clients. With one process and `LocalBroker` (the default) there is nobody else
to tell; several hubs in one process may share a `LocalBroker` (the tests do). Several
processes share a networked broker (`open_broker`): Redis publish/subscribe
(`canasta.server.redis_broker`) or PostgreSQL notifications (`canasta.server.postgres_broker`),
both built on `RemoteBroker`. Delivery is asynchronous: `publish` never waits for a subscriber,
and never raises (a change that could not be announced is logged; the others learn of it with
the table's next change).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, Protocol

Handler = Callable[[str], Coroutine[Any, Any, None]]

EVERY_TABLE = ""  # the table id handed to handlers when any table may have changed unheard
RETRY_FIRST, RETRY_MAX = 0.1, 5.0  # seconds between attempts to reconnect a lost broker

log = logging.getLogger("canasta.server")


class Broker(Protocol):
    async def start(self) -> None:
        """Connect, before the first subscriber (a broker may be started more than once)."""

    async def publish(self, table_id: str, origin: str) -> None:
        """Tell every subscriber but `origin` that the table changed."""

    def subscribe(self, origin: str, handler: Handler) -> None:
        """Call `handler(table_id)` on changes published by others than `origin`, and
        `handler(EVERY_TABLE)` when changes may have been missed (after a lost connection)."""

    async def close(self) -> None: ...


class LocalBroker:
    """Delivers changes to the handlers subscribed in this process (one per hub)."""

    def __init__(self) -> None:
        self._handlers: list[tuple[str, Handler]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        pass

    async def publish(self, table_id: str, origin: str) -> None:
        for subscriber, handler in self._handlers:
            if subscriber != origin:
                task = asyncio.create_task(handler(table_id))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def subscribe(self, origin: str, handler: Handler) -> None:
        self._handlers.append((origin, handler))

    async def close(self) -> None:
        pass


class RemoteBroker:
    """A broker that goes through a server: every change is the message `origin table_id` on
    one channel, which every process receives (the publisher too) and hands to its own
    subscribers but the origin. A lost connection is retried for as long as it takes; once it
    is back, every subscriber hears `EVERY_TABLE`.

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

    async def publish(self, table_id: str, origin: str) -> None:
        try:
            await self._send(f"{origin} {table_id}")
        except Exception as exc:
            log.warning("broker: table %s changed but could not be announced: %s", table_id, exc)

    def subscribe(self, origin: str, handler: Handler) -> None:
        self._local.subscribe(origin, handler)

    async def _read(self) -> None:
        while True:
            try:
                async for message in self._messages():
                    origin, _, table_id = message.partition(" ")
                    await self._local.publish(table_id, origin)
            except Exception as exc:
                log.warning("broker: connection lost (%s), reconnecting", exc)
            await self._reconnect()
            await self._local.publish(EVERY_TABLE, "")

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
