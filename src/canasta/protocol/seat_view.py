"""A seat's whole view over the wire: the `memory` of a seat's `state` message, and the
`SeatView` read back from a state message's `view` and `memory`.

`SeatView.to_json` is what the table shows: the board and the turn in a position's fields, but
the pile as the rule set lets it be seen (maybe its top card alone). A program playing the seat
needs the view that an in-process bot gets, `state.view(seat)`: `memory` adds every card of the
pile (each was seen face up), so that `read_seat_view` rebuilds that view exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from canasta.rules.actions import action_from_json
from canasta.rules.cards import Card
from canasta.rules.deal import active_order
from canasta.rules.parts import JsonReader, board_from_json, turn_from_json
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import PARTS, DealResult, ScoreBreakdown
from canasta.rules.view import SeatView


class ViewError(ValueError):
    """A state message whose view does not read as a seat's view."""


def seat_memory(view: SeatView) -> dict[str, Any]:
    """What a seat knows beyond `view.to_json()`: the whole pile, bottom first."""
    return {"pile": [c.code for c in view.board.pile]}


def read_seat_view(view: Mapping[str, Any], memory: Mapping[str, Any], rules: RuleSet) -> SeatView:
    """The `SeatView` of a seat's `state` message (its `view` and `memory`) at a table of `rules`.

    Raises ViewError when a field is missing or malformed.
    """
    try:
        r = JsonReader({**view, "pile": memory["pile"]}, "view")
        board = board_from_json(r, rules.players, rules.teams)
        return SeatView(
            rules=rules,
            seat=int(view["seat"]),
            board=board,
            now=turn_from_json(r, board, active_order(rules.players, board.sitting_out)),
            to_move=int(view["to_move"]),
            hand=_cards(view["hand"]),
            hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
            stock_size=int(view["stock_size"]),
            result=None if view["result"] is None else _result(view["result"]),
            legal=tuple(action_from_json(a)[0] for a in view["legal"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ViewError(f"the seat's view cannot be read: {type(exc).__name__}: {exc}") from None


def _cards(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


def _result(obj: Mapping[str, Any]) -> DealResult:
    scores = tuple(ScoreBreakdown(**{part: int(s[part]) for part in PARTS}) for s in obj["scores"])
    return DealResult(str(obj["reason"]), obj["went_out"], bool(obj["concealed"]), scores)
