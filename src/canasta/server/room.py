"""A loaded table and the clients connected to it: one lock, storage before sending, fan-out.

Every change to the game goes through `commit` under the table's lock, as a typed event
(`canasta.server.events`): the event is checked by applying it to a copy of the table, stored,
and only then does the copy take the table's place and is the change announced (an `ack` to
its sender, then each connected client's own `state`); a failed store leaves the table as it
was. Messages are queued on the connections, so no network I/O happens under the lock.

The next automatic step (a computer's move, a stand-in's or the turn timer's, the next deal) is
decided once for each change by `canasta.server.autoplay.next_step`, and taken when the table's
one timer for it runs out.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import random
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

from canasta.protocol import outgoing
from canasta.protocol.client import ActionRequest, ChatRequest, Hello, JoinRequest
from canasta.protocol.errors import ErrorCode, ProtocolError, storage_busy
from canasta.protocol.hint_form import listed_form
from canasta.protocol.hint_reasons import hint_reason
from canasta.protocol.pile_reasons import pile_refusal
from canasta.protocol.rule_reasons import reason_text
from canasta.rules.actions import action_to_json
from canasta.rules.errors import IllegalActionError
from canasta.rules.refusal import Code
from canasta.server.autoplay import DEAL, TIMER, StandIns, next_step, stands_in
from canasta.server.bot_pool import BotPool
from canasta.server.bot_worker import quick_move
from canasta.server.broker import Broker, Notice
from canasta.server.clock import Timer
from canasta.server.config import ServerConfig
from canasta.server.connection import Connection
from canasta.server.events import ActionEvent, Event, ReadyEvent, RematchEvent, event_from_json, event_to_json
from canasta.server.finished_deals import FinishedDeals
from canasta.server.lease import Lease
from canasta.server.presence import RemotePresence
from canasta.server.rate_limit import RateLimiter
from canasta.server.table import DEAL_OVER, GAME_OVER, PLAYING, WAITING, LiveTable, token_hash
from canasta.storage.base import Conflict, Storage, StorageBusy

log = logging.getLogger("canasta.server")
ADDRESS = "address "  # the prefix of an address's counts and share of the bot pool (table ids have no space)
HINT_BOT = "search:time=0.5"  # the strongest computer player, thinking half a second
CATCH_UP_STATES = 20  # events caught up on, each told in a state; past them, the log
STORE_RETRY_FIRST, STORE_RETRY_MAX = 0.5, 30.0  # seconds before trying storage again after it failed
WHY = {"quick": "too little time left", "late": "out of time", "failed": "the bot failed"}


def backoff(failures: int) -> float:
    """Seconds to wait before trying storage again after `failures` failures in a row (0 for
    none): `STORE_RETRY_FIRST`, doubled after each failure up to `STORE_RETRY_MAX`."""
    return 0.0 if not failures else min(STORE_RETRY_FIRST * 2 ** (failures - 1), STORE_RETRY_MAX)


async def load_table(storage: Storage, table_id: str) -> LiveTable | None:
    """Rebuild a table by replaying its stored events."""
    row = await storage.load_table(table_id)
    if row is None:
        return None
    table = LiveTable(row)
    for _, event in await storage.events(table_id):
        table.apply(event_from_json(event))
    return table


class Room:
    """One table in memory with its connections. `origin` names this process to the broker.

    A seat counts as connected when a person is connected to it here or, as announced through
    the broker, in another process (`present_seats`); this process announces its own."""

    def __init__(
        self,
        table: LiveTable,
        storage: Storage,
        broker: Broker,
        config: ServerConfig,
        origin: str,
        on_idle: Callable[[Room], None],
        bots: BotPool,
    ) -> None:
        self.table = table
        self.finished = FinishedDeals(table.rules)
        self.bots = bots
        self.group = table.id  # whose share of the bot pool its computer players use (`Hub.create`)
        self._hints: dict[int, tuple[int, asyncio.Future[Any]]] = {}  # per seat: (version, its hint)
        self._hint_limits: dict[int, RateLimiter] = {}  # per seat
        self.storage, self.broker, self.config, self.origin = storage, broker, config, origin
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._on_idle = on_idle
        self._idle: Timer | None = None
        self._presence: Timer | None = None  # the end of the time since the last `presence`
        self._presence_due = False  # whether a change came in that time
        self.remote = RemotePresence(config.heartbeat, config.clock)
        # Only the holder of the table's lease plays its computer players.
        self.lease = Lease(
            storage, f"table:{table.id}", origin, config.lease, config.clock, self._lease_changed
        )
        self._announced: frozenset[int] = frozenset()
        self._tasks: set[asyncio.Task[None]] = set()
        self._chat_limits: dict[int, RateLimiter] = {}  # per seat
        self._store_failures = 0  # failures in a row to store an event
        self._catch_up_failures = 0  # failures in a row to read what another process stored
        self._catch_up_retry: Timer | None = None
        self._sheet_told: tuple[int, int] | None = None  # the sheet's key when last broadcast
        self._table_chat = RateLimiter(config.table_chat_rate, config.table_chat_burst, config.clock)
        self.stand_ins = StandIns(config.clock, self._stand_in_started)
        self._step: Timer | None = None  # the table's one timer, for its next automatic step
        self._next: tuple[int, str | None, float] | None = None  # (version, kind, when) of that step
        self._turn_end: tuple[int, float] | None = None  # (version, when) the turn timer runs out
        self._running: tuple[int, str] | None = None  # (version, kind) of the step under way
        self._steps: set[asyncio.Task[None]] = set()
        self._rng = random.Random(secrets.randbits(64))
        self._stopped = False
        for i, seat in enumerate(table.seats):
            if seat.bot is None and seat.name is not None:
                self._away(i)
        self.schedule()
        self._watch_idle()
        self._announce()  # the others answer with their own seats

    # -- requests -----------------------------------------------------------------------------

    async def attach(self, conn: Connection, hello: Hello) -> None:
        """Greet a connection as its seat's player (with a valid token) or as a spectator.

        A seat's player is always admitted: past `connections_per_seat` sockets of that seat,
        its oldest one is closed. A spectator past `connections_per_table` is refused with
        `too_many_connections`, and the socket closed (`CLOSE_TOO_MANY`)."""
        async with self.lock:
            conn.lang = hello.lang
            seat = None
            if hello.token is not None:
                seat = self.table.seat_of(hello.token)
                if seat is None:
                    seat = await self._seat_taken_elsewhere(hello.token)
                if seat is None:
                    raise ProtocolError(ErrorCode.BAD_TOKEN)
            self._make_room(conn, seat)
            conn.seat, conn.greeted = seat, True
            conn.token_hash = None if seat is None else self.table.seats[seat].token_hash
            self.connections.add(conn)
            if seat is not None:
                self._back(seat)
            self._announce_if_changed()
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
            conn.send(outgoing.welcome(self.table.id, seat, hello.lang, self.table.settings.to_json()))
            conn.send(self.state_for(seat, self.public_state(), conn.lang))
            conn.send(self.table.log())
            self.send_presence()

    async def _seat_taken_elsewhere(self, token: str) -> int | None:
        """The seat of a token unknown here, as storage has it (taken through another process
        whose notice has not come yet); the caller holds the lock."""
        row = await self.storage.load_table(self.table.id)
        if row is None:
            return None
        self.table.update_seats(row)
        self._seats_changed()
        return self.table.seat_of(token)

    def _make_room(self, conn: Connection, seat: int | None) -> None:
        same = sorted((c for c in self.connections if c.seat == seat), key=lambda c: c.serial)
        if seat is None and len(same) >= self.config.connections_per_table:
            raise ProtocolError(ErrorCode.TOO_MANY_CONNECTIONS)  # the socket is closed after it
        if seat is not None and len(same) >= self.config.connections_per_seat:
            self.connections.discard(same[0])
            same[0].turn_away()

    def detach(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        seat = conn.seat
        if seat is not None and seat not in self.present_seats():
            self._away(seat)
        self._announce_if_changed()
        self.send_presence()
        self._watch_idle()

    async def act(self, conn: Connection, request: ActionRequest, request_id: str | int | None) -> None:
        """A player's move: checked against the seat, the version and the rules, then played."""
        async with self.lock:
            table = self.table
            seat = conn.seat
            if seat is None:
                raise ProtocolError(ErrorCode.NOT_SEATED)
            if request.seat is not None and request.seat != seat:
                raise ProtocolError(ErrorCode.WRONG_SEAT, seat=request.seat, own=seat)
            if table.status == WAITING:
                raise ProtocolError(ErrorCode.NOT_STARTED)
            if request.version != table.version:
                raise ProtocolError(ErrorCode.STALE_STATE, current=table.version, seen=request.version)
            if table.status == GAME_OVER:
                raise ProtocolError(ErrorCode.GAME_OVER)
            await self.commit(ActionEvent(seat, request.action, "player"))
            conn.send(outgoing.ack(self.table.version, request_id))
            self.changed()

    async def rematch(self, conn: Connection, request_id: str | int | None) -> None:
        async with self.lock:
            if conn.seat is None:
                raise ProtocolError(ErrorCode.NOT_SEATED)
            if self.table.status != GAME_OVER:
                raise ProtocolError(ErrorCode.GAME_NOT_OVER)
            await self.commit(RematchEvent())
            conn.send(outgoing.ack(self.table.version, request_id))
            self.changed()

    async def next_deal(self, conn: Connection, request_id: str | int | None) -> None:
        """A person asks for the next deal; it starts once every connected person has."""
        async with self.lock:
            seat = conn.seat
            if seat is None:
                raise ProtocolError(ErrorCode.NOT_SEATED)
            if self.table.status != DEAL_OVER:
                raise ProtocolError(ErrorCode.DEAL_IN_PROGRESS)
            if seat not in self.table.ready:
                await self.commit(ReadyEvent(seat))
            conn.send(outgoing.ack(self.table.version, request_id))
            self.changed()

    async def leave(self, conn: Connection, request_id: str | int | None) -> None:
        """A person gives up their seat: it is free for anyone to take, and a computer plays it
        meanwhile; their connections (every device, in every process) go on watching."""
        async with self.lock:
            seat, held = conn.seat, conn.token_hash
            if seat is None or held is None:
                raise ProtocolError(ErrorCode.NOT_SEATED)
            if not await self.storage.release_seat(self.table.id, seat, held):
                await self._catch_up()
                self.changed()
                raise ProtocolError(ErrorCode.BAD_TOKEN)
            freed = self.table.seats[seat]
            freed.name = freed.token_hash = None
            await self.broker.publish(Notice(self.table.id, self.origin))
            conn.send(outgoing.ack(self.table.version, request_id))
            self._seats_changed()
            self.changed()

    async def hint(self, conn: Connection) -> None:
        """What the best computer player would do in the reader's place, worked out outside the
        lock in the bot pool (after the computer players' moves), within its deadline; the
        answer names the version it was made for. A seat has at most one hint being worked out
        (its other sockets asking meanwhile get the same) and `hints_per_minute` on average."""
        async with self.lock:
            state = self.table.state
            seat = conn.seat
            if seat is None or self.table.status != PLAYING or state is None or state.to_move != seat:
                raise ProtocolError(ErrorCode.NO_HINT)
            version, view = self.table.version, state.view(seat)
            thinking = self._hints.get(seat)
            if thinking is None or thinking[0] != version:
                config = self.config
                limiter = self._hint_limits.get(seat)
                if limiter is None:
                    limiter = RateLimiter(config.hints_per_minute / 60, config.hint_burst, config.clock)
                    self._hint_limits[seat] = limiter
                if not limiter.allow():
                    raise ProtocolError(ErrorCode.HINT_LIMITED, seconds=math.ceil(limiter.wait()))
                asked = self.bots.hint(HINT_BOT, view, version, self.table.id, ADDRESS + conn.address)
                task = asyncio.ensure_future(asked)
                thinking = self._hints[seat] = (version, task)
                task.add_done_callback(functools.partial(self._hint_done, seat, thinking))
        # the connection's messages are handled one by one: it waits for its hint meanwhile
        action = await asyncio.shield(thinking[1])
        if action is None:
            raise ProtocolError(ErrorCode.HINT_TIMEOUT)
        action = listed_form(view, action)  # one of the moves of the state's `legal`
        conn.send(outgoing.hint(version, action_to_json(action), hint_reason(view, action, conn.lang)))

    def _hint_done(self, seat: int, hint: tuple[int, asyncio.Future[Any]], _: object) -> None:
        if self._hints.get(seat) is hint:
            del self._hints[seat]

    def chat(self, conn: Connection, request: ChatRequest) -> None:
        """A line to everyone at the table, within the seat's and the table's rates (else
        `chat_limited` to its sender alone: a flood costs its readers nothing)."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED)
        if request.text is not None and not self.table.settings.free_chat:
            raise ProtocolError(ErrorCode.CHAT_DISABLED)
        config = self.config
        if seat not in self._chat_limits:
            self._chat_limits[seat] = RateLimiter(config.chat_rate, config.chat_burst, config.clock)
        if not (self._chat_limits[seat].allow() and self._table_chat.allow()):
            raise ProtocolError(ErrorCode.CHAT_LIMITED)
        name = self.table.seats[seat].name or ""
        for other in self.connections:
            other.send(outgoing.chat(seat, name, request.phrase, request.text, other.lang))

    async def join(self, request: JoinRequest) -> tuple[int, str]:
        """Give a free seat for a person to `request.name`; returns the seat and its token."""
        async with self.lock:
            for _ in self.table.seats:
                table = self.table
                seat = table.free_seat(request.seat)
                if seat is None:
                    raise ProtocolError(ErrorCode.TABLE_FULL)
                token = secrets.token_urlsafe(24)
                if await self.storage.take_seat(table.id, seat, request.name, token_hash(token)):
                    break
                await self._catch_up()  # another process gave the seat away (its notice is on its way)
                self.changed()
                if request.seat is not None or self.table.free_seat(None) == seat:
                    raise ProtocolError(ErrorCode.SEAT_TAKEN, seat=seat)  # asked for, or not seen taken
            else:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, seat=seat)
            table.seats[seat].name, table.seats[seat].token_hash = request.name, token_hash(token)
            await self.broker.publish(Notice(table.id, self.origin))
            self._away(seat)
            self.changed()
            return seat, token

    async def snapshot(self, token: str | None, lang: str) -> dict[str, Any]:
        """The `state` message for a seat token's holder (None: a spectator), in `lang`."""
        async with self.lock:
            seat = None if token is None else self.table.seat_of(token)
            if token is not None and seat is None:
                raise ProtocolError(ErrorCode.BAD_TOKEN)
            return self.state_for(seat, self.public_state(), lang)

    async def catch_up(self) -> None:
        """Take in what another process stored (seats and events), and tell the clients. When
        storage does not answer, the table is left as it was and tries again (`backoff`) until
        it has caught up; the first failure of such an episode is logged, and its end."""
        async with self.lock:
            if self._catch_up_retry is not None:
                self._catch_up_retry.cancel()
                self._catch_up_retry = None
            try:
                await self._catch_up()
            except Exception as exc:
                self._catch_up_later(exc)
                return
            if self._catch_up_failures:
                failures, self._catch_up_failures = self._catch_up_failures, 0
                log.warning("table %s: caught up again after %d failures", self.table.id, failures)
            self.changed()

    def _catch_up_later(self, exc: Exception) -> None:
        """Reading what another process stored failed: try again after a while."""
        if not self._catch_up_failures:
            why = f"{type(exc).__name__}: {exc}"
            log.warning("table %s: could not catch up (%s); trying again", self.table.id, why)
        self._catch_up_failures += 1
        if self._catch_up_retry is None and not self._stopped:
            delay = backoff(self._catch_up_failures)
            self._catch_up_retry = self.config.clock.call_later(delay, self._run, self.catch_up)

    def _run(self, job: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run `job` in a task of the room's own."""
        task = asyncio.create_task(job())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self) -> None:
        """Take in the seats and events in storage; the clients are sent the state after each
        event but the last, as they are when this process plays them (the caller holds the lock
        and calls `changed`). After more than `CATCH_UP_STATES` events (the broker was away),
        they are sent the deal's `log` instead, which costs each one message, not one a move."""
        row = await self.storage.load_table(self.table.id)
        events = await self.storage.events(self.table.id, self.table.version)
        if row is not None:  # no await from here to the caller's `changed`, which sets the next step
            self.table.update_seats(row)
            self._seats_changed()
        many = len(events) > CATCH_UP_STATES
        for n, (_, event) in enumerate(events):
            if n and not many:
                self.broadcast()
            self.table.apply(event_from_json(event))
        if many:
            log = outgoing.encode(self.table.log())
            for conn in self.connections:
                conn.send_text(log)

    def _seats_changed(self) -> None:
        """After the seats changed (read from storage, or one left here): the connections whose
        seat is no longer held with the token they were greeted with (its person left it, here
        or through another process, or it was taken again since) become spectators, and a
        computer is set to play each person's seat with nobody connected (a freed one at once,
        a taken one after its grace period)."""
        unseated = False
        for conn in self.connections:
            if conn.seat is not None and self.table.seats[conn.seat].token_hash != conn.token_hash:
                conn.seat = conn.token_hash = None
                conn.send(outgoing.welcome(self.table.id, None, conn.lang, self.table.settings.to_json()))
                unseated = True
        present = self.present_seats()
        for i, seat in enumerate(self.table.seats):
            if seat.bot is None and i not in present:
                self._away(i)
        if unseated:
            self._announce_if_changed()
            self.send_presence()

    # -- changing the game --------------------------------------------------------------------

    async def commit(self, event: Event) -> None:
        """Apply, store and publish one event; the caller holds the lock. The event is applied
        to a copy of the table, which takes its place once the event is stored: when storing
        fails, the table is left as it was.

        Raises ProtocolError: illegal_action when the rules forbid it (nothing changed);
        stale_state when another process stored an event first (the table has caught up with
        it), storage_busy when the database did not take it in time and internal_error when
        storing failed otherwise (the clients have been told the table as it was).
        """
        table = self.table
        after = table.copy()
        try:
            after.apply(event)
        except IllegalActionError as exc:
            if exc.code == Code.NOT_YOUR_TURN and table.state is not None:  # the engine says whose move
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, to_move=table.state.to_move) from None
            raise ProtocolError.illegal(exc) from None
        seen = table.version  # catching up moves this very table on
        try:
            await self.storage.append(table.id, after.version, event_to_json(event))
        except Conflict:
            try:
                await self._catch_up()
            except StorageBusy as busy:  # the database did not answer the reading in time
                self._catch_up_later(busy)
                self.changed()
                raise storage_busy() from None
            self.changed()
            raise ProtocolError(ErrorCode.STALE_STATE, current=self.table.version, seen=seen) from None
        except Exception as exc:
            if not self._store_failures:  # the first failure of an episode, not every retry
                log.exception("table %s: could not store event %d", table.id, after.version)
            self._store_failures += 1
            self.changed()
            if isinstance(exc, StorageBusy):  # the database did not take it in time
                raise storage_busy() from None
            raise ProtocolError(ErrorCode.INTERNAL_ERROR) from None
        self.table = after
        if self._store_failures:
            log.warning("table %s: events are stored again after %d failures", table.id, self._store_failures)
            self._store_failures = 0
        await self.broker.publish(Notice(table.id, self.origin))

    def retry_delay(self) -> float:
        """Seconds that the next automatic step waits after storing failed (0 if it did not)."""
        return backoff(self._store_failures)

    def changed(self) -> None:
        """After a change: the next automatic step is set, and every client gets its state."""
        self.schedule()
        self.broadcast()

    # -- automatic steps (`canasta.server.autoplay`) --------------------------------------------

    def schedule(self) -> None:
        """Decide the table's next automatic step (once for each change) and set the table's
        one timer for it, `retry_delay` at least. A step under way (a bot thinking) is not set
        again for the same version of the table; a step whose table has changed by the time it
        is taken does nothing."""
        if self._step is not None:
            self._step.cancel()
            self._step = None
        version, now = self.table.version, self.config.clock.time()
        self._next = version, kind, when = (version, None, now) if self._stopped else self._decide(now)
        if kind == TIMER and self._deadline() is None:
            self._turn_end = version, when  # the decision's turn timer starts
        if kind is None or self._running == (version, kind):
            return
        delay = max(when - now, self.retry_delay())  # storage failed: back off
        self._step = self.config.clock.call_later(delay, self._fire, version, kind)

    def _decide(self, now: float) -> tuple[int, str | None, float]:
        """(version, kind, when) of the table's next automatic step (kind None: it waits)."""
        version = self.table.version
        step = next_step(
            self.table,
            self.present_seats(),
            now,
            stand_ins=self.stand_ins.seats,
            plays_bots=self.lease.held,
            deadline=self._deadline(),
        )
        return (version, None, now) if step is None else (version, step.kind, now + step.delay)

    def _deadline(self) -> float | None:
        """When the turn timer of the table's current decision runs out (None: not started)."""
        turn_end = self._turn_end
        return turn_end[1] if turn_end is not None and turn_end[0] == self.table.version else None

    @property
    def pending(self) -> str | None:
        """The kind of the automatic step that is set to happen (None: the table waits)."""
        return None if self._step is None or self._next is None else self._next[1]

    def time_left(self) -> float | None:
        """Seconds left before the turn timer makes the current decision (None: no timer runs)."""
        now = self.config.clock.time()
        decided = self._next
        if decided is None or decided[0] != self.table.version:  # a state caught up on, passed at once
            decided = self._decide(now)
        return max(0.0, decided[2] - now) if decided[1] == TIMER else None

    def _fire(self, version: int, kind: str) -> None:
        self._step = None
        self._running = (version, kind)
        task = asyncio.create_task(self._take_step(version, kind))
        self._steps.add(task)
        task.add_done_callback(self._step_done)

    def _step_done(self, task: asyncio.Task[None]) -> None:
        self._steps.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: automatic step failed", self.table.id, exc_info=task.exception())
        if not self._steps:
            self._running = None
            self.schedule()  # the next step, or this one again if it changed nothing (storing failed)

    def _still(self, version: int, kind: str) -> bool:
        """Whether the step set for this version of the table is still the one to take."""
        set_for = None if self._next is None else self._next[:2]
        return set_for == (version, kind) and self.table.version == version and not self._stopped

    async def _take_step(self, version: int, kind: str) -> None:
        """Deal, or have the computer playing the seat to move make its move (thinking in the
        bot pool on the seat's view, outside the lock). A move made by `hard` instead (the bot
        had too little time left, missed its deadline or failed) is marked `quick`."""
        if kind == DEAL:
            async with self.lock:
                if self._still(version, kind):
                    await self._commit_step(self.table.next_deal(self.config.shuffle), kind)
            return
        if not self._still(version, kind):  # the table changed since the step was set
            return
        table = self.table
        assert table.state is not None
        seat = table.state.to_move
        view = table.state.view(seat)
        spec = table.seats[seat].bot or table.settings.stand_in
        seed = self._rng.getrandbits(64)
        action, why = await self.bots.move(spec, view, seed, table.id, self.group)
        async with self.lock:
            if not self._still(version, kind):
                return
            if why is not None:
                level = logging.INFO if why == "quick" else logging.WARNING
                log.log(level, "table %s: bot %s played quickly (hard's move): %s", table.id, spec, WHY[why])
            if not await self._commit_step(ActionEvent(seat, action, kind, quick=why is not None), kind):
                log.warning("table %s: bot %s chose an illegal move: hard's instead", table.id, spec)
                await self._commit_step(ActionEvent(seat, quick_move(view, seed), kind, quick=True), kind)

    async def _commit_step(self, event: Event, kind: str) -> bool:
        """Store an automatic step's event (the caller holds the lock); False when it is illegal.

        Whatever happens, the clients hear of the table as it is and the next step is set (by
        `commit` itself when storing fails).
        """
        try:
            await self.commit(event)
        except ProtocolError as exc:
            if exc.code is ErrorCode.ILLEGAL_ACTION:
                self.changed()
                return False
            # stale_state: another server process stored a step first, which is expected;
            # internal_error, storage_busy: storing failed, which `commit` has logged
            expected = (ErrorCode.STALE_STATE, ErrorCode.INTERNAL_ERROR, ErrorCode.STORAGE_BUSY)
            level = logging.DEBUG if exc.code in expected else logging.WARNING
            log.log(level, "table %s: automatic %s not stored: %s", self.table.id, kind, exc.code)
            return True
        self.changed()
        return True

    def _away(self, seat: int) -> None:
        """Nobody is connected for this person's seat: a computer plays it after the grace
        period, or at once when the seat is free (its person left it)."""
        if self.table.seats[seat].free:
            self.stand_ins.back(seat)  # a free seat is played without a grace period
        else:
            self.stand_ins.away(seat, self.table.settings.grace)
        self.schedule()  # with nobody left at the table, play pauses

    def _back(self, seat: int) -> None:
        """The person is back (or left for good): nobody stands in for them any more."""
        self.stand_ins.back(seat)
        self.schedule()

    def _stand_in_started(self) -> None:
        self.send_presence()
        self.schedule()

    # -- who is connected, here and elsewhere ---------------------------------------------------

    def _local_seats(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def present_seats(self) -> set[int]:
        """The seats with a person connected to this process or (as last heard) another."""
        return set(self._local_seats()) | self.remote.seats()

    def _lease_changed(self) -> None:
        self.schedule()

    def heard(self, origin: str, seats: tuple[int, ...]) -> None:
        """Another process announced its connected seats (a process new to the table is told ours)."""
        before = self.present_seats()
        if self.remote.heard(origin, seats) and self._local_seats():
            self._announce()
        self._presence_changed(before)

    def beat(self) -> None:
        """Every heartbeat: forget processes gone silent, and remind the others of our seats."""
        before = self.present_seats()
        self.remote.expire()
        self._presence_changed(before)
        if self._local_seats():
            self._announce()

    def _presence_changed(self, seats: set[int]) -> None:
        after = self.present_seats()
        for seat in after - seats:
            self._back(seat)
        for seat in seats - after:
            self._away(seat)
        if after != seats:
            self.send_presence()

    def _announce_if_changed(self) -> None:
        if self._local_seats() != self._announced:
            self._announce()

    def _announce(self) -> None:
        self._announced = self._local_seats()
        notice = Notice(self.table.id, self.origin, tuple(sorted(self._announced)))
        self._run(functools.partial(self.broker.publish, notice))

    # -- what clients receive -----------------------------------------------------------------

    def seats_public(self) -> list[dict[str, Any]]:
        connected = self.present_seats()
        return [
            {
                "seat": i,
                "team": self.table.rules.team_of(i),
                "bot": seat.bot,
                "name": seat.name,
                "connected": i in connected,
                "stand_in": seat.bot is None and stands_in(self.table, self.stand_ins.seats, i),
                "grace_left": self.stand_ins.grace_left(i),
            }
            for i, seat in enumerate(self.table.seats)
        ]

    def public_state(self, sheet: bool = True) -> dict[str, Any]:
        """What every reader's `state` message shares now (the score sheet if `sheet`)."""
        return self.table.public_state(self.seats_public(), self.time_left(), sheet)

    def state_for(self, seat: int | None, public: dict[str, Any], lang: str) -> dict[str, Any]:
        team = None if seat is None else self.table.rules.team_of(seat)
        state = self.table.state
        why = None if state is None else pile_refusal(state, seat)
        return {
            **public,
            "seat": seat,
            "team": team,
            **self.table.seat_json(seat),
            "pile_reason": None if why is None else reason_text(lang, why),
        }

    def broadcast(self) -> None:
        """Every client's `state`, with the score sheet only when it changed since the last
        (a client greeted since got it then)."""
        sheet = self.table.sheet_key()
        public = self.public_state(sheet=sheet != self._sheet_told)
        self._sheet_told = sheet
        texts: dict[tuple[int | None, str], str] = {}
        for conn in self.connections:
            key = (conn.seat, conn.lang)
            if key not in texts:
                texts[key] = outgoing.encode(self.state_for(conn.seat, public, conn.lang))
            conn.send_text(texts[key])

    def send_presence(self) -> None:
        """Tell every client who is connected: at once, and then at most once every
        `presence_delay` seconds, so that the changes meanwhile (many spectators arriving, say)
        are told in one message at the end of that time, not one each."""
        if self._presence is not None:
            self._presence_due = True
            return
        self._tell_presence()
        self._presence = self.config.clock.call_later(self.config.presence_delay, self._presence_told)

    def _presence_told(self) -> None:
        self._presence = None
        if self._presence_due:
            self._presence_due = False
            self.send_presence()

    def _tell_presence(self) -> None:
        spectators = sum(1 for c in self.connections if c.seat is None)
        text = outgoing.encode(outgoing.presence(self.seats_public(), spectators))
        for conn in self.connections:
            conn.send_text(text)

    # -- life cycle ---------------------------------------------------------------------------

    def _watch_idle(self) -> None:
        """With nobody connected, unload the table after a while: `idle_unload` seconds, or
        `unwatched_bots` for a table of computer players alone, which stops playing then (and
        plays on when someone asks for it again)."""
        if not self.connections and self._idle is None:
            bots_only = all(seat.bot is not None for seat in self.table.seats)
            delay = (
                min(self.config.idle_unload, self.config.unwatched_bots)
                if bots_only
                else self.config.idle_unload
            )
            self._idle = self.config.clock.call_later(delay, self._unload)

    def _unload(self) -> None:
        self._idle = None
        if not self.connections:
            self.close()
            self._on_idle(self)

    def close(self) -> None:
        """Stop; the caller awaits `lease.release()` (the table's lease is free at once)."""
        for timer in (self._idle, self._presence, self._catch_up_retry):
            if timer is not None:
                timer.cancel()
        self.lease.stop()
        self._stopped = True
        if self._step is not None:
            self._step.cancel()
        self.stand_ins.stop()
        for task in self._steps:
            task.cancel()
