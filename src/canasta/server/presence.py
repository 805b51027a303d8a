"""Which seats of a table have a person connected to another server process, as those
processes announce it (`canasta.server.broker.Notice`): each announces its own seats when they
change and again every `heartbeat` seconds while any are connected; a process not heard from
for `LAPSE` heartbeats (it may have died) counts as having nobody."""

from __future__ import annotations

from canasta.server.clock import Clock

LAPSE = 3.5  # heartbeats


class RemotePresence:
    """The seats announced by each other process holding the table, and when."""

    def __init__(self, heartbeat: float, clock: Clock) -> None:
        self.heartbeat, self.clock = heartbeat, clock
        self._heard: dict[str, tuple[frozenset[int], float]] = {}

    def heard(self, origin: str, seats: tuple[int, ...]) -> bool:
        """Take in an announcement; whether it is the first from that process."""
        first = origin not in self._heard
        self._heard[origin] = (frozenset(seats), self.clock.time())
        return first

    def expire(self) -> None:
        """Forget the processes not heard from for too long."""
        oldest = self.clock.time() - LAPSE * self.heartbeat
        self._heard = {origin: heard for origin, heard in self._heard.items() if heard[1] >= oldest}

    def seats(self) -> set[int]:
        return {seat for seats, _ in self._heard.values() for seat in seats}

    def with_people(self) -> set[str]:
        """The other processes that have a person of the table connected."""
        return {origin for origin, (seats, _) in self._heard.items() if seats}
