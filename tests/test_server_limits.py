"""Every resource a request can consume has a bound: the options of a table, the budgets of its
computer players, the time a bot may think about one move."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from canasta.rules import SeatView
from canasta.rules.actions import Action
from canasta.server.clock import ManualClock
from server_support import advance, greet, is_state, new_table, receive_until, running_server, until


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
        {"target_score": 99},
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


def test_numeric_options_within_their_range_are_accepted(post: Any) -> None:
    options = {"decks": 3, "jokers": 6, "hand_size": 13, "target_score": 100_000, "red3_values": [100] * 8}
    assert post({"players": 4, "options": options}).status_code == 201
    assert post({"players": 4, "target_score": 100}).status_code == 201
    assert post({"players": 4, "target_score": 100_001}).json()["error"]["code"] == "bad_field"


class StuckBot:
    """A computer player that thinks until the test lets it go."""

    name = "stuck"

    def __init__(self, release: threading.Event) -> None:
        self.release = release

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        self.release.wait(30)
        return view.legal[0]


def test_a_bot_out_of_time_makes_a_random_legal_move_and_other_tables_play_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    monkeypatch.setattr("canasta.server.autoplay.make_bot", lambda spec: StuckBot(release))
    clock = ManualClock()
    with (
        running_server(tmp_path, clock=clock, bot_threads=1, bot_deadline=5.0) as client,
        ExitStack() as stack,
    ):
        stack.callback(release.set)
        tables = [new_table(client, players=2, seats=["random", "random"]) for _ in range(2)]
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/tables/{table}")) for table in tables]
        for ws in sockets:
            greet(ws)
        # the one thread thinks for the first table; the second's move waits for it
        until(client, lambda: clock.pending().count(5.0) == 2)
        advance(client, clock, 4.9)
        assert client.get(f"/api/tables/{tables[1]}").json()["version"] == 1
        advance(client, clock, 0.1)
        for ws in sockets:
            moved = receive_until(ws, lambda m: is_state(m) and m["version"] == 2)
            assert moved["last"]["by"] == "bot"
