"""The events of a table's log, typed: what the server applies, stores and announces.

A change travels as one of these from where it is made (a player's request, a computer's
move, a deal) to the table that applies it; it is written as JSON only where it leaves the
process, to storage (`event_to_json`), and read back from there (`event_from_json`) when a
table is rebuilt or catches up on what another process stored (which the broker announces
with the table's id alone). The stored forms:

- `{"kind": "deal", "dealer": d, "sitting_out": s, "deck": [...]}`: a deal from a shuffled deck;
- `{"kind": "action", "seat": s, "action": {...}, "by": "player" | "bot" | "stand_in" | "timer"}`,
  with `"quick": true` when a computer's move was made by `hard` for want of time ("played quickly");
- `{"kind": "ready", "seat": s}`: between deals, the person at seat `s` asked for the next deal;
- `{"kind": "rematch"}`: a new game with the same seats.

The deck inside a deal event never leaves the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from canasta.rules.actions import Action, action_from_json, action_to_json
from canasta.rules.cards import Card
from canasta.rules.errors import InvalidActionError


@dataclass(frozen=True, slots=True)
class DealEvent:
    """The next deal, from `deck` (in the order dealt)."""

    dealer: int
    sitting_out: int | None
    deck: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """A move of `seat`, made `by` its player, a computer player, a stand-in or the turn timer;
    `quick`: made by `hard` for want of time."""

    seat: int
    action: Action
    by: str
    quick: bool = False


@dataclass(frozen=True, slots=True)
class ReadyEvent:
    """Between deals, the person at `seat` asked for the next deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class RematchEvent:
    """A new game with the same seats."""


Event: TypeAlias = DealEvent | ActionEvent | ReadyEvent | RematchEvent


def event_to_json(event: Event) -> dict[str, Any]:
    """The stored form of an event (see the module's docstring)."""
    if isinstance(event, ActionEvent):
        out: dict[str, Any] = {
            "kind": "action",
            "seat": event.seat,
            "action": action_to_json(event.action),
            "by": event.by,
        }
        if event.quick:
            out["quick"] = True
        return out
    if isinstance(event, DealEvent):
        deck = [card.code for card in event.deck]
        return {"kind": "deal", "dealer": event.dealer, "sitting_out": event.sitting_out, "deck": deck}
    if isinstance(event, ReadyEvent):
        return {"kind": "ready", "seat": event.seat}
    return {"kind": "rematch"}


def event_from_json(obj: dict[str, Any]) -> Event:
    """An event from its stored form; InvalidActionError (`bad_event`) for an unknown kind."""
    kind = obj.get("kind")
    if kind == "action":
        action, _ = action_from_json(obj["action"])
        return ActionEvent(obj["seat"], action, obj["by"], bool(obj.get("quick")))
    if kind == "deal":
        deck = tuple(Card.parse(code) for code in obj["deck"])
        return DealEvent(obj["dealer"], obj["sitting_out"], deck)
    if kind == "ready":
        return ReadyEvent(obj["seat"])
    if kind == "rematch":
        return RematchEvent()
    raise InvalidActionError(f"unknown event kind {kind!r}", "bad_event")
