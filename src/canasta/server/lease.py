"""A lease in storage held by one server process at a time: the table whose computer players
it plays (only the holder thinks for them), the review it works out.

The holder renews its lease every `ttl / 3` seconds; each renewal raises the lease's serial
number (`Storage.lease`). The others read it as often, and take it over when it has stayed
the same for `ttl` seconds of their own clock: its holder has stopped (died, or lost the
database). No process compares its clock with another's: the holder counts its lease as held
for `ttl` seconds from when it asked for the last renewal that was granted, which is before any
other could have read that serial, so the two never both count it as theirs (while their
clocks run at the same rate). A lease given up (`release`) is free at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from canasta.server.clock import Clock, Timer
from canasta.storage.base import Crowded, LeaseRow, Limits, Storage

log = logging.getLogger("canasta.server")


class Lease:
    """One lease as this process (`origin`) sees it: `held` while it is ours. `changed` is called
    when it becomes ours or stops being ours; `data` gives what to store with each renewal."""

    def __init__(
        self,
        storage: Storage,
        name: str,
        origin: str,
        ttl: float,
        clock: Clock,
        changed: Callable[[], object] = lambda: None,
        data: Callable[[], dict[str, Any]] = dict,
    ) -> None:
        self.storage, self.name, self.origin, self.ttl, self.clock = storage, name, origin, ttl, clock
        self._changed, self._data = changed, data
        self.row: LeaseRow | None = None  # as last read
        self._granted = -float("inf")  # when the last renewal granted was asked for
        self._since = 0.0  # since when another's lease has been seen unchanged
        self._timer: Timer | None = None
        self._task: asyncio.Task[None] | None = None
        self._one_at_a_time = asyncio.Lock()  # a step reads what the one before it found
        self._late = False  # a step fell due while the one before was under way
        self._stopped = False

    @property
    def held(self) -> bool:
        row = self.row
        mine = row is not None and row.holder == self.origin
        return mine and self.clock.time() < self._granted + self.ttl

    @property
    def stepping(self) -> bool:
        """Whether a step set by the timer (`start`) is under way."""
        return self._task is not None

    def saw(self, row: LeaseRow) -> None:
        """The lease as read just now by another way (`Storage.load_lease`)."""
        if self.row is None or (row.holder, row.serial) != (self.row.holder, self.row.serial):
            self._since = self.clock.time()
        self.row = row

    async def step(self, limits: Limits = ()) -> None:
        """Renew the lease if it is ours, take it if it is free or has lapsed; else note how
        it is (storage failing: nothing changes, and a lease of ours lapses in time). Past
        `limits` a free lease is not taken: `Crowded` (see `Storage.lease`)."""
        async with self._one_at_a_time:
            await self._step(limits)

    async def _step(self, limits: Limits) -> None:
        before = self.held
        asked = self.clock.time()
        row = self.row
        if row is not None and row.holder == self.origin:
            seen: tuple[str, int] | None = (row.holder, row.serial)
        elif row is not None and asked - self._since >= self.ttl:
            seen = (row.holder, row.serial)  # another's, unchanged for `ttl`: it lapsed
        else:
            seen = None  # ours if nobody holds it
        try:
            after = await self.storage.lease(self.name, self.origin, seen, self._data(), limits)
        except Crowded:
            raise
        except Exception as exc:  # the next step tries again
            log.warning("lease %s not renewed: %s", self.name, exc)
        else:
            if after is not None and after.holder == self.origin:
                self._granted = asked
            elif after is None or row is None or (after.holder, after.serial) != (row.holder, row.serial):
                self._since = self.clock.time()  # another's, seen changed (or first seen) now
            self.row = after
        if self.held != before:
            self._changed()

    def start(self) -> None:
        """Keep stepping every `ttl / 3` seconds until `stop`; a step falling due while the one
        before is still under way (the database slow to answer) is taken as soon as that ends,
        so that a renewal that failed after storage's time limit is tried again in time."""
        if not self._stopped and self._timer is None:
            self._timer = self.clock.call_later(self.ttl / 3, self._due)

    def _due(self) -> None:
        self._timer = None
        if self._stopped:
            return
        if self._task is None:
            self._begin()
        else:
            self._late = True
        self.start()

    def _begin(self) -> None:
        self._late = False
        self._task = asyncio.create_task(self.step())
        self._task.add_done_callback(self._stepped)

    def _stepped(self, task: asyncio.Task[None]) -> None:
        self._task = None
        if not task.cancelled() and task.exception() is not None:
            log.error("lease %s: step failed", self.name, exc_info=task.exception())
        if self._late and not self._stopped:
            self._begin()

    def stop(self) -> None:
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def release(self) -> None:
        """Stop, and give the lease up if it is ours (another process may take it at once)."""
        self.stop()
        row, self.row = self.row, None
        if row is not None and row.holder == self.origin:
            try:
                await self.storage.release(self.name, self.origin)
            except Exception as exc:  # it lapses in time
                log.warning("lease %s not given up: %s", self.name, exc)
