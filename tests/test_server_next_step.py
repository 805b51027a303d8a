"""A table's next automatic step, decided by `next_step` from the table and what the process
knows of it alone (who is connected, who stands in, whether it plays the computers, when the
turn timer runs out), without a server; the grace periods of `StandIns` on a `ManualClock`; and
a room that decides once for each change."""

from __future__ import annotations

import random
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

from canasta.protocol.settings import TableSettings
from canasta.server.autoplay import StandIns, Step, next_step
from canasta.server.clock import ManualClock
from canasta.server.events import ActionEvent, ReadyEvent
from canasta.server.table import LiveTable
from canasta.storage.base import SeatRow, TableRow
from server_support import greet, join, new_table, receive_until, running_server, until

NOW = 1000.0


def table(seats: list[str], taken: Collection[int] = (), **settings: Any) -> LiveTable:
    """A table of `seats`, the people's seats in `taken` taken."""
    body = {"players": len(seats), "seats": seats, "bot_delay": 0.5, "deal_pause": 3, **settings}
    rows = tuple(SeatRow(i, f"player {i}", f"hash {i}") for i in taken)
    return LiveTable(TableRow("t", TableSettings.from_json(body, 0.0).to_json(), rows))


def dealt(live: LiveTable) -> LiveTable:
    live.apply(live.next_deal(random.Random(1)))
    return live


def played_out(live: LiveTable) -> LiveTable:
    """The first deal played to its end with random legal moves."""
    rng = random.Random(2)
    dealt(live)
    while live.status == "playing":
        state = live.state
        assert state is not None
        live.apply(ActionEvent(state.to_move, rng.choice(state.legal_actions()), "player"))
    return live


def step(
    live: LiveTable,
    present: set[int],
    now: float = NOW,
    stand_ins: Collection[int] = (),
    plays_bots: bool = True,
    deadline: float | None = None,
) -> Step | None:
    return next_step(live, present, now, stand_ins=stand_ins, plays_bots=plays_bots, deadline=deadline)


def first() -> int:
    """The seat to move first in a two-player deal (the one `dealt` deals)."""
    state = dealt(table(["human", "human"], taken=(0, 1))).state
    assert state is not None
    return state.to_move


def test_a_table_deals_once_every_seat_is_taken() -> None:
    assert step(table(["human", "random"]), set()) is None
    assert step(table(["human", "random"], taken=(0,)), set()) == Step(0.0, "deal")
    assert step(table(["random", "random"]), set()) == Step(0.0, "deal")


def test_a_computer_to_move_plays_after_its_delay_in_the_process_that_plays_the_bots() -> None:
    seats = ["human", "human"]
    seats[first()] = "random"
    person = 1 - first()
    live = dealt(table(seats, taken=(person,)))
    assert step(live, {person}) == Step(0.5, "bot")
    assert step(live, {person}, plays_bots=False) is None  # another process holds the lease
    assert step(live, set()) is None  # its person is away: the table waits
    bots = dealt(table(["random", "random"]))
    assert step(bots, set()) == Step(0.5, "bot")  # nobody to wait for


def test_a_person_to_move_is_waited_for_unless_a_computer_stands_in() -> None:
    mover, other = first(), 1 - first()
    live = dealt(table(["human", "human"], taken=(0, 1)))
    assert step(live, {0, 1}) is None
    assert step(live, {other}) is None  # away, in their grace period
    assert step(live, {other}, stand_ins={mover}) == Step(0.5, "stand_in")
    assert step(live, {other}, stand_ins={mover}, plays_bots=False) is None
    assert step(live, {mover}, stand_ins={other}) is None  # a stand-in for the other seat
    left = dealt(table(["human", "human"], taken=(other,)))
    assert step(left, {other}) == Step(0.5, "stand_in")  # a free seat: no grace period


def test_the_turn_timer_runs_from_its_deadline() -> None:
    mover = first()
    live = dealt(table(["human", "human"], taken=(0, 1), turn_timer=30))
    assert step(live, {0, 1}) == Step(30, "timer")  # not started: all of it is left
    assert step(live, {0, 1}, deadline=NOW + 12.5) == Step(12.5, "timer")
    assert step(live, {0, 1}, now=NOW + 40, deadline=NOW + 30) == Step(-10, "timer")  # overdue: at once
    assert step(live, {0, 1}, stand_ins={mover}) == Step(0.5, "stand_in")  # a computer moves at its pace
    assert step(live, set()) is None  # nobody is there: no timer runs


def test_time_outs_on_a_manual_clock() -> None:
    """A person goes away: their grace period ends on the clock, a computer then stands in at
    once (`on_change`), and the timer of the decision goes on meanwhile."""
    clock = ManualClock(NOW)
    changes: list[float] = []
    stand_ins = StandIns(clock, lambda: changes.append(clock.time()))
    mover, other = first(), 1 - first()
    live = dealt(table(["human", "human"], taken=(0, 1), turn_timer=30, grace=10))
    deadline = clock.time() + 30
    stand_ins.away(mover, live.settings.grace)

    def now() -> Step | None:
        return step(live, {other}, clock.time(), stand_ins.seats, deadline=deadline)

    assert now() == Step(30, "timer") and stand_ins.grace_left(mover) == 10
    clock.advance(9.96)
    assert now() == Step(pytest.approx(20.04), "timer") and stand_ins.grace_left(mover) == 0.0
    assert changes == [] and stand_ins.seats == set()
    clock.advance(0.04)
    assert changes == [NOW + 10] and stand_ins.seats == {mover} and stand_ins.grace_left(mover) is None
    assert now() == Step(0.5, "stand_in")
    stand_ins.away(mover, 10)  # already stood in: no new grace period
    assert stand_ins.grace_left(mover) is None
    stand_ins.back(mover)
    assert now() == Step(pytest.approx(20), "timer") and clock.pending() == []
    stand_ins.away(mover, 10)
    stand_ins.back(mover)  # back within the grace period: it ends, nothing else happens
    clock.advance(20)
    assert changes == [NOW + 10] and stand_ins.seats == set() and now() == Step(0, "timer")


def test_the_next_deal_waits_for_every_person_present_unless_timed() -> None:
    live = played_out(table(["human", "random", "human", "random"], taken=(0, 2)))
    assert live.status == "deal_over"
    assert step(live, {0, 2}) is None
    live.apply(ReadyEvent(0))
    assert step(live, {0, 2}) is None
    assert step(live, {0}) == Step(0.0, "deal")  # the person away is not waited for
    live.apply(ReadyEvent(2))
    assert step(live, {0, 2}) == Step(0.0, "deal")
    assert step(live, set()) is None  # nobody is there
    timed = played_out(table(["human", "random"], taken=(0,), turn_timer=20))
    assert step(timed, {0}) == Step(3, "deal")  # after `deal_pause`
    bots = played_out(table(["random", "random"]))
    assert step(bots, set()) == Step(3, "deal")


@pytest.mark.parametrize("turn_timer", [None, 30])
def test_a_room_decides_its_next_step_once_for_each_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, turn_timer: int | None
) -> None:
    """A move: the room asks `next_step` once, and its state's `time_left` reads that answer
    (a timer, or none: the table waits for the person to move)."""
    calls: list[int] = []

    def counted(live: LiveTable, *args: Any, **kwargs: Any) -> Step | None:
        calls.append(live.version)
        return next_step(live, *args, **kwargs)

    monkeypatch.setattr("canasta.server.room.next_step", counted)
    clock = ManualClock()
    with running_server(tmp_path, clock=clock) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        timer = {} if turn_timer is None else {"turn_timer": turn_timer}
        table_id = new_table(client, players=2, **timer)
        pending = None if turn_timer is None else "timer"
        tokens = [join(client, table_id, name) for name in ("Ann", "Boris")]
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ann,
            client.websocket_connect(f"/ws/tables/{table_id}") as boris,
        ):
            sockets = [ann, boris]
            states = [greet(ann, tokens[0]), greet(boris, tokens[1])]
            mover = states[0]["to_move"]
            version = states[0]["version"]
            until(client, lambda: hub.rooms[table_id].pending == pending)
            calls.clear()
            draw = {"type": "action", "version": version, "action": {"type": "draw"}}
            sockets[mover].send_json(draw)
            receive_until(sockets[mover], lambda m: m["type"] == "ack")
            state = receive_until(sockets[1 - mover], lambda m: m["type"] == "state")
            until(client, lambda: hub.rooms[table_id].pending == pending)
            assert calls == [version + 1] and state["time_left"] == turn_timer
