"""What one seat may know: a per-seat view, and the engine's parts and answers on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from canasta.rules.actions import Action, action_to_json
from canasta.rules.cards import Card, sorted_cards
from canasta.rules.deal import active_order
from canasta.rules.errors import IllegalActionError
from canasta.rules.legal import legal_actions
from canasta.rules.mover import Mover, next_seats
from canasta.rules.parts import Board, Turn, board_to_json, turn_to_json
from canasta.rules.public import PublicQuestions
from canasta.rules.refusal import Code
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import DealResult

if TYPE_CHECKING:
    from canasta.rules.state import State


@dataclass(frozen=True)
class SeatView(PublicQuestions):
    """Everything one seat may know: its own hand, public cards and counts, and nothing else.

    `board` and `now` are the state's public table and turn in progress (copies, which nothing
    changes). `board.known` lists, per seat, the cards that seat took with the pile and still
    holds (everyone saw them). `board.pile` holds the whole discard pile, since every card in it
    was seen face up (a bot may remember them); `to_json`, what a table shows, follows the rule
    set's `pile_review`.
    """

    rules: RuleSet
    seat: int | None
    board: Board
    now: Turn
    to_move: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    result: DealResult | None
    legal: tuple[Action, ...]

    @property
    def team(self) -> int | None:
        return None if self.seat is None else self.rules.team_of(self.seat)

    @property
    def visible_pile(self) -> tuple[Card, ...]:
        """The pile as the table shows it: the top card, or the whole pile when the rule set's
        `pile_review` is `own_turn` and it is this seat's turn (RULES.md A41)."""
        pile = self.board.pile
        if self.rules.pile_review == "own_turn" and self.seat == self.now.seat:
            return tuple(pile)
        return tuple(pile[-1:])

    @property
    def minimums(self) -> tuple[int, ...]:
        return tuple(self.rules.minimum_for(s) for s in self.board.scores)

    @property
    def order(self) -> tuple[int, ...]:
        """The seats that play this deal, in turn order."""
        return active_order(self.rules.players, self.board.sitting_out)

    def mover(self) -> Mover:
        """What this seat knows as the seat to move (`canasta.rules.mover`): the engine's
        validator of its own actions. Only the seat to move has one."""
        if self.seat is None or self.seat != self.to_move:
            raise IllegalActionError.of(Code.NOT_YOUR_TURN, "only the seat to move can act")
        order, hand, sizes = self.order, list(self.hand), self.hand_sizes
        return Mover(
            self.rules,
            order,
            next_seats(order),
            self.board,
            self.now,
            self.seat,
            hand,
            sizes,
            self.stock_size,
            self.rules.team_of(self.now.seat),
        )

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (what a client of this seat, or a spectator, receives): the board
        and the turn in a position's fields, with the pile as the table shows it (`pile_size`
        counts it whole) and each meld's rank, and what the seat knows of the cards."""
        return {
            "seat": self.seat,
            "variant": self.rules.variant,
            "players": self.rules.players,
            "minimums": list(self.minimums),
            **board_to_json(self.board, self.visible_pile, ranked=True),
            "pile_size": len(self.board.pile),
            **turn_to_json(self.now),
            "to_move": self.to_move,
            "hand": [c.code for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "result": self.result.to_json() if self.result else None,
            "legal": [action_to_json(a) for a in self.legal],
        }


def seat_view(state: State, seat: int | None) -> SeatView:
    """The view of `seat` (None: a spectator, who sees no hand): the board and the turn whole,
    of the private cards only the seat's own hand and the sizes of the rest."""
    board, cards = state.board.copy(), state.cards
    board.known = [sorted_cards(k) for k in board.known]
    hand = tuple(sorted_cards(cards.hands[seat])) if seat is not None else ()
    legal = tuple(legal_actions(state)) if seat is not None and seat == state.to_move else ()
    return SeatView(
        rules=state.rules,
        seat=seat,
        board=board,
        now=state.now.copy(),
        to_move=state.to_move,
        hand=hand,
        hand_sizes=tuple(map(len, cards.hands)),
        stock_size=len(cards.stock),
        result=state.result,
        legal=legal,
    )
