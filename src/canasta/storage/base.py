"""The storage interface: tables' settings and seats, an append-only event log per table, and
the reviews of finished deals worked out for the table's people (kept with the table).

A table is rebuilt by replaying its log (see `canasta.server.table`), never from pickled objects.
Every method is a coroutine so that a networked database can implement it; the events of a
table are numbered 1, 2, 3, ... and `append` refuses a number that is already taken, which is
what lets several server processes share one database (the loser of a race gets `Conflict`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class Conflict(Exception):
    """The event number is taken: another writer appended first."""


class StorageBusy(Exception):
    """The database did not take a change in time (another program held its write lock, or
    the disk did not answer); nothing was changed, unless a write that did not answer in time
    ends later (the table's next event then finds its number taken: `Conflict`)."""


class Timers(Protocol):
    """Where storage's timers come from (the server's clock; tests move it by hand)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Any: ...


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as stored: the person's name and the hash of their seat token (None: free)."""

    seat: int
    name: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class TableRow:
    table_id: str
    settings: dict[str, Any]
    seats: tuple[SeatRow, ...]


class Storage(Protocol):
    async def create_table(self, table_id: str, settings: dict[str, Any], seats: int) -> None:
        """Store a new table with `seats` free seats."""

    async def load_table(self, table_id: str) -> TableRow | None:
        """The table's settings and seats, or None when there is no such table."""

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Give a free seat to a person; False (and no change) when the seat is taken."""

    async def release_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Free a person's seat (they left the table); False (and no change) when the seat is
        not held with `token_hash`."""

    async def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        """Store event number `seq` of the table; raises Conflict when `seq` is taken."""

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """The table's events numbered above `after`, in order."""

    async def save_review(self, table_id: str, key: str, review: dict[str, Any]) -> None:
        """Store the review `key` of the table (one seat's, of one finished deal), replacing
        one stored before under the same key."""

    async def load_review(self, table_id: str, key: str) -> dict[str, Any] | None:
        """The table's review `key`, or None when none is stored."""

    async def close(self) -> None: ...
