"""The ASGI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from canasta.server.broker import Broker, open_broker
from canasta.server.config import ServerConfig
from canasta.server.http_api import ERROR_HANDLERS, ROUTES
from canasta.server.hub import Hub
from canasta.server.pages import PAGE_ROUTES
from canasta.server.ws_endpoint import table_socket
from canasta.storage import Storage, open_storage


def create_app(
    config: ServerConfig | None = None, storage: Storage | None = None, broker: Broker | None = None
) -> Starlette:
    """The server as an ASGI app. Storage and the broker are opened from `config.db` and
    `config.broker` at start-up unless given (and are closed at shutdown either way)."""
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = storage if storage is not None else open_storage(config.db, config.clock)
        bus = broker if broker is not None else open_broker(config.broker, config.clock)
        await bus.start()
        hub = Hub(store, bus, config)
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.close()
            await bus.close()
            await store.close()

    return Starlette(
        routes=[*ROUTES, WebSocketRoute("/ws/tables/{table_id}", table_socket), *PAGE_ROUTES],
        lifespan=lifespan,
        exception_handlers=dict(ERROR_HANDLERS),
    )
