"""Bad input changes nothing and gets a precise error code, in the player's language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocket

from canasta.storage import Conflict, StorageBusy
from server_support import (
    advance,
    close_code,
    greet,
    join,
    new_table,
    receive,
    receive_until,
    running_server,
    stored_events,
)

CYRILLIC = re.compile("[а-яА-Я]")


@dataclass
class Duel:
    """A started two-person table (seat 0 to move, in English; seat 1 in Russian)."""

    client: TestClient
    tmp_path: Path
    table: str
    tokens: list[str]
    sockets: list[WebSocketTestSession]
    hand: list[str]

    def snapshot(self) -> tuple[Any, ...]:
        states = [
            self.client.get(f"/api/tables/{self.table}", headers={"x-seat-token": t}).json()
            for t in self.tokens
        ]
        return states, len(stored_events(self.tmp_path, self.table))

    def error(self, seat: int, raw: str | bytes) -> dict[str, Any]:
        """Send `raw` from a seat and return the error it gets, checking that nothing changed."""
        before = self.snapshot()
        ws = self.sockets[seat]
        if isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw)
        message = receive_until(ws, lambda m: m["type"] in ("error", "ack"))
        assert message["type"] == "error", message
        assert self.snapshot() == before
        return message


@pytest.fixture
def duel(tmp_path: Path) -> Iterator[Duel]:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws0,
            client.websocket_connect(f"/ws/tables/{table}") as ws1,
        ):
            state = greet(ws0, tokens[0], "en")
            greet(ws1, tokens[1], "ru")
            assert state["status"] == "playing" and state["to_move"] == 0 and state["version"] == 1
            yield Duel(client, tmp_path, table, tokens, [ws0, ws1], state["view"]["hand"])


def action(version: int, **fields: Any) -> str:
    return json.dumps({"type": "action", "version": version, "action": fields})


CASES = [
    ("bad_json", 0, "{nope"),
    ("bad_json", 0, '{"type": "chat", "phrase": NaN}'),
    ("bad_message", 0, "[1, 2]"),
    ("missing_field", 0, '{"version": 1}'),
    ("unknown_type", 1, '{"type": "teleport"}'),
    ("missing_field", 0, json.dumps({"type": "action", "action": {"type": "draw"}})),
    ("missing_field", 0, json.dumps({"type": "action", "version": 1})),
    ("bad_field", 0, json.dumps({"type": "action", "version": "1", "action": {"type": "draw"}})),
    ("bad_field", 0, json.dumps({"type": "action", "version": 1, "action": "draw"})),
    ("bad_action", 0, action(1, type="discard", card="ZZ")),
    ("bad_action", 0, action(1, type="discard")),
    ("bad_action", 1, action(1, type="fly")),
    ("wrong_seat", 0, action(1, seat=1, type="draw")),
    ("not_your_turn", 1, action(1, type="draw")),
    ("stale_state", 0, action(0, type="draw")),
    ("stale_state", 0, action(7, type="draw")),
    ("illegal_action", 0, action(1, type="pass")),
    ("illegal_action", 0, action(1, type="ask")),
    ("too_large", 0, json.dumps({"type": "chat", "text": "x" * 20000})),
    ("already_hello", 0, '{"type": "hello"}'),
    ("unknown_phrase", 0, '{"type": "chat", "phrase": "nonsense"}'),
    ("bad_field", 0, '{"type": "chat", "text": "   "}'),
    ("missing_field", 0, '{"type": "chat"}'),
    ("bad_field", 0, '{"type": "chat", "text": "hi \\ud800"}'),
    ("bad_field", 1, '{"type": "chat", "phrase": "\\udfff"}'),
    ("bad_field", 0, '{"type": "hello", "token": "\\ud83d"}'),
    ("bad_field", 0, '{"type": "action", "version": 1, "action": {"type": "discard", "card": "\\ud800"}}'),
    ("bad_message", 0, '{"type": "chat", "\\ud800": 1}'),
    ("game_not_over", 1, '{"type": "rematch"}'),
]


@pytest.mark.parametrize(("code", "seat", "raw"), CASES)
def test_bad_message_changes_nothing(duel: Duel, code: str, seat: int, raw: str) -> None:
    error = duel.error(seat, raw)
    assert error["code"] == code
    assert error["message"]
    assert bool(CYRILLIC.search(error["message"])) == (seat == 1)  # seat 1 chose Russian


def test_illegal_move_names_the_rule_in_both_languages(duel: Duel) -> None:
    discard = action(1, type="discard", card=duel.hand[0])
    english = duel.error(0, discard)
    assert english["code"] == "illegal_action" and english["rule"] == "wrong_phase"
    assert english["message"] == "Draw a card or take the pile first."
    assert english["detail"].startswith("discard ")
    assert english["refusal"] == {"code": "wrong_phase", "case": "draw", "facts": {}}
    meld = action(1, type="draw")
    duel.sockets[0].send_text(meld)
    assert receive_until(duel.sockets[0], lambda m: m["type"] == "ack")["version"] == 2
    other = duel.error(1, action(2, type="discard", card="KS"))
    assert other["code"] == "not_your_turn" and other["message"] == "Сейчас не ваш ход: ходит место 0."


def test_request_id_is_echoed(duel: Duel) -> None:
    error = duel.error(
        0, json.dumps({"type": "action", "id": "m-1", "version": 0, "action": {"type": "draw"}})
    )
    assert error["id"] == "m-1" and error["code"] == "stale_state"
    duel.sockets[0].send_text(
        json.dumps({"type": "action", "id": 17, "version": 1, "action": {"type": "draw"}})
    )
    assert receive_until(duel.sockets[0], lambda m: m["type"] == "ack") == {
        "type": "ack",
        "id": 17,
        "version": 2,
    }


@pytest.mark.parametrize(
    "bad_id", ['"\\ud800"', "[1]", "true", "1.5", "1e400", '"' + "x" * 65 + '"', str(2**60)]
)
def test_a_malformed_id_is_refused(duel: Duel, bad_id: str) -> None:
    """The message is not carried out (its answer could not name it): `bad_field`, naming `id`."""
    error = duel.error(0, f'{{"type": "chat", "phrase": "hello", "id": {bad_id}}}')
    assert error["code"] == "bad_field" and error["id"] is None and error["detail"].startswith("id: ")


def test_rate_limited_errors_carry_the_request_id(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=0.001, burst=2) as client:
        table = new_table(client, players=2)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            greet(ws, join(client, table, "Ann"))
            ws.send_json({"type": "chat", "phrase": "hurry", "id": "first"})
            assert receive_until(ws, lambda m: m["type"] == "chat")["phrase"] == "hurry"
            ws.send_json({"type": "action", "id": "m-2", "version": 1, "action": {"type": "draw"}})
            ws.send_text('{"type": "teleport", "id": 3}')
            errors = [receive_until(ws, lambda m: m["type"] == "error") for _ in range(2)]
            assert [(e["code"], e["id"]) for e in errors] == [("rate_limited", "m-2"), ("rate_limited", 3)]


def test_a_message_that_cannot_be_sent_closes_the_connection_with_a_code(
    duel: Duel, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    send_text = WebSocket.send_text

    async def failing(self: WebSocket, data: str) -> None:
        if "boom" in data:
            raise UnicodeEncodeError("utf-8", data, 0, 1, "surrogates not allowed")
        await send_text(self, data)

    monkeypatch.setattr(WebSocket, "send_text", failing)
    duel.sockets[0].send_json({"type": "chat", "text": "boom"})
    for ws in duel.sockets:
        assert close_code(ws) == 1011
    assert "a message could not be sent" in caplog.text


def test_binary_frames_are_read_as_json(duel: Duel) -> None:
    assert duel.error(0, b"\xff\xfe")["code"] == "bad_json"
    assert duel.error(0, action(0, type="draw").encode())["code"] == "stale_state"


def test_tokens_and_spectators(duel: Duel) -> None:
    client, table = duel.client, duel.table
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(action(1, type="draw"))
        assert receive(ws)["code"] == "hello_required"
        ws.send_json({"type": "hello", "token": "not-a-token", "lang": "ru"})
        error = receive(ws)
        assert error["code"] == "bad_token" and CYRILLIC.search(error["message"])
        ws.send_json({"type": "hello", "lang": "fr"})  # a language the table does not speak
        assert receive(ws)["code"] == "bad_field"
        state = greet(ws)  # a spectator
        assert state["seat"] is None and state["view"]["hand"] == [] and state["view"]["legal"] == []
        ws.send_text(action(1, type="draw"))
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "not_seated"
        ws.send_json({"type": "chat", "phrase": "hello"})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "not_seated"
    assert len(stored_events(duel.tmp_path, table)) == 1


def test_flood_from_one_socket_is_cut_off(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=0.001, burst=5) as client:
        table = new_table(client, players=2)
        tokens = [join(client, table, "Ann"), join(client, table, "Boris")]
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws0,
            client.websocket_connect(f"/ws/tables/{table}") as ws1,
        ):
            greet(ws0, tokens[0])
            greet(ws1, tokens[1])
            for _ in range(4):  # the hello used one message of the burst
                ws0.send_json({"type": "chat", "phrase": "hurry"})
            for _ in range(10):
                ws0.send_json({"type": "action", "version": 1, "action": {"type": "draw"}})
            replies = [receive_until(ws0, lambda m: m["type"] in ("chat", "error", "ack")) for _ in range(14)]
            assert [r["type"] for r in replies] == ["chat"] * 4 + ["error"] * 10
            assert {r["code"] for r in replies[4:]} == {"rate_limited"}
            heard = [receive_until(ws1, lambda m: m["type"] == "chat") for _ in range(4)]
            assert {h["text"] for h in heard} == {"Пожалуйста, побыстрее."} or {h["text"] for h in heard} == {
                "Please hurry up."
            }
        assert len(stored_events(tmp_path, table)) == 1  # only the deal: no draw got through


def test_free_text_chat_can_be_turned_off(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2, seats=["human", "random"], free_chat=False, bot_delay=5)
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            greet(ws, token, "ru")
            ws.send_json({"type": "chat", "text": "hi"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "chat_disabled" and CYRILLIC.search(error["message"])
            ws.send_json({"type": "chat", "phrase": "good_luck"})
            line = receive_until(ws, lambda m: m["type"] == "chat")
            assert line == {"type": "chat", "seat": 0, "name": "Ann", "phrase": "good_luck", "text": "Удачи!"}


def test_actions_before_the_start(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2)
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, token)
            assert state["status"] == "waiting" and state["view"] is None and state["version"] == 0
            ws.send_text(action(0, type="draw"))
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "not_started"
        assert stored_events(tmp_path, table) == []


def test_unknown_table_on_the_socket(tmp_path: Path) -> None:
    with running_server(tmp_path) as client, client.websocket_connect("/ws/tables/nope?lang=ru") as ws:
        error = receive(ws)
        assert error["code"] == "table_not_found" and error["message"] == "Такого стола нет."


def test_http_bad_input(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        post = client.post
        assert post("/api/tables", content=b"{").json()["error"]["code"] == "bad_json"
        bad_variant = post("/api/tables?lang=ru", json={"variant": "bridge"})
        assert bad_variant.status_code == 400 and bad_variant.json()["error"]["code"] == "bad_settings"
        assert "variant" in bad_variant.json()["error"]["message"]
        bad_seats = post("/api/tables", json={"players": 2, "seats": ["human", "genius"]})
        assert bad_seats.json()["error"]["code"] == "bad_settings"
        assert (
            post("/api/tables", json={"players": 2, "seats": ["human"]}).json()["error"]["code"]
            == "bad_field"
        )
        assert post("/api/tables", json={"bot_delay": -1}).json()["error"]["code"] == "bad_field"
        too_big = post("/api/tables", content=b" " * 20000)
        assert too_big.status_code == 413 and too_big.json()["error"]["code"] == "too_large"

        table = new_table(client, players=2, seats=["human", "random"])
        assert post(f"/api/tables/{table}/seats", json={}).json()["error"]["code"] == "missing_field"
        assert (
            post(f"/api/tables/{table}/seats", json={"name": "\x07"}).json()["error"]["code"] == "bad_field"
        )
        robot = post(f"/api/tables/{table}/seats", json={"name": "Ann", "seat": 1})
        assert robot.status_code == 409 and robot.json()["error"]["code"] == "not_human_seat"
        for seat in (2, 7):  # the table's own seats are named, not the largest table's
            error = post(f"/api/tables/{table}/seats", json={"name": "Ann", "seat": seat}).json()["error"]
            assert error["code"] == "bad_field" and "this table has seats 0 to 1" in error["detail"], error
        join(client, table, "Ann")
        full = post(f"/api/tables/{table}/seats", json={"name": "Boris"})
        assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"
        taken = post(f"/api/tables/{table}/seats", json={"name": "Boris", "seat": 0})
        assert taken.json()["error"]["code"] == "seat_taken"

        missing = client.get("/api/tables/AAAAAAAAAAAAAAAAAAAAAA", headers={"accept-language": "ru-RU"})
        assert missing.status_code == 404 and missing.json()["error"]["message"] == "Такого стола нет."
        wrong = client.get(f"/api/tables/{table}", headers={"x-seat-token": "forged"})
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_token"
        early = client.get(f"/api/tables/{table}/record")
        assert early.status_code == 409 and early.json()["error"]["code"] == "deal_not_over"
        assert client.get(f"/api/tables/{table}/record?game=x").json()["error"]["code"] == "bad_field"
        assert client.get(f"/api/tables/{table}/record?game=3").json()["error"]["code"] == "bad_field"
        assert client.get(f"/api/tables/{table}/record?game=\u00b2").json()["error"]["code"] == "bad_field"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("POST", "/api/tables", '{"players": 2, "options": {"freeze_triggers": [{}]}}', 400, "bad_settings"),
        ("POST", "/api/tables", '{"options": {"block_rules": [["wild_top"]]}}', 400, "bad_settings"),
        ("POST", "/api/tables", '{"options": {"go_out_bonus": {"a": 1}}}', 400, "bad_settings"),
        ("POST", "/api/tables", '{"options": {"\\ud800": 1}}', 400, "bad_field"),
        ("POST", "/api/tables", '{"seats": ["\\udc00", "human", "human", "human"]}', 400, "bad_field"),
        ("POST", "TABLE/seats", '{"name": "Ann \\ud800"}', 400, "bad_field"),
        ("POST", "TABLE/seats", '{"name": "Ann", "\\ud800": 1}', 400, "bad_message"),
        ("GET", "/api/nothing", None, 404, "not_found"),
        ("DELETE", "TABLE", None, 405, "bad_method"),
    ],
)
def test_every_http_error_is_json(
    tmp_path: Path, method: str, path: str, body: str | None, status: int, code: str
) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2)
        response = client.request(method, path.replace("TABLE", f"/api/tables/{table}"), content=body)
        assert response.status_code == status and response.headers["content-type"] == "application/json"
        error = response.json()["error"]
        assert error["code"] == code and error["message"], error
        assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] is None  # nothing changed


def test_an_unexpected_http_failure_is_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr("canasta.server.http_api.catalogue", broken)
    with running_server(tmp_path) as client:
        client_without_raising = TestClient(client.app, raise_server_exceptions=False)
        response = client_without_raising.get("/api/rulesets?lang=ru")
        assert response.status_code == 500 and response.json()["error"]["code"] == "internal_error"
        assert CYRILLIC.search(response.json()["error"]["message"])


@pytest.mark.parametrize(
    ("failure", "code"), [(OSError("disk full"), "internal_error"), (Conflict("raced"), "stale_state")]
)
def test_a_move_that_cannot_be_stored_changes_nothing(
    duel: Duel, monkeypatch: pytest.MonkeyPatch, failure: Exception, code: str
) -> None:
    storage = duel.client.app.state.hub.storage  # type: ignore[attr-defined]
    store = storage.append

    async def failing(table_id: str, seq: int, event: dict[str, Any]) -> None:
        monkeypatch.setattr(storage, "append", store)  # fail once
        raise failure

    monkeypatch.setattr(storage, "append", failing)
    assert duel.error(0, action(1, type="draw"))["code"] == code
    duel.sockets[0].send_text(action(1, type="draw"))
    assert receive_until(duel.sockets[0], lambda m: m["type"] == "ack")["version"] == 2


@pytest.mark.parametrize(
    ("failure", "code"),
    [(OSError("disk full"), "internal_error"), (StorageBusy("no answer"), "storage_busy")],
)
def test_a_failed_store_leaves_the_table_as_it_was_without_replaying_the_log(
    duel: Duel, monkeypatch: pytest.MonkeyPatch, failure: Exception, code: str
) -> None:
    """The move is applied to a copy of the table: when it cannot be stored, the table in
    memory is the very one it was (same game, same state, same version) and the log is not
    read again; the same move is then played and stored."""
    hub = duel.client.app.state.hub  # type: ignore[attr-defined]
    storage, room = hub.storage, hub.rooms[duel.table]
    table, state = room.table, room.table.state
    before = (table.version, state.to_move, [c.code for c in state.hands[0]], len(state.stock))
    store, reads = storage.append, []

    async def failing(table_id: str, seq: int, event: dict[str, Any]) -> None:
        monkeypatch.setattr(storage, "append", store)  # fail once
        raise failure

    async def reading(*args: Any) -> Any:
        reads.append(args)
        raise AssertionError("the log was read")

    monkeypatch.setattr(storage, "append", failing)
    monkeypatch.setattr(storage, "events", reading)
    monkeypatch.setattr(storage, "load_table", reading)
    assert duel.error(0, action(1, type="draw"))["code"] == code
    assert room.table is table and table.state is state and reads == []
    assert (table.version, state.to_move, [c.code for c in state.hands[0]], len(state.stock)) == before
    duel.sockets[0].send_text(action(1, type="draw"))
    assert receive_until(duel.sockets[0], lambda m: m["type"] == "ack")["version"] == 2
    assert room.table is not table and table.version == 1 and room.table.version == 2
    assert [e["action"] for e in stored_events(duel.tmp_path, duel.table)[1:]] == [{"type": "draw"}]


def test_a_move_raced_by_another_process_catches_up_without_replaying_the_log(
    duel: Duel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process stored event 2 first: the table reads only the events after its own
    version (not the whole log) and answers stale_state with the version it caught up to and the
    one the move was made on."""
    hub = duel.client.app.state.hub  # type: ignore[attr-defined]
    storage, room = hub.storage, hub.rooms[duel.table]
    store, events, afters = storage.append, storage.events, []

    async def raced(table_id: str, seq: int, event: dict[str, Any]) -> None:
        monkeypatch.setattr(storage, "append", store)
        await store(table_id, seq, {**event, "by": "elsewhere"})  # the other process's event 2
        raise Conflict(f"table {table_id}: event {seq} exists")

    async def reading(table_id: str, after: int = 0) -> Any:
        afters.append(after)
        return await events(table_id, after)

    monkeypatch.setattr(storage, "append", raced)
    monkeypatch.setattr(storage, "events", reading)
    ws = duel.sockets[0]
    ws.send_text(action(1, type="draw"))
    error = receive_until(ws, lambda m: m["type"] in ("error", "ack"))
    assert error["code"] == "stale_state" and "at version 2, you saw 1" in error["message"]
    assert afters == [1] and room.table.version == 2 and room.table.last["by"] == "elsewhere"


def test_a_raced_move_whose_catching_up_is_not_answered_catches_up_later(
    duel: Duel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process stored event 2 first, and the database does not give it in time: the
    mover is told storage_busy, and the table reads it again after a while, telling everyone."""
    hub = duel.client.app.state.hub  # type: ignore[attr-defined]
    storage, room = hub.storage, hub.rooms[duel.table]
    store, events = storage.append, storage.events

    async def raced(table_id: str, seq: int, event: dict[str, Any]) -> None:
        monkeypatch.setattr(storage, "append", store)
        await store(table_id, seq, {**event, "by": "elsewhere"})  # the other process's event 2
        raise Conflict(f"table {table_id}: event {seq} exists")

    async def busy(table_id: str, after: int = 0) -> Any:
        monkeypatch.setattr(storage, "events", events)  # it answers the next time
        raise StorageBusy("no answer")

    monkeypatch.setattr(storage, "append", raced)
    monkeypatch.setattr(storage, "events", busy)
    duel.sockets[0].send_text(action(1, type="draw"))
    assert receive_until(duel.sockets[0], lambda m: m["type"] in ("error", "ack"))["code"] == "storage_busy"
    assert room.table.version == 1
    advance(duel.client, hub.config.clock, 0.5)
    for ws in duel.sockets:
        state = receive_until(ws, lambda m: m["type"] == "state" and m["version"] == 2)
        assert state["last"]["by"] == "elsewhere"


def test_a_table_whose_log_the_database_does_not_give_in_time_is_busy_not_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_server(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2)
        hub.rooms.pop(table).close()

        async def busy(*args: Any) -> Any:
            raise StorageBusy("no answer")

        monkeypatch.setattr(hub.storage, "events", busy)
        response = client.get(f"/api/tables/{table}")
        assert response.status_code == 503 and response.json()["error"]["code"] == "storage_busy"
        monkeypatch.undo()
        assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"


def test_a_seat_taken_by_another_process_meanwhile(duel: Duel, monkeypatch: pytest.MonkeyPatch) -> None:
    client = duel.client
    table = new_table(client, players=2)

    async def lost_race(*args: Any) -> bool:
        return False

    monkeypatch.setattr(client.app.state.hub.storage, "take_seat", lost_race)  # type: ignore[attr-defined]
    response = client.post(f"/api/tables/{table}/seats", json={"name": "Ann"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "seat_taken"


def test_an_unexpected_failure_is_reported_and_the_socket_lives_on(
    duel: Duel, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr("canasta.server.room.Room.chat", broken)
    duel.sockets[0].send_json({"type": "chat", "phrase": "oops", "id": 9})
    error = receive_until(duel.sockets[0], lambda m: m["type"] == "error")
    assert error["code"] == "internal_error" and error["id"] == 9
    assert duel.error(0, action(0, type="draw"))["code"] == "stale_state"


def test_an_ask_holds_the_turn_and_an_answer_needs_a_question(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=4)
        tokens = [join(client, table, name) for name in ("Ann", "Boris", "Cleo", "Dan")]
        with (
            client.websocket_connect(f"/ws/tables/{table}") as asker,
            client.websocket_connect(f"/ws/tables/{table}") as partner,
        ):
            assert greet(asker, tokens[0], "en")["to_move"] == 0
            greet(partner, tokens[2], "ru")

            def reply(ws: WebSocketTestSession, raw: str) -> dict[str, Any]:
                ws.send_text(raw)
                return receive_until(ws, lambda m: m["type"] in ("error", "ack"))

            early = reply(partner, action(1, type="answer", yes=True))
            assert early["code"] == "illegal_action" and early["rule"] == "no_question"
            assert early["message"] == "Никто не спрашивал о выходе."
            assert reply(asker, action(1, type="ask"))["type"] == "ack"
            waiting = reply(asker, action(2, type="draw"))
            assert waiting["code"] == "illegal_action" and waiting["rule"] == "awaiting_answer"
            assert waiting["message"] == "Wait for your partner's answer first."
            assert reply(partner, action(2, type="answer", yes=False))["type"] == "ack"
