"""What one seat may know: a per-seat view, and the engine's parts and answers on it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from canasta.rules.actions import Action
from canasta.rules.cards import Card, Rank, sorted_cards
from canasta.rules.deal import active_order
from canasta.rules.errors import IllegalActionError
from canasta.rules.legal import legal_actions
from canasta.rules.mover import Mover, next_seats
from canasta.rules.parts import Board, DrawSource, Permission, Phase, Turn
from canasta.rules.public import PublicQuestions
from canasta.rules.refusal import Code
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import DealResult

if TYPE_CHECKING:
    from canasta.rules.state import State


@dataclass(frozen=True)
class SeatView(PublicQuestions):
    """Everything one seat may know: its own hand, public cards and counts, and nothing else.

    `known` lists, per seat, the cards that seat took with the pile and still holds (everyone saw
    them). `pile` holds the whole discard pile, since every card in it was seen face up (a bot
    may remember them); `to_json`, what a table shows, follows the rule set's `pile_review`.
    """

    rules: RuleSet
    seat: int | None
    scores: tuple[int, ...]
    dealer: int
    sitting_out: int | None
    turn: int
    to_move: int
    phase: Phase
    drew: DrawSource | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[Card, ...]
    pile_frozen: bool
    melds: tuple[Mapping[Rank, tuple[Card, ...]], ...]
    threes: tuple[tuple[Card, ...], ...]
    seat_melded: tuple[bool, ...]
    asked: tuple[bool, ...]
    opened: tuple[bool, ...]
    known: tuple[tuple[Card, ...], ...]
    permission: Permission | None
    turn_melded: bool
    concealed_ok: bool
    turn_canasta: bool
    turn_started: frozenset[Rank]
    turn_layoff: bool
    must_meld_out: bool
    result: DealResult | None
    legal: tuple[Action, ...]
    #: The view's board and turn as a state's parts, made at the first read (a field, so that the
    #: compiled engine keeps them too; not part of the view's value).
    _parts: list[tuple[Board, Turn]] = field(
        default_factory=list, init=False, repr=False, compare=False, hash=False
    )

    @property
    def team(self) -> int | None:
        return None if self.seat is None else self.rules.team_of(self.seat)

    @property
    def visible_pile(self) -> tuple[Card, ...]:
        """The pile as the table shows it: the top card, or the whole pile when the rule set's
        `pile_review` is `own_turn` and it is this seat's turn (RULES.md A41)."""
        if self.rules.pile_review == "own_turn" and self.seat == self.turn:
            return self.pile
        return self.pile[-1:]

    @property
    def minimums(self) -> tuple[int, ...]:
        return tuple(self.rules.minimum_for(s) for s in self.scores)

    # -- the view as the engine's parts, and the engine's answers on them ----------------------

    @property
    def board(self) -> Board:
        """The public table, as a state's part (made once per view; the engine changes none of
        a view's parts)."""
        return self._made()[0]

    @property
    def now(self) -> Turn:
        """The turn in progress, as a state's part (made once per view)."""
        return self._made()[1]

    def _made(self) -> tuple[Board, Turn]:
        parts = self._parts
        if not parts:
            parts.append((board_of(self), turn_of(self)))
        return parts[0]

    @property
    def order(self) -> tuple[int, ...]:
        """The seats that play this deal, in turn order."""
        return active_order(self.rules.players, self.sitting_out)

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
            self.rules.team_of(self.turn),
        )

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (what a client of this seat, or a spectator, receives)."""
        from canasta.rules.actions import action_to_json

        return {
            "seat": self.seat,
            "variant": self.rules.variant,
            "players": self.rules.players,
            "scores": list(self.scores),
            "minimums": list(self.minimums),
            "dealer": self.dealer,
            "sitting_out": self.sitting_out,
            "turn": self.turn,
            "to_move": self.to_move,
            "phase": self.phase,
            "drew": self.drew,
            "hand": [c.code for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": [c.code for c in self.visible_pile],
            "pile_size": len(self.pile),
            "pile_frozen": self.pile_frozen,
            "melds": [
                [{"rank": r.value, "cards": [c.code for c in cs]} for r, cs in m.items()] for m in self.melds
            ],
            "red_threes": [[c.code for c in t] for t in self.threes],
            "seat_melded": list(self.seat_melded),
            "opened": list(self.opened),
            "known": [[c.code for c in k] for k in self.known],
            "permission": self.permission,
            "result": self.result.to_json() if self.result else None,
            "legal": [action_to_json(a) for a in self.legal],
        }


def seat_view(state: State, seat: int | None) -> SeatView:
    """The view of `seat` (None: a spectator, who sees no hand): the board and the turn whole,
    of the private cards only the seat's own hand and the sizes of the rest."""
    board, now, cards = state.board, state.now, state.cards
    hand = tuple(sorted_cards(cards.hands[seat])) if seat is not None else ()
    legal = tuple(legal_actions(state)) if seat is not None and seat == state.to_move else ()
    return SeatView(
        rules=state.rules,
        seat=seat,
        scores=tuple(board.scores),
        dealer=board.dealer,
        sitting_out=board.sitting_out,
        pile=tuple(board.pile),
        pile_frozen=board.pile_frozen,
        melds=tuple({r: tuple(cs) for r, cs in m.items()} for m in board.melds),
        threes=tuple(tuple(t) for t in board.threes),
        seat_melded=tuple(board.seat_melded),
        asked=tuple(board.asked),
        opened=tuple(board.opened),
        known=tuple(tuple(sorted_cards(k)) for k in board.known),
        turn=now.seat,
        to_move=state.to_move,
        phase=now.phase,
        drew=now.drew,
        permission=now.permission,
        turn_melded=now.melded,
        concealed_ok=now.concealed_ok,
        turn_canasta=now.canasta,
        turn_started=frozenset(now.started),
        turn_layoff=now.layoff,
        must_meld_out=now.must_meld_out,
        hand=hand,
        hand_sizes=tuple(map(len, cards.hands)),
        stock_size=len(cards.stock),
        result=state.result,
        legal=legal,
    )


def board_of(view: SeatView) -> Board:
    """The public table a view shows, as a state's part."""
    b = Board.blank(list(view.scores), view.dealer, view.sitting_out, view.rules.players, view.rules.teams)
    b.pile = list(view.pile)
    b.pile_frozen = view.pile_frozen
    b.melds = [{r: list(cs) for r, cs in m.items()} for m in view.melds]
    b.threes = [list(t) for t in view.threes]
    b.seat_melded = list(view.seat_melded)
    b.asked = list(view.asked)
    b.opened = list(view.opened)
    b.known = [list(k) for k in view.known]
    return b


def turn_of(view: SeatView) -> Turn:
    """The turn in progress a view shows, as a state's part."""
    t = Turn.begin(view.turn, view.concealed_ok)
    t.phase = view.phase
    t.drew = view.drew
    t.permission = view.permission
    t.melded = view.turn_melded
    t.canasta = view.turn_canasta
    t.started = set(view.turn_started)
    t.layoff = view.turn_layoff
    t.must_meld_out = view.must_meld_out
    return t
