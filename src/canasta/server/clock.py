"""Where the server's time comes from: the event loop's monotonic clock, or (in tests) a clock
that moves only when told, so that no test waits for a timer on the real clock."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Monotonic seconds, and callbacks run on the event loop after a delay."""

    def time(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer: ...


class LoopClock:
    """The real clock: `time.monotonic` (the event loop's own) and the loop's timers."""

    def time(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback, *args)


class _ManualTimer:
    def __init__(self, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.callback, self.args = callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.callback(*self.args)


class ManualClock:
    """A clock for tests: time stands still until `advance`. A timer already due (a delay of 0
    or less) runs soon on the event loop, as the real clock's would; the others run, in order
    of their times, during the `advance` that reaches them (call it on the loop's thread)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        timer = _ManualTimer(callback, args)
        if delay <= 0:
            asyncio.get_running_loop().call_soon(timer.fire)
        else:
            heapq.heappush(self._timers, (self.now + delay, next(self._order), timer))
        return timer

    def pending(self) -> list[float]:
        """The delays of the timers still to run (to a nanosecond), soonest first."""
        return sorted(round(when - self.now, 9) for when, _, timer in self._timers if not timer.cancelled)

    def advance(self, seconds: float) -> None:
        """Move the time on by `seconds`, running every timer that falls due meanwhile."""
        target = self.now + seconds
        while self._timers and self._timers[0][0] <= target:
            when, _, timer = heapq.heappop(self._timers)
            self.now = max(self.now, when)
            timer.fire()
        self.now = target
