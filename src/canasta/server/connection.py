"""One client's WebSocket: its seat and language, a rate limit, and an ordered outbox.

Messages are queued without waiting (the table's lock is never held during network I/O) and a
writer task sends them in order; a client that falls `outbox_limit` messages (or `outbox_chars`)
behind, or that takes `send_timeout` seconds to take one message, is disconnected with
`CLOSE_TOO_SLOW` and gets the whole state again when it reconnects. A message that cannot be sent
for any other reason than the client leaving is logged and the connection closed with
`CLOSE_SERVER_ERROR`, so that the client reconnects instead of waiting on a silent socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.protocol.outgoing import encode, error
from canasta.server.config import ServerConfig
from canasta.server.rate_limit import RateLimiter

log = logging.getLogger("canasta.server")

CLOSE_NORMAL = 1000
CLOSE_SERVER_ERROR = 1011
CLOSE_NO_HELLO = 4001
CLOSE_TOO_SLOW = 4008
CLOSE_TOO_MANY = 4029
FLUSH_TIME = 1.0  # seconds a leaving connection's queued messages may take to be sent
_SERIAL = itertools.count()  # the order in which connections were opened


class Connection:
    """A client connected to a table; `seat` is None for a spectator (and before `hello`), and
    `token_hash` is what the seat was held with when the client was greeted as its player.
    `serial` orders connections by their opening (the oldest has the smallest)."""

    def __init__(self, websocket: WebSocket, config: ServerConfig, limiter: RateLimiter) -> None:
        self.serial = next(_SERIAL)
        self.websocket = websocket
        self.config = config
        self.limiter = limiter
        self.lang = "en"
        self.address = ""  # the client's IP address
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.greeted = False
        self._outbox: deque[str | int] = deque()  # texts, then maybe a close code
        self._queued = 0  # characters of the texts in the outbox
        self._ready = asyncio.Event()
        self._writer = asyncio.create_task(self._write())
        self._closing: asyncio.Task[None] | None = None
        self._ending = False

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message; never waits. A client too far behind is disconnected."""
        if self._closing is not None:
            return
        limits = self.config
        if len(self._outbox) >= limits.outbox_limit or self._queued + len(text) > limits.outbox_chars:
            self.close_with(CLOSE_TOO_SLOW)
            return
        self._outbox.append(text)
        self._queued += len(text)
        self._ready.set()

    @property
    def ending(self) -> bool:
        """Whether the socket is being closed (what the client sends now is ignored)."""
        return self._ending

    def end(self, code: int) -> None:
        """Close the socket with `code` once what is queued has been sent (never waits)."""
        if self._closing is None:
            self._ending = True
            self._outbox.append(code)
            self._ready.set()

    def turn_away(self) -> None:
        """Tell the client `too_many_connections`, then close with `CLOSE_TOO_MANY`."""
        self.send(error(ProtocolError(ErrorCode.TOO_MANY_CONNECTIONS), self.lang))
        self.end(CLOSE_TOO_MANY)

    def close_with(self, code: int) -> None:
        """Close the socket at once with `code`, dropping what is queued (and a send that waits
        for a client that does not read: `canasta.server.serve` aborts such a connection)."""
        if self._closing is None:
            self._ending = True
            self._outbox.clear()
            self._queued = 0
            self._writer.cancel()
            self._closing = asyncio.create_task(self._close(code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code)

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
                    self._queued -= len(item)
                    stalled = self.config.clock.call_later(
                        self.config.send_timeout, self.close_with, CLOSE_TOO_SLOW
                    )
                    try:
                        await self.websocket.send_text(item)
                    finally:
                        stalled.cancel()
        except (WebSocketDisconnect, WebSocketDisconnected, OSError):
            return  # the client went away (or the socket is closed): the reader sees it too
        except Exception:
            log.exception("a message could not be sent: closing the connection")
            self.close_with(CLOSE_SERVER_ERROR)

    async def close(self, code: int = CLOSE_NORMAL) -> None:
        """Flush what is queued (for at most `FLUSH_TIME` seconds), then close the socket."""
        if self._closing is None:
            self.end(code)
            timer = self.config.clock.call_later(FLUSH_TIME, self.close_with, code)
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            timer.cancel()
        if self._closing is not None:
            await self._closing
