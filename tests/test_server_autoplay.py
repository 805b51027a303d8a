"""Computer players on the server: their delay, stand-ins for people who drop out, the turn
timer, a bot's illegal move, tables of bots alone, and unloading idle tables. The server runs on
a `ManualClock`: time moves only when a test advances it."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from canasta.rules import Pass, SeatView
from canasta.server.clock import ManualClock
from server_support import (
    advance,
    greet,
    is_state,
    join,
    my_turn,
    new_table,
    play_until,
    receive,
    receive_until,
    running_server,
    until,
)


def version(client: TestClient, table: str) -> int:
    answer: int = client.get(f"/api/tables/{table}").json()["version"]
    return answer


def test_bots_wait_their_delay(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        table = new_table(client, players=2, seats=["human", "random"], bot_delay=0.3)
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, token)
            state = play_until(ws, 0, state, lambda m: m["to_move"] == 1, random.Random(1))
            until(client, lambda: 0.3 in clock.pending())
            advance(client, clock, 0.29)
            assert version(client, table) == state["version"]
            advance(client, clock, 0.01)
            bot = receive_until(ws, lambda m: is_state(m) and m["last"]["seat"] == 1)
            assert bot["last"]["by"] == "bot" and bot["version"] == state["version"] + 1


def test_stand_in_plays_for_an_absent_person_until_they_return(tmp_path: Path) -> None:
    rng = random.Random(2)
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, grace=0.2)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]
        with client.websocket_connect(f"/ws/tables/{table}") as ann:
            state = greet(ann, tokens[0])
            with client.websocket_connect(f"/ws/tables/{table}") as boris:
                greet(boris, tokens[1])
            until(client, lambda: hub.rooms[table].present_seats() == {0})
            away = receive_until(ann, lambda m: m["type"] == "presence" and not m["seats"][1]["connected"])
            assert away["seats"][1]["grace_left"] == 0.2 and away["seats"][0]["grace_left"] is None
            advance(client, clock, 0.19)
            assert hub.rooms[table].seats_public()[1]["grace_left"] == 0.0
            assert not client.get(f"/api/tables/{table}").json()["seats"][1]["stand_in"]
            advance(client, clock, 0.01)
            replaced = receive_until(ann, lambda m: m["type"] == "presence" and m["seats"][1]["stand_in"])
            assert not replaced["seats"][1]["connected"] and not replaced["seats"][0]["stand_in"]
            state = play_until(ann, 0, state, lambda m: m["last"] is not None and m["last"]["seat"] == 1, rng)
            assert state["last"]["by"] == "stand_in"
            state = receive_until(ann, my_turn(0))
            with client.websocket_connect(f"/ws/tables/{table}") as boris:
                back = greet(boris, tokens[1])
                assert back["seats"][1] == {
                    "seat": 1,
                    "team": 1,
                    "bot": None,
                    "name": "Boris",
                    "connected": True,
                    "stand_in": False,
                    "grace_left": None,
                }
                state = play_until(ann, 0, state, lambda m: m["to_move"] == 1, rng)
                mine = receive_until(boris, lambda m: is_state(m) and m["version"] == state["version"])
                with pytest.raises(TimeoutError):  # nobody moves for Boris any more
                    receive_until(boris, is_state, timeout=0.5)
                boris.send_json({"type": "action", "version": mine["version"], "action": {"type": "draw"}})
                assert receive_until(boris, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"


def test_turn_timer_moves_for_a_slow_player(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        table = new_table(client, players=2, seats=["human", "random"], turn_timer=0.2)
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            dealt = greet(ws, token)
            until(client, lambda: 0.2 in clock.pending())
            advance(client, clock, 0.19)
            assert version(client, table) == dealt["version"]
            advance(client, clock, 0.01)
            timed = receive_until(ws, lambda m: is_state(m) and m["last"] is not None)
            assert timed["last"]["seat"] == 0 and timed["last"]["by"] == "timer"


def test_state_tells_the_time_left_under_the_turn_timer(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        table = new_table(client, players=2, grace=0.2, turn_timer=30)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]

        def snapshot() -> dict[str, Any]:
            answer: dict[str, Any] = client.get(
                f"/api/tables/{table}", headers={"X-Seat-Token": tokens[0]}
            ).json()
            return answer

        with client.websocket_connect(f"/ws/tables/{table}") as ann:
            state = greet(ann, tokens[0])
            if not my_turn(0)(state):
                state = receive_until(ann, my_turn(0))
            assert state["time_left"] == 30
            advance(client, clock, 0.3)
            later = snapshot()
            assert later["version"] == state["version"] and later["time_left"] == 29.7
            # Boris, never connected, is replaced by a stand-in: Ann's timer goes on, as it
            # does for a second connection of hers
            receive_until(ann, lambda m: m["type"] == "presence" and m["seats"][1]["stand_in"])
            with client.websocket_connect(f"/ws/tables/{table}") as again:
                assert greet(again, tokens[0])["time_left"] <= later["time_left"]
            ann.send_json({"type": "action", "version": state["version"], "action": {"type": "draw"}})
            state = receive_until(ann, lambda m: is_state(m) and m["version"] > state["version"])
            assert state["to_move"] == 0 and state["time_left"] == 30  # a new decision
            rng = random.Random(4)
            state = play_until(ann, 0, state, lambda m: m["status"] == "playing" and m["to_move"] == 1, rng)
            assert state["time_left"] is None  # a stand-in moves
        untimed = new_table(client, players=2, seats=["human", "random"])
        with client.websocket_connect(f"/ws/tables/{untimed}") as ws:
            state = greet(ws, join(client, untimed, "Ann"))
            state = play_until(ws, 0, state, lambda m: m["version"] >= 4, rng)
            assert all(m["time_left"] is None for m in (state, client.get(f"/api/tables/{untimed}").json()))


class PassingBot:
    """A broken computer player: it always passes, which is illegal while the stock lasts."""

    name = "passing"

    def choose(self, view: SeatView, rng: random.Random) -> Pass:
        return Pass()


def test_an_illegal_bot_move_is_replaced_by_hards_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("canasta.server.bot_worker.bot", lambda spec: PassingBot())
    with caplog.at_level(logging.WARNING, "canasta.server"), running_server(tmp_path) as client:
        table = new_table(client, players=2, seats=["random", "random"])
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            greet(ws)
            state = receive_until(ws, lambda m: is_state(m) and m["version"] >= 6)
            assert state["last"]["by"] == "bot" and state["last"]["action"]["type"] != "pass"
            assert state["last"]["quick"] is True
    assert "bot random chose an illegal move: hard's instead" in caplog.text


def test_a_table_of_bots_plays_a_whole_game_with_nobody_watching(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["random", "random"], target_score=300)
        until(client, lambda: hub.rooms[table].table.status == "game_over", rounds=10**7)
        record = client.get(f"/api/tables/{table}/record").json()
        assert record["deals"] and all(a["seat"] in (0, 1) for d in record["deals"] for a in d["actions"])


def test_idle_tables_are_unloaded_and_come_back(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, idle_unload=0.05) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, tokens[0])
            ws.send_json({"type": "action", "version": state["version"], "action": {"type": "draw"}})
            receive_until(ws, lambda m: m["type"] == "ack")
        until(client, lambda: not hub.rooms[table].connections)
        advance(client, clock, 0.04)
        assert table in hub.rooms
        advance(client, clock, 0.01)
        assert table not in hub.rooms
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            until(client, lambda: table in hub.rooms)
            advance(client, clock, 0.05)  # the table is unloaded again before `hello`
            assert table not in hub.rooms
            again = greet(ws, tokens[0])
            assert again["version"] == state["version"] + 1 and again["view"]["phase"] == "play"
            assert [receive(ws)["type"] for _ in range(2)] == ["log", "presence"]
            assert hub.rooms[table].connections


def test_a_table_whose_people_are_all_away_waits_for_them(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        seats = ["human", "random", "random", "random"]
        table = new_table(client, players=4, seats=seats, grace=0, turn_timer=5, bot_delay=0.5)
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, token)
            ws.send_json({"type": "action", "version": state["version"], "action": {"type": "draw"}})
            state = receive_until(ws, lambda m: is_state(m) and m["version"] > state["version"])
            discard = {"type": "discard", "card": state["view"]["hand"][0]}
            ws.send_json({"type": "action", "version": state["version"], "action": discard})
            state = receive_until(ws, lambda m: is_state(m) and m["to_move"] == 1)
        room = hub.rooms[table]
        until(client, lambda: not room.connections)
        # ten minutes with every person away: no computer move, no stand-in, no timer
        for _ in range(60):
            advance(client, clock, 10)
        assert room.pending is None
        assert version(client, table) == state["version"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            back = greet(ws, token)
            assert back["version"] == state["version"] and back["seats"][0]["stand_in"] is False
            # (the idle table was unloaded meanwhile and is loaded again)
            until(client, lambda: hub.rooms[table].pending == "bot")
            advance(client, clock, 0.5)  # Ann is back: the table plays on at its pace
            moved = receive_until(ws, lambda m: is_state(m) and m["version"] > state["version"])
            assert moved["last"]["seat"] == 1 and moved["last"]["by"] == "bot"


def test_the_next_deal_waits_for_every_person_at_the_table(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=1e6, burst=1000) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=4, seats=["human", "random", "human", "random"], grace=0)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]
        with client.websocket_connect(f"/ws/tables/{table}") as ann:
            state = greet(ann, tokens[0])
            # Boris never came: after the grace period a stand-in plays his seat, and only his
            mine = []
            state = play_until(ann, 0, state, lambda m: m["status"] == "deal_over", random.Random(8), mine)
            moves = [m["last"] for m in mine if is_state(m) and m["last"] is not None]
            assert {m["by"] for m in moves if m["seat"] == 2} == {"stand_in"}
            assert {m["by"] for m in moves if m["seat"] == 0} == {"player"}
            assert hub.rooms[table].pending is None  # the summary stays
            with client.websocket_connect(f"/ws/tables/{table}") as boris:
                assert greet(boris, tokens[1])["status"] == "deal_over"
                ann.send_json({"type": "next_deal", "id": 1})
                assert receive_until(ann, lambda m: m["type"] == "ack")["id"] == 1
                waiting = receive_until(ann, is_state)
                assert waiting["status"] == "deal_over" and waiting["ready"] == [0]
                assert hub.rooms[table].pending is None  # Boris has not asked yet
                boris.send_json({"type": "next_deal"})
                dealt = receive_until(ann, lambda m: is_state(m) and m["status"] == "playing")
                assert dealt["deal"] == 1 and dealt["ready"] == []
                boris.send_json({"type": "next_deal", "id": "x"})
                error = receive_until(boris, lambda m: m["type"] == "error")
                assert error["code"] == "deal_in_progress" and error["id"] == "x"


def test_under_a_turn_timer_the_next_deal_starts_by_itself(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        settings = {"seats": ["human", "random"], "turn_timer": 1, "deal_pause": 3, "target_score": 10**5}
        table = new_table(client, players=2, **settings)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            greet(ws, join(client, table, "Ann"))  # Ann only watches: the timer moves for her
            room = hub.rooms[table]
            for _ in range(2000):  # the timer (and the computer) play the deal out
                until(client, lambda: room.pending is not None)
                if room.table.status == "deal_over":
                    break
                advance(client, clock, 1)
            assert room.table.status == "deal_over" and room.pending == "deal"
            advance(client, clock, 2.9)
            assert room.table.status == "deal_over"  # the summary stays for `deal_pause`
            advance(client, clock, 0.1)
            second = receive_until(ws, lambda m: is_state(m) and m["deal"] == 1)
            assert second["status"] == "playing" and second["ready"] == []


def test_leaving_the_table_frees_the_seat(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2, grace=600)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]
        with client.websocket_connect(f"/ws/tables/{table}") as ann:
            state = greet(ann, tokens[0])
            with client.websocket_connect(f"/ws/tables/{table}") as boris:
                greet(boris, tokens[1])
                boris.send_json({"type": "leave", "id": "bye"})
                assert receive_until(boris, lambda m: m["type"] == "ack")["id"] == "bye"
                assert receive_until(boris, lambda m: m["type"] == "welcome")["seat"] is None
                watching = receive_until(boris, is_state)
                assert watching["seat"] is None and watching["view"]["hand"] == []
                assert watching["seats"][1] == {
                    "seat": 1,
                    "team": 1,
                    "bot": None,
                    "name": None,
                    "connected": False,
                    "stand_in": True,
                    "grace_left": None,
                }
                boris.send_json({"type": "leave"})
                assert receive_until(boris, lambda m: m["type"] == "error")["code"] == "not_seated"
            # Ann plays on: a computer plays the free seat at once (no grace period)
            state = receive_until(ann, lambda m: is_state(m) and m["seats"][1]["name"] is None)
            state = play_until(
                ann, 0, state, lambda m: m["last"] is not None and m["last"]["seat"] == 1, random.Random(9)
            )
            assert state["last"]["by"] == "stand_in"
            state = receive_until(ann, my_turn(0))
            # the old token is gone; anyone may take the seat, and then it is theirs to play
            assert client.get(f"/api/tables/{table}", headers={"x-seat-token": tokens[1]}).status_code == 403
            join(client, table, "Cleo", seat=1)
            joined = receive_until(ann, lambda m: is_state(m) and m["seats"][1]["name"] == "Cleo")
            assert joined["seats"][1]["stand_in"] is False and joined["version"] == state["version"]
