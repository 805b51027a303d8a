"""Tables over HTTP and WebSocket: create, join, start, views, rejoin, chat, records, rematch,
and a table rebuilt from storage after the server stops."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from canasta.rules import Record, replay
from canasta.rules.actions import action_to_json
from canasta.server.broker import EVERY_TABLE, Notice
from canasta.server.clock import ManualClock
from canasta.server.events import event_from_json
from canasta.server.presence import RemotePresence
from canasta.server.table import LiveTable
from canasta.server.table_facts import table_facts
from canasta.storage import SQLiteStorage, StorageBusy
from server_support import (
    advance,
    game_over,
    greet,
    is_state,
    join,
    my_turn,
    new_table,
    play_until,
    receive,
    receive_until,
    running_server,
    stored_events,
    stored_table,
    two_servers,
    until,
)
from support import make_state


def test_create_join_and_start(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        created = client.post(
            "/api/tables", json={"players": 4, "seats": ["human", "random", "human", "random"]}
        )
        assert created.status_code == 201
        body = created.json()
        table = body["table"]
        assert len(table) >= 22 and body["link"] == f"http://testserver/t/{table}"
        assert body["settings"]["options"] == {} and body["settings"]["grace"] == 60.0
        waiting = client.get(f"/api/tables/{table}").json()
        assert waiting["status"] == "waiting" and waiting["view"] is None and waiting["version"] == 0

        first = client.post(f"/api/tables/{table}/seats", json={"name": "Ann"}).json()
        assert (
            first["seat"] == 0
            and first["rejoin_link"] == f"http://testserver/t/{table}#seat={first['token']}"
        )
        assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"
        second = client.post(f"/api/tables/{table}/seats", json={"name": "Cleo"}).json()
        assert second["seat"] == 2 and second["token"] != first["token"]

        mine = client.get(f"/api/tables/{table}", headers={"x-seat-token": first["token"]}).json()
        assert mine["status"] == "playing" and mine["version"] == 1 and mine["to_move"] == 0
        assert mine["seat"] == 0 and mine["team"] == 0 and len(mine["view"]["hand"]) == 11
        assert mine["view"]["legal"] and mine["view"]["stock_size"] > 0
        assert [s["name"] for s in mine["seats"]] == ["Ann", None, "Cleo", None]
        assert [s["bot"] for s in mine["seats"]] == [None, "random", None, "random"]
        spectator = client.get(f"/api/tables/{table}").json()
        assert (
            spectator["seat"] is None and spectator["view"]["hand"] == [] and spectator["view"]["legal"] == []
        )
        assert spectator["view"]["hand_sizes"] == [11, 11, 11, 11]


def test_second_device_and_spectators_follow_every_move(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        with (
            client.websocket_connect(f"/ws/tables/{table}") as phone,
            client.websocket_connect(f"/ws/tables/{table}") as laptop,
            client.websocket_connect(f"/ws/tables/{table}") as watcher,
        ):
            first = greet(phone, token)
            assert greet(laptop, token)["view"] == first["view"]
            greet(watcher)
            presence = receive_until(phone, lambda m: m["type"] == "presence" and m["spectators"] == 1)
            assert presence["seats"][0]["connected"] and not presence["seats"][1]["connected"]
            laptop.send_json({"type": "action", "version": first["version"], "action": {"type": "draw"}})
            assert receive_until(laptop, lambda m: m["type"] == "ack")["version"] == first["version"] + 1
            seen = [receive_until(ws, is_state) for ws in (phone, laptop, watcher)]
            assert {s["version"] for s in seen} == {first["version"] + 1}
            assert seen[0]["view"] == seen[1]["view"] and seen[0]["view"]["phase"] == "play"
            assert seen[2]["last"] == {"seat": 0, "action": {"type": "draw"}, "by": "player"}
            discard = {"type": "discard", "card": seen[0]["view"]["hand"][0]}
            phone.send_json({"type": "action", "version": seen[0]["version"], "action": discard})
            after = receive_until(watcher, lambda m: is_state(m) and m["last"]["by"] == "bot")
            assert after["last"]["seat"] == 1 and after["to_move"] in (0, 1)


def test_a_late_arrival_gets_the_deal_so_far_and_a_finished_deal_shows_every_hand(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=1e6, burst=1000) as client:
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ann:
            state = greet(ann, token)
            assert receive_until(ann, lambda m: m["type"] == "log")["moves"] == []
            state = play_until(ann, 0, state, lambda m: m["version"] >= 9, random.Random(2))
            assert state["hands"] is None  # while the deal is played, hands are hidden
            with client.websocket_connect(f"/ws/tables/{table}") as watcher:
                arrived = greet(watcher)
                log = receive_until(watcher, lambda m: m["type"] == "log")
                events = stored_events(tmp_path, table)[: arrived["version"]]
                assert log["version"] == arrived["version"] and log["deal"] == 0
                assert log["moves"] == [
                    {"version": n, "seat": e["seat"], "action": e["action"], "by": e["by"]}
                    for n, e in enumerate(events, 1)
                    if e["kind"] == "action"
                ]
            over = play_until(ann, 0, state, lambda m: m["status"] == "deal_over", random.Random(2))
            stored = stored_table(tmp_path, table).state
            assert stored is not None and over["hands"] == [[c.code for c in h] for h in stored.hands]


def test_chat_reaches_everyone_in_their_language(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2)
        tokens = [join(client, table, "Ann"), join(client, table, "Борис")]
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ann,
            client.websocket_connect(f"/ws/tables/{table}") as boris,
        ):
            greet(ann, tokens[0], "en")
            greet(boris, tokens[1], "ru")
            ann.send_json({"type": "chat", "phrase": "well_played"})
            assert receive_until(boris, lambda m: m["type"] == "chat")["text"] == "Хорошо сыграно!"
            assert receive_until(ann, lambda m: m["type"] == "chat")["text"] == "Well played!"
            boris.send_json({"type": "chat", "text": "  спасибо  "})
            line = receive_until(ann, lambda m: m["type"] == "chat")
            assert line == {"type": "chat", "seat": 1, "name": "Борис", "phrase": None, "text": "спасибо"}


def test_whole_game_records_score_sheet_and_rematch(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=1e6, burst=1000) as client:
        table = new_table(client, players=2, seats=["human", "random"], target_score=400)
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            first = greet(ws, token)
            seen: list[dict[str, Any]] = []
            end = play_until(ws, 0, first, game_over, random.Random(3), seen)
            sheet = end["score_sheet"]
            states = [m for m in seen if is_state(m)]
            # the sheet comes with the first state and when a deal ends, else only the totals
            sent = [m["version"] for m in states if m["score_sheet"] is not None]
            pairs = itertools.pairwise(states)
            ends = [m["version"] for was, m in pairs if was["status"] != m["status"] == "deal_over"]
            assert sent == [first["version"], *ends, end["version"]] and len(ends) == end["deal"]
            assert end["totals"] == sheet["totals"]
            assert sheet["target"] == 400 and len(sheet["deals"]) == end["deal"] + 1
            assert sheet["totals"] == [sum(d["scores"][t]["total"] for d in sheet["deals"]) for t in (0, 1)]
            assert end["winner"] == max((0, 1), key=lambda t: sheet["totals"][t])
            assert end["view"]["result"] == sheet["deals"][-1]

            record = client.get(f"/api/tables/{table}/record").json()
            assert record["format"] == "canasta-record/1" and len(record["deals"]) == len(sheet["deals"])
            output, _ = replay(Record.from_json(record))
            assert output["ok"] and output["game_over"] and output["totals"] == sheet["totals"]
            first_deal = client.get(f"/api/tables/{table}/record?game=0&deal=0").json()
            assert first_deal["deals"] == record["deals"][:1]

            ws.send_json({"type": "action", "version": end["version"], "action": {"type": "draw"}})
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "game_over"
            ws.send_json({"type": "rematch", "id": "again"})
            assert receive_until(ws, lambda m: m["type"] == "ack")["id"] == "again"
            again = receive_until(ws, is_state)
            assert again["game"] == 1 and again["score_sheet"]["deals"] == [] and again["totals"] == [0, 0]
            playing = receive_until(ws, lambda m: is_state(m) and m["status"] == "playing")
            assert playing["deal"] == 0 and playing["score_sheet"] is None
            assert client.get(f"/api/tables/{table}/record").json()["error"]["code"] == "deal_not_over"
            assert client.get(f"/api/tables/{table}/record?game=0").json() == record


def test_records_are_read_page_by_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of two deals: each replays on its own (a page that leaves out the first deals starts
    from its first deal's position, with the scores so far), and together they are the game."""
    monkeypatch.setattr("canasta.server.http_api.RECORD_PAGE", 2)
    with running_server(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["random", "random"], target_score=100_000)
        until(client, lambda: len(hub.rooms[table].table.game.results) >= 6, rounds=10**7, settled=False)
        whole = Record.of_game(hub.rooms[table].table.games[0]).to_json()
        totals = [0, 0]
        for first in (0, 2, 4):
            page = client.get(f"/api/tables/{table}/record?first={first}&deal={first + 1}").json()
            if first:
                assert page["deals"][0]["position"]["scores"] == totals
            assert page["deals"][1] == whole["deals"][first + 1]
            output, _ = replay(Record.from_json(page))
            assert output["ok"]
            totals = output["totals"]
        latest = client.get(f"/api/tables/{table}/record?deal=4").json()
        assert latest["deals"][1] == whole["deals"][4] and "position" in latest["deals"][0]
        wide = client.get(f"/api/tables/{table}/record?first=0&deal=2").json()["error"]
        assert wide["code"] == "bad_field" and "'first'" in wide["message"]


def test_table_continues_after_the_server_stops(tmp_path: Path) -> None:
    rng = random.Random(5)
    with running_server(tmp_path) as client:
        table = new_table(client, players=4, seats=["human", "random", "random", "random"])
        tokens = [join(client, table, "Ann")]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, tokens[0])
            for _ in range(3):  # three turns of seat 0, and the bots' turns between
                state = play_until(ws, 0, state, lambda m: m["to_move"] != 0, rng)
                state = receive_until(ws, my_turn(0))
        before = [client.get(f"/api/tables/{table}", headers={"x-seat-token": t}).json() for t in tokens]
    events = stored_events(tmp_path, table)
    assert before[0]["version"] == len(events) > 6
    with running_server(tmp_path) as client:
        after = [client.get(f"/api/tables/{table}", headers={"x-seat-token": t}).json() for t in tokens]
        assert after == before
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            assert greet(ws, tokens[0])["view"] == before[0]["view"]


def test_two_servers_share_one_table(tmp_path: Path) -> None:
    """A move made through one server reaches the clients of the other, and both agree with
    storage."""
    with two_servers(tmp_path, ManualClock()) as client:
        table = client.post("/a/api/tables", json={"players": 2, "deal_pause": 0}).json()["table"]
        ann = client.post(f"/a/api/tables/{table}/seats", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/b/ws/tables/{table}") as watcher:
            assert greet(watcher)["status"] == "waiting"
            boris = client.post(f"/a/api/tables/{table}/seats", json={"name": "Boris"}).json()["token"]
            started = receive_until(watcher, lambda m: is_state(m) and m["status"] == "playing")
            assert [s["name"] for s in started["seats"]] == ["Ann", "Boris"]
            with client.websocket_connect(f"/a/ws/tables/{table}") as player:
                state = greet(player, ann)
                player.send_json({"type": "action", "version": state["version"], "action": {"type": "draw"}})
                seen = receive_until(watcher, lambda m: is_state(m) and m["version"] == state["version"] + 1)
                assert seen["last"]["action"] == {"type": "draw"}
            b_view = client.get(f"/b/api/tables/{table}", headers={"x-seat-token": boris}).json()
            assert b_view["version"] == len(stored_events(tmp_path, table)) == state["version"] + 1


def test_events_made_on_one_server_are_the_same_on_the_other(tmp_path: Path) -> None:
    """The deals, the person's moves and the computer's, made through server A, reach server
    B through storage and the broker's notice, and B's table holds them as A made them."""
    rng = random.Random(8)
    with two_servers(tmp_path, ManualClock()) as client:
        mounts = client.app.routes  # type: ignore[attr-defined]
        hubs = [mount.app.state.hub for mount in mounts]
        body = {"players": 2, "seats": ["human", "random"], "deal_pause": 0}
        table = client.post("/a/api/tables", json=body).json()["table"]
        ann = client.post(f"/a/api/tables/{table}/seats", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/b/ws/tables/{table}") as watcher:
            greet(watcher)
            with client.websocket_connect(f"/a/ws/tables/{table}") as player:
                state = play_until(player, 0, greet(player, ann), lambda m: m["version"] >= 15, rng)
            seen: list[tuple[LiveTable, LiveTable]] = []

            def same() -> bool:  # checked on the servers' loop, between two of its steps
                made, heard = (hub.rooms[table].table for hub in hubs)
                deals = [(d.dealer, d.deck, d.actions) for d in made.game.deals]
                if heard.version == made.version and deals == [
                    (d.dealer, d.deck, d.actions) for d in heard.game.deals
                ]:
                    seen.append((made, heard))
                return bool(seen)

            until(client, same)
            made, heard = seen[0]
            assert heard is not made and made.version >= state["version"] and made.game.deals[0].actions
            assert heard.moves == made.moves and {m["by"] for m in made.moves} == {"player", "bot"}


def test_a_person_connected_to_one_server_is_present_on_the_other(tmp_path: Path) -> None:
    """Neither server stands in for a person connected to the other one; when the person
    leaves, a stand-in plays for them; when they come back, to either server, it stops."""
    rng = random.Random(4)
    clock = ManualClock()
    with two_servers(tmp_path, clock, heartbeat=0.05) as client:
        body = {"players": 2, "deal_pause": 0, "grace": 0.3}
        table = client.post("/a/api/tables", json=body).json()["table"]
        ann, boris = (
            client.post(f"/{server}/api/tables/{table}/seats", json={"name": name}).json()["token"]
            for server, name in (("a", "Ann"), ("b", "Boris"))
        )
        with client.websocket_connect(f"/b/ws/tables/{table}") as on_b:
            state = greet(on_b, boris)
            with client.websocket_connect(f"/a/ws/tables/{table}") as on_a:
                greet(on_a, ann)
                for _ in range(16):  # more than the grace, and several heartbeats
                    advance(client, clock, 0.05)
                for server in "ab":
                    seats = client.get(f"/{server}/api/tables/{table}").json()["seats"]
                    assert [(s["connected"], s["stand_in"]) for s in seats] == [(True, False)] * 2
            for _ in range(1000):  # until both servers know that Ann left
                seats = [client.get(f"/{server}/api/tables/{table}").json()["seats"] for server in "ab"]
                if not any(s[0]["connected"] for s in seats):
                    break
            assert not any(s[0]["connected"] or s[0]["stand_in"] for s in seats)
            advance(client, clock, 0.3)  # the grace
            state = play_until(on_b, 1, state, lambda m: bool(m["last"] and m["last"]["seat"] == 0), rng)
            assert state["last"]["by"] == "stand_in" and state["seats"][0]["stand_in"]
            with client.websocket_connect(f"/a/ws/tables/{table}") as on_a:
                greet(on_a, ann)
                back = receive_until(on_b, lambda m: m["type"] == "presence" and m["seats"][0]["connected"])
                assert not back["seats"][0]["stand_in"]


def test_a_seat_left_through_one_server_and_taken_again_has_its_grace_on_both(tmp_path: Path) -> None:
    """Boris, connected to both servers, leaves through A; Cleo takes his seat later through
    A and does not connect: each server stands in for her only after her grace period."""
    clock = ManualClock()

    def stand_in() -> list[bool]:
        return [client.get(f"/{server}/api/tables/{table}").json()["seats"][1]["stand_in"] for server in "ab"]

    with two_servers(tmp_path, clock, heartbeat=0.05) as client:
        body = {"players": 2, "deal_pause": 0, "grace": 0.3}
        table = client.post("/a/api/tables", json=body).json()["table"]
        ann, boris = (
            client.post(f"/a/api/tables/{table}/seats", json={"name": name}).json()["token"]
            for name in ("Ann", "Boris")
        )
        with client.websocket_connect(f"/a/ws/tables/{table}") as ann_a:
            greet(ann_a, ann)
            with client.websocket_connect(f"/b/ws/tables/{table}") as boris_b:
                greet(boris_b, boris)
                with client.websocket_connect(f"/a/ws/tables/{table}") as boris_a:
                    greet(boris_a, boris)
                    for _ in range(4):  # each server hears that Boris is connected to the other
                        advance(client, clock, 0.05)
                    boris_a.send_json({"type": "leave"})
                    assert receive_until(boris_b, lambda m: m["type"] == "welcome")["seat"] is None
                for _ in range(8):  # more than the grace, and several heartbeats
                    advance(client, clock, 0.05)
                assert stand_in() == [True, True]  # the free seat
                client.post(f"/a/api/tables/{table}/seats", json={"name": "Cleo", "seat": 1})
                for _ in range(1000):  # until B knows that Cleo took the seat
                    if client.get(f"/b/api/tables/{table}").json()["seats"][1]["name"] == "Cleo":
                        break
                assert stand_in() == [False, False]
                advance(client, clock, 0.3)
                assert stand_in() == [True, True]


def test_a_silent_server_is_forgotten() -> None:
    """What another server announced lapses when it is not heard from again (it may be dead)."""
    clock = ManualClock()
    presence = RemotePresence(heartbeat=10.0, clock=clock)
    assert presence.heard("a", (0, 2)) and not presence.heard("a", (0,))
    presence.heard("b", (1,))
    clock.advance(20)
    presence.heard("b", (1, 3))
    presence.expire()
    assert presence.seats() == {0, 1, 3}
    clock.advance(20)
    presence.expire()
    assert presence.seats() == {1, 3}


def test_the_table_facts_a_client_shows_come_from_the_engine() -> None:
    opened = [[["KS", "KH", "KD", "KC", "KS", "KH", "KD"], ["QS", "QH", "2C"]], []]
    facts = table_facts(make_state(phase="draw", pile=["8D", "9S"], melds=opened, hands=[["5C"], [], [], []]))
    assert facts["teams"] == [0, 1, 0, 1] and facts["canastas"] == [{"K": "natural"}, {}]
    assert facts["canastas_needed"] == [0, 1] and facts["frozen_for"] == [False, True]  # who has opened
    assert facts["pile_block"] is None and facts["minimums"] == [50, 50] and facts["points"]["JK"] == 50
    assert facts["melded_points"] == [70 + 500 + 40, 0] and facts["freezer"] is None  # 7 kings: 70 + 500
    frozen = make_state(phase="draw", pile=["8D", "2C", "9S"], pile_frozen=True, hands=[["5C"], [], [], []])
    assert table_facts(frozen)["freezer"] == "2C"
    wild = table_facts(make_state(phase="draw", pile=["8D", "JK"], melds=opened, hands=[["5C"], [], [], []]))
    assert wild["pile_block"] == "wild_top"
    online = table_facts(make_state("online", 2, phase="draw", pile=["8D", "3S"], hands=[["5C"], []]))
    assert online["pile_block"] == "black3_go_out" and online["canastas_needed"] == [2, 2]


def test_catching_up_on_many_events_sends_the_log_not_a_state_each(tmp_path: Path) -> None:
    """Another process stored 30 moves that this one did not hear of (its broker was away):
    its clients get the deal's log and the state after them, not thirty states."""
    with running_server(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2)
        for name in ("Ann", "Boris"):
            join(client, table, name)
        with client.websocket_connect(f"/ws/tables/{table}") as watcher:
            state = greet(watcher)
            assert state["status"] == "playing"
            elsewhere = stored_table(tmp_path, table)
            events: list[dict[str, Any]] = []
            for _ in range(30):
                seat = elsewhere.state.to_move  # type: ignore[union-attr]
                move = elsewhere.state.view(seat).legal[0]  # type: ignore[union-attr]
                event = {"kind": "action", "seat": seat, "action": action_to_json(move), "by": "player"}
                elsewhere.apply(event_from_json(event))
                events.append(event)
            asyncio.run(_store(tmp_path, table, state["version"], events))
            client.portal.call(hub.broker.publish, Notice(table, "another process"))  # type: ignore[union-attr]
            seen = []
            while not (seen and is_state(seen[-1]) and seen[-1]["version"] == state["version"] + 30):
                seen.append(receive(watcher))
            assert [m["version"] for m in seen if is_state(m)] == [state["version"] + 30]
            assert [len(m["moves"]) for m in seen if m["type"] == "log"][-1] == 30


def test_a_table_whose_catching_up_storage_does_not_answer_catches_up_once_it_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The broker was away while another process stored a move at each of two tables; once it
    is back, the database does not answer the first table's reading in time: that table stays
    as it was and reads again, later after each failure in a row, until the database answers,
    while the second catches up at once. Their clients get every move, and one line says when
    the first failed and one when it caught up again."""
    clock = ManualClock()
    with caplog.at_level(logging.WARNING, "canasta.server"), running_server(tmp_path, clock=clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        tables = [new_table(client, players=2) for _ in range(2)]
        table = tables[0]
        for name, table_id in itertools.product(("Ann", "Boris"), tables):
            join(client, table_id, name)
        with (
            client.websocket_connect(f"/ws/tables/{table}") as watcher,
            client.websocket_connect(f"/ws/tables/{tables[1]}") as other,
        ):
            state = greet(watcher)
            assert greet(other)["version"] == state["version"]
            for table_id in tables:
                seat = stored_table(tmp_path, table_id).state.to_move  # type: ignore[union-attr]
                draw = {"kind": "action", "seat": seat, "action": {"type": "draw"}, "by": "player"}
                asyncio.run(_store(tmp_path, table_id, state["version"], [draw]))
            events, tries = hub.storage.events, []

            async def busy(table_id: str, after: int = 0) -> Any:
                if table_id != table:
                    return await events(table_id, after)
                tries.append(after)
                raise StorageBusy("no answer")

            monkeypatch.setattr(hub.storage, "events", busy)
            client.portal.call(hub.broker.publish, Notice(EVERY_TABLE, ""))  # type: ignore[union-attr]
            assert receive_until(other, is_state)["version"] == state["version"] + 1
            until(client, lambda: tries == [state["version"]])
            assert hub.rooms[table].table.version == state["version"]
            advance(client, clock, 0.49)
            until(client, lambda: True)
            assert len(tries) == 1
            advance(client, clock, 0.01)
            until(client, lambda: len(tries) == 2)
            advance(client, clock, 0.99)  # longer after each failure in a row
            until(client, lambda: True)
            assert len(tries) == 2 and hub.rooms[table].table.version == state["version"]
            monkeypatch.undo()
            advance(client, clock, 0.01)
            caught_up = receive_until(watcher, is_state)
            assert caught_up["version"] == state["version"] + 1
            assert caught_up["last"]["action"] == {"type": "draw"}
    said = [record.getMessage() for record in caplog.records]
    assert [line for line in said if "catch" in line or "caught" in line] == [
        f"table {table}: could not catch up (StorageBusy: no answer); trying again",
        f"table {table}: caught up again after 2 failures",
    ]


async def _store(tmp_path: Path, table: str, version: int, events: list[dict[str, Any]]) -> None:
    storage = SQLiteStorage(tmp_path / "canasta.db")
    for seq, event in enumerate(events, start=version + 1):
        await storage.append(table, seq, event)
    await storage.close()
