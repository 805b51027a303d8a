"""`PostgresBroker`: changes announced through PostgreSQL notifications (LISTEN/NOTIFY, psycopg).

One connection listens and another sends (opened when first needed, and again after it
breaks), both in autocommit mode: a notification sent after an event was stored reaches the
listeners after that event is visible to them. Needs the `postgres` extra (psycopg).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from canasta.server.broker import RemoteBroker
from canasta.server.clock import Clock
from canasta.storage.postgres import connect_options, import_psycopg, one_line

CHANNEL = "canasta_tables"


class PostgresBroker(RemoteBroker):
    """A `Broker` on a PostgreSQL server (`postgresql://user@host/dbname`; any database of the
    server will do, but every process must name the same). Raises ValueError, on one line,
    when psycopg is missing or the server is out of reach."""

    def __init__(self, url: str, clock: Clock) -> None:
        super().__init__(clock)
        psycopg = import_psycopg()
        self._url = url
        self._listener: Any = None
        self._sender: Any = None
        self._sending = asyncio.Lock()
        try:
            psycopg.connect(url, **connect_options(url)).close()
        except psycopg.Error as exc:
            raise ValueError(f"cannot reach the PostgreSQL broker: {one_line(exc)}") from None

    async def _open(self) -> Any:
        from psycopg import AsyncConnection

        return await AsyncConnection.connect(self._url, autocommit=True, **connect_options(self._url))

    async def _connect(self) -> None:
        old, self._listener = self._listener, None
        if old is not None:
            with contextlib.suppress(Exception):  # it is gone anyway
                await old.close()
        self._listener = await self._open()
        await self._listener.execute(f"LISTEN {CHANNEL}")

    async def _disconnect(self) -> None:
        for connection in (self._listener, self._sender):
            if connection is not None:
                await connection.close()
        self._listener = self._sender = None

    async def _send(self, message: str) -> None:
        async with self._sending:
            if self._sender is None or self._sender.closed or self._sender.broken:
                self._sender = await self._open()
            await self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, message))

    async def _messages(self) -> AsyncIterator[str]:
        async for notify in self._listener.notifies():
            yield notify.payload
