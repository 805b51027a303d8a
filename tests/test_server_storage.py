"""Storage: tables, seats taken once, an append-only numbered event log (SQLite and PostgreSQL);
SQLite's files and URLs."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from canasta.cli.main import main
from canasta.storage import Conflict, SeatRow, SQLiteStorage, TableRow, default_db_path, open_storage


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
    with pytest.raises(RuntimeError, match="schema 99"):
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
