"""What the seat to move knows, and the one validator of its actions.

A `Mover` is the public table, the turn in progress and the hand of the seat to move, with the
sizes of the other hands and of the stock: everything the legality of that seat's actions
depends on. It only judges: `judged` gives an action's `Step`, a value that `State` applies
(every transition of a deal is `State`'s), or its `Refusal`, which `validate` raises. A seat's
`SeatView` gives the same `Mover`, so a bot checks its own moves on its view and gets the
engine's answer. Melds and pickups are judged by counts (`canasta.rules.judge`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Meld, Pass, Pickup
from canasta.rules.cards import ALL_CARDS, Card, Rank
from canasta.rules.deal import bonus_threes, seat_teams
from canasta.rules.errors import IllegalActionError, InvalidActionError
from canasta.rules.groups import not_in_hand, read_groups, spec_of
from canasta.rules.hand import MELD_CLASS, PICKUP_CLASS, HandKinds
from canasta.rules.irreducible import list_pickups
from canasta.rules.judge import Judge, canasta_done, take_error, touched_of, with_top
from canasta.rules.parts import DRAW, ENDED, PLAY, Board, Permission, Phase, Turn
from canasta.rules.public import BLACK3_GO_OUT, EMPTY_PILE, PublicQuestions
from canasta.rules.refusal import Code, Refusal
from canasta.rules.ruleset import RuleSet


class Step:
    """A validated action, ready for `State` to apply: the action, and for a meld or a pickup what
    judging it found (the cards it takes from the hand, the cards it lays by rank, the cards taking
    the pile adds to the hand, the hand's size after it, whether it completes a canasta in a meld
    begun this turn; for the other actions `hand_after` is -1). A value: making it changes nothing."""

    __slots__ = ("action", "canasta", "gained", "hand_after", "laid", "used")

    def __init__(
        self,
        action: Action,
        laid: Sequence[tuple[Rank, Sequence[Card]]] = (),
        used: Sequence[Card] = (),
        hand_after: int = -1,
        canasta: bool = False,
        gained: Sequence[Card] = (),
    ) -> None:
        self.action = action
        self.laid = laid
        self.used = used
        self.hand_after = hand_after
        self.canasta = canasta
        self.gained = gained


class Mover(PublicQuestions):
    """The seat to move's knowledge of the deal (see the module docstring).

    `hand` is the hand of the seat to move (the partner's while an ask awaits its answer); a
    mover made from a `State` reads that state's parts and changes none of them.
    """

    __slots__ = (
        "_hands",
        "_kept",
        "_kinds",
        "_next",
        "_sizes",
        "_steps",
        "board",
        "hand",
        "now",
        "order",
        "rules",
        "seat",
        "stock_size",
        "team",
    )

    def __init__(
        self,
        rules: RuleSet,
        order: tuple[int, ...],
        next_: dict[int, int],
        board: Board,
        now: Turn,
        seat: int,
        hand: list[Card],
        hand_sizes: tuple[int, ...] | None,
        stock_size: int,
        team: int,
        kinds: HandKinds | None = None,
        kept: list[HandKinds | None] | None = None,
        hands: list[list[Card]] | None = None,
    ) -> None:
        """`hand_sizes` None: the sizes of `hands` (every hand), counted when first asked for."""
        self.rules = rules
        self.order = order
        self._next = next_
        self.board = board
        self.now = now
        self.seat = seat  # the turn's seat, or its partner while an ask awaits the answer
        self.hand = hand
        self._sizes = hand_sizes
        self._hands = hands
        self.stock_size = stock_size
        self.team = team  # the turn's team (the partner's too)
        self._steps: list[Step] = []  # the melds and pickups validated so far, to apply unjudged
        self._kinds = kinds  # the hand by kinds, made when first asked for (`kinds`)
        self._kept = kept  # where a state keeps each hand's kinds (None: nowhere)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (counted from the hands when first asked for)."""
        sizes = self._sizes
        if sizes is None:
            assert self._hands is not None, "a mover has its hands' sizes or the hands"
            sizes = self._sizes = tuple([len(h) for h in self._hands])
        return sizes

    def kinds(self) -> HandKinds:
        """The hand by kinds: the state's, which its transitions keep, else made once."""
        kinds = self._kinds
        if kinds is None:
            kinds = self._kinds = HandKinds(self.hand)
            if self._kept is not None:
                kinds.held = self.hand
                self._kept[self.seat] = kinds
        return kinds

    def keeps_kinds(self) -> bool:
        """Whether the hand by kinds is kept from one listing to the next (worth making whole)."""
        return self._kinds is not None or self._kept is not None

    # -- the table as the mover sees it --------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def mover(self) -> Mover:
        return self

    def pile_error(self, top_only: bool = False) -> Refusal | None:
        """Why the mover may not take the pile at all, whatever cards it uses."""
        rules = self.rules
        pile = self.board.pile
        if not pile:
            return EMPTY_PILE
        if top_only:
            if not rules.top_card_only_go_out:
                return Refusal(Code.BAD_PICKUP, "buying only the top card is not allowed", "top_only_off")
            if len(pile) == 1:
                return Refusal(Code.BAD_PICKUP, "a one-card pile is bought whole", "one_card")
        return self.pile_block(self.now.seat, self.black3_exception())

    def black3_exception(self) -> bool:
        """Whether a black three on top may be taken to go out at once (online, R17)."""
        rules = self.rules
        top = self.board.pile[-1]
        return top.is_black_three and rules.black3_pickup_to_go_out and "black3_top" in rules.block_rules

    def pile_gain(self, top_only: bool = False) -> list[Card]:
        """The cards taking the pile adds to the hand: the rest of the pile but its bonus threes,
        which are laid out (none after a top-card-only purchase)."""
        if top_only:
            return []
        bonus = bonus_threes(self.rules)
        return [c for c in self.board.pile[:-1] if not bonus[c.index]]

    def can_meld_out(
        self,
        team: int,
        used: Sequence[Card],
        steps: Sequence[tuple[Rank, Sequence[Card]]],
        gained: Sequence[Card] = (),
    ) -> bool:
        """Whether, once these cards are laid, every card left and gained can be melded at once."""
        from canasta.rules.solver import melding_out

        melds = dict(self.board.melds[team])
        for rank, cards in steps:
            melds[rank] = [*melds.get(rank, ()), *cards]
        kept = _remove_cards(self.hand, used) + list(gained)
        return melding_out(self, team, kept, melds) is not None

    # -- validation ------------------------------------------------------------------------------

    def validate(self, action: Action, seat: int | None = None) -> Step:
        """Refuse `action` with an IllegalActionError, or return the step `State` applies."""
        judged = self.judged(action, seat)
        if isinstance(judged, Refusal):
            raise IllegalActionError(judged)
        return judged

    def judged(self, action: Action, seat: int | None = None) -> Step | Refusal:
        """The step `State` applies, or the refusal of `action` as a value (`validate` raises
        it); cards named but not held, or malformed, still raise."""
        now = self.now
        if now.phase is ENDED:
            return _DEAL_OVER
        if seat is not None and seat != self.seat:
            return self._seat_refusal(action, seat)
        if now.permission == "pending" and not isinstance(action, Answer):
            return _AWAITING_ANSWER
        if isinstance(action, (Meld, Pickup)):  # a tuple: compiled, `Meld | Pickup` is made per call
            step = self._meld_step(action) if isinstance(action, Meld) else self._pickup_step(action)
            if isinstance(step, Step):
                self._steps.append(step)
            return step
        refusal: Refusal | None
        if isinstance(action, Discard):
            refusal = self._discard_refusal(action.card)
        elif isinstance(action, Draw):
            refusal = self._phase_refusal(DRAW)
            if refusal is None and not self.stock_size:
                refusal = _STOCK_EMPTY
        elif isinstance(action, Ask):
            refusal = self._ask_refusal()
        elif isinstance(action, Answer):
            refusal = _NO_QUESTION if now.permission != "pending" else None
        elif isinstance(action, Pass):
            refusal = self._pass_refusal()
        else:
            raise InvalidActionError(f"not an action: {action!r}")
        return Step(action) if refusal is None else refusal

    def step_for(self, action: Action) -> Step:
        """The step of `action`: the one found when this mover validated that very action object
        (a bot that checked its meld before choosing it), else `validate`'s."""
        for step in self._steps:
            if step.action is action:
                return step
        return self.validate(action)

    def _seat_refusal(self, action: Action, seat: int) -> Refusal:
        """Why `seat`, not the one to move, may not act: an answer nobody asked for, the asker
        acting before partner's answer, or simply another seat's move."""
        now = self.now
        if isinstance(action, Answer):
            if now.permission != "pending":
                return _NO_QUESTION
        elif now.permission == "pending" and seat == now.seat:
            return _AWAITING_ANSWER
        text = f"it is seat {self.seat}'s move, not seat {seat}'s"
        return Refusal(Code.NOT_YOUR_TURN, text, None, {"to_move": self.seat})

    def _phase_refusal(self, phase: Phase) -> Refusal | None:
        if self.now.phase is phase:
            return None
        return _DRAWN if phase is DRAW else _DRAW_FIRST

    def _discard_refusal(self, card: Card) -> Refusal | None:
        refusal = self._phase_refusal(PLAY)
        if refusal is not None:
            return refusal
        hand = self.hand
        if card not in hand:
            return not_in_hand(card, f"{card.code} is not in your hand")
        if self.now.must_meld_out:
            return _NO_DISCARD_AFTER_PICKUP
        going_out = len(hand) == 1
        if going_out:
            why = self.go_out_refusal(self.team)
            if why:
                return why
        return self.discard_errors(hand, going_out).get(card)

    def _pass_refusal(self) -> Refusal | None:
        refusal = self._phase_refusal(DRAW)
        if refusal is not None:
            return refusal
        if self.stock_size:
            return Refusal(Code.CANNOT_PASS, "pass only when the stock is exhausted; draw instead")
        if self.rules.stock_exhaustion == "end":
            return Refusal(Code.DEAL_OVER, "the deal has ended")
        if self.must_take_pile() and self.any_pickup():
            return _MUST_TAKE
        return None

    def any_pickup(self) -> bool:
        """Whether the mover may take the pile in some way."""
        return bool(list_pickups(self, first_only=True))

    def _ask_refusal(self) -> Refusal | None:
        rules, now = self.rules, self.now
        mode = rules.permission_mode
        if mode == "off" or not rules.partnership:
            return Refusal(Code.CANNOT_ASK, "asking partner is not part of these rules")
        if now.permission is not None:
            return Refusal(Code.CANNOT_ASK, "you have already asked this turn")
        if mode == "once_per_deal_after_draw":
            if self.board.asked[now.seat]:
                return Refusal(Code.CANNOT_ASK, "you may ask only once per deal")
            if now.phase is not PLAY:
                return Refusal(Code.CANNOT_ASK, "ask right after drawing")
        if now.phase is PLAY and (now.drew != "stock" or now.melded):
            return Refusal(
                Code.CANNOT_ASK, "ask before drawing or right after drawing from the stock, before melding"
            )
        return None

    def _meld_step(self, action: Meld) -> Step | Refusal:
        refusal = self._phase_refusal(PLAY)
        if refusal is not None:
            return refusal
        groups = action.melds
        if not groups:
            return Refusal(Code.EMPTY_MELD, "a meld action needs at least one group")
        team = self.team
        hand = self.hand
        used, steps = read_groups(groups, hand, None, ())
        touched = touched_of([spec_of(rank, cards) for rank, cards in steps])
        judge = Judge.of(self, team)
        hand_after = len(hand) - len(used)
        refusal = judge.step_error(touched, hand_after)
        if refusal is not None:
            return refusal
        if self.now.must_meld_out and hand_after and not self.can_meld_out(team, used, steps):
            return _MELD_OUT_LEFT
        return Step(action, steps, used, hand_after, judge.canasta_done(touched))

    def _pickup_step(self, action: Pickup) -> Step | Refusal:
        refusal = self._phase_refusal(DRAW)
        if refusal is None:
            refusal = self.pile_error(action.top_only)
        if refusal is not None:
            return refusal
        team = self.team
        pile = self.board.pile
        top = pile[-1]
        with_ = action.with_
        naturals = sum(1 for c in with_ if c.rank is top.rank)
        wilds = sum(1 for c in with_ if c.is_wild)
        if naturals + wilds != len(with_):
            text = f"the cards taken with {top.code} must be of its rank or wild"
            facts = {"rank": top.rank.value, "card": top.code}
            return Refusal(Code.BAD_PICKUP, text, "wrong_cards", facts)
        melded = top.rank in self.board.melds[team]
        frozen = self.board.pile_frozen
        refusal = take_error(self.rules, self.frozen_for(team), frozen, top, naturals, wilds, melded)
        if refusal is not None:
            return refusal
        hand = self.hand
        used, steps = read_groups(action.melds, hand, top, with_)
        touched = touched_of([spec_of(rank, cards) for rank, cards in steps[1:]] + [spec_of(top.rank, with_)])
        touched = {top.rank: touched.pop(top.rank), **touched}
        judge = Judge.of(self, team)
        kept = len(hand) - len(used)
        gained = self.pile_gain(action.top_only)
        hand_after = kept + len(gained)
        if top.is_black_three and not self.can_meld_out(team, used, steps, gained):
            return BLACK3_GO_OUT  # the block decides before the melds
        refusal = judge.step_error(touched, hand_after, top)
        if refusal is not None:
            return refusal
        if action.top_only and hand_after and not self.can_meld_out(team, used, steps):
            return _TOP_ONLY_LEFT
        return Step(action, steps, used, hand_after, judge.canasta_done(with_top(touched, top)), gained)

    def listed_step(self, action: Action) -> Step:
        """The step of an action just listed by `legal_actions` (so known to be legal), formed
        without judging it again."""
        if isinstance(action, MELD_CLASS):
            top: Card | None = None
            with_: tuple[Card, ...] = ()
            gained: list[Card] = []
        elif isinstance(action, PICKUP_CLASS):
            top, with_, gained = self.board.pile[-1], action.with_, self.pile_gain(action.top_only)
        else:
            return Step(action)
        used, laid = read_groups(action.melds, self.hand, top, with_, checked=False)
        touched = touched_of([spec_of(rank, cards) for rank, cards in laid])
        facts = self.board.judged[self.team]  # judged by the listing, as a rule
        stats = Judge.of(self, self.team).stats if facts is None else facts[0]
        canasta = canasta_done(stats, self.now.started, touched)
        return Step(action, laid, used, len(self.hand) - len(used) + len(gained), canasta, gained)

    def assuming(self, permission: Permission | None) -> Mover:
        """The mover with partner's answer to an ask taken as given (on a copy of the turn)."""
        now = self.now.copy()
        now.permission = permission
        return self.with_parts(self.board, now, self.hand)

    def with_parts(self, board: Board, now: Turn, hand: list[Card]) -> Mover:
        """The same seat's mover, with the same sizes of the hidden cards, on the given parts."""
        return Mover(
            self.rules,
            self.order,
            self._next,
            board,
            now,
            self.seat,
            hand,
            self.hand_sizes,
            self.stock_size,
            self.team,
        )


def next_seats(order: Sequence[int]) -> dict[int, int]:
    """Each seat's next seat in turn `order` (the seats that play the deal)."""
    return {seat: order[(i + 1) % len(order)] for i, seat in enumerate(order)}


def partner(rules: RuleSet, next_: Mapping[int, int], seat: int) -> int:
    """The teammate who answers this seat's ask: the next teammate in turn order."""
    teams = seat_teams(rules)
    team = teams[seat]
    other = next_[seat]
    while teams[other] != team:
        other = next_[other]
    return other


_AWAITING_ANSWER: Final = Refusal(Code.AWAITING_ANSWER, "waiting for partner's answer")
_DEAL_OVER: Final = Refusal(Code.DEAL_OVER, "the deal is over")
_STOCK_EMPTY: Final = Refusal(Code.STOCK_EMPTY, "the stock is empty")
_DRAWN: Final = Refusal(Code.WRONG_PHASE, "you have already drawn this turn", "play")
_DRAW_FIRST: Final = Refusal(Code.WRONG_PHASE, "draw or take the pile first", "draw")
_NO_DISCARD_AFTER_PICKUP: Final = Refusal(
    Code.MUST_MELD_OUT, "after this pickup you must meld every card (no discard follows)"
)
_MELD_OUT_LEFT: Final = Refusal(
    Code.MUST_MELD_OUT, "after this pickup you must meld every card: the cards left could not all be melded"
)
_TOP_ONLY_LEFT: Final = Refusal(
    Code.TOP_ONLY,
    "after buying only the top card you must meld every card (no discard): "
    "the cards left could not all be melded",
)
_NO_QUESTION: Final = Refusal(Code.NO_QUESTION, "nobody has asked to go out")
_MUST_TAKE: Final = Refusal(
    Code.MUST_TAKE_PILE, "the top card joins one of your melds, so you must take the pile"
)


def _remove_cards(hand: Sequence[Card], used: Sequence[Card]) -> list[Card]:
    """The hand without `used` (which it holds), in its order; each used card leaves its first copy."""
    gone = [0] * len(ALL_CARDS)  # by the card's index
    for c in used:
        gone[c.index] += 1
    rest: list[Card] = []
    for c in hand:
        if gone[c.index]:
            gone[c.index] -= 1
        else:
            rest.append(c)
    return rest
