"""The hint: the strongest computer player's move for the player to move, worked out on the
server within a bounded time, with a one-line reason in the player's language."""

from __future__ import annotations

import random
import re
import threading
from contextlib import ExitStack
from pathlib import Path

import pytest

from canasta.protocol.hint_reasons import hint_reason
from canasta.rules import SeatView
from canasta.rules.actions import Action, action_from_json
from canasta.server.clock import ManualClock
from server_support import (
    advance,
    greet,
    is_state,
    join,
    my_turn,
    new_table,
    play_until,
    receive_until,
    running_server,
    until,
)
from support import make_state

CYRILLIC = re.compile("[а-яё]", re.I)


def test_the_player_to_move_gets_a_legal_move_and_its_reason(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2, seats=["human", "random"], bot_delay=0.5)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, join(client, table, "Ann"), lang="ru")
            decisions = 0
            while my_turn(0)(state) and decisions < 3:  # Ann's first decisions, all in her turn:
                decisions += 1  # the bot waits for a clock that does not move
                ws.send_json({"type": "hint", "id": 1})
                hint = receive_until(ws, lambda m: m["type"] == "hint")
                assert hint["version"] == state["version"]
                assert hint["action"] in state["view"]["legal"]
                assert CYRILLIC.search(hint["reason"]) and hint["reason"].endswith(".")
                # the hint is only advice (nothing was played), and a legal move
                ws.send_json({"type": "action", "version": state["version"], "action": hint["action"]})
                assert receive_until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                state = receive_until(ws, is_state)
            assert decisions >= 2  # the draw and what followed it
            state = play_until(ws, 0, state, lambda m: m["to_move"] == 1, random.Random(3))
            ws.send_json({"type": "hint", "id": 2})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "no_hint" and error["id"] == 2
        with client.websocket_connect(f"/ws/tables/{table}") as spectator:
            greet(spectator)
            spectator.send_json({"type": "hint"})
            assert receive_until(spectator, lambda m: m["type"] == "error")["code"] == "no_hint"


class StuckBot:
    """A computer player that thinks until it is let go."""

    name = "stuck"

    def __init__(self) -> None:
        self.release = threading.Event()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        self.release.wait(30)
        return view.legal[0]


def test_a_hint_that_takes_too_long_is_given_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stuck = StuckBot()
    monkeypatch.setattr("canasta.server.bot_worker.bot", lambda spec: stuck)
    clock = ManualClock()
    with running_server(tmp_path, clock=clock, bot_deadline=5.0) as client:
        table = new_table(client, players=2, seats=["human", "random"])
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = greet(ws, join(client, table, "Ann"))
            assert my_turn(0)(state)
            ws.send_json({"type": "hint"})
            until(client, lambda: 5.0 in clock.pending())
            advance(client, clock, 5.0)
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "hint_timeout" and error["message"].startswith("The hint took too long")
            stuck.release.set()


def test_a_seat_has_one_hint_thinking_and_a_few_a_minute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stuck = StuckBot()
    monkeypatch.setattr("canasta.server.bot_worker.bot", lambda spec: stuck)
    clock = ManualClock()
    config = {"clock": clock, "hints_per_minute": 2.0, "hint_burst": 2}
    with running_server(tmp_path, **config) as client, ExitStack() as stack:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")) for _ in range(5)]
        for ws in sockets:
            assert my_turn(0)(greet(ws, token, lang="ru"))
            ws.send_json({"type": "hint"})
        until(client, lambda: hub.bots.busy == 1)
        stuck.release.set()
        hints = [receive_until(ws, lambda m: m["type"] in ("hint", "error")) for ws in sockets]
        assert all(m["type"] == "hint" for m in hints) and hub.bots.stats["hints"] == 1  # one for all five
        sockets[0].send_json({"type": "hint"})
        assert receive_until(sockets[0], lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        sockets[1].send_json({"type": "hint"})  # a third within the burst of two
        refused = receive_until(sockets[1], lambda m: m["type"] == "error")
        assert refused["code"] == "hint_limited" and CYRILLIC.search(refused["message"])
        advance(client, clock, 30.0)  # two a minute: one more after half a minute
        sockets[1].send_json({"type": "hint"})
        assert receive_until(sockets[1], lambda m: m["type"] in ("hint", "error"))["type"] == "hint"


def test_reasons_name_what_the_move_does() -> None:
    opened = [[["KS", "KH", "KD", "KC", "2C", "KS"]], []]
    s = make_state(hands=[["KH", "9S", "9H", "9D", "5C"], [], [], []], melds=opened)
    view = s.view(0)
    canasta = action_from_json({"type": "meld", "melds": [["KH"]]})[0]
    assert hint_reason(view, canasta, "en") == "Add K♥ to your kings: it completes a canasta of kings."
    assert hint_reason(view, canasta, "ru") == (
        "Добавьте K♥ в свою комбинацию королей: получится канаста из королей."
    )
    nines = action_from_json({"type": "meld", "melds": [["9S", "9H", "9D"]]})[0]
    assert hint_reason(view, nines, "en") == "Lay down 9♠ 9♥ 9♦: 30 more points on the table."
    king_wild = {"rank": "K", "cards": ["2H"]}
    both = action_from_json({"type": "meld", "melds": [["9S", "9H", "9D"], king_wild]})[0]
    assert hint_reason(view, both, "en") == (
        "Lay down 9♠ 9♥ 9♦ and add 2♥ to your kings: it completes a canasta of kings."
    )
    wild = action_from_json({"type": "meld", "melds": [king_wild]})[0]
    assert hint_reason(view, wild, "en") == "Add 2♥ to your kings: it completes a canasta of kings."
    fresh = make_state(hands=[["AS", "AH", "AD", "JK", "5C"], [], [], []]).view(0)
    opening = action_from_json({"type": "meld", "melds": [["AS", "AH", "AD", "JK"]]})[0]
    assert hint_reason(fresh, opening, "en") == "Lay down A♠ A♥ A♦ Joker: your side's first meld, 110 points."
    assert (
        hint_reason(fresh, opening, "ru") == "Выложите A♠ A♥ A♦ джокер: первая выкладка команды, очков — 110."
    )
    black = action_from_json({"type": "discard", "card": "3S"})[0]
    assert "black three" in hint_reason(fresh, black, "en")
