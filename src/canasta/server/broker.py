"""Fan-out of table changes between server processes.

After storing an event or a seat of a table, a process publishes `(table_id, origin)`, `origin`
being its own id; every other subscribed process that holds the table catches up from storage
and updates its clients. With one process and `LocalBroker` (the default) there is nobody else
to tell; several hubs in one process may share a `LocalBroker` (the tests do); a networked
broker (Redis, PostgreSQL notifications) implements the same two methods. Delivery is
asynchronous: `publish` never waits for a subscriber.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

Handler = Callable[[str], Coroutine[Any, Any, None]]


class Broker(Protocol):
    async def publish(self, table_id: str, origin: str) -> None:
        """Tell every subscriber but `origin` that the table changed."""

    def subscribe(self, origin: str, handler: Handler) -> None:
        """Call `handler(table_id)` on changes published by others than `origin`."""


class LocalBroker:
    """Delivers changes to the handlers subscribed in this process (one per hub)."""

    def __init__(self) -> None:
        self._handlers: list[tuple[str, Handler]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def publish(self, table_id: str, origin: str) -> None:
        for subscriber, handler in self._handlers:
            if subscriber != origin:
                task = asyncio.create_task(handler(table_id))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def subscribe(self, origin: str, handler: Handler) -> None:
        self._handlers.append((origin, handler))
