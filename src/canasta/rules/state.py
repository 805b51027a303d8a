"""The state of one deal: the deal procedure, validation and application of actions."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from canasta.rules import public
from canasta.rules.actions import (
    Action,
    Answer,
    Ask,
    Discard,
    Draw,
    Group,
    Meld,
    Pass,
    Pickup,
    describe,
)
from canasta.rules.cards import Card, Rank
from canasta.rules.deal import active_order, card_counts
from canasta.rules.errors import IllegalActionError, InvalidActionError
from canasta.rules.judge import Judge, Spec, Touched, permission_error, take_error, touched_of, with_top
from canasta.rules.melds import Melds
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import DealResult, score_deal

if TYPE_CHECKING:
    from canasta.rules.view import SeatView



class Phase(enum.StrEnum):
    """Where a turn stands: drawing (or taking the pile), melding and discarding, or the deal over."""

    DRAW = "draw"
    PLAY = "play"
    ENDED = "ended"


DRAW, PLAY, ENDED = Phase.DRAW, Phase.PLAY, Phase.ENDED
#: Where the card(s) of this turn came from.
DrawSource: TypeAlias = Literal["stock", "pile"]
#: Partner's permission to go out this turn: asked and awaited, given, or refused.
Permission: TypeAlias = Literal["pending", "yes", "no"]
class State:
    """One deal of a game in progress. Mutated in place by `apply`; copy with `clone`."""

    __slots__ = (
        "_next",
        "asked",
        "concealed_ok",
        "dealer",
        "drew",
        "hands",
        "known",
        "melds",
        "must_meld_out",
        "opened",
        "order",
        "permission",
        "phase",
        "pile",
        "pile_frozen",
        "result",
        "rules",
        "scores",
        "seat_melded",
        "sitting_out",
        "stock",
        "threes",
        "turn",
        "turn_canasta",
        "turn_layoff",
        "turn_melded",
        "turn_started",
    )

    rules: RuleSet
    scores: list[int]
    dealer: int
    sitting_out: int | None
    order: tuple[int, ...]
    _next: dict[int, int]
    turn: int
    phase: Phase
    drew: DrawSource | None
    hands: list[list[Card]]
    stock: list[Card]  # top card last
    pile: list[Card]  # top card last
    melds: list[Melds]
    threes: list[list[Card]]
    seat_melded: list[bool]
    asked: list[bool]
    opened: list[bool]
    pile_frozen: bool
    known: list[list[Card]]
    concealed_ok: bool
    permission: Permission | None
    turn_canasta: bool
    turn_started: set[Rank]
    turn_layoff: bool
    turn_melded: bool
    must_meld_out: bool
    result: DealResult | None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def blank(
        cls, rules: RuleSet, scores: Sequence[int], dealer: int, sitting_out: int | None = None
    ) -> State:
        """An empty table (no cards anywhere) for the given rules; used by the deal and positions."""
        s = cls()
        s.rules = rules
        s.scores = list(scores)
        s.dealer = dealer
        s.sitting_out = sitting_out
        s.order = active_order(rules.players, sitting_out)
        s._next = {seat: s.order[(i + 1) % len(s.order)] for i, seat in enumerate(s.order)}
        s.turn = s._next.get(dealer, s.order[0])
        s.phase = DRAW
        s.drew = None
        s.hands = [[] for _ in range(rules.players)]
        s.stock = []
        s.pile = []
        s.melds = [{} for _ in range(rules.teams)]
        s.threes = [[] for _ in range(rules.teams)]
        s.seat_melded = [False] * rules.players
        s.asked = [False] * rules.players
        s.opened = [False] * rules.teams
        s.pile_frozen = False
        s.known = [[] for _ in range(rules.players)]
        s.permission = None
        s.concealed_ok = True
        s.turn_canasta = s.turn_layoff = s.turn_melded = s.must_meld_out = False
        s.turn_started = set()
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
        from canasta.rules.deal import deal

        return deal(rules, deck, dealer, scores, sitting_out)

    def clone(self) -> State:
        """An independent copy (cards are shared immutable values)."""
        s = State()
        s.rules = self.rules
        s.scores = self.scores[:]
        s.dealer = self.dealer
        s.sitting_out = self.sitting_out
        s.order = self.order
        s._next = self._next
        s.turn = self.turn
        s.phase = self.phase
        s.drew = self.drew
        s.hands = [h[:] for h in self.hands]
        s.stock = self.stock[:]
        s.pile = self.pile[:]
        s.melds = [{r: c[:] for r, c in m.items()} for m in self.melds]
        s.threes = [t[:] for t in self.threes]
        s.seat_melded = self.seat_melded[:]
        s.asked = self.asked[:]
        s.opened = self.opened[:]
        s.pile_frozen = self.pile_frozen
        s.known = [k[:] for k in self.known]
        s.permission = self.permission
        s.concealed_ok = self.concealed_ok
        s.turn_canasta = self.turn_canasta
        s.turn_started = set(self.turn_started)
        s.turn_layoff = self.turn_layoff
        s.turn_melded = self.turn_melded
        s.must_meld_out = self.must_meld_out
        s.result = self.result
        return s

    # -- queries ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == ENDED

    @property
    def to_move(self) -> int:
        """The seat whose decision it is (the partner while an ask awaits its answer)."""
        if self.permission == "pending":
            return self.partner(self.turn)
        return self.turn

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to move (see `canasta.rules.legal`)."""
        from canasta.rules.legal import legal_actions

        return legal_actions(self)

    def view(self, seat: int | None) -> SeatView:
        """What `seat` may know (None: a spectator)."""
        from canasta.rules.view import seat_view

        return seat_view(self, seat)

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def partner(self, seat: int) -> int:
        """The teammate who answers this seat's ask: the next teammate in turn order."""
        team = self.rules.team_of(seat)
        other = self._next[seat]
        while self.rules.team_of(other) != team:
            other = self._next[other]
        return other

    def team_of(self, seat: int) -> int:
        return seat % self.rules.teams

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.hands)

    def minimum(self, team: int) -> int:
        """The opening minimum of a team in this deal (`canasta.rules.public`)."""
        return public.minimum(self, team)

    def frozen_for(self, team: int) -> bool:
        """Whether the pile may be taken only with a natural pair by this team."""
        return public.frozen_for(self, team)

    def pile_blocked(self, seat: int, black3_ok: bool = False) -> str | None:
        """Why the pile cannot be taken at all by this seat (`canasta.rules.public`)."""
        return public.pile_blocked(self, seat, black3_ok)

    def may_go_out(self, team: int, melds: Mapping[Rank, Sequence[Card]] | None = None) -> str | None:
        """Why the team may not go out now (None when it may); `melds`: as they would stand."""
        return public.go_out_error(self, team, melds)

    def permission_blocks(self) -> str | None:
        """Why partner's permission (or its absence) forbids going out this turn."""
        return permission_error(self.rules, self.permission)

    # -- applying actions ---------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Validate `action` for `seat` (default: the seat to move) and apply it.

        Raises IllegalActionError, changing nothing, when the rules forbid it.
        """
        try:
            self._apply(action, seat)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{describe(action)}: {exc.message}", exc.code) from None

    def check(self, action: Action, seat: int | None = None) -> str | None:
        """Why `action` is illegal here (None when it is legal); changes nothing."""
        try:
            self.clone()._apply(action, seat)
        except IllegalActionError as exc:
            return exc.message
        return None

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        return self.check(action, seat) is None

    def _apply(self, action: Action, seat: int | None) -> None:
        if self.phase == ENDED:
            raise IllegalActionError("the deal is over", "deal_over")
        mover = self.to_move
        if seat is not None and seat != mover:
            raise IllegalActionError(f"it is seat {mover}'s move, not seat {seat}'s", "not_your_turn")
        if self.permission == "pending" and not isinstance(action, Answer):
            raise IllegalActionError("waiting for partner's answer", "awaiting_answer")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise InvalidActionError(f"not an action: {action!r}")
        handler(self, action)

    def _need_phase(self, phase: str) -> None:
        if self.phase != phase:
            if phase == DRAW:
                raise IllegalActionError("you have already drawn this turn", "wrong_phase")
            raise IllegalActionError("draw or take the pile first", "wrong_phase")

    # draw ---------------------------------------------------------------------------------------

    def _draw(self) -> None:
        self._need_phase(DRAW)
        if not self.stock:
            raise IllegalActionError("the stock is empty", "stock_empty")
        stock = self.stock
        seat = self.turn
        hand = self.hands[seat]
        team = self.team_of(seat)
        drawn = [stock.pop() for _ in range(min(self.rules.draw_count, len(stock)))]
        gained = 0
        while drawn:
            card = drawn.pop(0)
            if self.rules.is_bonus_three(card):
                if not stock and self.rules.last_card_three == "stays_in_hand":
                    hand.append(card)
                    self.phase, self.drew = PLAY, "stock"
                    self._end("stock_exhausted", None)
                    return
                self.threes[team].append(card)
                if stock:
                    drawn.append(stock.pop())
            else:
                hand.append(card)
                gained += 1
        self.phase, self.drew = PLAY, "stock"
        if gained == 0:
            self._end("stock_exhausted", None)

    # discard ------------------------------------------------------------------------------------

    def _discard(self, card: Card) -> None:
        self._need_phase(PLAY)
        hand = self.hands[self.turn]
        if card not in hand:
            raise IllegalActionError(f"{card.code} is not in your hand", "card_not_in_hand")
        if self.must_meld_out:
            raise IllegalActionError(
                "after taking the pile with a black three you must meld every card", "must_meld_out"
            )
        team = self.team_of(self.turn)
        going_out = len(hand) == 1
        if going_out:
            why = self.may_go_out(team)
            if why:
                raise IllegalActionError(why, "cannot_go_out")
        if self.rules.discard_rules == "modern":
            why = self.modern_discard_errors(hand, going_out).get(card)
            if why:
                raise IllegalActionError(why, "discard_restricted")
        hand.remove(card)
        known = self.known[self.turn]
        if card in known:
            known.remove(card)
        self.pile.append(card)
        triggers = self.rules.freeze_triggers
        if (card.is_wild and "wild" in triggers) or (card.is_black_three and "black3" in triggers):
            self.pile_frozen = True
        if going_out:
            self._end("went_out", self.turn)
        else:
            self._next_turn()

    def modern_discard_errors(self, hand: Sequence[Card], going_out: bool) -> dict[Card, str]:
        """Why each card of the hand may not be discarded under Modern American rules (R18)."""
        return public.modern_discard_errors(self, hand, going_out)

    # turn end and stock exhaustion -----------------------------------------------------------

    def _next_turn(self) -> None:
        seat = self._next[self.turn]
        self.turn = seat
        self.phase = DRAW
        self.drew = None
        self.permission = None
        self.concealed_ok = not self.seat_melded[seat]
        self.turn_canasta = self.turn_layoff = self.turn_melded = self.must_meld_out = False
        if self.turn_started:
            self.turn_started = set()
        self.settle()

    def settle(self) -> None:
        """End the deal when the player to draw finds the stock empty and may not go on (A48)."""
        if (
            self.phase == DRAW
            and not self.stock
            and self.permission != "pending"
            and (self.rules.stock_exhaustion == "end" or not self._any_pickup())
        ):
            self._end("stock_exhausted", None)

    def _any_pickup(self) -> bool:
        from canasta.rules.legal import pickup_actions

        return bool(pickup_actions(self, first_only=True))

    def must_take_pile(self) -> bool:
        """With the stock exhausted: the top card joins one of the team's melds and is not frozen."""
        return public.must_take_pile(self)

    def _pass(self) -> None:
        self._need_phase(DRAW)
        if self.stock:
            raise IllegalActionError("pass only when the stock is exhausted; draw instead", "cannot_pass")
        if self.rules.stock_exhaustion == "end":
            raise IllegalActionError("the deal has ended", "deal_over")
        if self.must_take_pile() and self._any_pickup():
            raise IllegalActionError(
                "the top card joins one of your melds, so you must take the pile", "must_take_pile"
            )
        self._end("stock_exhausted", None)

    def _end(self, reason: str, went_out: int | None) -> None:
        self.phase = ENDED
        concealed = False
        if went_out is not None:
            concealed = self.concealed_ok and self.turn_canasta
            if self.rules.concealed_forbids_final_turn_layoff and self.turn_layoff:
                concealed = False
        self.result = score_deal(self, reason, went_out, concealed)

    # ask and answer ---------------------------------------------------------------------------

    def _ask(self) -> None:
        mode = self.rules.permission_mode
        if mode == "off" or not self.rules.partnership:
            raise IllegalActionError("asking partner is not part of these rules", "cannot_ask")
        if self.permission is not None:
            raise IllegalActionError("you have already asked this turn", "cannot_ask")
        if mode == "once_per_deal_after_draw":
            if self.asked[self.turn]:
                raise IllegalActionError("you may ask only once per deal", "cannot_ask")
            if self.phase != PLAY:
                raise IllegalActionError("ask right after drawing", "cannot_ask")
        if self.phase == PLAY and (self.drew != "stock" or self.turn_melded):
            raise IllegalActionError(
                "ask before drawing or right after drawing from the stock, before melding",
                "cannot_ask",
            )
        self.asked[self.turn] = True
        self.permission = "pending"

    def _answer(self, yes: bool) -> None:
        if self.permission != "pending":
            raise IllegalActionError("nobody has asked to go out", "no_question")
        self.permission = "yes" if yes else "no"
        if self.phase == DRAW and not self.stock and not self._any_pickup():
            # a "no" can leave no way to take the pile: the hand ends (1.14)
            self._end("stock_exhausted", None)

    # melding ------------------------------------------------------------------------------------

    def _meld(self, groups: Sequence[Group]) -> None:
        self._need_phase(PLAY)
        if not groups:
            raise IllegalActionError("a meld action needs at least one group", "empty_meld")
        seat = self.turn
        team = self.team_of(seat)
        hand = self.hands[seat]
        used, steps = read_groups(groups, hand, None, ())
        touched = touched_of([_spec(rank, cards) for rank, cards in steps])
        judge = Judge.of(self, team)
        hand_after = len(hand) - len(used)
        _refuse(judge.step_error(touched, hand_after))
        if self.must_meld_out and hand_after and not self.can_meld_out(team, used, steps):
            raise IllegalActionError(
                "after taking the pile with a black three you must meld every card: "
                "the cards left could not all be melded",
                "must_meld_out",
            )
        self._commit(seat, team, judge, steps, used, touched)
        if hand_after == 0:
            self._end("went_out", seat)

    def _commit(
        self,
        seat: int,
        team: int,
        judge: Judge,
        steps: Sequence[tuple[Rank, Sequence[Card]]],
        used: Sequence[Card],
        full: Touched,
    ) -> None:
        """Move the cards of a judged step from the hand to the team's melds."""
        hand = self.hands[seat]
        known = self.known[seat]
        for card in used:
            hand.remove(card)
            if card in known:
                known.remove(card)
        team_melds = self.melds[team]
        started = self.turn_started
        for rank, cards in steps:
            meld = team_melds.get(rank)
            if meld is None:
                team_melds[rank] = list(cards)
                started.add(rank)
            else:
                if rank not in started:
                    self.turn_layoff = True
                meld.extend(cards)
        self.seat_melded[seat] = True
        self.opened[team] = True
        self.turn_melded = True
        self.turn_canasta = self.turn_canasta or judge.canasta_done(full)

    # taking the pile ----------------------------------------------------------------------------

    def pile_error(self, top_only: bool = False) -> tuple[str, str] | None:
        """Why the seat to play may not take the pile at all, whatever cards it uses."""
        rules = self.rules
        if not self.pile:
            return "empty_pile", "the discard pile is empty"
        if top_only:
            if not rules.top_card_only_go_out:
                return "bad_pickup", "buying only the top card is not allowed"
            if len(self.pile) == 1:
                return "bad_pickup", "a one-card pile is bought whole"
        why = self.pile_blocked(self.turn, self.black3_exception())
        return None if why is None else ("pile_blocked", why)

    def black3_exception(self) -> bool:
        """Whether a black three on top may be taken to go out at once (online, R17)."""
        top = self.pile[-1]
        rules = self.rules
        return top.is_black_three and rules.black3_pickup_to_go_out and "black3_top" in rules.block_rules

    def gained(self) -> int:
        """How many cards the rest of the pile would add to the hand (bonus threes are laid out)."""
        return sum(1 for c in self.pile[:-1] if not self.rules.is_bonus_three(c))

    def _pickup(self, action: Pickup) -> None:
        self._need_phase(DRAW)
        seat = self.turn
        team = self.team_of(seat)
        _refuse(self.pile_error(action.top_only))
        top = self.pile[-1]
        with_ = action.with_
        naturals = sum(1 for c in with_ if c.rank is top.rank)
        wilds = sum(1 for c in with_ if c.is_wild)
        if naturals + wilds != len(with_):
            raise IllegalActionError(
                f"the cards taken with {top.code} must be of its rank or wild", "bad_pickup"
            )
        melded = top.rank in self.melds[team]
        _refuse(take_error(self.rules, self.frozen_for(team), self.pile_frozen, top, naturals, wilds, melded))
        hand = self.hands[seat]
        used, steps = read_groups(action.melds, hand, top, with_)
        touched = touched_of([_spec(rank, cards) for rank, cards in steps[1:]] + [_spec(top.rank, with_)])
        touched = {top.rank: touched.pop(top.rank), **touched}
        judge = Judge.of(self, team)
        kept = len(hand) - len(used)
        rest = [] if action.top_only else self.pile[:-1]
        gained = [c for c in rest if not self.rules.is_bonus_three(c)]
        hand_after = kept + len(gained)
        _refuse(judge.step_error(touched, hand_after, top, action.top_only, kept))
        if top.is_black_three and not self.can_meld_out(team, used, steps, gained):
            raise IllegalActionError(
                "a pile topped by a black three may be taken only to go out at once", "pile_blocked"
            )
        self._commit(seat, team, judge, steps, used, with_top(touched, top))
        if action.top_only:
            self.pile.pop()
        else:
            for card in rest:
                if self.rules.is_bonus_three(card):
                    self.threes[team].append(card)
            hand.extend(gained)
            self.known[seat].extend(gained)
            self.pile = []
            self.pile_frozen = False
        self.phase, self.drew = PLAY, "pile"
        if top.is_black_three:
            self.must_meld_out = True
        if hand_after == 0:
            self._end("went_out", seat)

    def can_meld_out(
        self,
        team: int,
        used: Sequence[Card],
        steps: Sequence[tuple[Rank, Sequence[Card]]],
        gained: Sequence[Card] = (),
    ) -> bool:
        """Whether, once these cards are laid, every card left and gained can be melded at once."""
        from canasta.rules.solver import meld_out

        melds = {r: list(cs) for r, cs in self.melds[team].items()}
        for rank, cards in steps:
            melds.setdefault(rank, []).extend(cards)
        kept = _remove_cards(self.hands[self.turn], used) + list(gained)
        return meld_out(self, team, kept, melds) is not None


_HANDLERS: dict[type, Callable[[State, Any], None]] = {
    Draw: lambda s, a: s._draw(),
    Discard: lambda s, a: s._discard(a.card),
    Meld: lambda s, a: s._meld(a.melds),
    Pickup: lambda s, a: s._pickup(a),
    Ask: lambda s, a: s._ask(),
    Answer: lambda s, a: s._answer(a.yes),
    Pass: lambda s, a: s._pass(),
}


def _refuse(refusal: tuple[str, str] | None) -> None:
    if refusal is not None:
        raise IllegalActionError(refusal[1], refusal[0])


def read_groups(
    groups: Sequence[Group], hand: Sequence[Card], top: Card | None, top_with: Sequence[Card]
) -> tuple[list[Card], list[tuple[Rank, Sequence[Card]]]]:
    """The cards a step takes from the hand, and its groups as (rank, cards), the top's first."""
    used: list[Card] = list(top_with)
    for g in groups:
        used.extend(g.cards)
    _check_in_hand(used, hand)
    steps: list[tuple[Rank, Sequence[Card]]] = []
    if top is not None:
        steps.append((top.rank, (*top_with, top)))
    for g in groups:
        if not g.cards:
            raise IllegalActionError("a group needs at least one card", "empty_group")
        steps.append((_group_rank(g), g.cards))
    return used, steps


def _spec(rank: Rank, cards: Sequence[Card]) -> Spec:
    """A group's counts: naturals (black threes for rank 3), jokers, twos."""
    jokers = twos = 0
    for c in cards:
        if c.is_joker:
            jokers += 1
        elif c.is_two:
            twos += 1
    return rank, len(cards) - jokers - twos, jokers, twos


def _group_rank(group: Group) -> Rank:
    """The rank a group melds: explicit, or that of its natural cards (A50)."""
    rank: Rank | None = None
    for card in group.cards:
        if card.is_wild:
            continue
        r = card.rank
        if card.is_red_three:
            raise IllegalActionError("red threes are never melded", "bad_meld")
        if rank is None:
            rank = r
        elif rank is not r:
            raise IllegalActionError(
                "a meld holds cards of one rank (sequences are not melds)", "mixed_ranks"
            )
    if group.rank is not None:
        if rank is not None and rank is not group.rank:
            raise IllegalActionError(f"group of rank {group.rank.value} holds {rank.value}s", "mixed_ranks")
        return group.rank
    return Rank.WILD if rank is None else rank


def _check_in_hand(cards: Sequence[Card], hand: Sequence[Card]) -> None:
    if len(cards) == 1:
        if cards[0] not in hand:
            raise IllegalActionError(f"{cards[0].code} is not in your hand", "card_not_in_hand")
        return
    for c, n in card_counts(cards).items():
        if hand.count(c) < n:
            have = hand.count(c)
            detail = "is not in your hand" if have == 0 else f"is only {have} time(s) in your hand"
            raise IllegalActionError(f"{c.code} {detail}", "card_not_in_hand")


def _remove_cards(hand: Sequence[Card], used: Sequence[Card]) -> list[Card]:
    rest = list(hand)
    for c in used:
        rest.remove(c)
    return rest
