"""Running the server with uvicorn (`canasta serve`)."""

from __future__ import annotations

import asyncio
import gc
import resource
import sys
from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from canasta import native
from canasta.server.app import create_app
from canasta.server.broker import open_broker
from canasta.server.clock import Clock, Timer
from canasta.server.config import ServerConfig
from canasta.storage import open_storage

# uvicorn closes a connection whose frame exceeds this; smaller oversized messages are answered
# with the error `too_large` (the protocol's limit is `ServerConfig.max_message`).
WS_MAX_FRAME = 1024 * 1024
GC_YOUNG = 50_000  # allocations between collections of the youngest generation (Python's: 700)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, except for clients that stop reading: a close that finds
    the send buffer full aborts the connection at once, and one whose client does not answer
    the close within `close_timeout` seconds, or a ping within `ws_ping_timeout` seconds, is
    aborted then (uvicorn would wait for the buffers to drain, which for a client that never
    reads is never, and the server would go on queuing messages for it)."""

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        if not self.disconnected:
            self.transport.abort()  # the reader sees the disconnect

    async def send(self, message: Any) -> None:
        closing = message["type"] == "websocket.close" and self.handshake_complete
        if closing and not self.writable.is_set() and not self.disconnected:
            self.transport.abort()  # the reader sees the disconnect
            return
        await super().send(message)
        if closing and self.close_timer is not None:
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)


class TimedHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol with a deadline: from its opening, and from each answer, a
    connection has `timeout` seconds (on `clock`) to send a whole request and take its answer,
    or it is closed. So half-sent requests and idle sockets cannot hold the server's files
    (uvicorn times out only idle connections that had an answer). A connection upgraded to a
    WebSocket is the WebSocket protocol's from then on."""

    clock: Clock
    timeout: float
    _deadline: Timer | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        self._restart()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._restart()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def _restart(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.clock.call_later(self.timeout, self._expire)

    def _expire(self) -> None:
        transport = self.transport
        if transport.get_protocol() is self and not transport.is_closing():
            transport.close()


def http_protocol(config: ServerConfig) -> type[asyncio.Protocol]:
    """The HTTP protocol class for uvicorn, timed by `config.request_timeout` on its clock."""
    timing = {"clock": config.clock, "timeout": config.request_timeout}
    return type("HTTPProtocol", (TimedHTTPProtocol,), timing)


def _more_files() -> None:
    """Raise the limit of open files to what the system allows (a busy server holds a socket
    per client)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def serve(host: str, port: int, config: ServerConfig) -> None:
    """Serve until interrupted; raises ValueError for a database or broker it cannot open."""
    storage = open_storage(config.db, config.clock)  # fail here, before listening, on a bad URL
    broker = open_broker(config.broker, config.clock)
    app = create_app(config, storage=storage, broker=broker)
    print(f"canasta serve: engine: {native.engine_line()}", file=sys.stderr, flush=True)
    gc.collect()
    gc.freeze()  # what is loaded by now lives forever: keep it out of every full collection
    # Young objects get more time to die young, so that fewer reach the oldest generation, whose
    # collection scans every table (a pause of 200 ms with 500 tables): the p99 latency of a
    # move at 500 tables fell from about 250 ms to 21 ms (benchmarks/server_load.py).
    gc.set_threshold(GC_YOUNG, 20, 100)
    # Messages are small: compressing each one for each client would cost more than it saves.
    _more_files()
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=http_protocol(config),
        ws=WebSocketProtocol,
        ws_max_size=WS_MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="info",
    )
