"""Positions (`canasta-position/1`): a full deal state as JSON, both ways."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from canasta.rules.cards import Card, make_deck, sorted_cards
from canasta.rules.errors import InvalidActionError
from canasta.rules.parts import (
    ENDED,
    Cards,
    JsonReader,
    board_from_json,
    board_to_json,
    turn_from_json,
    turn_to_json,
)
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import score_deal
from canasta.rules.state import State

POSITION_FORMAT = "canasta-position/1"


def position_to_json(state: State) -> dict[str, Any]:
    """The position of a state, with this project's extra fields for an exact round trip."""
    rules = state.rules
    out: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "variant": rules.variant,
        "players": rules.players,
        "options": rules.to_options(),
        **board_to_json(state.board),
        **turn_to_json(state.now),
        **_cards_to_json(state.cards),
    }
    if state.result is not None:
        out["reason"] = state.result.reason
        out["went_out"] = state.result.went_out
        out["concealed"] = state.result.concealed
    return out


def _cards_to_json(cards: Cards) -> dict[str, Any]:
    return {
        "hands": [[c.code for c in sorted_cards(h)] for h in cards.hands],
        "stock": [c.code for c in reversed(cards.stock)],
    }


def rules_from_json(obj: Mapping[str, Any], where: str) -> RuleSet:
    """The rule set named by a record or position (`variant`, `players`, `options`)."""
    variant = obj.get("variant")
    if not isinstance(variant, str):
        raise InvalidActionError(f"{where}: missing or bad field 'variant'", "missing_field")
    players = obj.get("players", 4)
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise InvalidActionError(f"{where}: field 'options' must be an object", "bad_option")
    try:
        return RuleSet.preset(variant, players, options)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{where}: {exc.message}", exc.code) from None


def position_from_json(obj: Any, where: str = "position", rules: RuleSet | None = None) -> State:
    """Build a state from a position object; malformed input raises InvalidActionError."""
    r = JsonReader(obj, where)
    fmt = r.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise r.fail("format", f"must be {POSITION_FORMAT!r}")
    if rules is None:
        rules = rules_from_json(obj, where)
    board = board_from_json(r, rules.players, rules.teams)
    state = State.blank(rules, board.scores, board.dealer, board.sitting_out)
    state = state.with_parts(board, turn_from_json(r, board, state.order), _read_cards(r, rules.players))
    _check_card_counts(state, r)
    if state.phase == ENDED:
        reason = r.get("reason", "stock_exhausted")
        went_out = r.get("went_out", None)
        if reason not in ("went_out", "stock_exhausted"):
            raise r.fail("reason", "must be 'went_out' or 'stock_exhausted'")
        if went_out is not None and (not isinstance(went_out, int) or went_out not in state.order):
            raise r.fail("went_out", "must be a seat or null")
        state.result = score_deal(state, reason, went_out, r.flag("concealed", False))
    else:
        state.settle()
    return state


def _read_cards(r: JsonReader, players: int) -> Cards:
    hands = [r.cards(h, f"hands[{i}]") for i, h in enumerate(r.per("hands", players))]
    return Cards(hands, list(reversed(r.cards(r.get("stock"), "stock"))))


def _check_card_counts(state: State, r: JsonReader) -> None:
    deck: dict[Card, int] = {}
    for c in make_deck(state.rules.decks, state.rules.jokers):
        deck[c] = deck.get(c, 0) + 1
    seen: dict[Card, int] = {}
    groups: list[Sequence[Card]] = [*state.hands, state.stock, state.pile, *state.threes]
    groups += [m for team in state.melds for m in team.values()]
    for g in groups:
        for c in g:
            seen[c] = seen.get(c, 0) + 1
    for c, n in seen.items():
        if n > deck.get(c, 0):
            raise InvalidActionError(
                f"{r.where}: {n} copies of {c.code}, the deck holds {deck.get(c, 0)}",
                "bad_position",
            )
