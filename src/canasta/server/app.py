"""The ASGI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from canasta.server.broker import Broker, LocalBroker
from canasta.server.config import ServerConfig
from canasta.server.http_api import ROUTES
from canasta.server.hub import Hub
from canasta.server.pages import PAGE_ROUTES
from canasta.server.ws_endpoint import table_socket
from canasta.storage import Storage, open_storage


def create_app(
    config: ServerConfig | None = None, storage: Storage | None = None, broker: Broker | None = None
) -> Starlette:
    """The server as an ASGI app. Storage is opened from `config.db` at start-up unless given
    (and is then closed at shutdown either way); the broker defaults to this process alone."""
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = storage if storage is not None else open_storage(config.db)
        hub = Hub(store, broker if broker is not None else LocalBroker(), config)
        app.state.hub = hub
        try:
            yield
        finally:
            hub.close()
            await store.close()

    return Starlette(
        routes=[*ROUTES, WebSocketRoute("/ws/tables/{table_id}", table_socket), *PAGE_ROUTES],
        lifespan=lifespan,
    )
