"""The brokers that carry table changes between server processes (Redis publish/subscribe and
PostgreSQL notifications): delivery to every other subscriber, recovery from a lost
connection, and the errors `canasta serve --broker` reports."""

from __future__ import annotations

import asyncio
import re
import sys

import psycopg
import pytest
import redis

from canasta.cli.main import main
from canasta.extras import install_command
from canasta.server.broker import EVERY_TABLE, PUBLISH_TIMEOUT, Broker, Notice, open_broker
from canasta.server.clock import ManualClock
from canasta.server.postgres_broker import PostgresBroker
from canasta.server.redis_broker import RedisBroker
from database_servers import free_port
from server_support import FlakyBroker


@pytest.fixture(params=["redis", "postgresql"])
def broker_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue("redis_url" if request.param == "redis" else "postgres_url")
    return url


async def heard(queue: asyncio.Queue[Notice]) -> Notice:
    return await asyncio.wait_for(queue.get(), 5)


async def started(url: str, count: int) -> list[Broker]:
    brokers = [open_broker(url) for _ in range(count)]
    for broker in brokers:
        await broker.start()
    return brokers


def test_changes_reach_every_other_subscriber(broker_url: str) -> None:
    async def scenario() -> None:
        brokers = await started(broker_url, 2)
        assert isinstance(brokers[0], RedisBroker | PostgresBroker)
        queues: dict[str, asyncio.Queue[Notice]] = {name: asyncio.Queue() for name in "abc"}
        brokers[0].subscribe("a", queues["a"].put)
        brokers[1].subscribe("b", queues["b"].put)  # two hubs in the second process
        brokers[1].subscribe("c", queues["c"].put)
        await brokers[0].publish(Notice("t1", "a"))
        assert [await heard(queues["b"]), await heard(queues["c"])] == [Notice("t1", "a")] * 2
        await brokers[1].publish(Notice("t2", "b", (0, 2)))
        assert [await heard(queues["a"]), await heard(queues["c"])] == [Notice("t2", "b", (0, 2))] * 2
        await asyncio.sleep(0.1)
        assert all(queue.empty() for queue in queues.values())  # nobody hears their own changes
        for broker in brokers:
            await broker.close()

    asyncio.run(scenario())


def _drop_listeners(url: str) -> None:
    """Cut the connections that brokers listen on, as a server restart would."""
    if url.startswith("redis"):
        with redis.Redis.from_url(url) as client:
            assert client.client_kill_filter(_type="pubsub") >= 1
        return
    with psycopg.connect(url, autocommit=True) as db:
        killed = db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND query LIKE 'LISTEN%'"
        ).fetchall()
        assert killed


def test_a_lost_connection_is_restored(broker_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After reconnecting, subscribers hear that any table may have changed meanwhile, and
    changes flow again."""
    monkeypatch.setattr("canasta.server.broker.RETRY_FIRST", 0.01)

    async def scenario() -> None:
        brokers = await started(broker_url, 2)
        queue: asyncio.Queue[Notice] = asyncio.Queue()
        brokers[1].subscribe("b", queue.put)
        _drop_listeners(broker_url)
        assert await heard(queue) == Notice(EVERY_TABLE, "")
        await brokers[0].publish(Notice("t3", "a", ()))
        assert await heard(queue) == Notice("t3", "a", ())
        for broker in brokers:
            await broker.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("broker", "message"),
    [
        ("mysql://localhost/x", "unsupported broker URL 'mysql://localhost/x': use redis://host:port or"),
        ("redis://127.0.0.1:{port}", "cannot reach the Redis broker: Error 111 connecting to 127.0.0.1:"),
        ("redis://127.0.0.1:notaport", "cannot reach the Redis broker: Port could not be cast"),
        ("postgresql://canasta@127.0.0.1:{port}/x", "cannot reach the PostgreSQL broker: connection failed"),
    ],
)
def test_serve_reports_a_broker_it_cannot_use(
    broker: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = broker.format(port=free_port())
    assert main(["serve", "--db", "sqlite://:memory:", "--broker", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"canasta serve: {message}") and err.count("\n") == 1, err


def test_without_redis_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)
    says = f"needs redis, which is not installed: {install_command('redis')}"
    with pytest.raises(ValueError, match=re.escape(says)):
        open_broker("redis://localhost")


def test_a_broker_that_hangs_or_fails_delays_nothing_and_is_caught_up_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`publish` never waits; a notice the broker does not take within `PUBLISH_TIMEOUT` is
    given up with those queued behind it, the failure is logged once, and when the broker
    answers again the others are told to catch up on every table."""

    async def settle() -> None:
        for _ in range(10):
            await asyncio.sleep(0)

    async def scenario() -> list[str]:
        clock = ManualClock()
        broker = FlakyBroker(clock)
        await broker.start()
        await broker.publish(Notice("t1", "a"))
        await settle()
        broker.mode = "hung"
        for table in ("t2", "t3"):
            await asyncio.wait_for(broker.publish(Notice(table, "a")), 1)  # returns at once
        await settle()
        clock.advance(PUBLISH_TIMEOUT)
        await settle()
        broker.mode = "down"
        await broker.publish(Notice("t4", "a"))
        await settle()
        broker.mode = "up"
        await broker.publish(Notice("t5", "a"))
        await settle()
        await broker.close()
        return broker.sent

    assert asyncio.run(scenario()) == ["a t1", "a ", "a t5"]  # "a ": every table changed
    warnings = [r.getMessage() for r in caplog.records if r.name == "canasta.server"]
    assert warnings == [
        f"broker: notices not sent (no answer in {PUBLISH_TIMEOUT:g} s); they will be caught up on",
        "broker: notices are sent again; the others catch up",
    ]
