"""The server's own settings (the tables' settings are `canasta.protocol.TableSettings`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class ServerConfig:
    """`db`: a storage URL (None: the default SQLite file). `broker`: the URL of the broker
    that several processes share (None: this process alone; see `open_broker`). `bot_delay`: seconds before a
    computer player moves, for tables that do not choose. `max_message`: the largest message a
    client may send (bytes). `rate` and `burst`: messages per second one socket may send on
    average, and in a burst. `outbox_limit`: messages queued for a slow client before it is
    disconnected (it reconnects and gets the current state). `idle_unload`: seconds a table
    with nobody connected stays in memory. `heartbeat`: seconds between a process's reminders
    to the others of which seats have a person connected to it (see `canasta.server.presence`).
    `shuffle`: the deck shuffler (the operating system's
    randomness; tests may pass a seeded generator)."""

    db: str | None = None
    broker: str | None = None
    bot_delay: float = 0.8
    max_message: int = 16 * 1024
    rate: float = 20.0
    burst: int = 40
    outbox_limit: int = 500
    idle_unload: float = 300.0
    heartbeat: float = 10.0
    shuffle: random.Random = field(default_factory=random.SystemRandom)
