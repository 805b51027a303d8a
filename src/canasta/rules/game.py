"""A game of several deals: dealer rotation, cumulative scores, the target and the winner."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.rules.actions import Action
from canasta.rules.cards import Card, make_deck
from canasta.rules.deal import FIVE_PLAYER_SIT_OUT, active_order, shuffle
from canasta.rules.errors import IllegalActionError
from canasta.rules.legal import legal_actions
from canasta.rules.refusal import Code
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import game_winner
from canasta.rules.state import State


@dataclass
class DealRecord:
    """How one deal started (an explicit deck, or a position) and the actions played in it."""

    dealer: int
    deck: list[Card] | None = None
    position: dict[str, Any] | None = None
    sitting_out: int | None = None
    actions: list[tuple[int, Action]] = field(default_factory=list)


def default_dealer(rules: RuleSet, index: int) -> tuple[int, int | None]:
    """Dealer and sitting-out seat of the deal with this index when nothing else is given.

    The dealer passes to the left each deal; the first deal's dealer is the last seat, so seat 0
    plays first. With 5 players the trio's seats 4, 0, 2 sit out in turn (see the README).
    """
    if rules.players == 5:
        out = FIVE_PLAYER_SIT_OUT[index % 3]
        order = active_order(5, out)
        return order[(index + 3) % 4], out
    return (index + rules.players - 1) % rules.players, None


class Game:
    """A game in progress: the current deal's `state`, cumulative `totals` and the record."""

    def __init__(self, rules: RuleSet, seed: int | None = None, rng: random.Random | None = None):
        self.rules = rules
        self.rng = rng if rng is not None else random.Random(seed)
        self.totals = [0] * rules.teams
        self.deals: list[DealRecord] = []
        self.results: list[Any] = []
        self.state: State | None = None

    @classmethod
    def new(
        cls,
        variant: str = "classic",
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> Game:
        """A new game with its first deal dealt from a deck shuffled by `seed`."""
        game = cls(RuleSet.preset(variant, players, options), seed=seed)
        game.next_deal()
        return game

    # -- deals ----------------------------------------------------------------------------------

    def next_deal(
        self,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        sitting_out: int | None = None,
    ) -> State:
        """Deal the next deal (from `deck`, or a freshly shuffled one)."""
        if self.state is not None and not self.state.is_over:
            raise IllegalActionError.of(Code.DEAL_NOT_OVER, "the current deal is not over")
        if self.is_over:
            raise IllegalActionError.of(Code.GAME_OVER, "the game is over")
        index = len(self.deals)
        default, default_out = default_dealer(self.rules, index)
        dealer = default if dealer is None else dealer
        sitting_out = default_out if sitting_out is None else sitting_out
        if deck is None:
            cards = make_deck(self.rules.decks, self.rules.jokers)
            shuffle(self.rng, cards)
        else:
            cards = list(deck)
        self.state = State.deal(self.rules, cards, dealer, self.totals, sitting_out)
        self.deals.append(DealRecord(dealer, cards, sitting_out=sitting_out))
        self._after_action()
        return self.state

    def start_from(self, state: State, position: dict[str, Any]) -> None:
        """Continue the game from a position (its scores become the totals)."""
        self.state = state
        self.totals = list(state.scores)
        self.deals.append(DealRecord(state.dealer, position=position))
        self._after_action()

    # -- play -------------------------------------------------------------------------------------

    @property
    def current(self) -> State:
        if self.state is None:
            raise IllegalActionError.of(Code.NO_DEAL, "no deal has been dealt")
        return self.state

    def legal_actions(self) -> list[Action]:
        return legal_actions(self.current)

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply an action of the seat to move (checked against `seat` when given)."""
        state = self.current
        mover = state.to_move
        state.apply(action, seat)
        self.deals[-1].actions.append((mover, action))
        self._after_action()

    def _after_action(self) -> None:
        state = self.current
        if state.is_over and len(self.results) < len(self.deals) and state.result is not None:
            self.results.append(state.result)
            for team, part in enumerate(state.result.scores):
                self.totals[team] += part.total

    @property
    def winner(self) -> int | None:
        if self.state is None or not self.state.is_over:
            return None
        return game_winner(self.rules, self.totals)

    @property
    def is_over(self) -> bool:
        return self.winner is not None
