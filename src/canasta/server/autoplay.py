"""What happens at a table without a person deciding it: computer players' moves (after the
table's `bot_delay`), stand-ins for people who dropped out (after `grace`) or left, moves made
when a person's turn timer runs out, and the next deal.

`next_step` decides the next of these from the table and what this process knows of it, and
from nothing else; `canasta.server.room.Room` asks it once for each change of the table, keeps
one timer per table for its answer and takes the step when the timer runs out. `StandIns`
keeps the grace periods of the people who are away.

Only one process plays a table's computer players: the holder of the table's lease in storage
(`canasta.server.lease`).

A table waits for its people: while a table meant for people has none connected, nothing
happens at all (no computer moves, no stand-in, no timer, no deal). Between deals the next one
starts once every connected person has asked for it (`ready`); only under a turn timer, or at
a table of computer players alone, it also starts by itself after `deal_pause`.

A decision's turn timer runs from when this process first decides on it as the next step (for
the table's version) and is not restarted by anything but the next version, so the time left
that clients are told (`time_left`) is the time this process will wait.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Set
from typing import NamedTuple

from canasta.server.clock import Clock, Timer
from canasta.server.table import DEAL_OVER, PLAYING, WAITING, LiveTable

DEAL, BOT, STAND_IN, TIMER = "deal", "bot", "stand_in", "timer"  # the kinds of automatic step


class Step(NamedTuple):
    """An automatic step of `kind` (deal, bot, stand_in or timer), `delay` seconds from now."""

    delay: float
    kind: str


def next_step(
    table: LiveTable,
    present: Set[int],
    now: float,
    *,
    stand_ins: Collection[int],
    plays_bots: bool,
    deadline: float | None,
) -> Step | None:
    """The table's next automatic step as seen at `now`; None: the table waits for a person.

    `present`: the seats with a person connected (to any process); `stand_ins`: the people's
    seats that a computer plays after their grace period (a free seat is played by one
    anyway); `plays_bots`: whether this process plays the table's computer players (it holds
    the lease); `deadline`: when the turn timer of the table's current decision runs out, if it
    has started (None: the whole `turn_timer` is left).
    """
    settings = table.settings
    status = table.status
    if status == WAITING:
        return Step(0.0, DEAL) if table.seated else None
    if settings.human_seats and not present:
        return None  # every person is away: the table waits
    if status == DEAL_OVER:
        if settings.human_seats and present <= table.ready:
            return Step(0.0, DEAL)
        if settings.turn_timer is not None or not settings.human_seats:
            return Step(settings.deal_pause, DEAL)
        return None
    if status != PLAYING or table.state is None:
        return None
    seat = table.state.to_move
    if table.seats[seat].bot is not None:
        return Step(settings.bot_delay, BOT) if plays_bots else None
    if stands_in(table, stand_ins, seat):
        return Step(settings.bot_delay, STAND_IN) if plays_bots else None
    if settings.turn_timer is not None:
        return Step(settings.turn_timer if deadline is None else deadline - now, TIMER)
    return None


def stands_in(table: LiveTable, stand_ins: Collection[int], seat: int) -> bool:
    """Whether a computer plays this person's seat: its person is away (`stand_ins`), or left it."""
    return seat in stand_ins or (table.state is not None and table.seats[seat].free)


class StandIns:
    """The people's seats that a computer plays because their person is away: each after a
    grace period, at whose end `on_change` is called."""

    def __init__(self, clock: Clock, on_change: Callable[[], None]) -> None:
        self.seats: set[int] = set()
        self._clock, self._on_change = clock, on_change
        self._grace: dict[int, tuple[Timer, float]] = {}  # per seat: its timer, and when it ends

    def away(self, seat: int, grace: float) -> None:
        """Nobody is connected for this person's seat: a computer plays it after `grace` seconds
        (unless it does already, or its grace period runs)."""
        if seat not in self.seats and seat not in self._grace:
            timer = self._clock.call_later(grace, self._replace, seat)
            self._grace[seat] = timer, self._clock.time() + grace

    def back(self, seat: int) -> None:
        """The person is back (or left for good): nobody stands in for them any more."""
        grace = self._grace.pop(seat, None)
        if grace is not None:
            grace[0].cancel()
        self.seats.discard(seat)

    def grace_left(self, seat: int) -> float | None:
        """Seconds (to a tenth) before a computer takes this away person's seat; None when no
        grace period runs for it."""
        grace = self._grace.get(seat)
        return None if grace is None else round(max(0.0, grace[1] - self._clock.time()), 1)

    def _replace(self, seat: int) -> None:
        del self._grace[seat]
        self.seats.add(seat)
        self._on_change()

    def stop(self) -> None:
        for timer, _ in self._grace.values():
            timer.cancel()
        self._grace.clear()
