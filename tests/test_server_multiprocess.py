"""Two real `canasta serve` processes behind one database (PostgreSQL) and one broker (Redis,
or PostgreSQL notifications): either process serves the table, every client on either sees
every move in order and the same seats (who is connected), computer players act and nobody
stands in for a connected person, and a process killed with SIGKILL neither stops the other
nor loses the table (the other takes over its tables' computer players once their leases
have lapsed)."""

from __future__ import annotations

import json
import random
import signal
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from process_support import Player, free_port, http, play, server

SEATS = ["human", "random", "human", "random"]
# A short grace: were a process to count a person connected to the other one as absent, it
# would soon stand in for them.
SETTINGS = {"players": 4, "seats": SEATS, "bot_delay": 0, "deal_pause": 0, "grace": 1}


@pytest.fixture(params=["redis", "postgresql"])
def broker(request: pytest.FixtureRequest, postgres_url: str) -> str:
    url: str = postgres_url if request.param == "postgresql" else request.getfixturevalue("redis_url")
    return url


def history(watcher: Player) -> dict[int, tuple[Any, Any]]:
    """What a spectator saw of each version: the last move and the spectator's view."""
    return {s["version"]: (s["last"], s["view"]) for s in watcher.seen}


def same_everywhere(people: list[Player], watchers: list[Player]) -> None:
    a, b = (history(w) for w in watchers)
    for seen in (a, b):
        assert sorted(seen) == list(range(min(seen), max(seen) + 1))  # no version skipped
    assert {v: a[v] for v in b if v in a} == {v: b[v] for v in a if v in b}
    public = ("version", "status", "deal", "to_move", "last", "totals", "seats")
    states = [c.state for c in people + watchers]
    assert all({k: s[k] for k in public} == {k: states[0][k] for k in public} for s in states)
    seats = states[0]["seats"]
    assert [(s["connected"], s["stand_in"]) for s in seats] == [(True, False), (False, False)] * 2
    assert people[0].state["view"]["melds"] == people[1].state["view"]["melds"]


def test_two_processes_serve_one_table(broker: str, postgres_url: str, tmp_path: Path) -> None:
    ports, logs = [free_port(), free_port()], [tmp_path / "a.log", tmp_path / "b.log"]
    options = ("--broker", broker, "--limit", "lease=2")
    rng = random.Random(5)
    with ExitStack() as processes, ExitStack() as stack:
        a = processes.enter_context(server(ports[0], postgres_url, logs[0], *options))
        processes.enter_context(server(ports[1], postgres_url, logs[1], *options))
        table = http(ports[0], "POST", "/api/tables", SETTINGS)["table"]
        busy = {**SETTINGS, "seats": ["random"] * 4, "bot_delay": 0.01, "target_score": 100000}
        bots_only = http(ports[0], "POST", "/api/tables", busy)["table"]
        ann = http(ports[0], "POST", f"/api/tables/{table}/seats", {"name": "Ann"})["token"]
        watchers = [Player(port, table, None, stack) for port in ports]
        cleo = http(ports[1], "POST", f"/api/tables/{table}/seats", {"name": "Cleo"})["token"]
        people = [Player(ports[0], table, ann, stack), Player(ports[1], table, cleo, stack)]
        assert (people[0].seat, people[1].seat) == (0, 2)
        play(people, watchers, rng, until=60)
        same_everywhere(people, watchers)
        moves = [s["last"] for s in watchers[1].seen if s["last"]]
        assert {m["by"] for m in moves} == {"player", "bot"}
        assert {m["seat"] for m in moves if m["by"] == "player"} == {0, 2}
        for port, token in [(ports[1], ann), (ports[0], cleo)]:  # each process serves either person
            mine = people[0].state if token == ann else people[1].state
            assert http(port, "GET", f"/api/tables/{table}", token=token)["view"] == mine["view"]

        # A created both tables and holds their leases: B thinks for no computer player
        assert http(ports[1], "GET", "/api/metrics")["bots"]["moves"] == 0
        assert http(ports[0], "GET", "/api/metrics")["bots"]["moves"] > 0

        # Process A dies mid-game: B carries on (and takes over A's bots-only table).
        seen = http(ports[1], "GET", f"/api/tables/{bots_only}")["version"]
        a.send_signal(signal.SIGKILL)
        assert a.wait(10) == -signal.SIGKILL
        stack.close()
        deadline = time.monotonic() + 10  # B takes over A's lease once it has lapsed (2 s)
        while http(ports[1], "GET", f"/api/tables/{bots_only}")["version"] <= seen + 10:
            assert time.monotonic() < deadline
            time.sleep(0.1)

        # A restarts; Ann comes back to it and play goes on through both.
        processes.enter_context(server(ports[0], postgres_url, logs[0], *options))
        watchers = [Player(port, table, None, stack) for port in ports]
        people = [Player(ports[0], table, ann, stack), Player(ports[1], table, cleo, stack)]
        deadline = time.monotonic() + 10  # a computer player may move between the two connections
        while people[0].state["version"] != people[1].state["version"]:
            assert time.monotonic() < deadline, [p.state["version"] for p in people]
            for person in people:
                person.drain(wait=0.1)
        play(people, watchers, rng, until=people[0].state["version"] + 30)
        same_everywhere(people, watchers)
        stack.close()
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()


def test_leaving_through_one_process_unseats_every_device(
    broker: str, postgres_url: str, tmp_path: Path
) -> None:
    """Boris, at the table on both processes, leaves through A: on B too he only watches from
    then on (he is sent no hand and cannot move), and once A is gone B's computer plays his
    freed seat at once (the grace period is ten minutes)."""
    ports, logs = [free_port(), free_port()], [tmp_path / "a.log", tmp_path / "b.log"]
    options = ("--broker", broker, "--limit", "lease=2")
    settings = {"players": 2, "deal_pause": 0, "grace": 600}
    with server(ports[1], postgres_url, logs[1], *options), ExitStack() as stack:
        with server(ports[0], postgres_url, logs[0], *options) as a, ExitStack() as on_a:
            table = http(ports[0], "POST", "/api/tables", settings)["table"]
            ann, boris = (
                http(port, "POST", f"/api/tables/{table}/seats", {"name": name})["token"]
                for port, name in ((ports[0], "Ann"), (ports[1], "Boris"))
            )
            ann_b = Player(ports[1], table, ann, stack)
            boris_a, boris_b = Player(ports[0], table, boris, on_a), Player(ports[1], table, boris, stack)
            assert (ann_b.seat, boris_a.seat, boris_b.seat) == (0, 1, 1)
            boris_a.ws.send(json.dumps({"type": "leave", "id": "bye"}))
            assert boris_a.expect(lambda m: m["type"] == "ack")["id"] == "bye"
            assert boris_a.expect(lambda m: m["type"] == "welcome")["seat"] is None
            assert boris_b.expect(lambda m: m["type"] == "welcome")["seat"] is None
            watching = boris_b.expect(lambda m: m["type"] == "state")
            assert watching["seat"] is None and watching["view"]["hand"] == []
            draw = {"type": "action", "version": watching["version"], "action": {"type": "draw"}}
            boris_b.ws.send(json.dumps(draw))
            assert boris_b.expect(lambda m: m["type"] == "error")["code"] == "not_seated"
            on_a.close()
            a.terminate()
            a.wait(10)
        rng = random.Random(3)
        while not (ann_b.state["last"] and ann_b.state["last"]["seat"] == 1):
            if not ann_b.move(rng):
                ann_b.drain(wait=10)
        assert ann_b.state["last"]["by"] == "stand_in"
        seat = ann_b.state["seats"][1]
        assert (seat["name"], seat["connected"], seat["stand_in"]) == (None, False, True)
        last = ann_b.state["last"]
        assert boris_b.expect(lambda m: m["type"] == "state" and m["last"] == last)["seat"] is None
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()
