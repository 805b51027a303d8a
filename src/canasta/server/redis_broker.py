"""`RedisBroker`: changes announced through Redis publish/subscribe (redis-py's asyncio client).

Needs the `redis` extra (redis-py).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from canasta.extras import install_command
from canasta.server.broker import RemoteBroker
from canasta.server.clock import Clock
from canasta.storage.postgres import one_line

CHANNEL = "canasta:tables"
CONNECT_TIMEOUT = 5.0  # seconds


class RedisBroker(RemoteBroker):
    """A `Broker` on a Redis server (`redis://host:port/db`). Raises ValueError, on one line,
    when redis-py is missing, the URL is malformed or the server is out of reach."""

    def __init__(self, url: str, clock: Clock) -> None:
        super().__init__(clock)
        try:
            import redis
        except ImportError:
            raise ValueError(
                f"the Redis broker needs redis, which is not installed: {install_command('redis')}"
            ) from None
        self._url = url
        self._client: Any = None
        self._pubsub: Any = None
        try:
            with redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT) as client:
                client.ping()
        except (ValueError, redis.RedisError) as exc:
            raise ValueError(f"cannot reach the Redis broker: {one_line(exc)}") from None

    async def _connect(self) -> None:
        from redis.asyncio import Redis

        if self._client is None:  # the client reconnects by itself to publish
            self._client = Redis.from_url(self._url, socket_connect_timeout=CONNECT_TIMEOUT)
        old, self._pubsub = self._pubsub, None
        if old is not None:
            with contextlib.suppress(Exception):  # it is gone anyway
                await old.aclose()
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(CHANNEL)

    async def _disconnect(self) -> None:
        pubsub, client, self._pubsub, self._client = self._pubsub, self._client, None, None
        if pubsub is not None:
            await pubsub.aclose()
        if client is not None:
            await client.aclose()

    async def _send(self, message: str) -> None:
        await self._client.publish(CHANNEL, message)

    async def _messages(self) -> AsyncIterator[str]:
        async for message in self._pubsub.listen():
            if message["type"] == "message":
                yield message["data"].decode()
