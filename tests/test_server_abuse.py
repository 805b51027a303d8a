"""A table attacked through its link and the public API: whatever the abuser does, the
innocent clients are admitted, keep receiving, and have their moves acknowledged in time."""

from __future__ import annotations

import functools
import socket
import sqlite3
import threading
import urllib.request
from contextlib import ExitStack, closing
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from canasta.server.broker import PUBLISH_TIMEOUT
from canasta.server.clock import ManualClock
from canasta.storage import SQLiteStorage
from canasta.storage.sqlite import STORE_TIMEOUT
from server_support import (
    FlakyBroker,
    Message,
    advance,
    close_code,
    greet,
    is_state,
    join,
    live_server,
    my_turn,
    new_table,
    receive,
    receive_until,
    running_server,
    until,
)


def _sockets(client: TestClient, stack: ExitStack, table: str, count: int) -> list[WebSocketTestSession]:
    return [stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")) for _ in range(count)]


def _answer_to(ws: WebSocketTestSession, marker: str) -> list[Message]:
    """Send a second `hello` with the id `marker`; returns what came before its refusal (every
    message the server had queued for this socket when it read the marker)."""
    ws.send_json({"type": "hello", "id": marker})
    before: list[Message] = []
    while (message := receive(ws))["type"] != "error" or message["id"] != marker:
        before.append(message)
    assert message["code"] == "already_hello"
    return before


def test_a_seated_player_is_admitted_with_the_table_full_of_spectators(tmp_path: Path) -> None:
    with running_server(tmp_path) as client, ExitStack() as stack:  # 64 spectators at most
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        for ws in _sockets(client, stack, table, 64):
            greet(ws)
        with client.websocket_connect(f"/ws/tables/{table}") as late:
            late.send_json({"type": "hello"})
            assert receive(late)["code"] == "too_many_connections"
            assert close_code(late) == 4029
        player = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
        state = greet(player, token)
        assert state["seat"] == 0


def test_sockets_that_never_say_hello_cannot_crowd_out_a_player(tmp_path: Path) -> None:
    with running_server(tmp_path, waiting_per_table=3) as client, ExitStack() as stack:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        silent = _sockets(client, stack, table, 3)
        until(client, lambda: hub.sockets[table] == 3)
        player = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
        assert receive(silent[0])["code"] == "too_many_connections"  # the oldest makes way
        assert close_code(silent[0]) == 4029
        assert greet(player, token)["seat"] == 0


def test_a_seat_on_too_many_devices_closes_its_oldest(tmp_path: Path) -> None:
    with running_server(tmp_path, connections_per_seat=2) as client, ExitStack() as stack:
        table = new_table(client, players=2, seats=["human", "random"], bot_delay=60)
        token = join(client, table, "Ann")
        devices = _sockets(client, stack, table, 3)
        for ws in devices:
            assert greet(ws, token)["seat"] == 0
        assert receive_until(devices[0], lambda m: m["type"] == "error")["code"] == "too_many_connections"
        assert close_code(devices[0]) == 4029
        for ws in devices[1:]:
            ws.send_json({"type": "chat", "phrase": "hello"})
            assert receive_until(ws, lambda m: m["type"] == "chat")["seat"] == 0


def test_a_chat_flood_reaches_readers_at_the_table_rate_and_closes_none(tmp_path: Path) -> None:
    """Two players with twenty sockets each send every line their sockets allow: the spectators
    get the table's burst (each seat's ten), the senders are told `chat_limited`, and nobody
    is disconnected; a second later each seat may say one more line."""
    clock = ManualClock()
    with (
        running_server(tmp_path, clock=clock, connections_per_seat=20) as client,
        ExitStack() as stack,
    ):
        table = new_table(client, players=2, bot_delay=60)
        tokens = [join(client, table, name) for name in ("Ann", "Boris")]
        spectators = _sockets(client, stack, table, 3)
        for ws in spectators:
            greet(ws)
        senders = {seat: _sockets(client, stack, table, 20) for seat in (0, 1)}
        for seat, sockets in senders.items():
            for ws in sockets:
                greet(ws, tokens[seat])
        for sockets in senders.values():
            for ws in sockets:
                for _ in range(38):  # with its hello and the marker, the socket's whole burst of 40
                    ws.send_json({"type": "chat", "phrase": "hello"})
        limited = 0
        for sockets in senders.values():
            for ws in sockets:
                seen = _answer_to(ws, "end")
                limited += sum(m["type"] == "error" and m["code"] == "chat_limited" for m in seen)
        assert limited == 40 * 38 - 20
        for ws in spectators:
            lines = [m for m in _answer_to(ws, "end") if m["type"] == "chat"]
            assert [line["seat"] for line in lines].count(0) == 10 and len(lines) == 20
        advance(client, clock, 1)
        senders[1][5].send_json({"type": "chat", "phrase": "thanks"})
        for ws in spectators:
            line = receive_until(ws, lambda m: m["type"] == "chat")
            assert (line["seat"], line["phrase"]) == (1, "thanks")


def test_reads_have_a_price_per_address(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, reads_per_second=2, read_burst=3) as client:
        table = new_table(client, players=2)
        for _ in range(3):
            assert client.get(f"/api/tables/{table}/rules").status_code == 200
        refused = client.get(f"/api/tables/{table}?lang=ru")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert refused.json()["error"]["message"].endswith("повторите через 1 с.")
        assert client.get("/api/rulesets").status_code == 429
        advance(client, clock, 0.5)
        assert client.get(f"/api/tables/{table}").status_code == 200
        assert client.get(f"/api/tables/{table}").status_code == 429
        assert client.post("/api/tables", json={"players": 2}).status_code == 201  # writes have their own


def test_half_sent_requests_are_closed_after_the_request_timeout(tmp_path: Path) -> None:
    clock = ManualClock()
    with live_server(tmp_path, clock=clock, request_timeout=10) as server:
        host, port = server.url.removeprefix("http://").split(":")
        half_open = []
        for _ in range(50):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: canasta\r\n")  # the rest never comes
            half_open.append(sock)
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(server.url, timeout=5) as page:  # another client is answered
            assert page.status == 200
        server.call(lambda: clock.advance(9.9))
        for sock in half_open:
            sock.settimeout(0)
            with pytest.raises(BlockingIOError):
                sock.recv(1)  # still open
        server.call(lambda: clock.advance(0.1))
        for sock in half_open:
            sock.settimeout(5)
            assert sock.recv(1) == b""  # closed by the server
            sock.close()


def test_a_table_that_cannot_store_backs_off_and_logs_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk: a table of computer players tries again after 0.5 s, then 1, 2, 4... (not
    at once, forever), logs the first failure alone, and plays on once storing works again."""
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        store, tries = hub.storage.append, list[float]()

        async def full(table_id: str, seq: int, event: dict[str, object]) -> None:
            tries.append(clock.time())
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(hub.storage, "append", full)
        table = new_table(client, players=2, seats=["random", "random"], target_score=100_000)
        def failed(count: int) -> bool:  # and rebuilt from storage, with its next try set
            return len(tries) == count and bool(hub.rooms[table].pending)

        for count, wait in enumerate((0.5, 1, 2, 4), start=1):
            until(client, functools.partial(failed, count))
            advance(client, clock, wait - 0.01)
            assert len(tries) == count  # not yet
            advance(client, clock, 0.01)
        until(client, lambda: failed(5))
        monkeypatch.setattr(hub.storage, "append", store)
        advance(client, clock, 8)
        until(client, lambda: hub.rooms[table].table.version > 5, rounds=10**7, settled=False)
    logged = [r for r in caplog.records if "could not store" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None
    assert f"table {table}: events are stored again after 5 failures" in caplog.text


def test_a_hung_broker_delays_no_move_and_is_caught_up_on(tmp_path: Path) -> None:
    clock = ManualClock()
    broker = FlakyBroker(clock)
    broker.mode = "hung"
    with running_server(tmp_path, clock=clock, broker=broker) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, token)
            for moves in range(4):
                if moves == 3:  # the broker is given up on, and answers again
                    advance(client, clock, PUBLISH_TIMEOUT)
                    broker.mode = "up"
                if not my_turn(0)(state):
                    state = receive_until(ws, my_turn(0))
                move = state["view"]["legal"][0]
                ws.send_json({"type": "action", "version": state["version"], "action": move})
                assert receive_until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                state = receive_until(ws, is_state)  # acknowledged while every notice waits
        until(client, lambda: len(broker.sent) >= 2)
        assert broker.sent[0] == f"{hub.origin} "  # every other process: catch up on every table


def _play(ws: WebSocketTestSession, state: Message, moves: int) -> Message:
    """Make up to `moves` moves of seat 0's turn, each acknowledged; returns the last state."""
    for _ in range(moves):
        if not my_turn(0)(state):
            break
        ws.send_json({"type": "action", "version": state["version"], "action": state["view"]["legal"][0]})
        assert receive_until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        state = receive_until(ws, is_state)
    return state


def test_a_held_write_lock_stops_no_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the database's write lock: every table plays on, its moves
    acknowledged with the clock standing still (they wait in the `-pending` file); a person
    taking a seat meanwhile is told `storage_busy` once the wait for the lock is over; other
    tables answer reads and newcomers, and chat flows. Once the lock is released, the moves are
    in the database and the seat can be taken."""
    monkeypatch.setattr("canasta.storage.sqlite.BUSY_TIMEOUT_MS", 100)  # a seat waits 0.1 s, not 4 s
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client, ExitStack() as stack:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        tables = [new_table(client, players=2, seats=["human", "random"], bot_delay=60) for _ in "ab"]
        other_table = new_table(client, players=2)
        players = [stack.enter_context(client.websocket_connect(f"/ws/tables/{t}")) for t in tables]
        states = [greet(ws, join(client, t, "Ann")) for ws, t in zip(players, tables, strict=True)]
        holder = sqlite3.connect(tmp_path / "canasta.db", isolation_level=None)
        stack.callback(holder.close)
        holder.execute("BEGIN IMMEDIATE")  # another process's write lock
        now = clock.time()
        for i, ws in enumerate(players):
            states[i] = _play(ws, states[i], 3)
        assert clock.time() == now and all(hub.rooms[t].table.version > 1 for t in tables)
        refused = client.post(f"/api/tables/{other_table}/seats?lang=de", json={"name": "Bea"})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "5"
        error = refused.json()["error"]
        assert error["code"] == "storage_busy" and error["message"].startswith("Der Server konnte das nicht")
        assert client.get(f"/api/tables/{other_table}").status_code == 200
        watcher = stack.enter_context(client.websocket_connect(f"/ws/tables/{other_table}"))
        assert greet(watcher)["version"] == 0
        players[1].send_json({"type": "chat", "phrase": "hello"})
        assert receive_until(players[1], lambda m: m["type"] in ("chat", "error"))["type"] == "chat"
        assert (tmp_path / "canasta.db-pending").stat().st_size > 0
        holder.execute("COMMIT")
        advance(client, clock, 1)  # the pending moves are copied into the database
        until(client, lambda: (tmp_path / "canasta.db-pending").stat().st_size == 0)
        with closing(sqlite3.connect(tmp_path / "canasta.db")) as db:
            for t in tables:
                stored = db.execute("SELECT count(*) FROM events WHERE table_id = ?", (t,)).fetchone()[0]
                assert stored == hub.rooms[t].table.version
        join(client, other_table, "Bea")


def test_a_frozen_disk_answers_the_writer_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that the disk does not finish within STORE_TIMEOUT on the server's clock: its
    sender is told `storage_busy` and the table is as stored, while other tables answer. The
    write ends later after all: the move is played (the next try finds it stored)."""
    clock = ManualClock()
    thawed, ended = threading.Event(), threading.Event()
    append = SQLiteStorage._append

    def frozen(storage: SQLiteStorage, table_id: str, seq: int, event: str) -> None:
        thawed.wait(30)
        append(storage, table_id, seq, event)
        ended.set()

    with running_server(tmp_path, clock=clock) as client, ExitStack() as stack:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["human", "random"], bot_delay=60)
        other_table = new_table(client, players=2)
        ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
        state = greet(ws, join(client, table, "Ann"), lang="pt")
        monkeypatch.setattr(SQLiteStorage, "_append", frozen)
        move = state["view"]["legal"][0]
        ws.send_json({"type": "action", "version": state["version"], "action": move, "id": 7})
        until(client, lambda: STORE_TIMEOUT in clock.pending(), settled=False)
        assert client.get(f"/api/tables/{other_table}").status_code == 200
        watcher = stack.enter_context(client.websocket_connect(f"/ws/tables/{other_table}"))
        assert greet(watcher)["version"] == 0
        advance(client, clock, STORE_TIMEOUT)
        error = receive_until(ws, lambda m: m["type"] in ("ack", "error"))
        assert (error["type"], error["code"], error["id"]) == ("error", "storage_busy", 7)
        assert error["message"].startswith("O servidor não conseguiu salvar")
        assert hub.rooms[table].table.version == state["version"]  # as stored
        thawed.set()
        assert ended.wait(10)
        ws.send_json({"type": "action", "version": state["version"], "action": move})
        before: list[Message] = []
        while (again := receive(ws))["type"] != "error":
            before.append(again)  # the table caught up on what was stored, then the answer
        assert again["code"] == "stale_state"
        played = [m for m in before if is_state(m)][-1]
        assert played["version"] == state["version"] + 1 and played["last"]["action"] == move
        assert hub.rooms[table].table.version == state["version"] + 1
