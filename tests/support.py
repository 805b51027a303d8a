"""Helpers for tests: build positions tersely, apply actions, check that illegal ones change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from canasta.rules import (
    Card,
    IllegalActionError,
    RuleSet,
    State,
    action_from_json,
    make_deck,
    position_from_json,
    position_to_json,
)


def make_state(
    variant: str = "classic", players: int = 4, options: dict[str, Any] | None = None, **fields: Any
) -> State:
    """A state from a partial `canasta-position/1`: unspecified parts are empty.

    The stock defaults to 20 cards of the deck that the position does not use.
    """
    rules = RuleSet.preset(variant, players, options or {})
    teams = rules.teams
    pos: dict[str, Any] = {
        "format": "canasta-position/1",
        "variant": variant,
        "players": players,
        "options": options or {},
        "scores": [0] * teams,
        "dealer": players - 1,
        "turn": 0,
        "phase": "play",
        "hands": [[] for _ in range(players)],
        "pile": [],
        "melds": [[] for _ in range(teams)],
        "red_threes": [[] for _ in range(teams)],
    }
    pos.update(fields)
    if "stock" not in fields:
        pos["stock"] = spare_cards(rules, pos, 20)
    return position_from_json(pos)


def spare_cards(rules: RuleSet, pos: dict[str, Any], n: int) -> list[str]:
    """`n` card codes of the deck that a partial position does not use (naturals 4-K first)."""
    remaining = make_deck(rules.decks, rules.jokers)
    used = [*pos["pile"]]
    for h in pos["hands"]:
        used += h
    for team in pos["melds"]:
        for m in team:
            used += m
    for t in pos["red_threes"]:
        used += t
    for code in used:
        remaining.remove(Card.parse(code))
    plain = [c for c in remaining if c.is_natural and c.rank.value not in ("A",)]
    return [c.code for c in plain[:n]]


def action(obj: dict[str, Any] | str) -> Any:
    """Parse an action given as a dict or JSON text."""
    if isinstance(obj, str):
        obj = json.loads(obj)
    return action_from_json(obj)[0]


def act(state: State, obj: dict[str, Any] | str) -> State:
    """Apply an action (it must be legal) and return the state."""
    state.apply(action(obj))
    return state


def illegal(state: State, obj: dict[str, Any] | str, code: str | None = None) -> IllegalActionError:
    """Assert the action is illegal, with `code` if given, and that nothing changed."""
    before = position_to_json(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action(obj))
    assert position_to_json(state) == before
    if code is not None:
        assert info.value.code == code, info.value.message
    return info.value


def legal(state: State, obj: dict[str, Any] | str) -> bool:
    """Whether the action is legal (without applying it)."""
    return state.check(action(obj)) is None
