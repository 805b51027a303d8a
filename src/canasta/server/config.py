"""The server's own settings (the tables' settings are `canasta.protocol.TableSettings`)."""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field

from canasta.review import ITERATIONS as REVIEW_ITERATIONS
from canasta.server.bot_pool import cores
from canasta.server.clock import Clock, LoopClock


@dataclass
class ServerConfig:
    """`db`: a storage URL (None: the default SQLite file). `broker`: the URL of the broker
    that several processes share (None: this process alone; see `open_broker`). `bot_delay`:
    seconds before a computer player moves, for tables that do not choose. `shuffle`: the deck
    shuffler (the operating system's randomness; tests may pass a seeded generator). `clock`:
    where every timer and every time of the server comes from (tests pass a fake one).

    The limits (each can be set with `canasta serve --limit NAME=VALUE`; see `LIMITS`):
    `max_message`: the largest message a client may send (bytes). `rate` and `burst`: messages
    per second one socket may send on average, and in a burst. `chat_rate` and `chat_burst`:
    chat lines per second one seat may send (all its sockets together) on average, and in a
    burst; `table_chat_rate` and `table_chat_burst`: the same for a whole table.
    `outbox_limit` and `outbox_chars`: messages (and their characters) queued for a slow client
    before it is disconnected (it reconnects and gets the current state); `send_timeout`:
    seconds one message may take to be sent before the client counts as too slow.
    `hello_timeout`: seconds a connection has to say `hello`; `request_timeout`: seconds an
    HTTP connection has, from its opening or its last answer, to send a whole request and take
    its answer. `connections_per_table`: spectators' WebSockets at one table;
    `connections_per_seat`: a seat's (its oldest is closed to admit one more);
    `waiting_per_table`: the WebSockets at one table yet to say hello (the oldest is closed to
    admit one more); `connections_per_address`: spectators' and those yet to say hello from one
    address (a seat's player is always admitted). `tables_per_minute`: tables one address may
    create in a minute; `reads_per_second` and `read_burst`: the HTTP reads (`GET /api/...`)
    of one address per second on average, and at once; `max_tables`: tables this process
    holds in memory at once.
    `idle_unload`: seconds a table with nobody connected stays in memory (`unwatched_bots` for
    a table of computer players alone, which stops playing then). `bot_workers`: worker
    processes in which computer players think (one per core by default; `bot_processes` False:
    threads of this process instead, for tests); `bot_deadline`: seconds a computer player may
    take for one move, waiting for a worker included, before `hard`'s move is made instead
    (also a hint's). `hints_per_minute` and `hint_burst`: hints one seat may ask for per minute
    on average, and at once. `reviews_per_seat` and `reviews_per_table`: reviews of finished
    deals being worked out at once for one seat, and at one table; `review_iterations`: the
    continuations per option of each decision reviewed. `heartbeat`: seconds between a process's
    reminders to the others of which seats have a person connected to it (see
    `canasta.server.presence`). `lease`: seconds after which another process takes over a table's
    computer players, or a review being worked out, from a process that stopped renewing its
    lease (it died; see `canasta.server.lease`); each lease is renewed every third of it.
    `presence_delay`: seconds during which the changes of who is connected to a table are
    gathered into one `presence` message."""

    db: str | None = None
    broker: str | None = None
    bot_delay: float = 0.8
    shuffle: random.Random = field(default_factory=random.SystemRandom)
    clock: Clock = field(default_factory=LoopClock)
    max_message: int = 16 * 1024
    rate: float = 20.0
    burst: int = 40
    chat_rate: float = 1.0
    chat_burst: int = 10
    table_chat_rate: float = 4.0
    table_chat_burst: int = 20
    outbox_limit: int = 200
    outbox_chars: int = 512 * 1024
    send_timeout: float = 10.0
    hello_timeout: float = 10.0
    request_timeout: float = 10.0
    connections_per_table: int = 64
    connections_per_seat: int = 8
    waiting_per_table: int = 64
    connections_per_address: int = 128
    tables_per_minute: int = 20
    reads_per_second: float = 10.0
    read_burst: int = 60
    max_tables: int = 5000
    idle_unload: float = 300.0
    unwatched_bots: float = 30.0
    bot_workers: int = field(default_factory=cores)
    bot_processes: bool = True
    bot_deadline: float = 5.0
    hints_per_minute: float = 6.0
    hint_burst: int = 3
    reviews_per_seat: int = 1
    reviews_per_table: int = 2
    review_iterations: int = REVIEW_ITERATIONS
    heartbeat: float = 10.0
    lease: float = 10.0
    presence_delay: float = 0.25

    def with_limits(self, limits: dict[str, str]) -> ServerConfig:
        """This configuration with limits given as text (`--limit NAME=VALUE`); ValueError names
        an unknown limit or a value that is not a positive number."""
        changes: dict[str, float | int] = {}
        for name, text in limits.items():
            if name not in LIMITS:
                raise ValueError(f"unknown limit {name!r} (known: {', '.join(LIMITS)})")
            kind = LIMITS[name]
            try:
                value = kind(text)
            except ValueError:
                expected = "a whole number" if kind is int else "a number"
                raise ValueError(f"limit {name}: expected {expected}, not {text!r}") from None
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"limit {name}: expected a positive number, not {text!r}")
            changes[name] = value
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


#: The settings an operator may change on the command line, with their types.
LIMITS: dict[str, type[int] | type[float]] = {
    f.name: int if f.type == "int" else float
    for f in dataclasses.fields(ServerConfig)
    if f.type in ("int", "float") and f.name != "bot_delay"
}
