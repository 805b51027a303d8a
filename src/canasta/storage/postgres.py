"""Storage in PostgreSQL (psycopg 3), for several server processes sharing one database.

The same tables as SQLite, prefixed `canasta_`. Opening checks that the server can be reached
and creates the schema (under an advisory lock, so processes starting together do not race),
with a short synchronous connection; the queries then run on a pool of asynchronous
connections opened on first use, in the event loop that uses them. Every write is one
statement in autocommit mode (creating a table is one transaction): an event is committed
before `append` returns, and the primary key (table_id, seq) makes a second writer of the same
event number fail with `Conflict`.

Needs the `postgres` extra (psycopg and psycopg_pool).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from canasta.extras import install_command
from canasta.storage.base import Conflict, SeatRow, TableRow

if TYPE_CHECKING:
    from psycopg_pool import AsyncConnectionPool

SCHEMA_VERSION = 1
SCHEMA_LOCK = 0x63616E61  # the advisory lock held while the schema is created ("cana")
POOL_SIZE = 8
CONNECT_TIMEOUT = 5  # seconds

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


class PostgresStorage:
    """The `Storage` interface on a PostgreSQL database (`postgresql://user@host:port/dbname`).

    Raises ValueError, with the reason on one line, when the database cannot be reached or holds
    another schema than this server knows.
    """

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        psycopg = import_psycopg()
        self._url, self._pool_size = url, pool_size
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

    async def _execute(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run one statement; its rows (none for a statement that returns none)."""
        pool = await self._connections()
        async with pool.connection() as db:
            cursor = await db.execute(query, params)
            return await cursor.fetchall() if cursor.description is not None else []

    async def create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
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
        rows = await self._execute("SELECT settings FROM canasta_tables WHERE table_id = %s", (table_id,))
        if not rows:
            return None
        seats = await self._execute(
            "SELECT seat, name, token_hash FROM canasta_seats WHERE table_id = %s ORDER BY seat", (table_id,)
        )
        return TableRow(table_id, rows[0][0], tuple(SeatRow(*s) for s in seats))

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        # One statement: a concurrent taker waits for the row lock, then finds the seat taken.
        rows = await self._execute(
            "UPDATE canasta_seats SET name = %s, token_hash = %s"
            " WHERE table_id = %s AND seat = %s AND token_hash IS NULL RETURNING seat",
            (name, token_hash, table_id, seat),
        )
        return len(rows) == 1

    async def release_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        rows = await self._execute(
            "UPDATE canasta_seats SET name = NULL, token_hash = NULL"
            " WHERE table_id = %s AND seat = %s AND token_hash = %s RETURNING seat",
            (table_id, seat, token_hash),
        )
        return len(rows) == 1

    async def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        from psycopg.errors import UniqueViolation
        from psycopg.types.json import Json

        try:
            await self._execute(
                "INSERT INTO canasta_events (table_id, seq, event) VALUES (%s, %s, %s)",
                (table_id, seq, Json(event)),
            )
        except UniqueViolation as exc:
            raise Conflict(f"table {table_id}: event {seq} exists") from exc

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._execute(
            "SELECT seq, event FROM canasta_events WHERE table_id = %s AND seq > %s ORDER BY seq",
            (table_id, after),
        )
        return [(seq, event) for seq, event in rows]

    async def save_review(self, table_id: str, key: str, review: dict[str, Any]) -> None:
        from psycopg.types.json import Json

        await self._execute(
            "INSERT INTO canasta_reviews (table_id, key, review) VALUES (%s, %s, %s)"
            " ON CONFLICT (table_id, key) DO UPDATE SET review = EXCLUDED.review",
            (table_id, key, Json(review)),
        )

    async def load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        rows = await self._execute(
            "SELECT review FROM canasta_reviews WHERE table_id = %s AND key = %s", (table_id, key)
        )
        return dict(rows[0][0]) if rows else None

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
