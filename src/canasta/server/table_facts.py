"""The public facts of a position that the browser shows but may not work out for itself (the
client holds no rule of the game): the seats' teams, whom the pile is frozen for and what
blocks it, which melds are canastas and of which kind, the canastas each side still needs to
go out, the opening minimums, the points each side has on the table so far (cards melded and
canasta bonuses), the card that froze the pile, and the points of each rank. Sent in every `state` message and
with every step of a replay. `go_out_possible` is a seat's own: whether asking partner is worth
offering."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from canasta.bots.melding import may_go_out_this_turn
from canasta.bots.table import Table
from canasta.rules.actions import Ask
from canasta.rules.cards import Card
from canasta.rules.melds import canasta_bonus, canasta_count, is_canasta, is_natural_canasta
from canasta.rules.state import State
from canasta.rules.view import SeatView

# One card of each rank a hand can hold, for the points of its rank.
RANK_CARDS = ("JK", "2S", "AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S")


def canasta_kind(cards: Sequence[Card]) -> str:
    """`natural`, `mixed` or `wild` (a canasta of wild cards only)."""
    if is_natural_canasta(cards):
        return "natural"
    return "wild" if all(c.is_wild for c in cards) else "mixed"


def _freezer(state: State) -> str | None:
    """The card that froze the pile (the latest wild card or black three in it), if it is frozen."""
    if not state.pile_frozen:
        return None
    return next((c.code for c in reversed(state.pile) if c.is_wild or c.is_three), None)


def table_facts(state: State) -> dict[str, Any]:
    rules = state.rules
    teams = range(rules.teams)
    blocked = state.pile_block(state.turn) if state.pile else None
    return {
        "teams": [rules.team_of(seat) for seat in range(rules.players)],
        "frozen_for": [state.frozen_for(team) for team in teams],
        "pile_block": None if blocked is None else blocked.case or "other",
        "canastas": [
            {
                rank.value: canasta_kind(cards)
                for rank, cards in state.melds[team].items()
                if is_canasta(cards)
            }
            for team in teams
        ],
        "canastas_needed": [
            max(0, rules.go_out_min_canastas - canasta_count(state.melds[team])) for team in teams
        ],
        "minimums": [state.minimum(team) for team in teams],
        "melded_points": [
            sum(
                sum(c.points for c in cards) + (canasta_bonus(rules, rank, cards) if is_canasta(cards) else 0)
                for rank, cards in state.melds[team].items()
            )
            for team in teams
        ],
        "freezer": _freezer(state),
        "points": {Card.parse(code).rank.value: Card.parse(code).points for code in RANK_CARDS},
    }


def go_out_possible(view: SeatView) -> bool | None:
    """For a seat that may ask its partner now, whether going out this turn may be possible
    (the table offers the ask only then); None when it may not ask."""
    if not any(isinstance(a, Ask) for a in view.legal):
        return None
    return may_go_out_this_turn(Table(view.mover()))
