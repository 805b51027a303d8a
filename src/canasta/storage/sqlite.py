"""Storage in one SQLite file (the standard library's `sqlite3`), the zero-set-up default.

Writes are single statements in autocommit mode with the write-ahead log, so an event is in the
file before `append` returns and survives the server process being killed at any moment.

The event loop never waits on the disk: every call runs in a worker thread, events in one,
changes of tables and seats in another, reads in a third (with a connection each), so that
reading goes on while a write waits. While another program holds the database's write lock
(`sqlite3` in a shell, say), an event that cannot be written within `SPILL_AFTER_MS` is
appended to the file beside the database named `-pending` (as durable as the log: it survives
the process being killed), and so are the events after it until the lock is released; they are
copied into the database then (tried every `DRAIN_EVERY` seconds and before each event), at
the next start if the server stopped meanwhile, and into the copy `backup` makes. A table's
events are read from both. A change of seats or tables waits up to `BUSY_TIMEOUT_MS` for the
lock and then fails with `StorageBusy` (nothing changed); any write that takes more than
`STORE_TIMEOUT` seconds (a frozen disk) fails with `StorageBusy` too, measured on the server's
clock (`timers`).

Every `CHECKPOINT_EVERY` events a checkpoint copies the log into the database (and waits for
the disk) on a connection of its own in another thread, and then the events' worker copies
the little written meanwhile and empties the log, which so stays a few megabytes however fast
the tables play.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

from canasta.storage.base import Conflict, Crowded, LeaseRow, Limits, SeatRow, StorageBusy, TableRow, Timers

SCHEMA_VERSION = 1
CHECKPOINT_EVERY = 500  # events appended between checkpoints
BUSY_TIMEOUT_MS = 4000  # a change of tables or seats waits this long for another's write lock
SPILL_AFTER_MS = 50  # an event waits this long for it, then goes to the -pending file
STORE_TIMEOUT = 5.0  # seconds any write may take before it fails with StorageBusy
DRAIN_EVERY = 1.0  # seconds between tries to copy the pending events into the database
PENDING_SUFFIX = "-pending"
TABLES = {"tables", "seats", "events"}
T = TypeVar("T")
log = logging.getLogger("canasta.storage")

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
CREATE TABLE IF NOT EXISTS leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    serial INTEGER NOT NULL,
    data TEXT NOT NULL
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


def _leases(db: sqlite3.Connection, prefix: str) -> dict[str, LeaseRow]:
    """The leases whose names start with `prefix`."""
    rows = db.execute(
        "SELECT name, holder, serial, data FROM leases WHERE substr(name, 1, ?) = ?", (len(prefix), prefix)
    )
    return {name: LeaseRow(holder, serial, json.loads(data)) for name, holder, serial, data in rows}


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused for another connection's lock (not for a full disk, say)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def pending_events(path: Path) -> list[tuple[str, int, str]]:
    """The events of a database's `-pending` file (one JSON line each; a line cut short by a
    crash while it was written is skipped: that event was never acknowledged)."""
    spill = Path(f"{path}{PENDING_SUFFIX}")
    if not spill.is_file():
        return []
    rows = []
    for line in spill.read_bytes().splitlines():
        try:
            table_id, seq, event = json.loads(line)
        except ValueError:
            continue
        rows.append((str(table_id), int(seq), str(event)))
    return rows


def _insert_pending(db: sqlite3.Connection, rows: list[tuple[str, int, str]]) -> None:
    """Write pending events into a database in one transaction (those already there, copied
    before a crash emptied the file, are left as they are)."""
    with db:
        db.execute("BEGIN IMMEDIATE")
        db.executemany("INSERT OR IGNORE INTO events (table_id, seq, event) VALUES (?, ?, ?)", rows)


def _give_up(done: asyncio.Future[Any], late: list[bool]) -> None:
    """The time of a write is up: stop waiting for it."""
    if not done.done():
        late.append(True)
        done.cancel()


def _ended_late(running: Future[Any]) -> None:
    """A write given up on (`StorageBusy`) has ended, or was dropped before it began: say so."""
    if running.cancelled():
        outcome = "dropped before it began"
    else:
        error = running.exception()
        outcome = "done after all" if error is None else f"failed ({error})"
    log.warning("a write to the database given up on after %g s: %s", STORE_TIMEOUT, outcome)


class SQLiteStorage:
    """The `Storage` interface on an SQLite file (or `:memory:`). A file that exists must be a
    sound Canasta database (`check_database`); an empty file is refused too, since an empty
    database would start the server with none of its tables. `timers`: where the time limit
    of a write is measured (default: the event loop's clock)."""

    def __init__(self, path: str | Path, timers: Timers | None = None) -> None:
        self._path = str(path)
        self._memory = self._path == ":memory:"
        if not self._memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if Path(path).is_file() and Path(path).stat().st_size == 0:
                raise ValueError(
                    f"{path} is an empty file, not a Canasta database: remove it to start afresh"
                )
            _check_writable(Path(path))
        self._db = self._connect()
        try:
            check_database(self._db, self._path)
        except ValueError:
            self._db.close()
            raise
        self._timers = timers
        self._appended = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._pending: dict[tuple[str, int], str] = {}  # events in the -pending file, not yet in the database
        self._pending_lock = threading.Lock()  # between the events' worker and the readers
        self._spill = -1  # the -pending file, opened when first needed
        self._drain_timer: Any = None
        self._drains: set[asyncio.Task[None]] = set()
        self._drain_failed = False  # the last try to copy the pending events failed (logged)
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        try:
            self._wal = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
            self._setup(self._db, BUSY_TIMEOUT_MS)
            self._db.executescript(SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            if not self._memory:
                rows = pending_events(Path(self._path))
                if rows:  # the server stopped while another program held the lock
                    _insert_pending(self._db, rows)
                Path(self._path + PENDING_SUFFIX).unlink(missing_ok=True)
        except sqlite3.OperationalError as exc:  # a read-only file system, say
            self._db.close()
            raise ValueError(f"cannot write the database {path}: {exc}") from None
        if self._memory:  # one database, one connection
            self._changes, self._reader = self._db, self._db
            self._changes_worker = self._reader_worker = self._worker
        else:
            self._db.execute(f"PRAGMA busy_timeout={SPILL_AFTER_MS}")
            self._changes, self._reader = self._connect(), self._connect()
            self._setup(self._changes, BUSY_TIMEOUT_MS)
            self._setup(self._reader, BUSY_TIMEOUT_MS)
            self._changes_worker = ThreadPoolExecutor(1, thread_name_prefix="sqlite-changes")
            self._reader_worker = ThreadPoolExecutor(1, thread_name_prefix="sqlite-reads")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)

    @staticmethod
    def _setup(db: sqlite3.Connection, busy_ms: int) -> None:
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute(f"PRAGMA busy_timeout={busy_ms}")

    def _call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Any:
        if self._timers is not None:
            return self._timers.call_later(delay, callback, *args)
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    async def _write(self, worker: ThreadPoolExecutor, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` in a worker thread, within `STORE_TIMEOUT` (else StorageBusy; the call
        goes on in its thread, and how it ends is logged)."""
        running = worker.submit(call, *args)
        done = asyncio.wrap_future(running)
        late: list[bool] = []
        timer = self._call_later(STORE_TIMEOUT, _give_up, done, late)
        try:
            return await done
        except asyncio.CancelledError:
            if not late:
                raise
            running.add_done_callback(_ended_late)
            raise StorageBusy(f"the database did not answer within {STORE_TIMEOUT:g} s") from None
        finally:
            timer.cancel()

    async def _read(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reader_worker, call, *args)

    def _change(self, call: Callable[..., T]) -> Callable[..., T]:
        """`call` that fails with StorageBusy when another program's lock outlasts the wait."""

        def changing(*args: Any) -> T:
            try:
                return call(*args)
            except sqlite3.OperationalError as exc:
                if _busy(exc):
                    raise StorageBusy(f"the database is locked by another program ({exc})") from exc
                raise

        return changing

    async def create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
        await self._write(
            self._changes_worker, self._change(self._create_table), table_id, json.dumps(settings), seats
        )

    def _create_table(self, table_id: str, settings: str, seats: int) -> None:
        db = self._changes
        with db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO tables (table_id, settings) VALUES (?, ?)", (table_id, settings))
            db.executemany(
                "INSERT INTO seats (table_id, seat) VALUES (?, ?)", [(table_id, s) for s in range(seats)]
            )

    async def load_table(self, table_id: str) -> TableRow | None:
        return await self._read(self._load_table, table_id)

    def _load_table(self, table_id: str) -> TableRow | None:
        db = self._reader
        row = db.execute("SELECT settings FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        seats = db.execute(
            "SELECT seat, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ).fetchall()
        return TableRow(table_id, json.loads(row[0]), tuple(SeatRow(*s) for s in seats))

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        return await self._write(
            self._changes_worker,
            self._change(self._changed_one),
            "UPDATE seats SET name = ?, token_hash = ?"
            " WHERE table_id = ? AND seat = ? AND token_hash IS NULL",
            (name, token_hash, table_id, seat),
        )

    async def release_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        return await self._write(
            self._changes_worker,
            self._change(self._changed_one),
            "UPDATE seats SET name = NULL, token_hash = NULL"
            " WHERE table_id = ? AND seat = ? AND token_hash = ?",
            (table_id, seat, token_hash),
        )

    def _changed_one(self, statement: str, values: tuple[Any, ...]) -> bool:
        return bool(self._changes.execute(statement, values).rowcount == 1)

    async def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        await self._write(self._worker, self._append, table_id, seq, json.dumps(event, separators=(",", ":")))
        self._appended += 1
        if self._pending and self._drain_timer is None:
            self._drain_timer = self._call_later(DRAIN_EVERY, self._drain_soon)
        if self._wal and self._appended % CHECKPOINT_EVERY == 0 and self._checkpoint is None:
            self._checkpoint = asyncio.create_task(self._copy_log())
            self._checkpoint.add_done_callback(self._checkpointed)

    def _append(self, table_id: str, seq: int, event: str) -> None:
        if self._pending and not self._drain():
            self._keep_pending(table_id, seq, event)
            return
        try:
            self._db.execute(
                "INSERT INTO events (table_id, seq, event) VALUES (?, ?, ?)", (table_id, seq, event)
            )
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"table {table_id}: event {seq} exists") from exc
        except sqlite3.OperationalError as exc:
            if self._memory or not _busy(exc):
                raise
            self._keep_pending(table_id, seq, event)

    def _keep_pending(self, table_id: str, seq: int, event: str) -> None:
        """Append an event to the -pending file (the database is locked by another program)."""
        key = (table_id, seq)
        taken = self._db.execute("SELECT 1 FROM events WHERE table_id = ? AND seq = ?", key).fetchone()
        if key in self._pending or taken is not None:
            raise Conflict(f"table {table_id}: event {seq} exists")
        if self._spill < 0:
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
            self._spill = os.open(self._path + PENDING_SUFFIX, flags, 0o600)
        line = memoryview((json.dumps([table_id, seq, event], separators=(",", ":")) + "\n").encode())
        while line:
            line = line[os.write(self._spill, line) :]
        with self._pending_lock:
            self._pending[key] = event

    def _drain(self) -> bool:
        """Copy the pending events into the database, at once or not at all (the lock is still
        held); True when none is left pending."""
        rows = [(t, s, e) for (t, s), e in self._pending.items()]
        if not rows:
            return True
        self._db.execute("PRAGMA busy_timeout=0")
        try:
            _insert_pending(self._db, rows)
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                return False
            raise
        finally:
            self._db.execute(f"PRAGMA busy_timeout={SPILL_AFTER_MS}")
        with self._pending_lock:
            for table_id, seq, _ in rows:
                del self._pending[table_id, seq]
        os.ftruncate(self._spill, 0)
        return True

    def _drain_soon(self) -> None:
        self._drain_timer = None
        if self._pending:
            task = asyncio.get_running_loop().create_task(self._drain_now())
            self._drains.add(task)
            task.add_done_callback(self._drains.discard)

    async def _drain_now(self) -> None:
        """Try to copy the pending events now, and again later while they cannot be (a failure
        other than the lock, a full disk say, is logged once until they are copied)."""
        try:
            drained = await self._write(self._worker, self._drain)
        except StorageBusy:
            drained = False
        except Exception:
            if not self._drain_failed:
                log.exception(
                    "could not copy the pending events into %s (tried again every %g s)",
                    self._path,
                    DRAIN_EVERY,
                )
            self._drain_failed, drained = True, False
        if drained:
            self._drain_failed = False
        elif self._drain_timer is None:
            self._drain_timer = self._call_later(DRAIN_EVERY, self._drain_soon)

    async def _copy_log(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._checkpoint_log)
        await loop.run_in_executor(self._worker, self._restart_log)

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
            self._db.execute(f"PRAGMA busy_timeout={SPILL_AFTER_MS}")

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        return await self._read(self._events, table_id, after)

    def _events(self, table_id: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        with self._pending_lock:  # before the database: an event copied meanwhile is in both
            texts = {s: e for (t, s), e in self._pending.items() if t == table_id and s > after}
        rows = self._reader.execute(
            "SELECT seq, event FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after)
        ).fetchall()
        if not texts:
            return [(seq, json.loads(text)) for seq, text in rows]
        texts.update(rows)
        return [(seq, json.loads(texts[seq])) for seq in sorted(texts)]

    async def save_review(self, table_id: str, key: str, review: dict[str, Any]) -> None:
        text = json.dumps(review, separators=(",", ":"))
        await self._write(self._changes_worker, self._change(self._save_review), table_id, key, text)

    def _save_review(self, table_id: str, key: str, review: str) -> None:
        self._changes.execute(
            "INSERT OR REPLACE INTO reviews (table_id, key, review) VALUES (?, ?, ?)", (table_id, key, review)
        )

    async def load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        return await self._read(self._load_review, table_id, key)

    def _load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        row = self._reader.execute(
            "SELECT review FROM reviews WHERE table_id = ? AND key = ?", (table_id, key)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    async def lease(
        self, name: str, holder: str, seen: tuple[str, int] | None, data: dict[str, Any], limits: Limits = ()
    ) -> LeaseRow | None:
        text = json.dumps(data, separators=(",", ":"))
        return await self._write(
            self._changes_worker, self._change(self._lease), name, holder, seen, text, limits
        )

    def _lease(
        self,
        name: str,
        holder: str,
        seen: tuple[str, int] | None,
        data: str,
        limits: Limits,
    ) -> LeaseRow | None:
        db = self._changes
        was_holder, was_serial = seen if seen is not None else (None, None)
        with db:
            db.execute("BEGIN IMMEDIATE")  # the count and the taking in one write transaction
            if limits and db.execute("SELECT 1 FROM leases WHERE name = ?", (name,)).fetchone() is None:
                for prefix, most in limits:
                    if len(_leases(db, prefix)) >= most:
                        raise Crowded(prefix)
            db.execute(
                "INSERT INTO leases (name, holder, serial, data) VALUES (?, ?, 1, ?)"
                " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, serial = leases.serial + 1,"
                " data = excluded.data WHERE leases.holder = ? AND leases.serial = ?",
                (name, holder, data, was_holder, was_serial),
            )
            row = db.execute("SELECT holder, serial, data FROM leases WHERE name = ?", (name,)).fetchone()
        return None if row is None else LeaseRow(row[0], row[1], json.loads(row[2]))

    async def load_lease(self, name: str) -> LeaseRow | None:
        return await self._read(self._load_lease, name)

    def _load_lease(self, name: str) -> LeaseRow | None:
        row = self._reader.execute(
            "SELECT holder, serial, data FROM leases WHERE name = ?", (name,)
        ).fetchone()
        return None if row is None else LeaseRow(row[0], row[1], json.loads(row[2]))

    async def leases(self, prefix: str) -> dict[str, LeaseRow]:
        return await self._read(_leases, self._reader, prefix)

    async def release(self, name: str, holder: str) -> None:
        await self._write(
            self._changes_worker,
            self._change(self._changed_one),
            "DELETE FROM leases WHERE name = ? AND holder = ?",
            (name, holder),
        )

    async def close(self) -> None:
        if self._drain_timer is not None:
            self._drain_timer.cancel()
        if self._checkpoint is not None or self._drains:
            await asyncio.wait({*self._drains, *([self._checkpoint] if self._checkpoint else [])})
        loop = asyncio.get_running_loop()
        if self._pending:  # those still locked out stay in the -pending file for the next start
            await loop.run_in_executor(self._worker, self._drain)
        if self._spill >= 0:
            os.close(self._spill)
            if not self._pending:
                Path(self._path + PENDING_SUFFIX).unlink(missing_ok=True)
        if not self._memory:
            await loop.run_in_executor(self._changes_worker, self._changes.close)
            await loop.run_in_executor(self._reader_worker, self._reader.close)
            self._changes_worker.shutdown()
            self._reader_worker.shutdown()
        await loop.run_in_executor(self._worker, self._db.close)
        self._worker.shutdown()


def backup(source: Path, target: Path) -> int:
    """Copy a database, even one a server is writing to, with SQLite's online backup (a
    consistent copy of one moment) and the events of its `-pending` file; returns the number
    of tables copied. ValueError, in one line, for a missing or damaged source or a target
    that exists (nothing is overwritten)."""
    if not source.is_file():
        raise ValueError(f"there is no database at {source}")
    if target.exists():
        raise ValueError(f"{target} exists: give the name of a new file")
    if not target.parent.is_dir():
        raise ValueError(f"the directory {target.parent} does not exist")
    with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)) as db:
        check_database(db, str(source))
        try:
            with closing(sqlite3.connect(target, isolation_level=None)) as copy:
                db.backup(copy)
                check_database(copy, str(target))
                _insert_pending(copy, pending_events(source))  # acknowledged, not yet in the database
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        count: int = db.execute("SELECT count(*) FROM tables").fetchone()[0]
    return count
