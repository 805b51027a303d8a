"""Token buckets: how often a client may do something, on the server's clock."""

from __future__ import annotations

from canasta.server.clock import Clock


class RateLimiter:
    """A token bucket: `burst` messages at once, refilled at `rate` per second."""

    def __init__(self, rate: float, burst: int, clock: Clock) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock.time()

    def wait(self) -> float:
        """Seconds until the next message will be allowed (0: now)."""
        return max(0.0, (1 - self.tokens) / self.rate - (self.clock.time() - self.stamp))

    @property
    def full(self) -> bool:
        """Whether the bucket has refilled (a client that stopped long enough ago)."""
        return self.tokens + (self.clock.time() - self.stamp) * self.rate >= self.burst

    def allow(self) -> bool:
        now = self.clock.time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
