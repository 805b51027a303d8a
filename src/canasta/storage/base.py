"""The storage interface: tables' settings and seats, an append-only event log per table, the
reviews of finished deals worked out for the table's people (kept with the table), and leases:
which server process plays a table's computer players, or works out a review.

A table is rebuilt by replaying its log (see `canasta.server.table`), never from pickled objects.
Every method is a coroutine so that a networked database can implement it; the events of a
table are numbered 1, 2, 3, ... and `append` refuses a number that is already taken, which is
what lets several server processes share one database (the loser of a race gets `Conflict`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Conflict(Exception):
    """The event number is taken: another writer appended first."""


class StorageBusy(Exception):
    """The database did not take a change in time (another program held its write lock, or
    the disk did not answer); nothing was changed, unless a write that did not answer in time
    ends later (the table's next event then finds its number taken: `Conflict`)."""


Limits = Sequence[tuple[str, int]]
"""How many leases may have names that start with each prefix: (prefix, most) pairs."""


class Crowded(Exception):
    """A lease not taken: as many leases as allowed have names that start like its own
    (`Storage.lease`'s `limits`); nothing was changed."""


class Timers(Protocol):
    """Where storage's timers come from (the server's clock; tests move it by hand)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Any: ...


@dataclass(frozen=True, slots=True)
class LeaseRow:
    """A lease as stored: its holder (a server process's id), a serial number that goes up at
    each renewal (a holder that stops renewing leaves it unchanged: `canasta.server.lease`
    tells a lapsed lease by that, on each process's own clock), and what the holder keeps
    there for the others to read (a review's progress)."""

    holder: str
    serial: int
    data: dict[str, Any]


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

    async def lease(
        self, name: str, holder: str, seen: tuple[str, int] | None, data: dict[str, Any], limits: Limits = ()
    ) -> LeaseRow | None:
        """Take or renew the lease `name` for `holder`, with `data`: granted when nobody holds
        it (`seen` None), or when it is still as `seen` (holder, serial), which is how its
        holder renews it and how another takes over a lease that lapsed; the serial then goes
        up by one. Returns the lease as it is after (None: nobody holds it). A lease nobody
        holds is not taken, and `Crowded` is raised, when for one of `limits` (prefix, most)
        `most` leases already have names that start with `prefix` (counted and taken in one
        transaction: processes asking at once never take more)."""

    async def load_lease(self, name: str) -> LeaseRow | None:
        """The lease `name` as stored (None: nobody holds it)."""

    async def leases(self, prefix: str) -> dict[str, LeaseRow]:
        """The leases held whose names start with `prefix`, by name."""

    async def release(self, name: str, holder: str) -> None:
        """Give up the lease `name` if `holder` holds it."""

    async def close(self) -> None: ...
