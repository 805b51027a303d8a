"""The game server: an ASGI app (Starlette) with an HTTP JSON API and a WebSocket per client.

See `docs/protocol.md`. Modules: `app` (factory), `http_api`, `ws_endpoint`, `pages` (the
browser client's pages and static files), `catalogue` (rule sets on offer), `replay` (finished
deals move by move), `hub` (tables in memory), `room` (one table: lock, storage before sending,
fan-out), `autoplay` (the next automatic step: bots, stand-ins, timers, next deals), `table`
(the game rebuilt from its event log), `connection` (outbox, rate limit), `broker` (fan-out
between processes, with `redis_broker` and `postgres_broker`), `presence` (who is connected to
other processes), `events` (the typed events of a table's log), `config`, `serve` (uvicorn).
"""

from canasta.server.app import create_app
from canasta.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
