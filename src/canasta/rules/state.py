"""The state of one deal, in three parts, and the application of actions.

Every action is validated by the seat to move's `Mover` (`canasta.rules.mover`), the one
validator, and then applied here; the deal procedure is `canasta.rules.deal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from canasta.rules.actions import (
    Action,
    Answer,
    Ask,
    Discard,
    Draw,
    Meld,
    Pickup,
    describe,
)
from canasta.rules.cards import Card, Rank, take_out
from canasta.rules.deal import active_order, bonus_threes, deal_into, seat_teams
from canasta.rules.errors import IllegalActionError
from canasta.rules.hand import MELD_CLASS, PICKUP_CLASS, HandKinds
from canasta.rules.judge import facts_with, judged_alone
from canasta.rules.melds import Melds
from canasta.rules.mover import Mover, Step, next_seats, partner
from canasta.rules.parts import DRAW, ENDED, PLAY, Board, Cards, DrawSource, Permission, Phase, Turn
from canasta.rules.public import PublicQuestions
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import DealResult, score_deal

if TYPE_CHECKING:
    from canasta.rules.view import SeatView

#: The action classes as constants (see `canasta.rules.hand.MELD_CLASS`).
_DRAW: Final = Draw
_DISCARD: Final = Discard
_ASK: Final = Ask
_ANSWER: Final = Answer

__all__ = ["DRAW", "ENDED", "PLAY", "Board", "Cards", "DrawSource", "Permission", "Phase", "State", "Turn"]


class State(PublicQuestions):
    """One deal of a game in progress. Mutated in place by `apply`; copy with `clone`.

    The state is held in three parts (`canasta.rules.parts`): `board`, the public table; `now`,
    the turn in progress; `cards`, the hands and the stock. The flat names (`pile`, `hands`,
    `phase`, ...) read those parts; a position is changed through the parts.
    """

    __slots__ = ("_kinds", "_next", "_teams", "board", "cards", "now", "order", "result", "rules")

    rules: RuleSet
    order: tuple[int, ...]
    _next: dict[int, int]
    _teams: tuple[int, ...]  # each seat's team
    board: Board
    now: Turn
    cards: Cards
    result: DealResult | None
    _kinds: list[HandKinds | None]  # each hand by kinds, kept by the transitions (`_kept`)

    # -- construction -------------------------------------------------------------------------

    @staticmethod
    def blank(rules: RuleSet, scores: Sequence[int], dealer: int, sitting_out: int | None = None) -> State:
        """An empty table (no cards anywhere) for the given rules; used by the deal and positions."""
        s = State()
        s.rules = rules
        s.order = active_order(rules.players, sitting_out)
        s._next = next_seats(s.order)
        s._teams = seat_teams(rules)
        s.board = Board.blank(list(scores), dealer, sitting_out, rules.players, rules.teams)
        s.now = Turn.begin(s._next.get(dealer, s.order[0]), True)
        s.cards = Cards([[] for _ in range(rules.players)], [])
        s._kinds = [None] * rules.players
        s.result = None
        return s

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        deck: Sequence[Card],
        dealer: int,
        scores: Sequence[int] | None = None,
        sitting_out: int | None = None,
    ) -> State:
        """Deal from an explicit deck (index 0 is the top card): see `canasta.rules.deal`."""
        s = cls.blank(rules, [0] * rules.teams if scores is None else scores, dealer, sitting_out)
        deal_into(s, deck)
        return s

    def clone(self) -> State:
        """An independent copy (cards are shared immutable values)."""
        return self.with_parts(self.board.copy(), self.now.copy(), self.cards.copy())

    def with_parts(self, board: Board, now: Turn, cards: Cards) -> State:
        """A state of the same deal and rules made of the given parts."""
        s = State()
        s.rules = self.rules
        s.order = self.order
        s._next = self._next
        s._teams = self._teams
        s.board = board
        s.now = now
        s.cards = cards
        s._kinds = [None] * len(cards.hands)
        s.result = self.result
        return s

    # -- the parts under their flat names -----------------------------------------------------

    @property
    def scores(self) -> list[int]:
        return self.board.scores

    @property
    def dealer(self) -> int:
        return self.board.dealer

    @property
    def sitting_out(self) -> int | None:
        return self.board.sitting_out

    @property
    def pile(self) -> list[Card]:
        return self.board.pile

    @property
    def pile_frozen(self) -> bool:
        return self.board.pile_frozen

    @property
    def melds(self) -> list[Melds]:
        return self.board.melds

    @property
    def threes(self) -> list[list[Card]]:
        return self.board.threes

    @property
    def seat_melded(self) -> list[bool]:
        return self.board.seat_melded

    @property
    def asked(self) -> list[bool]:
        return self.board.asked

    @property
    def opened(self) -> list[bool]:
        return self.board.opened

    @property
    def known(self) -> list[list[Card]]:
        return self.board.known

    @property
    def turn(self) -> int:
        return self.now.seat

    @property
    def phase(self) -> Phase:
        return self.now.phase

    @property
    def drew(self) -> DrawSource | None:
        return self.now.drew

    @property
    def permission(self) -> Permission | None:
        return self.now.permission

    @property
    def concealed_ok(self) -> bool:
        return self.now.concealed_ok

    @property
    def turn_canasta(self) -> bool:
        return self.now.canasta

    @property
    def turn_started(self) -> set[Rank]:
        return self.now.started

    @property
    def turn_layoff(self) -> bool:
        return self.now.layoff

    @property
    def turn_melded(self) -> bool:
        return self.now.melded

    @property
    def must_meld_out(self) -> bool:
        return self.now.must_meld_out

    @property
    def hands(self) -> list[list[Card]]:
        return self.cards.hands

    @property
    def stock(self) -> list[Card]:
        return self.cards.stock

    # -- queries ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.now.phase is ENDED

    @property
    def to_move(self) -> int:
        """The seat whose decision it is (the partner while an ask awaits its answer)."""
        if self.now.permission == "pending":
            return self.partner(self.now.seat)
        return self.now.seat

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to move (see `canasta.rules.legal`)."""
        from canasta.rules.legal import legal_actions

        return legal_actions(self.mover())

    def view(self, seat: int | None) -> SeatView:
        """What `seat` may know (None: a spectator)."""
        from canasta.rules.view import seat_view

        return seat_view(self, seat)

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def partner(self, seat: int) -> int:
        """The teammate who answers this seat's ask: the next teammate in turn order."""
        return partner(self.rules, self._next, seat)

    def team_of(self, seat: int) -> int:
        return self.rules.team_of(seat)

    @property
    def stock_size(self) -> int:
        return len(self.cards.stock)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(map(len, self.cards.hands))

    def mover(self) -> Mover:
        """The seat to move's knowledge, reading this state's parts (`canasta.rules.mover`)."""
        cards = self.cards
        now = self.now
        seat = partner(self.rules, self._next, now.seat) if now.permission == "pending" else now.seat
        hands = cards.hands
        stock, team = len(cards.stock), self._teams[now.seat]
        kinds, kept = self._kept(seat), self._kinds
        return Mover(
            self.rules,
            self.order,
            self._next,
            self.board,
            now,
            seat,
            hands[seat],
            None,  # the hands' sizes, counted from `hands` if asked for
            stock,
            team,
            kinds,
            kept,
            hands,
        )

    def _kept(self, seat: int) -> HandKinds | None:
        """The seat's hand by kinds as kept (None when none is, or the hand was changed by
        anything but this state's transitions)."""
        kinds = self._kinds[seat]
        hand = self.cards.hands[seat]
        if kinds is None or kinds.held is not hand or kinds.size != len(hand):
            return None
        return kinds

    # -- applying actions ---------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Validate `action` for `seat` (default: the seat to move) and apply it.

        Raises IllegalActionError, changing nothing, when the rules forbid it.
        """
        try:
            step = self.mover().validate(action, seat)
        except IllegalActionError as exc:
            raise exc.reworded(f"{describe(action)}: {exc.message}") from None
        self._play(step)

    def apply_checked(self, mover: Mover, action: Action) -> None:
        """Apply `action` as `mover`, made by `mover()` from this very position, judges it: a meld
        or pickup that mover has already validated is not judged again (a bot's playout); refused
        with an IllegalActionError, changing nothing, like `apply`."""
        self._play(mover.step_for(action))

    def apply_listed(self, action: Action) -> None:
        """Apply an action that `legal_actions` has just listed for this very position, without
        validating it again (self-play, the search's playouts, the learning interface); an action
        from anywhere else goes through `apply`, which refuses what the rules forbid."""
        kind = type(action)  # listed: the engine's own actions, of these very classes
        if kind is MELD_CLASS or kind is PICKUP_CLASS:  # only these need the mover
            self._play(self.mover().listed_step(action))
        else:
            self._act(action)

    def _play(self, step: Step) -> None:
        """Carry out a validated step: every change a deal goes through is made here, or by
        `_act` for an action that lays no cards."""
        if step.hand_after >= 0:  # a meld or a pickup
            seat = self.now.seat
            lay(self.rules, self.board, self.now, self.cards.hands[seat], step, self._kept(seat))
            if step.hand_after == 0:
                self._end("went_out", seat)
        else:
            self._act(step.action)

    def _act(self, action: Action) -> None:
        """Carry out a validated action that lays no cards."""
        if isinstance(action, _DRAW):
            self._draw()
        elif isinstance(action, _DISCARD):
            self._discard(action.card)
        elif isinstance(action, _ASK):
            self.board.asked[self.now.seat] = True
            self.now.permission = "pending"
        elif isinstance(action, _ANSWER):
            self._answer(action.yes)
        else:
            self._end("stock_exhausted", None)  # a pass

    def _draw(self) -> None:
        stock = self.cards.stock
        now = self.now
        hand = self.cards.hands[now.seat]
        kinds = self._kept(now.seat)
        drawn = [stock.pop() for _ in range(min(self.rules.draw_count, len(stock)))]
        bonus = bonus_threes(self.rules)
        gained = 0
        while drawn:
            card = drawn.pop(0)
            if bonus[card.index]:
                if not stock and self.rules.last_card_three == "stays_in_hand":
                    hand.append(card)
                    if kinds is not None:
                        kinds.add(card)
                    now.phase, now.drew = PLAY, "stock"
                    self._end("stock_exhausted", None)
                    return
                self.board.threes[self._teams[now.seat]].append(card)
                if stock:
                    drawn.append(stock.pop())
            else:
                hand.append(card)
                if kinds is not None:
                    kinds.add(card)
                gained += 1
        now.phase, now.drew = PLAY, "stock"
        if gained == 0:
            self._end("stock_exhausted", None)

    def _discard(self, card: Card) -> None:
        board, seat = self.board, self.now.seat
        hand = self.cards.hands[seat]
        going_out = len(hand) == 1
        kinds = self._kept(seat)
        held = take_out(hand, card)
        assert held, "a discard validated or listed is in hand"
        if kinds is not None:
            kinds.remove(card)
        known = board.known[seat]
        if known:  # (the cards it took with the pile and still holds: mostly none)
            take_out(known, card)
        board.pile.append(card)
        triggers = self.rules.freeze_triggers
        if (card.is_wild and "wild" in triggers) or (card.is_black_three and "black3" in triggers):
            board.pile_frozen = True
        if going_out:
            self._end("went_out", seat)
        else:
            self._next_turn()

    def _answer(self, yes: bool) -> None:
        self.now.permission = "yes" if yes else "no"
        if self.now.phase is DRAW and not self.cards.stock and not self.mover().any_pickup():
            # a "no" can leave no way to take the pile: the hand ends (1.14)
            self._end("stock_exhausted", None)

    def _next_turn(self) -> None:
        seat = self._next[self.now.seat]
        self.now = Turn.begin(seat, not self.board.seat_melded[seat])
        self.settle()

    def settle(self) -> None:
        """End the deal when the player to draw finds the stock empty and may not go on (A48)."""
        if (
            self.now.phase is DRAW
            and not self.cards.stock
            and self.now.permission != "pending"
            and (self.rules.stock_exhaustion == "end" or not self.mover().any_pickup())
        ):
            self._end("stock_exhausted", None)

    def _end(self, reason: str, went_out: int | None) -> None:
        now = self.now
        now.phase = ENDED
        concealed = False
        if went_out is not None:
            concealed = now.concealed_ok and now.canasta
            if self.rules.concealed_forbids_final_turn_layoff and now.layoff:
                concealed = False
        self.result = score_deal(self, reason, went_out, concealed)


def lay(
    rules: RuleSet, board: Board, now: Turn, hand: list[Card], step: Step, kinds: HandKinds | None = None
) -> None:
    """Lay a validated meld or pickup of the turn's seat: cards from `hand` (and the pile) onto
    the team's melds, on the parts given (a state's, or copies of them: `mover_after`), keeping
    the hand's `kinds` if given."""
    seat, team = now.seat, rules.team_of(now.seat)
    known = board.known[seat]
    for card in step.used:
        held = take_out(hand, card)
        assert held, "the cards of a step validated or listed are in hand"
        if known:
            take_out(known, card)
        if kinds is not None:
            kinds.remove(card)
    team_melds = board.melds[team]
    for rank, cards in step.laid:
        meld = team_melds.get(rank)
        if meld is None:
            team_melds[rank] = list(cards)
            now.started.add(rank)
        else:
            if rank not in now.started:
                now.layoff = True
            meld.extend(cards)
    facts = board.judged[team]
    if facts is None:
        board.melded(team, judged_alone(rules))
    else:  # the counts judged follow the cards laid
        after, killed = facts_with(rules, facts, step.laid)
        board.melded(team, not killed)
        board.judged[team] = after
    board.seat_melded[seat] = True
    board.opened[team] = True
    now.melded = True
    now.canasta = now.canasta or step.canasta
    pickup = step.action
    if not isinstance(pickup, Pickup):
        return
    top = board.pile[-1]
    if pickup.top_only:
        board.pile.pop()
    else:
        bonus = bonus_threes(rules)
        for card in board.pile[:-1]:
            if bonus[card.index]:
                board.threes[team].append(card)
        hand.extend(step.gained)
        known.extend(step.gained)
        if kinds is not None:
            for card in step.gained:
                kinds.add(card)
        board.pile = []
        board.pile_frozen = False
    now.phase, now.drew = PLAY, "pile"
    if top.is_black_three or pickup.top_only:
        now.must_meld_out = True


def mover_after(mover: Mover, meld: Meld) -> Mover:
    """The seat to move's knowledge once it has laid `meld` (refused with an IllegalActionError
    unless legal), on copies of the mover's parts: what a bot considers without a `State`."""
    step = mover.validate(meld)
    after = mover.with_parts(mover.board.copy(), mover.now.copy(), mover.hand[:])
    lay(after.rules, after.board, after.now, after.hand, step)
    return after
