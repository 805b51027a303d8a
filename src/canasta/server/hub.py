"""The tables this process holds in memory: loading them from storage, creating new ones."""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
from collections import Counter, deque

from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.protocol.settings import TableSettings
from canasta.server.bot_pool import BotPool
from canasta.server.broker import EVERY_TABLE, Broker, Notice
from canasta.server.config import ServerConfig
from canasta.server.connection import Connection
from canasta.server.rate_limit import RateLimiter
from canasta.server.reviews import Reviews
from canasta.server.room import ADDRESS, Room, load_table
from canasta.server.table import LiveTable
from canasta.storage.base import Storage

log = logging.getLogger("canasta.server")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
BUSY_RETRY = 60.0  # seconds after which a process with `max_tables` tables may have room again


class Hub:
    """Rooms by table id. A table is loaded when someone asks for it (after a restart too) and
    unloaded after `config.idle_unload` seconds with nobody connected. Notices from other
    processes go to the room of their table; every `config.heartbeat` seconds each room
    reminds the others of who is connected here. The hub keeps the operator's limits on tables
    (`max_tables` in memory, `tables_per_minute` created per address), on the WebSockets of
    spectators and of clients yet to say hello, per table and per address, and on the HTTP
    reads of each address."""

    def __init__(self, storage: Storage, broker: Broker, config: ServerConfig) -> None:
        self.storage, self.broker, self.config = storage, broker, config
        self.origin = secrets.token_hex(8)
        self.rooms: dict[str, Room] = {}
        self.sockets: Counter[str] = Counter()  # open WebSockets by table id, and by address
        self._addresses: dict[Connection, str] = {}  # the address of each socket it counts against
        self._waiting: dict[str, dict[Connection, None]] = {}  # per table, those yet to say hello
        self._created: dict[str, deque[float]] = {}  # when each address created its latest tables
        self._reads: dict[str, RateLimiter] = {}  # the HTTP reads of each address
        self._damaged: set[str] = set()  # the tables whose failure to load was logged
        self._loading = asyncio.Lock()
        self.reviews = Reviews()
        self.bots = BotPool(config.bot_workers, config.bot_deadline, config.clock, config.bot_processes)
        self._beat = config.clock.call_later(config.heartbeat, self._heartbeat)
        broker.subscribe(self.origin, self._on_notice)

    async def create(self, settings: TableSettings, address: str) -> str:
        """Store a new table created from `address`; returns its id (unguessable: 128 random
        bits). Raises ProtocolError when the address or the process has too many tables."""
        now = self.config.clock.time()
        created = self._created.setdefault(address, deque())
        while created and created[0] <= now - 60:
            created.popleft()
        if len(created) >= self.config.tables_per_minute:
            raise ProtocolError(ErrorCode.TOO_MANY_TABLES, retry_after=created[0] + 60 - now)
        self._room_space()
        created.append(now)
        self._forget_old_creators(now)
        table_id = secrets.token_urlsafe(16)
        await self.storage.create_table(table_id, settings.to_json(), settings.players)
        room = await self.room(table_id)  # a table of computer players starts at once
        room.group = ADDRESS + address  # its computer players share the bot pool with the address's others
        return table_id

    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if not TABLE_ID.fullmatch(table_id):
            raise ProtocolError(ErrorCode.TABLE_NOT_FOUND)
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                self._room_space()
                table = await self._load(table_id)
                room = Room(
                    table, self.storage, self.broker, self.config, self.origin, self._unloaded, self.bots
                )
                self.rooms[table_id] = room
        return room

    async def _load(self, table_id: str) -> LiveTable:
        """The table as its stored events rebuild it. ProtocolError: `table_not_found`, or
        `table_damaged` when they cannot be replayed (logged the first time)."""
        try:
            table = await load_table(self.storage, table_id)
        except Exception:
            if table_id not in self._damaged:
                if len(self._damaged) >= self.config.max_tables:
                    self._damaged.clear()
                self._damaged.add(table_id)
                log.exception("table %s: its stored events cannot be replayed", table_id)
            raise ProtocolError(ErrorCode.TABLE_DAMAGED) from None
        if table is None:
            raise ProtocolError(ErrorCode.TABLE_NOT_FOUND)
        return table

    def _room_space(self) -> None:
        if len(self.rooms) >= self.config.max_tables:
            raise ProtocolError(ErrorCode.SERVER_BUSY, retry_after=BUSY_RETRY)

    def read(self, address: str) -> None:
        """Count an HTTP read from `address`; ProtocolError `too_many_requests` (with the
        seconds to wait) past `reads_per_second` on average, `read_burst` at once."""
        limiter = self._reads.get(address)
        if limiter is None:
            if len(self._reads) > 4 * self.config.max_tables:  # bounded memory
                self._reads = {a: r for a, r in self._reads.items() if not r.full}
            config = self.config
            limiter = RateLimiter(config.reads_per_second, config.read_burst, config.clock)
            self._reads[address] = limiter
        if not limiter.allow():
            wait = limiter.wait()
            raise ProtocolError(ErrorCode.TOO_MANY_REQUESTS, retry_after=wait, seconds=math.ceil(wait))

    def _forget_old_creators(self, now: float) -> None:
        """Drop the addresses that created no table in the last minute (bounded memory)."""
        if len(self._created) > 4 * self.config.max_tables:
            self._created = {a: times for a, times in self._created.items() if times and times[-1] > now - 60}

    def open_socket(self, conn: Connection, table_id: str, address: str) -> None:
        """Count a new WebSocket, which has yet to say hello. ProtocolError when its address
        has `connections_per_address` sockets of spectators and of clients yet to say hello;
        past `waiting_per_table` such clients at the table, the oldest one is closed (so that
        a person arriving with a seat token always gets to say hello)."""
        if self.sockets[ADDRESS + address] >= self.config.connections_per_address:
            raise ProtocolError(ErrorCode.TOO_MANY_CONNECTIONS)
        self._addresses[conn] = address
        self.sockets.update((table_id, ADDRESS + address))
        waiting = self._waiting.setdefault(table_id, {})
        waiting[conn] = None
        if len(waiting) > self.config.waiting_per_table:
            oldest = next(iter(waiting))
            del waiting[oldest]
            oldest.turn_away()

    def greeted(self, conn: Connection, table_id: str) -> None:
        """A socket said hello: a seat's player no longer counts against its address (a seat
        has its own bound, `Room.attach`)."""
        self._stop_waiting(conn, table_id)
        if conn.seat is not None:
            self._uncount(ADDRESS + self._addresses.pop(conn))

    def close_socket(self, conn: Connection, table_id: str) -> None:
        self._stop_waiting(conn, table_id)
        self._uncount(table_id)
        address = self._addresses.pop(conn, None)
        if address is not None:
            self._uncount(ADDRESS + address)

    def _stop_waiting(self, conn: Connection, table_id: str) -> None:
        waiting = self._waiting.get(table_id)
        if waiting is not None:
            waiting.pop(conn, None)
            if not waiting:
                del self._waiting[table_id]

    def _uncount(self, key: str) -> None:
        self.sockets[key] -= 1
        if self.sockets[key] <= 0:
            del self.sockets[key]

    def _unloaded(self, room: Room) -> None:
        if self.rooms.get(room.table.id) is room:
            del self.rooms[room.table.id]

    async def _on_notice(self, notice: Notice) -> None:
        if notice.table_id == EVERY_TABLE:
            for loaded in list(self.rooms.values()):
                await loaded.catch_up()
            return
        room = self.rooms.get(notice.table_id)
        if room is None:
            return
        if notice.present is None:
            await room.catch_up()
        else:
            room.heard(notice.origin, notice.present)

    def _heartbeat(self) -> None:
        for room in list(self.rooms.values()):
            room.beat()
        self._beat = self.config.clock.call_later(self.config.heartbeat, self._heartbeat)

    def close(self) -> None:
        self._beat.cancel()
        for room in list(self.rooms.values()):
            room.close()
        self.rooms.clear()
        self.reviews.close()
        self.bots.close()
