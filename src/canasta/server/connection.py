"""One client's WebSocket: its seat and language, a rate limit, and an ordered outbox.

Messages are queued without waiting (the table's lock is never held during network I/O) and a
writer task sends them in order; a client that falls `outbox_limit` messages behind is
disconnected and gets the whole state again when it reconnects. A message that cannot be sent
for any other reason than the client leaving is logged and the connection closed with
`CLOSE_SERVER_ERROR`, so that the client reconnects instead of waiting on a silent socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from canasta.protocol.outgoing import encode
from canasta.server.clock import Clock

log = logging.getLogger("canasta.server")

CLOSE_NORMAL = 1000
CLOSE_SERVER_ERROR = 1011
CLOSE_TOO_SLOW = 4008


class RateLimiter:
    """A token bucket: `burst` messages at once, refilled at `rate` per second."""

    def __init__(self, rate: float, burst: int, clock: Clock) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock.time()

    def allow(self) -> bool:
        now = self.clock.time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """A client connected to a table; `seat` is None for a spectator (and before `hello`)."""

    def __init__(self, websocket: WebSocket, outbox_limit: int, limiter: RateLimiter) -> None:
        self.websocket = websocket
        self.limiter = limiter
        self.lang = "en"
        self.seat: int | None = None
        self.greeted = False
        self._limit = outbox_limit
        self._outbox: deque[str | int] = deque()  # texts, then maybe a close code
        self._ready = asyncio.Event()
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message; never waits."""
        if len(self._outbox) >= self._limit:
            self._outbox.clear()
            self._outbox.append(CLOSE_TOO_SLOW)
        else:
            self._outbox.append(text)
        self._ready.set()

    async def _write(self) -> None:
        try:
            while True:
                await self._ready.wait()
                self._ready.clear()
                while self._outbox:
                    item = self._outbox.popleft()
                    if isinstance(item, int):
                        await self.websocket.close(item)
                        return
                    await self.websocket.send_text(item)
        except (WebSocketDisconnect, WebSocketDisconnected, OSError):
            return  # the client went away (or the socket is closed): the reader sees it too
        except Exception:
            log.exception("a message could not be sent: closing the connection")
            self._outbox.clear()
            with contextlib.suppress(Exception):
                await self.websocket.close(CLOSE_SERVER_ERROR)

    async def close(self) -> None:
        """Flush what is queued, close the socket and stop the writer."""
        self._outbox.append(CLOSE_NORMAL)
        self._ready.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, timeout=1.0)
        self._writer.cancel()
