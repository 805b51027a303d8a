"""PostgreSQL storage: writers in several processes race for one seat or one event number and
exactly one wins; the schema is made once; URLs, and the errors `canasta serve` reports."""

from __future__ import annotations

import asyncio
import re
import sys
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from canasta.cli.main import main
from canasta.extras import install_command
from canasta.storage import Conflict, open_storage
from canasta.storage.postgres import PostgresStorage
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
