"""The HTTP JSON API: create a table, take a seat, read a table's state and rules, download
records and replay finished deals; the catalogue of rule sets for a table's creator.

Errors are `{"error": {...}}` bodies (the WebSocket's error message) with a fitting status,
including those of addresses and methods the API does not have and of unexpected failures
(`ERROR_HANDLERS`).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from canasta.protocol import outgoing
from canasta.protocol.client import parse_join
from canasta.protocol.errors import LANGUAGES, ErrorCode, ProtocolError, storage_busy
from canasta.protocol.fields import bad, decode_object
from canasta.protocol.settings import TableSettings
from canasta.server.catalogue import catalogue, rules_json
from canasta.server.finished_deals import RECORD_PAGE
from canasta.server.hub import Hub
from canasta.server.room import ADDRESS, Room
from canasta.storage.base import StorageBusy

STATUS = {
    ErrorCode.TABLE_NOT_FOUND: 404,
    ErrorCode.BAD_TOKEN: 403,
    ErrorCode.TABLE_FULL: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.NOT_HUMAN_SEAT: 409,
    ErrorCode.DEAL_NOT_OVER: 409,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.BAD_METHOD: 405,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.TOO_MANY_TABLES: 429,
    ErrorCode.TOO_MANY_CONNECTIONS: 429,
    ErrorCode.TOO_MANY_REQUESTS: 429,
    ErrorCode.REVIEW_LIMITED: 429,
    ErrorCode.SERVER_BUSY: 503,
    ErrorCode.STORAGE_BUSY: 503,
    ErrorCode.TABLE_DAMAGED: 500,
    ErrorCode.INTERNAL_ERROR: 500,
}

Endpoint = Callable[[Request], Awaitable[Response]]


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang") or request.headers.get("accept-language", "en")[:2].lower()
    return lang if lang in LANGUAGES else "en"


def error_response(request: Request, exc: ProtocolError) -> Response:
    """The error as JSON, with `Retry-After` when the request may succeed later."""
    retry = None if exc.retry_after is None else {"retry-after": str(max(1, math.ceil(exc.retry_after)))}
    return JSONResponse({"error": outgoing.error(exc, _lang(request))}, STATUS.get(exc.code, 400), retry)


def _errors(endpoint: Endpoint) -> Endpoint:
    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except ProtocolError as exc:
            return error_response(request, exc)
        except StorageBusy:
            return error_response(request, storage_busy())

    return wrapped


def _read(endpoint: Endpoint) -> Endpoint:
    """A read that costs its address one of its `reads_per_second` (`too_many_requests`)."""

    async def priced(request: Request) -> Response:
        _hub(request).read(_address(request))
        return await endpoint(request)

    return _errors(priced)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no such address or method), as the API's JSON errors."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.BAD_METHOD}.get(status, ErrorCode.BAD_MESSAGE)
    return error_response(request, ProtocolError(code))


async def _failure(request: Request, exc: Exception) -> Response:
    """An unexpected failure: logged (by Starlette, with its traceback) and answered as JSON."""
    return error_response(request, ProtocolError(ErrorCode.INTERNAL_ERROR))


ERROR_HANDLERS: Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
    HTTPException: _http_error,
    Exception: _failure,
}


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


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def _link(request: Request, table_id: str) -> str:
    return f"{request.base_url}t/{table_id}"


def _query_int(request: Request, key: str) -> int | None:
    value = request.query_params.get(key)
    if value is None:
        return None
    if not value.isascii() or not value.isdigit() or len(value) > 6:
        raise bad(key, "expected a whole number")
    return int(value)


@_errors
async def create_table(request: Request) -> Response:
    """POST /api/tables: settings in, the table's id and link out."""
    hub = _hub(request)
    settings = TableSettings.from_json(await _body(request), hub.config.bot_delay)
    table_id = await hub.create(settings, _address(request))
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


@_read
async def table_state(request: Request) -> Response:
    """GET /api/tables/{id}: the state message for the `X-Seat-Token` holder, or a spectator."""
    room = await _room(request)
    return JSONResponse(await room.snapshot(request.headers.get("x-seat-token"), _lang(request)))


def _game_index(request: Request, room: Room) -> int:
    """The `game` query parameter (default: the current game), checked against the table."""
    game = _query_int(request, "game")
    games = len(room.table.games)
    if game is not None and game >= games:
        raise bad("game", f"this table has games 0 to {games - 1}")
    return games - 1 if game is None else game


@_read
async def table_record(request: Request) -> Response:
    """GET /api/tables/{id}/record?game=G&first=F&deal=D: canasta-record/1 of the finished
    deals F to D (default: D the last finished, and F so that the page holds `RECORD_PAGE`)."""
    room = await _room(request)
    deal, first = _query_int(request, "deal"), _query_int(request, "first")
    game = _game_index(request, room)
    played = room.table.games[game]  # the finished deals are read without the lock: they are over
    last = len(played.results) - 1 if deal is None else deal
    if not 0 <= last < len(played.results):
        raise ProtocolError(ErrorCode.DEAL_NOT_OVER)
    start = max(0, last - RECORD_PAGE + 1) if first is None else first
    if not last - RECORD_PAGE < start <= last:
        raise bad("first", f"a record holds deals first to deal, at most {RECORD_PAGE} of them")
    return Response(room.finished.record(game, played, start, last), media_type="application/json")


@_read
async def table_replay(request: Request) -> Response:
    """GET /api/tables/{id}/replay?game=G&deal=D: a finished deal's positions, move by move."""
    room = await _room(request)
    deal = _query_int(request, "deal")
    game = _game_index(request, room)
    played = room.table.games[game]
    try:
        steps = room.finished.replay(game, played, len(played.results) - 1 if deal is None else deal)
    except ValueError:
        raise ProtocolError(ErrorCode.DEAL_NOT_OVER) from None
    names = [seat.name for seat in room.table.seats]
    games, deals = len(room.table.games), len(played.results)
    return JSONResponse({"game": game, "games": games, "names": names, **steps, "deals": deals})


@_read
async def table_rules(request: Request) -> Response:
    """GET /api/tables/{id}/rules: every field of the table's rule set."""
    room = await _room(request)
    return JSONResponse(rules_json(room.table.rules))


@_read
async def rulesets(request: Request) -> Response:
    """GET /api/rulesets: the rule sets, house options and bot levels a creator can choose."""
    return JSONResponse(catalogue())


def _reviewed(request: Request, room: Room) -> tuple[int, int, int]:
    """The reader's seat (from `X-Seat-Token`), and the game and deal asked for (`game` and
    `deal` query parameters; default: the current game's last finished deal), which must be over."""
    token = request.headers.get("x-seat-token")
    seat = None if token is None else room.table.seat_of(token)
    if seat is None:
        raise ProtocolError(ErrorCode.BAD_TOKEN)
    game = _game_index(request, room)
    deal = _query_int(request, "deal")
    finished = len(room.table.games[game].results)
    deal = finished - 1 if deal is None else deal
    if not 0 <= deal < finished:
        raise ProtocolError(ErrorCode.DEAL_NOT_OVER)
    return seat, game, deal


@_errors
async def ask_review(request: Request) -> Response:
    """POST /api/tables/{id}/reviews?game=G&deal=D: the `X-Seat-Token` holder asks for the review
    of their decisions in a finished deal; 202 with its progress, or 200 with the review."""
    room = await _room(request)
    seat, game, deal = _reviewed(request, room)
    hub = _hub(request)
    answer = await hub.reviews.ask(room, seat, game, deal, ADDRESS + _address(request), _lang(request))
    return JSONResponse({"game": game, **answer}, 200 if answer["status"] == "done" else 202)


@_read
async def review(request: Request) -> Response:
    """GET /api/tables/{id}/reviews?game=G&deal=D: the `X-Seat-Token` holder's review of a
    finished deal, or how far it has got (`status` none, queued, running, failed or done)."""
    room = await _room(request)
    seat, game, deal = _reviewed(request, room)
    answer = await _hub(request).reviews.status(room, seat, game, deal, _lang(request))
    return JSONResponse({"game": game, **answer})


@_read
async def metrics(request: Request) -> Response:
    """GET /api/metrics: what the process's computer players did (`bots`: moves made, played
    quickly, late (past their deadline), failed, hints and hints given up, review decisions),
    its workers, the jobs waiting by kind, and the tables in memory."""
    hub = _hub(request)
    pool = hub.bots
    counts = ("moves", "quick", "late", "failed", "hints", "hints_late", "review_decisions")
    bots = {key: pool.stats[key] for key in counts}
    body = {"bots": bots, "workers": pool.workers, "busy": pool.busy, "waiting": pool.waiting}
    return JSONResponse({**body, "tables": len(hub.rooms)})


ROUTES = [
    Route("/api/metrics", metrics, methods=["GET"]),
    Route("/api/rulesets", rulesets, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", table_state, methods=["GET"]),
    Route("/api/tables/{table_id}/seats", join_table, methods=["POST"]),
    Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
    Route("/api/tables/{table_id}/replay", table_replay, methods=["GET"]),
    Route("/api/tables/{table_id}/rules", table_rules, methods=["GET"]),
    Route("/api/tables/{table_id}/reviews", ask_review, methods=["POST"]),
    Route("/api/tables/{table_id}/reviews", review, methods=["GET"]),
]
