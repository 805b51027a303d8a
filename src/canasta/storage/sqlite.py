"""Storage in one SQLite file (the standard library's `sqlite3`), the zero-set-up default.

Writes are single statements in autocommit mode with the write-ahead log, so an event is in the
file before `append` returns and survives the server process being killed at any moment. The
calls are short and made on the event loop's thread (the file is local); the occasional
checkpoint that copies the log into the database (and waits for the disk) runs in a worker
thread on a connection of its own, so that it never stalls the server.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from canasta.storage.base import Conflict, SeatRow, TableRow

SCHEMA_VERSION = 1
CHECKPOINT_EVERY = 1000  # events appended between checkpoints

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    seat INTEGER NOT NULL,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""


class SQLiteStorage:
    """The `Storage` interface on an SQLite file (or `:memory:`)."""

    def __init__(self, path: str | Path) -> None:
        self._path = str(path)
        if self._path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        self._wal = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._appended = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise RuntimeError(f"{path}: database schema {version}, this server knows {SCHEMA_VERSION}")
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    async def create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (table_id, settings) VALUES (?, ?)", (table_id, json.dumps(settings))
            )
            self._db.executemany(
                "INSERT INTO seats (table_id, seat) VALUES (?, ?)", [(table_id, s) for s in range(seats)]
            )

    async def load_table(self, table_id: str) -> TableRow | None:
        row = self._db.execute("SELECT settings FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        seats = self._db.execute(
            "SELECT seat, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ).fetchall()
        return TableRow(table_id, json.loads(row[0]), tuple(SeatRow(*s) for s in seats))

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        cursor = self._db.execute(
            "UPDATE seats SET name = ?, token_hash = ?"
            " WHERE table_id = ? AND seat = ? AND token_hash IS NULL",
            (name, token_hash, table_id, seat),
        )
        return cursor.rowcount == 1

    async def release_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        cursor = self._db.execute(
            "UPDATE seats SET name = NULL, token_hash = NULL"
            " WHERE table_id = ? AND seat = ? AND token_hash = ?",
            (table_id, seat, token_hash),
        )
        return cursor.rowcount == 1

    async def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        try:
            self._db.execute(
                "INSERT INTO events (table_id, seq, event) VALUES (?, ?, ?)",
                (table_id, seq, json.dumps(event, separators=(",", ":"))),
            )
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"table {table_id}: event {seq} exists") from exc
        self._appended += 1
        if self._wal and self._appended % CHECKPOINT_EVERY == 0 and self._checkpoint is None:
            self._checkpoint = asyncio.get_running_loop().run_in_executor(None, self._copy_log)
            self._checkpoint.add_done_callback(self._checkpointed)

    def _copy_log(self) -> None:
        with closing(sqlite3.connect(self._path, timeout=5)) as db:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _checkpointed(self, done: asyncio.Future[None]) -> None:
        self._checkpoint = None
        done.result()  # a failed checkpoint is reported (and the next one tries again)

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        rows = self._db.execute(
            "SELECT seq, event FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after)
        ).fetchall()
        return [(seq, json.loads(text)) for seq, text in rows]

    async def close(self) -> None:
        if self._checkpoint is not None:
            await self._checkpoint
        self._db.close()
