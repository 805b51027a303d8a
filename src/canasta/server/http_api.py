"""The HTTP JSON API: create a table, take a seat, read a table's state, download records.

Errors are `{"error": {...}}` bodies (the WebSocket's error message) with a fitting status.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from canasta.protocol import outgoing
from canasta.protocol.client import parse_join
from canasta.protocol.errors import LANGUAGES, ErrorCode, ProtocolError
from canasta.protocol.fields import bad, decode_object
from canasta.protocol.settings import TableSettings
from canasta.server.hub import Hub
from canasta.server.room import Room

STATUS = {
    ErrorCode.TABLE_NOT_FOUND: 404,
    ErrorCode.BAD_TOKEN: 403,
    ErrorCode.TABLE_FULL: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.NOT_HUMAN_SEAT: 409,
    ErrorCode.DEAL_NOT_OVER: 409,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.INTERNAL_ERROR: 500,
}

Endpoint = Callable[[Request], Awaitable[Response]]


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang") or request.headers.get("accept-language", "en")[:2].lower()
    return lang if lang in LANGUAGES else "en"


def _errors(endpoint: Endpoint) -> Endpoint:
    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except ProtocolError as exc:
            return JSONResponse({"error": outgoing.error(exc, _lang(request))}, STATUS.get(exc.code, 400))

    return wrapped


async def _body(request: Request) -> dict[str, Any]:
    limit: int = _hub(request).config.max_message
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            break
    return decode_object(data, limit)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _room(request: Request) -> Room:
    return await _hub(request).room(request.path_params["table_id"])


def _link(request: Request, table_id: str) -> str:
    return f"{request.base_url}t/{table_id}"


def _query_int(request: Request, key: str) -> int | None:
    value = request.query_params.get(key)
    if value is None:
        return None
    if not value.isdigit() or len(value) > 6:
        raise bad(key, "expected a whole number")
    return int(value)


@_errors
async def create_table(request: Request) -> Response:
    """POST /api/tables: settings in, the table's id and link out."""
    hub = _hub(request)
    settings = TableSettings.from_json(await _body(request), hub.config.bot_delay)
    table_id = await hub.create(settings)
    body = {"table": table_id, "link": _link(request, table_id), "settings": settings.to_json()}
    return JSONResponse(body, 201)


@_errors
async def join_table(request: Request) -> Response:
    """POST /api/tables/{id}/seats: a name (and optionally a seat) in, the seat token out."""
    room = await _room(request)
    seat, token = await room.join(parse_join(await _body(request)))
    link = _link(request, room.table.id)
    return JSONResponse(
        {"table": room.table.id, "seat": seat, "token": token, "rejoin_link": f"{link}#seat={token}"}
    )


@_errors
async def table_state(request: Request) -> Response:
    """GET /api/tables/{id}: the state message for the `X-Seat-Token` holder, or a spectator."""
    room = await _room(request)
    return JSONResponse(await room.snapshot(request.headers.get("x-seat-token")))


@_errors
async def table_record(request: Request) -> Response:
    """GET /api/tables/{id}/record?game=G&deal=D: canasta-record/1 of finished deals."""
    room = await _room(request)
    game, deal = _query_int(request, "game"), _query_int(request, "deal")
    async with room.lock:
        games = len(room.table.games)
        if game is not None and game >= games:
            raise bad("game", f"this table has games 0 to {games - 1}")
        try:
            record = room.table.record(games - 1 if game is None else game, deal)
        except ValueError:
            raise ProtocolError(ErrorCode.DEAL_NOT_OVER) from None
    return JSONResponse(record)


ROUTES = [
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", table_state, methods=["GET"]),
    Route("/api/tables/{table_id}/seats", join_table, methods=["POST"]),
    Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
]
