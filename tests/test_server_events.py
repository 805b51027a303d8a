"""A table's events, typed: each kind is stored in the form the log has always had and read
back as it was made, through storage (SQLite and PostgreSQL); an unknown kind is refused."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from canasta.rules.actions import Draw, action_from_json
from canasta.rules.cards import Card, make_deck
from canasta.rules.errors import InvalidActionError
from canasta.server.events import (
    ActionEvent,
    DealEvent,
    Event,
    ReadyEvent,
    RematchEvent,
    event_from_json,
    event_to_json,
)
from canasta.storage import Storage, open_storage

DECK = tuple(make_deck(2, 4))
MELD = {"type": "meld", "melds": [{"rank": "K", "cards": ["KS", "KH", "KD"]}]}
EVENTS: list[tuple[Event, dict[str, Any]]] = [
    (
        DealEvent(3, None, DECK),
        {"kind": "deal", "dealer": 3, "sitting_out": None, "deck": [card.code for card in DECK]},
    ),
    (
        ActionEvent(0, Draw(), "player"),
        {"kind": "action", "seat": 0, "action": {"type": "draw"}, "by": "player"},
    ),
    (
        ActionEvent(1, action_from_json(MELD)[0], "bot", quick=True),
        {"kind": "action", "seat": 1, "action": MELD, "by": "bot", "quick": True},
    ),
    (ReadyEvent(2), {"kind": "ready", "seat": 2}),
    (RematchEvent(), {"kind": "rematch"}),
]


@pytest.mark.parametrize(("event", "stored"), EVENTS)
def test_each_event_has_its_stored_form_and_is_read_back(event: Event, stored: dict[str, Any]) -> None:
    assert event_to_json(event) == stored
    assert event_from_json(stored) == event
    assert event_from_json(event_to_json(event)) == event


def test_a_deal_holds_cards() -> None:
    deal = event_from_json(EVENTS[0][1])
    assert isinstance(deal, DealEvent) and all(isinstance(card, Card) for card in deal.deck)


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(InvalidActionError, match="unknown event kind 'teleport'"):
        event_from_json({"kind": "teleport"})


async def _round_trip(storage: Storage) -> list[Event]:
    await storage.create_table("t1", {"variant": "classic"}, 4)
    for seq, (event, _) in enumerate(EVENTS, start=1):
        await storage.append("t1", seq, event_to_json(event))
    read = [event_from_json(stored) for _, stored in await storage.events("t1")]
    await storage.close()
    return read


def test_every_kind_round_trips_through_sqlite() -> None:
    assert asyncio.run(_round_trip(open_storage("sqlite://:memory:"))) == [event for event, _ in EVENTS]


def test_every_kind_round_trips_through_postgres(postgres_url: str) -> None:
    assert asyncio.run(_round_trip(open_storage(postgres_url))) == [event for event, _ in EVENTS]
