"""PostgreSQL storage: writers in several processes race for one seat or one event number and
exactly one wins; the schema is made once; URLs, and the errors `canasta serve` reports."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from canasta.cli.main import main
from canasta.extras import install_command
from canasta.server.clock import ManualClock
from canasta.storage import Conflict, StorageBusy, open_storage
from canasta.storage.postgres import STORE_TIMEOUT, PostgresStorage
from database_servers import Postgres, free_port


def test_concurrent_writers_one_winner(postgres_url: str) -> None:
    """Two storages on one database, as two server processes: for each seat and each event
    number, both try at once; one succeeds and the other is told so."""

    async def scenario() -> None:
        first, second = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
        await first.create_table("t", {}, 20)
        for seat in range(20):
            taken = await asyncio.gather(
                first.take_seat("t", seat, "Ann", "hash-a"), second.take_seat("t", seat, "Bob", "hash-b")
            )
            assert sorted(taken) == [False, True]
        row = await second.load_table("t")
        assert row is not None and {s.name for s in row.seats} <= {"Ann", "Bob"}
        for seq in range(1, 21):
            outcomes = await asyncio.gather(
                first.append("t", seq, {"by": "first"}),
                second.append("t", seq, {"by": "second"}),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "NoneType"]
        assert [seq for seq, _ in await first.events("t")] == list(range(1, 21))
        with pytest.raises(Conflict):
            await first.append("t", 20, {})
        for storage in (first, second):
            await storage.close()

    asyncio.run(scenario())


def test_schema_made_once_by_processes_starting_together(postgres_url: str) -> None:
    with ThreadPoolExecutor(4) as pool:
        opened = list(pool.map(lambda _: PostgresStorage(postgres_url), range(4)))
    for storage in opened:
        asyncio.run(storage.close())
    with psycopg.connect(postgres_url, autocommit=True) as db:
        assert db.execute("SELECT version FROM canasta_schema").fetchall() == [(1,)]
        db.execute("UPDATE canasta_schema SET version = 99")
    with pytest.raises(ValueError, match="schema 99"):
        PostgresStorage(postgres_url)


def test_postgres_urls(postgres_server: Postgres) -> None:
    url = postgres_server.database()
    for alias in (url, url.replace("postgresql://", "postgres://", 1)):
        storage = open_storage(alias)
        assert isinstance(storage, PostgresStorage)
        asyncio.run(storage.close())


def test_serve_reports_a_database_out_of_reach(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://canasta@127.0.0.1:{free_port()}/canasta"
    assert main(["serve", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta serve: cannot open the PostgreSQL database: connection failed")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_serve_reports_a_missing_database(
    postgres_server: Postgres, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", postgres_server.url("no_such_database")]) == 2
    err = capsys.readouterr().err
    assert 'database "no_such_database" does not exist' in err and err.count("\n") == 1


def test_without_psycopg_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    says = f"needs psycopg, which is not installed: {install_command('postgres')}"
    with pytest.raises(ValueError, match=re.escape(says)):
        open_storage("postgresql://localhost/canasta")


async def waiting_for_a_lock(url: str) -> None:
    """Return once a statement waits for a lock in the server (within 10 s)."""
    query = "SELECT count(*) FROM pg_locks WHERE NOT granted"
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as db:
        for _ in range(500):
            row = await (await db.execute(query)).fetchone()
            if row is not None and row[0]:
                return
            await asyncio.sleep(0.02)
    raise AssertionError("no statement waits for the lock")


def test_a_write_held_by_a_lock_fails_storage_busy_on_the_servers_clock(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Another program locks the events: an event waits `STORE_TIMEOUT` on the server's clock,
    then fails with StorageBusy while reads go on; the statement is cancelled in the server
    (nothing stored, and the log says so), and the same event is stored once the lock is gone."""

    async def scenario() -> None:
        clock = ManualClock()
        storage = open_storage(postgres_url, clock)
        await storage.create_table("t1", {"variant": "classic"}, 4)
        with psycopg.connect(postgres_url) as locker:
            locker.execute("LOCK TABLE canasta_events IN EXCLUSIVE MODE")
            writing = asyncio.create_task(storage.append("t1", 1, {"kind": "rematch"}))
            await waiting_for_a_lock(postgres_url)
            assert clock.pending() == [STORE_TIMEOUT]
            assert await storage.events("t1") == []  # reading goes on meanwhile
            assert not writing.done()
            clock.advance(STORE_TIMEOUT)
            with pytest.raises(StorageBusy, match="did not answer within 5 s"):
                await asyncio.wait_for(writing, 10)
            await storage.close()  # waits for the abandoned statement's cancellation
            assert "given up on after 5 s: cancelled" in caplog.text
        storage = open_storage(postgres_url, clock)
        assert await storage.events("t1") == []
        await storage.append("t1", 1, {"kind": "rematch"})
        assert await storage.events("t1") == [(1, {"kind": "rematch"})]
        await storage.close()

    asyncio.run(scenario())


class HungPool:
    """A pool of connections to a server that never answers (as one stopped mid-query)."""

    def __init__(self) -> None:
        self.waiting = 0

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[object]:
        self.waiting += 1
        await asyncio.get_running_loop().create_future()  # no answer, ever
        yield None

    async def close(self) -> None:
        pass


def test_a_hung_server_fails_queries_storage_busy_and_never_holds_the_loop(postgres_url: str) -> None:
    """Every query to a server that stopped answering, write or read, fails with StorageBusy
    after `STORE_TIMEOUT` on the server's clock, and the event loop runs on meanwhile."""

    async def scenario() -> None:
        clock = ManualClock()
        storage = open_storage(postgres_url, clock)
        assert isinstance(storage, PostgresStorage)
        hung = HungPool()
        storage._pool = hung  # type: ignore[assignment]
        writes = [
            storage.create_table("t2", {}, 4),
            storage.take_seat("t2", 0, "Ann", "hash"),
            storage.release_seat("t2", 0, "hash"),
            storage.append("t2", 1, {"kind": "rematch"}),
            storage.save_review("t2", "0:0", {}),
            storage.load_table("t2"),
            storage.events("t2"),
            storage.load_review("t2", "0:0"),
        ]
        tasks = [asyncio.create_task(write) for write in writes]
        for _ in range(3):
            await asyncio.sleep(0)  # the loop is free: other work runs
        assert hung.waiting == len(writes) and not any(task.done() for task in tasks)
        clock.advance(STORE_TIMEOUT - 0.1)
        await asyncio.sleep(0)
        assert not any(task.done() for task in tasks)
        clock.advance(0.1)
        for task in tasks:
            with pytest.raises(StorageBusy):
                await asyncio.wait_for(task, 10)
        await storage.close()

    asyncio.run(scenario())
