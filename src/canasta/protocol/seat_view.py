"""A seat's whole view over the wire: the `memory` of a seat's `state` message, and the
`SeatView` read back from a state message's `view` and `memory`.

`SeatView.to_json` is what the table shows: the pile as the rule set lets it be seen (maybe its
top card alone) and nothing of the turn in progress beyond the phase. A program playing the seat
needs the view that an in-process bot gets, `state.view(seat)`: `memory` adds every card of the
pile (each was seen face up) and the public facts of the turn in progress, so that
`read_seat_view` rebuilds that view exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from canasta.rules.actions import action_from_json
from canasta.rules.cards import Card, Rank
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import PARTS, DealResult, ScoreBreakdown
from canasta.rules.state import Phase
from canasta.rules.view import SeatView

TURN_FLAGS = ("turn_melded", "concealed_ok", "turn_canasta", "turn_layoff", "must_meld_out")


class ViewError(ValueError):
    """A state message whose view does not read as a seat's view."""


def seat_memory(view: SeatView) -> dict[str, Any]:
    """What a seat knows beyond `view.to_json()`: the whole pile (bottom first) and the turn's facts."""
    return {
        "pile": [c.code for c in view.pile],
        "asked": list(view.asked),
        **{flag: getattr(view, flag) for flag in TURN_FLAGS},
        "turn_started": sorted(r.value for r in view.turn_started),
    }


def read_seat_view(view: Mapping[str, Any], memory: Mapping[str, Any], rules: RuleSet) -> SeatView:
    """The `SeatView` of a seat's `state` message (its `view` and `memory`) at a table of `rules`.

    Raises ViewError when a field is missing or malformed.
    """
    try:
        return SeatView(
            rules=rules,
            seat=int(view["seat"]),
            scores=tuple(int(s) for s in view["scores"]),
            dealer=int(view["dealer"]),
            sitting_out=view["sitting_out"],
            turn=int(view["turn"]),
            to_move=int(view["to_move"]),
            phase=Phase(view["phase"]),
            drew=view["drew"],
            hand=_cards(view["hand"]),
            hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
            stock_size=int(view["stock_size"]),
            pile=_cards(memory["pile"]),
            pile_frozen=bool(view["pile_frozen"]),
            melds=tuple({Rank(m["rank"]): _cards(m["cards"]) for m in team} for team in view["melds"]),
            threes=tuple(_cards(t) for t in view["red_threes"]),
            seat_melded=tuple(bool(b) for b in view["seat_melded"]),
            asked=tuple(bool(b) for b in memory["asked"]),
            opened=tuple(bool(b) for b in view["opened"]),
            known=tuple(_cards(k) for k in view["known"]),
            permission=view["permission"],
            turn_melded=bool(memory["turn_melded"]),
            concealed_ok=bool(memory["concealed_ok"]),
            turn_canasta=bool(memory["turn_canasta"]),
            turn_started=frozenset(Rank(r) for r in memory["turn_started"]),
            turn_layoff=bool(memory["turn_layoff"]),
            must_meld_out=bool(memory["must_meld_out"]),
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
