"""Storage in one SQLite file (the standard library's `sqlite3`), the zero-set-up default.

Writes are single statements in autocommit mode with the write-ahead log, so an event is in the
file before `append` returns and survives the server process being killed at any moment. Every
call runs in a worker thread of its own, one after the other, so that the event loop never
waits on the disk: while another process holds the write lock (for up to `BUSY_TIMEOUT_MS`)
or the disk stalls, only the requests that store or load wait, and the server goes on reading,
chatting and answering meanwhile. Every `CHECKPOINT_EVERY` events a checkpoint copies the log
into the database (and waits for the disk) on a connection of its own in another thread, and
then the worker copies the little written meanwhile and empties the log, which so stays a few
megabytes however fast the tables play.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

from canasta.storage.base import Conflict, SeatRow, TableRow

SCHEMA_VERSION = 1
CHECKPOINT_EVERY = 500  # events appended between checkpoints
BUSY_TIMEOUT_MS = 5000
TABLES = {"tables", "seats", "events"}
T = TypeVar("T")

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
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    key TEXT NOT NULL,
    review TEXT NOT NULL,
    PRIMARY KEY (table_id, key)
) WITHOUT ROWID;
"""


def check_database(db: sqlite3.Connection, path: str) -> int:
    """The schema version of an open database file, after SQLite's quick check of every page;
    ValueError, in one line saying what to do, for a damaged file or another program's."""
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise ValueError(f"{path} is not a Canasta database or is damaged ({exc})") from None
    if problems != ["ok"]:
        advice = "restore a backup (see canasta backup) or start from a new file"
        raise ValueError(f"{path} is damaged ({' '.join(problems[0].split())}): {advice}")
    if version not in (0, SCHEMA_VERSION):
        raise ValueError(f"{path}: database schema {version}, this server knows {SCHEMA_VERSION}")
    if (version == 0 and names) or (version == SCHEMA_VERSION and not names >= TABLES):
        raise ValueError(f"{path} is not a Canasta database (it holds other tables): choose another file")
    return version


def _check_writable(path: Path) -> None:
    """ValueError, in one line, when the server could not write the database file or, beside
    it, the `-wal` and `-shm` files that SQLite keeps."""
    for what, where in ((path, path), (path.parent, path.parent)):
        if where.exists() and not os.access(where, os.W_OK):
            kind = "file" if what == path else "directory"
            raise ValueError(
                f"the database {kind} {where} is read-only: the server writes the database and,"
                " in its directory, the files of its log (-wal, -shm)"
            )


class SQLiteStorage:
    """The `Storage` interface on an SQLite file (or `:memory:`). A file that exists must be a
    sound Canasta database (`check_database`); an empty file is refused too, since an empty
    database would start the server with none of its tables."""

    def __init__(self, path: str | Path) -> None:
        self._path = str(path)
        if self._path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if Path(path).is_file() and Path(path).stat().st_size == 0:
                raise ValueError(
                    f"{path} is an empty file, not a Canasta database: remove it to start afresh"
                )
            _check_writable(Path(path))
        self._db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            check_database(self._db, self._path)
        except ValueError:
            self._db.close()
            raise
        self._appended = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        try:
            self._wal = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._db.executescript(SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.OperationalError as exc:  # a read-only file system, say
            self._db.close()
            raise ValueError(f"cannot write the database {path}: {exc}") from None

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` in the worker thread, the event loop waiting for it without blocking."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, call, *args)

    async def create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
        await self._run(self._create_table, table_id, json.dumps(settings), seats)

    def _create_table(self, table_id: str, settings: str, seats: int) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO tables (table_id, settings) VALUES (?, ?)", (table_id, settings))
            self._db.executemany(
                "INSERT INTO seats (table_id, seat) VALUES (?, ?)", [(table_id, s) for s in range(seats)]
            )

    async def load_table(self, table_id: str) -> TableRow | None:
        return await self._run(self._load_table, table_id)

    def _load_table(self, table_id: str) -> TableRow | None:
        row = self._db.execute("SELECT settings FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        seats = self._db.execute(
            "SELECT seat, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ).fetchall()
        return TableRow(table_id, json.loads(row[0]), tuple(SeatRow(*s) for s in seats))

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        return await self._run(
            self._changed_one,
            "UPDATE seats SET name = ?, token_hash = ?"
            " WHERE table_id = ? AND seat = ? AND token_hash IS NULL",
            (name, token_hash, table_id, seat),
        )

    async def release_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        return await self._run(
            self._changed_one,
            "UPDATE seats SET name = NULL, token_hash = NULL"
            " WHERE table_id = ? AND seat = ? AND token_hash = ?",
            (table_id, seat, token_hash),
        )

    def _changed_one(self, statement: str, values: tuple[Any, ...]) -> bool:
        return bool(self._db.execute(statement, values).rowcount == 1)

    async def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        await self._run(self._append, table_id, seq, json.dumps(event, separators=(",", ":")))
        self._appended += 1
        if self._wal and self._appended % CHECKPOINT_EVERY == 0 and self._checkpoint is None:
            self._checkpoint = asyncio.create_task(self._copy_log())
            self._checkpoint.add_done_callback(self._checkpointed)

    def _append(self, table_id: str, seq: int, event: str) -> None:
        try:
            self._db.execute(
                "INSERT INTO events (table_id, seq, event) VALUES (?, ?, ?)", (table_id, seq, event)
            )
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"table {table_id}: event {seq} exists") from exc

    async def _copy_log(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._checkpoint_log)
        await self._run(self._restart_log)

    def _checkpoint_log(self) -> None:
        with closing(sqlite3.connect(self._path, timeout=5)) as db:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _checkpointed(self, done: asyncio.Task[None]) -> None:
        self._checkpoint = None
        done.result()  # a failed checkpoint is reported (and the next one tries again)

    def _restart_log(self) -> None:
        """Copy what is left of the log (little, after a passive checkpoint) and empty it, so that
        it stays small however fast tables play; skipped (no waiting) while another connection
        reads, and tried again at the next checkpoint."""
        self._db.execute("PRAGMA busy_timeout=0")
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        return await self._run(self._events, table_id, after)

    def _events(self, table_id: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        rows = self._db.execute(
            "SELECT seq, event FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after)
        ).fetchall()
        return [(seq, json.loads(text)) for seq, text in rows]

    async def save_review(self, table_id: str, key: str, review: dict[str, Any]) -> None:
        await self._run(self._save_review, table_id, key, json.dumps(review, separators=(",", ":")))

    def _save_review(self, table_id: str, key: str, review: str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO reviews (table_id, key, review) VALUES (?, ?, ?)", (table_id, key, review)
        )

    async def load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        return await self._run(self._load_review, table_id, key)

    def _load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        row = self._db.execute(
            "SELECT review FROM reviews WHERE table_id = ? AND key = ?", (table_id, key)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    async def close(self) -> None:
        if self._checkpoint is not None:
            await asyncio.wait({self._checkpoint})
        await self._run(self._db.close)
        self._worker.shutdown()


def backup(source: Path, target: Path) -> int:
    """Copy a database, even one a server is writing to, with SQLite's online backup (a
    consistent copy of one moment); returns the number of tables copied. ValueError, in one
    line, for a missing or damaged source or a target that exists (nothing is overwritten)."""
    if not source.is_file():
        raise ValueError(f"there is no database at {source}")
    if target.exists():
        raise ValueError(f"{target} exists: give the name of a new file")
    if not target.parent.is_dir():
        raise ValueError(f"the directory {target.parent} does not exist")
    with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)) as db:
        check_database(db, str(source))
        try:
            with closing(sqlite3.connect(target)) as copy:
                db.backup(copy)
                check_database(copy, str(target))
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        count: int = db.execute("SELECT count(*) FROM tables").fetchone()[0]
    return count
