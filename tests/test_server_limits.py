"""Every resource a request can consume has a bound: the options of a table, the budgets of its
computer players, the time a bot may think about one move."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from canasta.bots import make_bot
from canasta.rules import SeatView
from canasta.rules.actions import Action, action_from_json
from canasta.server import ServerConfig
from canasta.server.clock import ManualClock
from canasta.server.connection import FLUSH_TIME, Connection
from canasta.server.rate_limit import RateLimiter
from process_support import free_port, http, server
from server_support import (
    advance,
    close_code,
    greet,
    is_state,
    join,
    new_table,
    receive,
    receive_until,
    running_server,
    until,
)

CYRILLIC = re.compile("[а-яА-Я]")


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Any]:
    with running_server(tmp_path) as client:
        yield lambda body: client.post("/api/tables", json={"deal_pause": 0, **body})


@pytest.mark.parametrize(
    "spec",
    [
        "search:time=inf",
        "search:time=nan",
        "search:time=3600",
        "search:time=0",
        "search:iterations=100000000",
        "search:iterations=0",
        "search:iterations=1.5",
        "search:width=50",
        "search:policy=search",
        "search:confidence=0",
        "hard:time=1",
        "genius",
        " hard",
        "Hard",
    ],
)
def test_computer_players_are_the_listed_levels_with_bounded_budgets(post: Any, spec: str) -> None:
    for body in ({"players": 2, "seats": ["human", spec]}, {"players": 2, "stand_in": spec}):
        response = post(body)
        assert response.status_code == 400, (spec, response.text)
        assert response.json()["error"]["code"] == "bad_settings"


@pytest.mark.parametrize(
    "spec",
    ["random", "easy", "normal", "hard", "search", "search:iterations=500", "search:time=0.05,policy=easy"],
)
def test_the_listed_levels_are_accepted(post: Any, spec: str) -> None:
    response = post({"players": 2, "seats": ["human", spec], "stand_in": spec})
    assert response.status_code == 201, response.text


def test_the_careful_stand_in_stands_in_and_only_stands_in(post: Any) -> None:
    """`careful`, the default stand-in, keeps the hand of a person who will be back; it is not
    offered as a computer player of its own."""
    assert post({"players": 2, "stand_in": "careful"}).status_code == 201
    refused = post({"players": 2, "seats": ["human", "careful"]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_settings"


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 5000},
        {"decks": 5},
        {"decks": 0},
        {"jokers": 9},
        {"jokers": 5},  # two decks: at most four jokers
        {"jokers": -1},
        {"hand_size": 21},
        {"hand_size": 0},
        {"target_score": 0},
        {"target_score": 10**12},
        {"draw_count": 4},
        {"canasta_bonus_wild": 10**9},
        {"red3_values": [100] * 9},
        {"red3_values": [100, 10**7]},
        {"initial_meld_table": [[0, 50]] * 9},
        {"initial_meld_table": [[0, 50], [10**9, 90]]},
        {"meld_max_size": 1000},
    ],
)
def test_numeric_options_outside_their_range_are_refused(post: Any, options: dict[str, Any]) -> None:
    response = post({"players": 4, "options": options})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_settings", response.text
    assert response.json()["error"]["detail"]


@pytest.mark.parametrize(
    "options",
    [
        '{"initial_meld_table": [[1e400, 50]]}',
        '{"go_out_bonus": 1e400}',
        '{"house_rule": -1e400}',
        '{"decks": 4.5}',
        '{"target_score": 1e12}',
        '{"initial_meld_table": [[0, 50], [1e10, 90]]}',
    ],
)
def test_options_of_any_json_number_type_are_range_checked(tmp_path: Path, options: str) -> None:
    """Floats too, and numbers too large for a float (1e400 reads as infinity)."""
    with running_server(tmp_path) as client:
        body = f'{{"players": 4, "options": {options}}}'
        response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400, response.text
        assert response.json()["error"]["code"] == "bad_settings"


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u3164", "\u2800", "\u0301", " \u00a0 ", "\u2060\u200d"])
def test_names_need_a_visible_character(tmp_path: Path, name: str) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2)
        response = client.post(f"/api/tables/{table}/seats", json={"name": name})
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_field"
        assert client.post(f"/api/tables/{table}/seats", json={"name": f"Ann{name}"}).status_code == 200


def test_numeric_options_within_their_range_are_accepted(post: Any) -> None:
    options = {"decks": 3, "jokers": 6, "hand_size": 13, "target_score": 100_000, "red3_values": [100] * 8}
    assert post({"players": 4, "options": options}).status_code == 201
    assert post({"players": 4, "target_score": 1}).status_code == 201
    assert post({"players": 4, "target_score": 100_001}).json()["error"]["code"] == "bad_field"


class StuckBot:
    """A computer player that thinks until the test lets it go."""

    name = "stuck"

    def __init__(self, release: threading.Event) -> None:
        self.release = release

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        self.release.wait(30)
        return view.legal[0]


def test_a_bot_out_of_time_plays_quickly_hards_move_and_other_tables_play_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    release = threading.Event()
    monkeypatch.setattr("canasta.server.bot_worker.bot", lambda spec: StuckBot(release))
    clock = ManualClock()
    with (
        caplog.at_level(logging.INFO, "canasta.server"),
        running_server(tmp_path, clock=clock, bot_workers=1, bot_deadline=5.0) as client,
        ExitStack() as stack,
    ):
        stack.callback(release.set)
        tables = [new_table(client, players=2, seats=["search", "random"]) for _ in range(2)]
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")) for table in tables]
        for ws in sockets:
            greet(ws)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        states = {table: hub.rooms[table].table.state for table in tables}
        views = {table: state.view(state.to_move) for table, state in states.items()}
        # the one worker thinks for the first table; the second's move waits for it
        until(client, lambda: clock.pending().count(5.0) == 2)
        advance(client, clock, 4.9)
        assert client.get(f"/api/tables/{tables[1]}").json()["version"] == 1
        advance(client, clock, 0.1)
        for table, ws in zip(tables, sockets, strict=True):
            moved = receive_until(ws, lambda m: is_state(m) and m["version"] == 2)
            assert moved["last"]["by"] == "bot" and moved["last"]["quick"] is True
            hard = make_bot("hard").choose(views[table], random.Random(0))  # hard makes no random mistakes
            assert action_from_json(moved["last"]["action"])[0] == hard
            with client.websocket_connect(f"/ws/tables/{table}") as again:
                again.send_json({"type": "hello"})
                assert receive_until(again, lambda m: m["type"] == "log")["moves"][0]["quick"] is True
        metrics = client.get("/api/metrics").json()
        assert metrics["bots"]["late"] == 2 and metrics["bots"]["quick"] == 2 and metrics["workers"] == 1
    assert caplog.text.count("bot search played quickly (hard's move): out of time") == 2


def test_tables_created_per_address_per_minute(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, tables_per_minute=3) as client:
        for _ in range(3):
            new_table(client, players=2)
        refused = client.post("/api/tables?lang=ru", json={"players": 2})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables"
        assert CYRILLIC.search(refused.json()["error"]["message"]) and refused.headers["retry-after"] == "60"
        advance(client, clock, 59.9)
        again = client.post("/api/tables", json={"players": 2})
        assert again.status_code == 429 and again.headers["retry-after"] == "1"
        advance(client, clock, 0.1)
        new_table(client, players=2)


def test_live_tables_per_process(tmp_path: Path) -> None:
    with running_server(tmp_path, max_tables=2) as client:
        tables = [new_table(client, players=2) for _ in range(2)]
        refused = client.post("/api/tables", json={"players": 2})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "server_busy"
        assert refused.headers["retry-after"] == "60"
        assert all(client.get(f"/api/tables/{table}").status_code == 200 for table in tables)


def test_spectators_per_table_and_connections_per_address(tmp_path: Path) -> None:
    with running_server(tmp_path, connections_per_table=2, connections_per_address=3) as client:
        tables = [new_table(client, players=2) for _ in range(2)]
        with ExitStack() as stack:
            for _ in range(2):
                greet(stack.enter_context(client.websocket_connect(f"/ws/tables/{tables[0]}")))
            with client.websocket_connect(f"/ws/tables/{tables[0]}") as third:  # a third spectator
                third.send_json({"type": "hello"})
                assert receive(third)["code"] == "too_many_connections"
                assert close_code(third) == 4029
            greet(stack.enter_context(client.websocket_connect(f"/ws/tables/{tables[1]}")))
            with client.websocket_connect(f"/ws/tables/{tables[1]}") as fourth:  # the address's fourth
                assert receive(fourth)["code"] == "too_many_connections"
        with client.websocket_connect(f"/ws/tables/{tables[0]}") as again:  # the others have closed
            greet(again)


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, hello_timeout=10) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            until(client, lambda: hub.sockets[table] == 1)
            advance(client, clock, 10)
            assert close_code(ws) == 4001
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            greet(ws, join(client, table, "Ann"))
            advance(client, clock, 10)
            ws.send_json({"type": "chat", "phrase": "hello"})
            assert receive_until(ws, lambda m: m["type"] == "chat")["phrase"] == "hello"


def test_a_table_of_computer_players_nobody_watches_stops(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, unwatched_bots=30) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["random", "random"], bot_delay=1, target_score=100_000)
        until(client, lambda: hub.rooms[table].table.version == 1)  # dealt, the first move set
        for second in range(1, 30):  # a move a second
            advance(client, clock, 1)
            until(client, lambda version=second + 1: hub.rooms[table].table.version >= version)
        played = client.get(f"/api/tables/{table}").json()["version"]
        advance(client, clock, 1)
        assert table not in hub.rooms
        advance(client, clock, 100)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # someone watches: it plays on
            assert greet(ws)["version"] == played
            for _ in range(40):
                advance(client, clock, 1)
                state = receive_until(ws, is_state)
            assert state["version"] == played + 40 and table in hub.rooms


class Blocked:
    """A WebSocket whose client takes nothing (every send waits) until `release`."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[int] = []
        self.release = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed.append(code)


@pytest.mark.parametrize("limit", ["outbox_limit", "outbox_chars", "send_timeout"])
def test_a_client_that_does_not_read_is_disconnected(limit: str) -> None:
    async def scenario() -> tuple[Blocked, int]:
        clock = ManualClock()
        config = ServerConfig(clock=clock, outbox_limit=10, outbox_chars=1000, send_timeout=5)
        socket = Blocked()
        conn = Connection(socket, config, RateLimiter(1, 1, clock))  # type: ignore[arg-type]
        # the first message is being sent (it waits), the next ones are queued
        messages = {"outbox_limit": 12, "outbox_chars": 4, "send_timeout": 2}[limit]
        for _ in range(messages):
            conn.send_text("x" * 400)
            await asyncio.sleep(0)
        if limit == "send_timeout":
            clock.advance(4.9)
            assert socket.closed == []
            clock.advance(0.1)
        await asyncio.sleep(0)
        conn.send_text("more")  # dropped: the connection is closing
        closing = asyncio.create_task(conn.close())
        await asyncio.sleep(0)
        clock.advance(FLUSH_TIME)  # had it not been closed, closing now would give up waiting
        await closing
        return socket, messages

    socket, _ = asyncio.run(scenario())
    assert socket.closed == [4008] and socket.sent == []


def test_a_real_server_closes_a_client_that_never_reads(tmp_path: Path) -> None:
    port = free_port()
    limits = ["--limit", "send_timeout=1"]
    with server(port, tmp_path / "canasta.db", tmp_path / "server.log", *limits):
        body = {
            "players": 4,
            "seats": ["random"] * 4,
            "bot_delay": 0,
            "deal_pause": 0,
            "target_score": 100_000,
        }
        table = http(port, "POST", "/api/tables", body)["table"]
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        with connect(url, proxy=None, max_queue=None) as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            tiny = socket.create_connection(("127.0.0.1", port))
            tiny.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            with connect(url, sock=tiny, max_queue=1) as silent:  # reads one message, then no more
                silent.send(json.dumps({"type": "hello"}))
                counts = []
                sent = 0  # characters sent to the watcher, as many as to the silent client
                while not (counts and counts[-1] == 1 and 2 in counts):
                    text = watcher.recv(timeout=30)
                    sent += len(text)
                    message = json.loads(text)
                    if message["type"] == "presence":
                        counts.append(message["spectators"])
                # the kernel's buffers hold a few megabytes; then the send waits, and a second later
                # the connection is aborted (waiting for the client to read, it would stay open)
                assert sent < 8_000_000
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_arrivals_are_told_in_one_presence_message(tmp_path: Path) -> None:
    """Spectators arriving together cost one `presence` message to each client, not one each
    (which would grow as the square of their number)."""
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, presence_delay=0.25) as client, ExitStack() as stack:
        table = new_table(client, players=2, seats=["human", "random"], bot_delay=60)
        player = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
        greet(player, join(client, table, "Ann"))
        presence = lambda m: m["type"] == "presence"  # noqa: E731
        assert receive_until(player, presence)["spectators"] == 0  # at once
        advance(client, clock, 0.25)
        for _ in range(5):
            greet(stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")))
        assert receive_until(player, presence)["spectators"] == 1  # the first at once, the others gathered
        advance(client, clock, 0.24)
        player.send_json({"type": "chat", "phrase": "hello"})  # a marker: nothing came before it
        assert receive(player)["type"] == "chat"
        advance(client, clock, 0.01)
        gathered = receive(player)
        assert gathered["type"] == "presence" and gathered["spectators"] == 5
        advance(client, clock, 1)
        player.send_json({"type": "chat", "phrase": "hello"})
        assert receive(player)["type"] == "chat"  # and no other presence came
