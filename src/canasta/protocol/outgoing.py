"""Messages the server sends (over the WebSocket, and as HTTP JSON bodies), and their encoding."""

from __future__ import annotations

import json
from typing import Any

from canasta.protocol.chat import PHRASES, phrases_in
from canasta.protocol.errors import ProtocolError


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def welcome(table: str, seat: int | None, lang: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The answer to a valid `hello`: who this connection is and what the table is."""
    return {
        "type": "welcome",
        "table": table,
        "seat": seat,
        "lang": lang,
        "settings": settings,
        "phrases": phrases_in(lang),
    }


def ack(version: int, request_id: str | int | None) -> dict[str, Any]:
    """An action was applied and stored; `version` is the table's version after it."""
    return {"type": "ack", "id": request_id, "version": version}


def error(exc: ProtocolError, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "id": exc.request_id, "code": exc.code.value}
    out["message"] = exc.message(lang)
    if exc.detail:
        out["detail"] = exc.detail
    if "rule" in exc.params:
        out["rule"] = exc.params["rule"]
        out["refusal"] = exc.params["refusal"]
    return out


def hint(version: int, action: dict[str, Any], reason: str) -> dict[str, Any]:
    """The best computer player's move for the reader at `version`, with a one-line reason."""
    return {"type": "hint", "version": version, "action": action, "reason": reason}


def presence(seats: list[dict[str, Any]], spectators: int) -> dict[str, Any]:
    """Who is connected: the seats (names, connected, stand-in bots) and the spectator count."""
    return {"type": "presence", "seats": seats, "spectators": spectators}


def chat(seat: int, name: str, phrase: str | None, text: str | None, lang: str) -> dict[str, Any]:
    """A chat line as one reader sees it: a preset phrase is shown in the reader's language."""
    shown = PHRASES[phrase][lang] if phrase is not None else text
    return {"type": "chat", "seat": seat, "name": name, "phrase": phrase, "text": shown}
