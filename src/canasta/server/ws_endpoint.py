"""The WebSocket endpoint `/ws/tables/{table_id}`: one reader loop per client (docs/protocol.md)."""

from __future__ import annotations

import logging

from starlette.websockets import WebSocket

from canasta.protocol import outgoing
from canasta.protocol.client import (
    ActionRequest,
    ChatRequest,
    ClientMessage,
    Hello,
    HintRequest,
    LeaveRequest,
    NextDealRequest,
    parse_client_message,
)
from canasta.protocol.errors import LANGUAGES, ErrorCode, ProtocolError, storage_busy
from canasta.server.connection import CLOSE_NO_HELLO, CLOSE_SERVER_ERROR, Connection
from canasta.server.hub import Hub
from canasta.server.rate_limit import RateLimiter
from canasta.server.room import Room
from canasta.storage.base import StorageBusy

log = logging.getLogger("canasta.server")


async def table_socket(websocket: WebSocket) -> None:
    """One client, which says `hello` within `hello_timeout` seconds (or `CLOSE_NO_HELLO`). The
    hub and the room bound the sockets of an address, of clients yet to say hello, of
    spectators and of each seat (an error, then `CLOSE_TOO_MANY`)."""
    hub: Hub = websocket.app.state.hub
    config = hub.config
    await websocket.accept()
    conn = Connection(websocket, config, RateLimiter(config.rate, config.burst, config.clock))
    lang = websocket.query_params.get("lang", "en")
    conn.lang = lang if lang in LANGUAGES else "en"
    table_id = websocket.path_params["table_id"]
    address = conn.address = websocket.client.host if websocket.client else ""
    try:
        hub.open_socket(conn, table_id, address)
    except ProtocolError:
        conn.turn_away()
        await conn.close()
        return
    deadline = config.clock.call_later(config.hello_timeout, _no_hello, conn)
    attached: Room | None = None  # the room of a greeted connection (it stays loaded meanwhile)
    try:
        await hub.room(table_id)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect" or conn.ending:
                break
            room = attached or await hub.room(table_id)  # reloaded if idle before `hello`
            raw = message.get("text")
            await _handle(room, conn, raw if raw is not None else message.get("bytes") or b"")
            if conn.greeted and attached is None:
                attached = room
                hub.greeted(conn, table_id)
    except ProtocolError as exc:  # no such table, or one that cannot be loaded
        conn.send(outgoing.error(exc, conn.lang))
        if exc.code is ErrorCode.TABLE_DAMAGED:
            conn.end(CLOSE_SERVER_ERROR)
    finally:
        deadline.cancel()
        hub.close_socket(conn, table_id)
        if attached is not None:
            attached.detach(conn)
        await conn.close()


def _no_hello(conn: Connection) -> None:
    if not conn.greeted:
        conn.close_with(CLOSE_NO_HELLO)


async def _handle(room: Room, conn: Connection, raw: str | bytes) -> None:
    """Validate and carry out one message; every failure is answered with an error message."""
    request_id: str | int | None = None
    try:
        allowed = conn.limiter.allow()
        try:
            request, request_id = parse_client_message(raw, room.config.max_message)
        except ProtocolError as exc:
            if allowed:
                raise
            request_id = exc.request_id
            raise ProtocolError(ErrorCode.RATE_LIMITED) from None
        if not allowed:
            raise ProtocolError(ErrorCode.RATE_LIMITED)
        await _dispatch(room, conn, request, request_id)
    except ProtocolError as exc:
        if exc.code is ErrorCode.TOO_MANY_CONNECTIONS:
            conn.turn_away()
            return
        if exc.request_id is None:
            exc.request_id = request_id
        conn.send(outgoing.error(exc, conn.lang))
    except StorageBusy:  # a change of seats that the database did not take in time
        error = storage_busy()
        error.request_id = request_id
        conn.send(outgoing.error(error, conn.lang))
    except Exception:
        log.exception("table %s: message failed", room.table.id)
        error = ProtocolError(ErrorCode.INTERNAL_ERROR)
        error.request_id = request_id
        conn.send(outgoing.error(error, conn.lang))


async def _dispatch(
    room: Room, conn: Connection, request: ClientMessage, request_id: str | int | None
) -> None:
    if isinstance(request, Hello):
        if conn.greeted:
            raise ProtocolError(ErrorCode.ALREADY_HELLO)
        await room.attach(conn, request)
    elif not conn.greeted:
        raise ProtocolError(ErrorCode.HELLO_REQUIRED)
    elif isinstance(request, ActionRequest):
        await room.act(conn, request, request_id)
    elif isinstance(request, ChatRequest):
        room.chat(conn, request)
    elif isinstance(request, NextDealRequest):
        await room.next_deal(conn, request_id)
    elif isinstance(request, LeaveRequest):
        await room.leave(conn, request_id)
    elif isinstance(request, HintRequest):
        await room.hint(conn)
    else:
        await room.rematch(conn, request_id)
