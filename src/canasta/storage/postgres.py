"""Storage in PostgreSQL (psycopg 3), for several server processes sharing one database.

The same tables as SQLite, prefixed `canasta_`. Opening checks that the server can be reached
and creates the schema (under an advisory lock, so processes starting together do not race),
with a short synchronous connection; the queries then run on a pool of asynchronous
connections opened on first use, in the event loop that uses them. Every write is one
statement in autocommit mode (creating a table is one transaction): an event is committed
before `append` returns, and the primary key (table_id, seq) makes a second writer of the same
event number fail with `Conflict`.

A query that takes more than `STORE_TIMEOUT` seconds (the server hung, or another program holds
a lock on the rows) fails with `StorageBusy`, measured on the server's clock (`timers`): the
event loop never waits on the database, and the table that asked answers `storage_busy`, its
lock free again. The statement is cancelled and abandoned, not awaited (how a write ends is
logged): one the server still commits later makes the table's next event find its number
taken (`Conflict`), as with SQLite.

Needs the `postgres` extra (psycopg and psycopg_pool).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from canasta.extras import install_command
from canasta.storage.base import Conflict, Crowded, LeaseRow, Limits, SeatRow, StorageBusy, TableRow, Timers

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

SCHEMA_VERSION = 1
SCHEMA_LOCK = 0x63616E61  # the advisory lock held while the schema is created ("cana")
LEASES_LOCK = "canasta_leases:"  # with a prefix, the advisory lock held while its leases are counted
POOL_SIZE = 8
CONNECT_TIMEOUT = 5  # seconds
STORE_TIMEOUT = 5.0  # seconds any query may take before it fails with StorageBusy
T = TypeVar("T")
log = logging.getLogger("canasta.storage")

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS canasta_schema (version integer NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS canasta_tables (
        table_id text PRIMARY KEY,
        settings json NOT NULL,
        created timestamptz NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE IF NOT EXISTS canasta_seats (
        table_id text NOT NULL REFERENCES canasta_tables (table_id),
        seat integer NOT NULL,
        name text,
        token_hash text,
        PRIMARY KEY (table_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS canasta_events (
        table_id text NOT NULL REFERENCES canasta_tables (table_id),
        seq integer NOT NULL,
        event json NOT NULL,
        PRIMARY KEY (table_id, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS canasta_reviews (
        table_id text NOT NULL REFERENCES canasta_tables (table_id),
        key text NOT NULL,
        review json NOT NULL,
        PRIMARY KEY (table_id, key)
    )""",
    """CREATE TABLE IF NOT EXISTS canasta_leases (
        name text PRIMARY KEY,
        holder text NOT NULL,
        serial bigint NOT NULL,
        data json NOT NULL
    )""",
]


def one_line(exc: BaseException) -> str:
    """An error's text on one line (libpq's messages span several)."""
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def connect_options(url: str) -> dict[str, Any]:
    """Keyword arguments for psycopg's connect: a connection timeout unless the URL sets one."""
    return {} if "connect_timeout" in url else {"connect_timeout": CONNECT_TIMEOUT}


def import_psycopg() -> Any:
    """The psycopg module, or ValueError telling how to install it."""
    try:
        import psycopg
        import psycopg_pool  # noqa: F401
    except ImportError as exc:
        raise ValueError(
            f"PostgreSQL needs {exc.name}, which is not installed: {install_command('postgres')}"
        ) from None
    return psycopg


def _ended(waiting: asyncio.Future[None], _: object) -> None:
    if not waiting.done():
        waiting.set_result(None)


def _give_up(task: asyncio.Task[Any], waiting: asyncio.Future[None], late: list[bool]) -> None:
    """The time of a write is up: stop waiting for it, and cancel it."""
    if not task.done():
        late.append(True)
        waiting.cancel()
        task.cancel()


def _ended_late(task: asyncio.Task[Any]) -> None:
    """A write given up on (`StorageBusy`) has ended: say how."""
    error = None if task.cancelled() else task.exception()
    outcome = "cancelled" if task.cancelled() else "done after all" if error is None else f"failed ({error})"
    log.warning("a write to the database given up on after %g s: %s", STORE_TIMEOUT, outcome)


async def _leases(db: AsyncConnection[Any], prefix: str) -> dict[str, LeaseRow]:
    """The leases whose names start with `prefix`."""
    cursor = await db.execute(
        "SELECT name, holder, serial, data FROM canasta_leases WHERE left(name, %s) = %s",
        (len(prefix), prefix),
    )
    rows = await cursor.fetchall()
    return {name: LeaseRow(holder, serial, dict(data)) for name, holder, serial, data in rows}


class PostgresStorage:
    """The `Storage` interface on a PostgreSQL database (`postgresql://user@host:port/dbname`).
    `timers`: where the time limit of a write is measured (default: the event loop's clock).

    Raises ValueError, with the reason on one line, when the database cannot be reached or holds
    another schema than this server knows.
    """

    def __init__(self, url: str, pool_size: int = POOL_SIZE, timers: Timers | None = None) -> None:
        psycopg = import_psycopg()
        self._url, self._pool_size, self._timers = url, pool_size, timers
        self._abandoned: set[asyncio.Task[Any]] = set()  # writes given up on, not yet ended
        self._pool: AsyncConnectionPool | None = None
        self._opening = asyncio.Lock()
        try:
            with psycopg.connect(url, **connect_options(url)) as db, db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                for statement in SCHEMA:
                    db.execute(statement)
                row = db.execute("SELECT version FROM canasta_schema").fetchone()
                if row is None:
                    db.execute("INSERT INTO canasta_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
                elif row[0] != SCHEMA_VERSION:
                    raise ValueError(f"database schema {row[0]}, this server knows {SCHEMA_VERSION}")
        except psycopg.Error as exc:
            raise ValueError(f"cannot open the PostgreSQL database: {one_line(exc)}") from None

    async def _connections(self) -> AsyncConnectionPool:
        async with self._opening:
            if self._pool is None:
                from psycopg_pool import AsyncConnectionPool

                pool = AsyncConnectionPool(
                    self._url,
                    kwargs={"autocommit": True, **connect_options(self._url)},
                    min_size=1,
                    max_size=self._pool_size,
                    open=False,
                )
                await pool.open(wait=True, timeout=CONNECT_TIMEOUT * 2)
                self._pool = pool
            return self._pool

    def _call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Any:
        if self._timers is not None:
            return self._timers.call_later(delay, callback, *args)
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    async def _limited(self, call: Callable[..., Awaitable[T]], *args: Any, write: bool = True) -> T:
        """`await call(*args)` within `STORE_TIMEOUT`, else StorageBusy at once: the query is
        cancelled and left to end by itself (a hung server may not even answer the
        cancellation), and how a write ends is logged."""
        task: asyncio.Task[T] = asyncio.ensure_future(call(*args))
        waiting: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task.add_done_callback(functools.partial(_ended, waiting))
        late: list[bool] = []
        timer = self._call_later(STORE_TIMEOUT, _give_up, task, waiting, late)
        try:
            await waiting
        except asyncio.CancelledError:
            if not late:  # the caller was cancelled, not the write
                task.cancel()
                raise
            self._abandoned.add(task)
            task.add_done_callback(self._abandoned.discard)
            if write:
                task.add_done_callback(_ended_late)
            raise StorageBusy(f"the database did not answer within {STORE_TIMEOUT:g} s") from None
        finally:
            timer.cancel()
        return task.result()

    async def _read(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return await self._limited(self._execute, query, params, write=False)

    async def _execute(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run one statement; its rows (none for a statement that returns none)."""
        pool = await self._connections()
        async with pool.connection() as db:
            cursor = await db.execute(query, params)
            return await cursor.fetchall() if cursor.description is not None else []

    async def create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
        await self._limited(self._create_table, table_id, settings, seats)

    async def _create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
        from psycopg.types.json import Json

        pool = await self._connections()
        async with pool.connection() as db, db.transaction():
            await db.execute(
                "INSERT INTO canasta_tables (table_id, settings) VALUES (%s, %s)", (table_id, Json(settings))
            )
            await db.execute(
                "INSERT INTO canasta_seats (table_id, seat) SELECT %s, generate_series(0, %s - 1)",
                (table_id, seats),
            )

    async def load_table(self, table_id: str) -> TableRow | None:
        rows = await self._read("SELECT settings FROM canasta_tables WHERE table_id = %s", (table_id,))
        if not rows:
            return None
        seats = await self._read(
            "SELECT seat, name, token_hash FROM canasta_seats WHERE table_id = %s ORDER BY seat", (table_id,)
        )
        return TableRow(table_id, rows[0][0], tuple(SeatRow(*s) for s in seats))

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        # One statement: a concurrent taker waits for the row lock, then finds the seat taken.
        rows = await self._limited(
            self._execute,
            "UPDATE canasta_seats SET name = %s, token_hash = %s"
            " WHERE table_id = %s AND seat = %s AND token_hash IS NULL RETURNING seat",
            (name, token_hash, table_id, seat),
        )
        return len(rows) == 1

    async def release_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        rows = await self._limited(
            self._execute,
            "UPDATE canasta_seats SET name = NULL, token_hash = NULL"
            " WHERE table_id = %s AND seat = %s AND token_hash = %s RETURNING seat",
            (table_id, seat, token_hash),
        )
        return len(rows) == 1

    async def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        from psycopg.errors import UniqueViolation
        from psycopg.types.json import Json

        try:
            await self._limited(
                self._execute,
                "INSERT INTO canasta_events (table_id, seq, event) VALUES (%s, %s, %s)",
                (table_id, seq, Json(event)),
            )
        except UniqueViolation as exc:
            raise Conflict(f"table {table_id}: event {seq} exists") from exc

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._read(
            "SELECT seq, event FROM canasta_events WHERE table_id = %s AND seq > %s ORDER BY seq",
            (table_id, after),
        )
        return [(seq, event) for seq, event in rows]

    async def save_review(self, table_id: str, key: str, review: dict[str, Any]) -> None:
        from psycopg.types.json import Json

        await self._limited(
            self._execute,
            "INSERT INTO canasta_reviews (table_id, key, review) VALUES (%s, %s, %s)"
            " ON CONFLICT (table_id, key) DO UPDATE SET review = EXCLUDED.review",
            (table_id, key, Json(review)),
        )

    async def load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        rows = await self._read(
            "SELECT review FROM canasta_reviews WHERE table_id = %s AND key = %s", (table_id, key)
        )
        return dict(rows[0][0]) if rows else None

    async def lease(
        self, name: str, holder: str, seen: tuple[str, int] | None, data: dict[str, Any], limits: Limits = ()
    ) -> LeaseRow | None:
        return await self._limited(self._lease, name, holder, seen, data, limits)

    async def _lease(
        self,
        name: str,
        holder: str,
        seen: tuple[str, int] | None,
        data: dict[str, Any],
        limits: Limits,
    ) -> LeaseRow | None:
        from psycopg.types.json import Json

        was_holder, was_serial = seen if seen is not None else (None, None)
        pool = await self._connections()
        async with pool.connection() as db, db.transaction():
            if limits:
                # Those counting a prefix's leases wait for one another, each then seeing the
                # leases the one before took (every statement reads what was committed before it).
                for prefix in sorted({prefix for prefix, _ in limits}):
                    await db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (LEASES_LOCK + prefix,))
                cursor = await db.execute("SELECT 1 FROM canasta_leases WHERE name = %s", (name,))
                if await cursor.fetchone() is None:
                    for prefix, most in limits:
                        if len(await _leases(db, prefix)) >= most:
                            raise Crowded(prefix)
            cursor = await db.execute(
                "INSERT INTO canasta_leases (name, holder, serial, data) VALUES (%s, %s, 1, %s)"
                " ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder,"
                " serial = canasta_leases.serial + 1, data = EXCLUDED.data"
                " WHERE canasta_leases.holder = %s AND canasta_leases.serial = %s"
                " RETURNING holder, serial, data",
                (name, holder, Json(data), was_holder, was_serial),
            )
            row = await cursor.fetchone()
            if row is None:  # not granted: the lease as another holds it
                cursor = await db.execute(
                    "SELECT holder, serial, data FROM canasta_leases WHERE name = %s", (name,)
                )
                row = await cursor.fetchone()
        return None if row is None else LeaseRow(row[0], row[1], dict(row[2]))

    async def load_lease(self, name: str) -> LeaseRow | None:
        rows = await self._read("SELECT holder, serial, data FROM canasta_leases WHERE name = %s", (name,))
        return LeaseRow(rows[0][0], rows[0][1], dict(rows[0][2])) if rows else None

    async def leases(self, prefix: str) -> dict[str, LeaseRow]:
        return await self._limited(self._prefixed, prefix, write=False)

    async def _prefixed(self, prefix: str) -> dict[str, LeaseRow]:
        pool = await self._connections()
        async with pool.connection() as db:
            return await _leases(db, prefix)

    async def release(self, name: str, holder: str) -> None:
        await self._limited(
            self._execute, "DELETE FROM canasta_leases WHERE name = %s AND holder = %s", (name, holder)
        )

    async def close(self) -> None:
        if self._abandoned:  # cancelled already: each ends when the server answers its cancellation
            await asyncio.wait(self._abandoned, timeout=CONNECT_TIMEOUT)
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
