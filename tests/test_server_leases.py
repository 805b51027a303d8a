"""Leases in storage: one server process at a time plays a table's computer players (or works out
a review); another takes over when the holder stops renewing (it died) once `ttl` has passed on
its own clock, at once when the holder gives the lease up. On SQLite and PostgreSQL, with two
storages on one database as two processes would have, and with two servers on one SQLite file;
every clock is a `ManualClock`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from canasta.server.clock import ManualClock
from canasta.server.config import ServerConfig
from canasta.server.lease import Lease
from canasta.storage import SQLiteStorage
from canasta.storage.base import Crowded, LeaseRow, Storage, StorageBusy
from canasta.storage.sqlite import STORE_TIMEOUT
from server_support import advance, greet, two_servers, until

TTL = 3.0


def storages(kind: str, tmp_path: Path, postgres: Callable[[], str]) -> list[Storage]:
    if kind == "sqlite":
        return [SQLiteStorage(tmp_path / "canasta.db") for _ in range(2)]
    from canasta.storage.postgres import PostgresStorage

    url = postgres()
    return [PostgresStorage(url) for _ in range(2)]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_lease_is_held_by_one_renewed_and_taken_over_when_it_lapses(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        one, two = storages(kind, tmp_path, lambda: str(request.getfixturevalue("postgres_url")))
        a = Lease(one, "table:t", "a", TTL, clock, data=lambda: {"done": 1})
        b = Lease(two, "table:t", "b", TTL, clock)

        async def tick(seconds: float, *leases: Lease) -> None:
            """Time passes; the leases given take their step, as their timers would."""
            clock.advance(seconds)
            for lease in leases:
                await lease.step()
            assert not (a.held and b.held)

        await tick(0, a, b)
        assert a.held and not b.held and b.row is not None and b.row.holder == "a"
        assert b.row.data == {"done": 1}  # what the holder stores, the others read
        assert await two.load_lease("table:t") == b.row
        for _ in range(10):  # a renews: b never takes it, however long
            await tick(TTL / 3, a, b)
        assert a.held and not b.held
        # a stops renewing (it died): b takes over once the lease stayed the same for TTL
        await tick(TTL / 3, b)
        await tick(TTL / 3, b)
        assert a.held and not b.held
        await tick(TTL / 3, b)
        assert not a.held and b.held  # a counts its own lease as lapsed too
        await tick(TTL / 3, a, b)  # a, back, finds the lease b's
        assert not a.held and b.held and a.row is not None and a.row.holder == "b"
        # b gives it up: a takes it at its next step, without waiting for it to lapse
        await b.release()
        await tick(0.01, a)
        assert a.held and await one.load_lease("table:t") == a.row
        await a.release()
        assert await two.load_lease("table:t") is None
        for storage in (one, two):
            await storage.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_leases_taken_past_their_limits_are_refused_in_every_process(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Two storages (processes) each ask at once for six new leases of one table, at most three
    of a table and two of a seat: exactly three are granted, two or fewer a seat; renewing one
    is not limited, and giving one up makes room for another."""

    async def scenario() -> None:
        one, two = storages(kind, tmp_path, lambda: str(request.getfixturevalue("postgres_url")))

        def limits(seat: int) -> list[tuple[str, int]]:
            return [(f"review:t/{seat}/", 2), ("review:t/", 3)]

        asked = [
            (storage, f"review:t/{seat}/{deal}", seat)
            for deal in range(3)
            for seat in (0, 1)
            for storage in (one, two)
        ]
        granted = await asyncio.gather(
            *(s.lease(name, f"p{i}", None, {}, limits(seat)) for i, (s, name, seat) in enumerate(asked)),
            return_exceptions=True,
        )
        assert all(isinstance(g, LeaseRow | Crowded) for g in granted)
        held = await one.leases("review:t/")
        assert await two.leases("review:t/") == held and await two.leases("review:tt/") == {}
        per_seat = [[name for name in held if name.startswith(f"review:t/{seat}/")] for seat in (0, 1)]
        assert sorted(map(len, per_seat)) == [1, 2]  # three in all, two or fewer a seat
        low = min((0, 1), key=lambda seat: len(per_seat[seat]))
        with pytest.raises(Crowded):  # the table has three
            await one.lease(f"review:t/{low}/9", "p", None, {}, limits(low))
        (name,) = per_seat[low]
        row = held[name]
        renewed = await two.lease(name, row.holder, (row.holder, row.serial), {"done": 1}, limits(low))
        assert renewed == LeaseRow(row.holder, row.serial + 1, {"done": 1})  # renewing is not limited
        await two.release(name, row.holder)
        with pytest.raises(Crowded):  # the other seat has two
            await one.lease(f"review:t/{1 - low}/9", "p", None, {}, limits(1 - low))
        assert await one.lease(f"review:t/{low}/9", "p", None, {}, limits(low)) == LeaseRow("p", 1, {})
        for storage in (one, two):
            await storage.close()

    asyncio.run(scenario())


class Hanging:
    """A storage whose next `hangs` lease calls answer `StorageBusy` once storage's time limit
    has passed on the clock, as a database that does not answer."""

    def __init__(self, storage: Storage, clock: ManualClock) -> None:
        self.storage, self.clock, self.hangs = storage, clock, 0
        self.waits: list[asyncio.Future[None]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.storage, name)

    @property
    def hung(self) -> bool:
        """Whether a call waits for the clock."""
        return not all(wait.done() for wait in self.waits)

    async def lease(self, *args: Any) -> LeaseRow | None:
        if self.hangs:
            self.hangs -= 1
            self.waits.append(asyncio.get_running_loop().create_future())
            self.clock.call_later(STORE_TIMEOUT, self.waits[-1].set_result, None)
            await self.waits[-1]
            raise StorageBusy("the database did not answer")
        return await self.storage.lease(*args)


def test_a_renewal_the_database_does_not_answer_is_tried_again_in_time(tmp_path: Path) -> None:
    """At the default lease (10 s), a renewal that fails after storage's time limit (5 s) is
    tried again as soon as it has failed, not at the next third of the lease: the holder keeps
    its lease all along, and the other never takes it."""

    async def scenario() -> None:
        clock, ttl = ManualClock(), ServerConfig().lease
        one, two = storages("sqlite", tmp_path, str)
        hanging = Hanging(one, clock)
        a = Lease(hanging, "table:t", "a", ttl, clock)  # type: ignore[arg-type]
        b = Lease(two, "table:t", "b", ttl, clock)
        await a.step()
        clock.advance(0.1)
        await b.step()
        a.start()
        b.start()
        hanging.hangs = 1  # a's first renewal
        for _ in range(300):  # 30 s, a tenth of a second at a time
            clock.advance(0.1)
            assert a.held and not b.held
            while b.stepping or (a.stepping and not hanging.hung):
                await asyncio.sleep(0)
        stored = await two.load_lease("table:t")  # renewed at every third of the lease since
        assert not hanging.hung and stored is not None and stored.holder == "a" and stored.serial >= 8
        a.stop()
        b.stop()
        for storage in (one, two):
            await storage.close()

    asyncio.run(scenario())


def moves(client: Any, hubs: dict[str, Any]) -> dict[str, int]:
    """The moves each server's bots made, once their leases' steps are over."""
    rooms = [room for hub in hubs.values() for room in hub.rooms.values()]
    until(client, lambda: not any(room.lease.stepping for room in rooms))
    return {name: hub.bots.stats["moves"] for name, hub in hubs.items()}


def test_a_table_of_computer_players_watched_through_two_servers_is_played_by_one(tmp_path: Path) -> None:
    """Watched through both servers, the table's computer players are played by the lease's
    holder alone; when it dies (stops, without giving the lease up), the other plays them once
    the lease has lapsed, not before."""
    clock = ManualClock()
    with two_servers(tmp_path, clock, lease=TTL) as client:
        mounts = client.app.routes  # type: ignore[attr-defined]
        hubs = {name: mount.app.state.hub for name, mount in zip("ab", mounts, strict=True)}
        body = {"players": 2, "seats": ["random", "random"], "deal_pause": 0, "target_score": 100_000}
        table = client.post("/a/api/tables", json=body).json()["table"]
        with client.websocket_connect(f"/a/ws/tables/{table}") as on_a:
            greet(on_a)
            with client.websocket_connect(f"/b/ws/tables/{table}") as on_b:
                greet(on_b)
                rooms = {name: hub.rooms[table] for name, hub in hubs.items()}
                for _ in range(3):  # renewals come and go
                    start = rooms["a"].table.version + 10
                    until(client, lambda start=start: rooms["b"].table.version >= start)
                    advance(client, clock, TTL / 3)
                    moves(client, hubs)
                played = moves(client, hubs)
                assert played["a"] >= 30 and played["b"] == 0
                client.portal.call(rooms["a"].close)  # type: ignore[union-attr]  # process a dies
                client.portal.call(rooms["b"].catch_up)  # type: ignore[union-attr]  # all a stored
                thought = moves(client, hubs)["a"]  # with the move a was thinking of as it died
                version = rooms["b"].table.version
                for _ in range(2):
                    advance(client, clock, TTL / 3)
                    assert moves(client, hubs)["b"] == 0 and rooms["b"].table.version == version
                for _ in range(2):  # the last renewal b saw came at most TTL / 3 before it died
                    advance(client, clock, TTL / 3)
                    if moves(client, hubs)["b"]:
                        break
                until(client, lambda: rooms["b"].table.version >= version + 10)
                assert moves(client, hubs)["b"] >= 10 and hubs["a"].bots.stats["moves"] == thought


def test_a_server_that_stops_gives_its_tables_up_at_once(tmp_path: Path) -> None:
    """A server that stops (its hub closed, as `canasta serve` does on SIGTERM) gives its
    tables' leases up: the other plays their computer players from its next step, a third of
    the lease's time later, not once the lease has lapsed."""
    clock = ManualClock()
    with two_servers(tmp_path, clock, lease=TTL) as client:
        mounts = client.app.routes  # type: ignore[attr-defined]
        hubs = {name: mount.app.state.hub for name, mount in zip("ab", mounts, strict=True)}
        body = {"players": 2, "seats": ["random", "random"], "deal_pause": 0, "target_score": 100_000}
        table = client.post("/a/api/tables", json=body).json()["table"]  # a holds its lease
        with client.websocket_connect(f"/b/ws/tables/{table}") as on_b:
            greet(on_b)
            room = hubs["b"].rooms[table]
            until(client, lambda: room.table.version >= 10)
            assert moves(client, hubs)["b"] == 0
            client.portal.call(hubs["a"].close)  # type: ignore[union-attr]
            client.portal.call(room.catch_up)  # type: ignore[union-attr]
            version = room.table.version
            assert moves(client, hubs)["b"] == 0 and room.table.version == version
            advance(client, clock, TTL / 3)
            until(client, lambda: room.table.version >= version + 10)
            assert moves(client, hubs)["b"] >= 10
