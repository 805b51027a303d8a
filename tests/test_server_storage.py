"""Storage: tables, seats taken once, an append-only numbered event log (SQLite and PostgreSQL);
SQLite's files and URLs."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from canasta.cli.main import main
from canasta.storage import (
    Conflict,
    SeatRow,
    SQLiteStorage,
    StorageBusy,
    TableRow,
    default_db_path,
    open_storage,
)
from server_support import close_code, receive, running_server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database of each kind: a file in a new directory, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "sub" / "c.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_tables_seats_and_events(db_url: str) -> None:
    async def scenario() -> None:
        storage = open_storage(db_url)
        await storage.create_table("t1", {"variant": "classic"}, 2)
        assert await storage.load_table("nope") is None
        assert await storage.take_seat("t1", 1, "Ann", "hash-a")
        assert not await storage.take_seat("t1", 1, "Bob", "hash-b")
        await storage.append("t1", 1, {"kind": "deal"})
        await storage.append("t1", 2, {"kind": "action", "n": 2})
        with pytest.raises(Conflict):
            await storage.append("t1", 2, {"kind": "action", "n": "other"})
        await storage.close()

        reopened = open_storage(db_url)
        assert await reopened.load_table("t1") == TableRow(
            "t1", {"variant": "classic"}, (SeatRow(0, None, None), SeatRow(1, "Ann", "hash-a"))
        )
        assert await reopened.events("t1") == [(1, {"kind": "deal"}), (2, {"kind": "action", "n": 2})]
        assert await reopened.events("t1", after=1) == [(2, {"kind": "action", "n": 2})]
        # a person leaves: only the holder of the seat's token frees it, then anyone may take it
        assert not await reopened.release_seat("t1", 1, "hash-b")
        assert not await reopened.release_seat("t1", 0, "hash-a")
        assert await reopened.release_seat("t1", 1, "hash-a")
        assert (await reopened.load_table("t1")).seats[1] == SeatRow(1, None, None)  # type: ignore[union-attr]
        assert await reopened.take_seat("t1", 1, "Bob", "hash-b")
        await reopened.close()

    asyncio.run(scenario())


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(ValueError, match="schema 99"):
        SQLiteStorage(path)


def test_database_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for url in (f"sqlite:///{tmp_path}/a.db", str(tmp_path / "b.db"), "sqlite://:memory:"):
        asyncio.run(open_storage(url).close())
    assert (tmp_path / "a.db").exists() and (tmp_path / "b.db").exists()
    with pytest.raises(ValueError, match="unsupported database URL"):
        open_storage("mysql://localhost/canasta")
    monkeypatch.setenv("CANASTA_DB", str(tmp_path / "env.db"))
    assert default_db_path() == tmp_path / "env.db"
    monkeypatch.delenv("CANASTA_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "canasta" / "canasta.db"
    asyncio.run(open_storage(None).close())
    assert default_db_path().exists()


def test_the_log_is_copied_to_the_database_by_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("canasta.storage.sqlite.CHECKPOINT_EVERY", 3)
    path = tmp_path / "c.db"

    async def scenario() -> None:
        storage = SQLiteStorage(path)
        await storage.create_table("t", {}, 1)
        empty = path.stat().st_size
        for seq in (1, 2):
            await storage.append("t", seq, {"n": seq})
        assert storage._checkpoint is None and path.stat().st_size == empty
        await storage.append("t", 3, {"n": 3})
        assert storage._checkpoint is not None
        await storage._checkpoint
        assert path.stat().st_size > empty  # the tables' pages are in the database file now
        await storage.close()

    asyncio.run(scenario())


def test_serve_refuses_a_database_it_cannot_open(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "mysql://localhost/canasta"]) == 2
    assert capsys.readouterr().err == (
        "canasta serve: unsupported database URL 'mysql://localhost/canasta': "
        "use sqlite:///path/to/file.db, a file path or postgresql://user@host/dbname\n"
    )


def test_the_log_is_emptied_after_each_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many events came while the worker copied the log, it starts again from nothing."""
    monkeypatch.setattr("canasta.storage.sqlite.CHECKPOINT_EVERY", 100)
    path, wal = tmp_path / "c.db", tmp_path / "c.db-wal"
    event = {"kind": "deal", "deck": ["KS"] * 108}

    copying = threading.Event()
    checkpoint_log = SQLiteStorage._checkpoint_log

    def slow_copy(storage: SQLiteStorage) -> None:
        copying.wait(10)  # a slow disk: events keep coming meanwhile
        checkpoint_log(storage)

    monkeypatch.setattr(SQLiteStorage, "_checkpoint_log", slow_copy)

    async def scenario() -> None:
        storage = SQLiteStorage(path)
        await storage.create_table("t", {}, 1)
        for seq in range(1, 351):  # the worker copies from the 100th; the loop never waits meanwhile
            await storage.append("t", seq, event)
        assert wal.stat().st_size > 1_000_000 and storage._checkpoint is not None
        copying.set()
        await storage._checkpoint
        assert wal.stat().st_size == 0
        assert len(await storage.events("t")) == 350
        await storage.close()

    asyncio.run(scenario())


def _damaged(path: Path) -> None:
    """A database with one page overwritten in the middle."""

    async def fill() -> None:
        storage = SQLiteStorage(path)
        for t in range(30):
            await storage.create_table(f"t{t:02d}", {"variant": "classic"}, 2)
            for seq in range(1, 30):
                await storage.append(f"t{t:02d}", seq, {"kind": "deal", "deck": ["KS"] * 108})
        await storage.close()

    asyncio.run(fill())
    with path.open("r+b") as file:
        file.seek(4096 * (path.stat().st_size // 4096 // 2))
        file.write(b"\xde\xad" * 2048)


def _foreign(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.commit()


def _newer(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version = 99")


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda path: path.write_bytes(b""), "is an empty file, not a Canasta database"),
        (lambda path: path.write_text("hello\n"), "is not a Canasta database or is damaged"),
        (_foreign, "is not a Canasta database (it holds other tables)"),
        (_damaged, "is not a Canasta database or is damaged (database disk image is malformed)"),
        (_newer, "database schema 99, this server knows 1"),
    ],
)
def test_serve_refuses_a_damaged_or_foreign_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, says: str
) -> None:
    path = tmp_path / "canasta.db"
    make(path)
    before = path.read_bytes()
    assert main(["serve", "--db", str(path), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"canasta serve: {path}") and says in err and err.count("\n") == 1, err
    assert path.read_bytes() == before


@pytest.mark.parametrize("read_only", ["file", "directory"])
def test_serve_names_a_database_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, read_only: str
) -> None:
    """As a user without the right to write it sees it (the tests may run as root, who has it)."""
    path = tmp_path / "canasta.db"
    asyncio.run(SQLiteStorage(path).close())
    where = path if read_only == "file" else tmp_path
    monkeypatch.setattr("canasta.storage.sqlite.os.access", lambda p, mode: Path(p) != where)
    assert main(["serve", "--db", str(path), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err == f"canasta serve: the database {read_only} {where} is read-only: the server writes the" \
        " database and, in its directory, the files of its log (-wal, -shm)\n"


def test_serve_says_when_it_creates_the_database_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new" / "dir" / "canasta.db"
    assert main(["serve", "--db", str(path), "--broker", "carrier-pigeon://x"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"canasta serve: creating the directory {path.parent} for the database canasta.db"
    assert path.exists()


def test_backup_copies_a_live_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "live.db", tmp_path / "copy.db"

    async def scenario() -> None:
        live = SQLiteStorage(source)  # a server's connection stays open, with events in its log
        for t in ("t1", "t2"):
            await live.create_table(t, {"variant": "classic"}, 2)
            await live.append(t, 1, {"kind": "deal"})
        assert main(["backup", "--db", f"sqlite://{source}", str(target)]) == 0
        await live.append("t1", 2, {"kind": "rematch"})  # after the copy: not in it
        copy = SQLiteStorage(target)
        assert await copy.events("t1") == [(1, {"kind": "deal"})]
        assert await copy.load_table("t2") is not None
        await copy.close()
        await live.close()

    asyncio.run(scenario())
    assert capsys.readouterr().out == f"canasta backup: 2 tables copied from {source} to {target}\n"
    assert main(["backup", "--db", str(source), str(target)]) == 2
    assert capsys.readouterr().err == f"canasta backup: {target} exists: give the name of a new file\n"
    assert main(["backup", "--db", str(tmp_path / "none.db"), str(tmp_path / "c2.db")]) == 2
    assert "there is no database at" in capsys.readouterr().err
    _damaged(tmp_path / "bad.db")
    assert main(["backup", "--db", str(tmp_path / "bad.db"), str(tmp_path / "c3.db")]) == 2
    assert "damaged" in capsys.readouterr().err and not (tmp_path / "c3.db").exists()
    assert main(["backup", "--db", "postgresql://canasta@db/canasta", str(tmp_path / "c4.db")]) == 2
    assert "pg_dump 'postgresql://canasta@db/canasta'" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["99999", "-1", "0", "80a", "٣"])
def test_serve_refuses_a_port_that_is_not_one(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", port])
    assert exit_.value.code == 2
    assert (
        f"argument --port: {port!r} is not a port: give a whole number from 1 to 65535"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("limit", "says"),
    [
        ("rate=inf", "limit rate: expected a positive number, not 'inf'"),
        ("burst=0", "limit burst: expected a positive number, not '0'"),
        ("hello_timeout=soon", "limit hello_timeout: expected a number, not 'soon'"),
        ("burst=2.5", "limit burst: expected a whole number, not '2.5'"),
        ("tables=5", "unknown limit 'tables' (known: max_message, rate, burst,"),
        ("rate", "--limit 'rate': expected NAME=VALUE"),
    ],
)
def test_serve_refuses_a_bad_limit(
    tmp_path: Path, limit: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "c.db"), "--limit", limit]) == 2
    assert capsys.readouterr().err.startswith(f"canasta serve: {says}")


def test_a_table_whose_log_cannot_be_replayed_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Its readers get `table_damaged` (a WebSocket then closes with 1011, to retry later),
    and the log has the reason once, however often the table is asked for."""

    async def damage(table: str) -> None:
        storage = SQLiteStorage(tmp_path / "canasta.db")
        await storage.append(table, 1, {"kind": "ready", "seat": 0})  # no deal is over
        await storage.close()

    with running_server(tmp_path) as client:
        table = client.post("/api/tables", json={"players": 2}).json()["table"]
    asyncio.run(damage(table))
    with running_server(tmp_path) as client:
        for _ in range(3):
            response = client.get(f"/api/tables/{table}?lang=ru")
            assert response.status_code == 500 and response.json()["error"]["code"] == "table_damaged"
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            assert receive(ws)["code"] == "table_damaged"
            assert close_code(ws) == 1011
    assert caplog.text.count(f"table {table}: its stored events cannot be replayed") == 1


def test_events_wait_in_the_pending_file_while_another_program_holds_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Events go on being stored (in `-pending`), with their numbers checked, and are read back;
    a change of seats waits for the lock, then fails with StorageBusy; a backup and a server
    started again after a crash have every event; the events go into the database once the
    lock is released."""
    monkeypatch.setattr("canasta.storage.sqlite.BUSY_TIMEOUT_MS", 100)  # not 4 s for a seat
    path, crashed = tmp_path / "canasta.db", tmp_path / "crashed"
    pending = tmp_path / "canasta.db-pending"

    async def scenario() -> None:
        storage = SQLiteStorage(path)
        await storage.create_table("t", {}, 1)
        await storage.append("t", 1, {"n": 1})
        with closing(sqlite3.connect(path, isolation_level=None)) as holder:
            holder.execute("BEGIN IMMEDIATE")
            for seq in (2, 3):
                await storage.append("t", seq, {"n": seq})
            for taken in (1, 3):
                with pytest.raises(Conflict):
                    await storage.append("t", taken, {"n": "other"})
            assert await storage.events("t") == [(seq, {"n": seq}) for seq in (1, 2, 3)]
            assert await storage.events("t", 2) == [(3, {"n": 3})]
            with pytest.raises(StorageBusy):
                await storage.take_seat("t", 0, "Ann", "hash")
            assert pending.stat().st_size > 0
            assert main(["backup", "--db", str(path), str(tmp_path / "copy.db")]) == 0
            crashed.mkdir()  # the files as a killed server leaves them
            for suffix in ("", "-wal", "-pending"):
                shutil.copy(f"{path}{suffix}", crashed / f"canasta.db{suffix}")
            holder.execute("COMMIT")
        await storage.append("t", 4, {"n": 4})  # the pending events first
        assert pending.stat().st_size == 0
        with closing(sqlite3.connect(path)) as db:
            assert db.execute("SELECT seq FROM events ORDER BY seq").fetchall() == [(1,), (2,), (3,), (4,)]
        assert await storage.take_seat("t", 0, "Ann", "hash")
        await storage.close()
        assert not pending.exists()
        for copy in (tmp_path / "copy.db", crashed / "canasta.db"):
            reopened = SQLiteStorage(copy)
            assert [seq for seq, _ in await reopened.events("t")] == [1, 2, 3]
            await reopened.close()
        assert not (crashed / "canasta.db-pending").exists()

    asyncio.run(scenario())
