"""What happens at a table without a person deciding it: computer players' moves (after the
table's `bot_delay`), stand-ins for people who dropped out (after `grace`) or left, moves made
when a person's turn timer runs out, and the next deal.

Only one process plays a table's computer players (`Room.runs_bots`): the holder of the table's
lease in storage (`canasta.server.lease`).

A table waits for its people: while a table meant for people has none connected, nothing
happens at all (no computer moves, no stand-in, no timer, no deal). Between deals the next one
starts once every connected person has asked for it (`ready`); only under a turn timer, or at
a table of computer players alone, it also starts by itself after `deal_pause`.

A decision's turn timer runs from when this process first sees the decision (the table's new
version) and is not restarted by anything but the next version, so the time left that clients
are told (`time_left`) is the time this process will wait.

At most one automatic step is pending per table; every change to the table reschedules it, and a
step whose table has changed meanwhile does nothing. A step under way (a bot thinking) is not
set again for the same version of the table. After storage failed, the next step waits
(`Room.retry_delay`), longer after each failure in a row. Bots think in the hub's `BotPool` on the
seat's view, outside the table's lock; a move made by `hard` instead (the bot had too little time
left, missed its deadline or failed) is marked `"quick": true` in its event: "played quickly".
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import TYPE_CHECKING

from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.server.bot_worker import quick_move
from canasta.server.clock import Timer
from canasta.server.events import ActionEvent, Event
from canasta.server.table import DEAL_OVER, PLAYING, WAITING

if TYPE_CHECKING:
    from canasta.server.room import Room

log = logging.getLogger("canasta.server")
WHY = {"quick": "too little time left", "late": "out of time", "failed": "the bot failed"}


class Autoplay:
    """The automatic steps of one room, and which people's seats a stand-in bot plays."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.stand_ins: set[int] = set()
        self._clock = room.config.clock
        self._grace: dict[int, Timer] = {}
        self._grace_ends: dict[int, float] = {}  # when each running grace period ends
        self._step: Timer | None = None
        self._pending: str | None = None
        self._running: tuple[int, str] | None = None  # (version, kind) of the step under way
        self._timed: tuple[object, int, float] | None = None  # (table, version, deadline)
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng = random.Random(secrets.randbits(64))
        self._stopped = False
        for i, seat in enumerate(room.table.seats):
            if seat.bot is None and seat.name is not None:
                self.absent(i)
        self.schedule()

    # -- people coming and going --------------------------------------------------------------

    def absent(self, seat: int) -> None:
        """Nobody is connected for this person's seat: a stand-in takes it after the grace
        period, or at once when the seat is free (its person left it)."""
        if self.room.table.seats[seat].free:
            self._forget(seat)  # `stands_in` a free seat without any grace period
        elif seat not in self.stand_ins and seat not in self._grace:
            grace = self.room.table.settings.grace
            self._grace[seat] = self._clock.call_later(grace, self._replace, seat)
            self._grace_ends[seat] = self._clock.time() + grace
        self.schedule()  # with nobody left at the table, play pauses

    def present(self, seat: int) -> None:
        """The person is back (or left for good): nobody stands in for them any more."""
        self._forget(seat)
        self.schedule()

    def _forget(self, seat: int) -> None:
        self._grace_ends.pop(seat, None)
        timer = self._grace.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self.stand_ins.discard(seat)

    def stands_in(self, seat: int) -> bool:
        """Whether a computer plays this person's seat: its person is away, or left it."""
        table = self.room.table
        return seat in self.stand_ins or (table.state is not None and table.seats[seat].free)

    def grace_left(self, seat: int) -> float | None:
        """Seconds (to a tenth) before a stand-in takes this away person's seat; None when no
        grace period runs for it."""
        end = self._grace_ends.get(seat)
        return None if end is None else round(max(0.0, end - self._clock.time()), 1)

    def _replace(self, seat: int) -> None:
        self._grace_ends.pop(seat, None)
        self._grace.pop(seat, None)
        self.stand_ins.add(seat)
        self.room.send_presence()
        self.schedule()

    # -- the next step ------------------------------------------------------------------------

    def next_step(self) -> tuple[float, str] | None:
        """(delay, kind) of the next automatic step; kind is deal, bot, stand_in or timer."""
        table = self.room.table
        settings = table.settings
        status = table.status
        if status == WAITING:
            return (0.0, "deal") if table.seated else None
        present = self.room.present_seats()
        if settings.human_seats and not present:
            return None  # every person is away: the table waits
        if status == DEAL_OVER:
            if settings.human_seats and present <= table.ready:
                return 0.0, "deal"
            if settings.turn_timer is not None or not settings.human_seats:
                return settings.deal_pause, "deal"
            return None
        if status != PLAYING or table.state is None:
            return None
        seat = table.state.to_move
        if table.seats[seat].bot is not None:
            return (settings.bot_delay, "bot") if self.room.runs_bots() else None
        if self.stands_in(seat):
            return (settings.bot_delay, "stand_in") if self.room.runs_bots() else None
        if settings.turn_timer is not None:
            return self._deadline(settings.turn_timer) - self._clock.time(), "timer"
        return None

    def _deadline(self, seconds: float) -> float:
        """When the turn timer of the current decision runs out (on the server's clock)."""
        table = self.room.table
        timed = self._timed
        if timed is None or timed[0] is not table or timed[1] != table.version:
            timed = self._timed = (table, table.version, self._clock.time() + seconds)
        return timed[2]

    def time_left(self) -> float | None:
        """Seconds left before the turn timer makes the current decision (None: no timer runs)."""
        step = self.next_step()
        return max(0.0, step[0]) if step is not None and step[1] == "timer" else None

    @property
    def pending(self) -> str | None:
        """The kind of the automatic step that is set to happen (None: the table waits)."""
        return self._pending

    def schedule(self) -> None:
        if self._step is not None:
            self._step.cancel()
            self._step = self._pending = None
        step = None if self._stopped else self.next_step()
        if step is not None and self._running == (self.room.table.version, step[1]):
            return  # that step is under way (a bot thinking): not a second one
        if step is not None:
            delay, kind = step
            delay = max(delay, self.room.retry_delay())  # storage failed: back off
            self._step = self._clock.call_later(delay, self._fire, self.room.table.version, kind)
            self._pending = kind

    def _fire(self, version: int, kind: str) -> None:
        self._step = self._pending = None
        self._running = (version, kind)
        task = asyncio.create_task(self._run(version, kind))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: automatic step failed", self.room.table.id, exc_info=task.exception())
        if not self._tasks:
            self._running = None
            self.schedule()  # the next step, or this one again if it changed nothing (storing failed)

    def _still(self, version: int, kind: str) -> bool:
        step = self.next_step()
        return (
            not self._stopped and self.room.table.version == version and step is not None and step[1] == kind
        )

    async def _run(self, version: int, kind: str) -> None:
        room = self.room
        if kind == "deal":
            async with room.lock:
                if self._still(version, kind):
                    await self._commit(room.table.next_deal(room.config.shuffle))
            return
        if not self._still(version, kind):  # the table changed since the step was set
            return
        state = room.table.state
        assert state is not None
        seat = state.to_move
        view = state.view(seat)
        spec = room.table.seats[seat].bot or room.table.settings.stand_in
        seed = self._rng.getrandbits(64)
        action, why = await room.bots.move(spec, view, seed, room.table.id, room.group)
        async with room.lock:
            if not self._still(version, kind):
                return
            if why is not None:
                level = logging.INFO if why == "quick" else logging.WARNING
                table = room.table.id
                log.log(level, "table %s: bot %s played quickly (hard's move): %s", table, spec, WHY[why])
            if not await self._commit(ActionEvent(seat, action, kind, quick=why is not None)):
                log.warning("table %s: bot %s chose an illegal move: hard's instead", room.table.id, spec)
                await self._commit(ActionEvent(seat, quick_move(view, seed), kind, quick=True))

    async def _commit(self, event: Event) -> bool:
        """Store an automatic event (the caller holds the lock); False when it is illegal.

        Whatever happens, the clients hear of the table as it is and the next step is set (by
        `Room.commit` itself when storing fails).
        """
        try:
            await self.room.commit(event)
        except ProtocolError as exc:
            if exc.code is ErrorCode.ILLEGAL_ACTION:
                self.room.changed()
                return False
            # stale_state: another server process stored a step first, which is expected;
            # internal_error, storage_busy: storing failed, which the room has logged
            expected = (ErrorCode.STALE_STATE, ErrorCode.INTERNAL_ERROR, ErrorCode.STORAGE_BUSY)
            level = logging.DEBUG if exc.code in expected else logging.WARNING
            table = self.room.table.id
            log.log(level, "table %s: automatic %s not stored: %s", table, type(event).__name__, exc.code)
            return True
        self.room.changed()
        return True

    def stop(self) -> None:
        self._stopped = True
        for timer in [*self._grace.values(), *([self._step] if self._step else [])]:
            timer.cancel()
        self._grace.clear()
        self._grace_ends.clear()
        for task in self._tasks:
            task.cancel()
