"""Messages that clients send over the WebSocket (and the join request of the HTTP API)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from canasta.protocol.chat import MAX_CHAT_TEXT, PHRASES
from canasta.protocol.errors import LANGUAGES, ErrorCode, ProtocolError
from canasta.protocol.fields import (
    bad,
    check_text,
    decode_json_object,
    encodable,
    get_int,
    get_object,
    get_str,
    get_text,
)
from canasta.rules.actions import Action, action_from_json
from canasta.rules.errors import InvalidActionError

MAX_NAME = 32
MAX_TOKEN = 128
MAX_REQUEST_ID = 64
MAX_ID_NUMBER = 2**53  # the largest whole number a JavaScript client holds exactly


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message of a connection: a seat token (none for a spectator) and a language."""

    token: str | None
    lang: str


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A move in FORMATS.md notation, with the state version its sender saw."""

    version: int
    action: Action
    seat: int | None


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """A preset phrase (`phrase`) or free text (`text`); exactly one is set."""

    phrase: str | None
    text: str | None


@dataclass(frozen=True, slots=True)
class RematchRequest:
    """Start a new game with the same seats once the game is over."""


@dataclass(frozen=True, slots=True)
class NextDealRequest:
    """A person at the table has read the deal's summary: the next deal may start."""


@dataclass(frozen=True, slots=True)
class LeaveRequest:
    """A person leaves the table: the seat is freed (a computer plays it until someone sits)."""


@dataclass(frozen=True, slots=True)
class HintRequest:
    """The player to move asks what the best computer player would do."""


ClientMessage: TypeAlias = (
    Hello | ActionRequest | ChatRequest | RematchRequest | NextDealRequest | LeaveRequest | HintRequest
)


def request_id(obj: dict[str, Any]) -> str | int | None:
    """The optional `id` a client attaches to a message; echoed in the answer (ack or error).
    Raises ProtocolError `bad_field` for one that is not a whole number or a short string."""
    value = obj.get("id")
    whole = isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_ID_NUMBER
    short = isinstance(value, str) and len(value) <= MAX_REQUEST_ID and encodable(value)
    if value is not None and not (whole or short):
        raise bad("id", f"expected a whole number or a string of at most {MAX_REQUEST_ID} characters")
    return value


def parse_message(obj: dict[str, Any]) -> ClientMessage:
    """Validate a decoded message (see `docs/protocol.md`)."""
    kind = get_str(obj, "type", max_len=MAX_REQUEST_ID)
    if kind == "hello":
        lang = get_str(obj, "lang", "en")
        if lang not in LANGUAGES:
            raise bad("lang", f"expected one of {', '.join(LANGUAGES)}")
        return Hello(get_str(obj, "token", None, max_len=MAX_TOKEN), lang)
    if kind == "action":
        version = get_int(obj, "version")
        raw = get_object(obj, "action")
        try:
            action, seat = action_from_json(raw)
        except InvalidActionError as exc:
            raise ProtocolError(ErrorCode.BAD_ACTION, exc.message) from None
        return ActionRequest(version, action, seat)
    if kind == "chat":
        return _chat(obj)
    if kind == "rematch":
        return RematchRequest()
    if kind == "next_deal":
        return NextDealRequest()
    if kind == "leave":
        return LeaveRequest()
    if kind == "hint":
        return HintRequest()
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, type=kind)


def _chat(obj: dict[str, Any]) -> ChatRequest:
    phrase = get_str(obj, "phrase", None, max_len=MAX_REQUEST_ID)
    if phrase is not None:
        if phrase not in PHRASES:
            raise ProtocolError(ErrorCode.UNKNOWN_PHRASE, phrase=phrase)
        return ChatRequest(phrase, None)
    if obj.get("text") is None:
        raise ProtocolError(ErrorCode.MISSING_FIELD, field="phrase")
    return ChatRequest(None, get_text(obj, "text", MAX_CHAT_TEXT))


def parse_client_message(raw: str | bytes, limit: int) -> tuple[ClientMessage, str | int | None]:
    """Decode and validate one WebSocket message; returns it with its request id.

    Raises ProtocolError (with `request_id` set when the message had a readable one).
    """
    obj = decode_json_object(raw, limit)
    rid = request_id(obj)  # a message whose id cannot be repeated is refused without one
    try:
        check_text(obj)
        return parse_message(obj), rid
    except ProtocolError as exc:
        exc.request_id = rid
        raise


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """Take a free seat for a person: a display name and optionally which seat."""

    name: str
    seat: int | None


def parse_join(obj: dict[str, Any]) -> JoinRequest:
    return JoinRequest(get_text(obj, "name", MAX_NAME), get_int(obj, "seat", None))
