"""What one seat may know (a per-seat view), and determinization for search (`resample`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from canasta.rules import public
from canasta.rules.actions import Action
from canasta.rules.cards import Card, Rank, make_deck, sorted_cards
from canasta.rules.deal import active_order
from canasta.rules.errors import IllegalActionError, InvalidActionError
from canasta.rules.legal import legal_actions
from canasta.rules.mover import Mover
from canasta.rules.parts import Board, Cards, DrawSource, Permission, Phase, Turn
from canasta.rules.refusal import Code, Refusal
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import DealResult
from canasta.rules.state import State


@dataclass(frozen=True)
class SeatView:
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

    @cached_property
    def board(self) -> Board:
        """The public table, as a state's part (a copy: changing it changes nothing here)."""
        return _board_of(self)

    @cached_property
    def now(self) -> Turn:
        """The turn in progress, as a state's part (a copy)."""
        return _turn_of(self)

    @cached_property
    def order(self) -> tuple[int, ...]:
        """The seats that play this deal, in turn order."""
        return active_order(self.rules.players, self.sitting_out)

    def mover(self) -> Mover:
        """What this seat knows as the seat to move (`canasta.rules.mover`): the engine's
        validator of its own actions. Only the seat to move has one."""
        if self.seat is None or self.seat != self.to_move:
            raise IllegalActionError.of(Code.NOT_YOUR_TURN, "only the seat to move can act")
        order = self.order
        next_ = {seat: order[(i + 1) % len(order)] for i, seat in enumerate(order)}
        hand = list(self.hand)
        return Mover(
            self.rules, order, next_, self.board, self.now, self.seat, hand, self.hand_sizes, self.stock_size
        )

    def check(self, action: Action) -> str | None:
        """Why this seat's `action` is illegal now (None when it is legal), as `State.check` says."""
        return self.mover().check(action)

    # the rule questions about public facts, answered as the engine answers them
    def minimum(self, team: int) -> int:
        return public.minimum(self, team)

    def frozen_for(self, team: int) -> bool:
        return public.frozen_for(self, team)

    def pile_blocked(self, seat: int, black3_ok: bool = False) -> Refusal | None:
        return public.pile_blocked(self, seat, black3_ok)

    def may_go_out(self, team: int, melds: Mapping[Rank, Sequence[Card]] | None = None) -> Refusal | None:
        return public.go_out_error(self, team, melds)

    def must_take_pile(self) -> bool:
        return public.must_take_pile(self)

    def discard_errors(self) -> dict[Card, Refusal]:
        """Why cards of this seat's hand may not be discarded now (Modern American, R18)."""
        if self.rules.discard_rules != "modern":
            return {}
        return public.modern_discard_errors(self, self.hand, len(self.hand) == 1)

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


def unseen_cards(view: SeatView) -> list[Card]:
    """The cards this seat cannot locate: in the stock or in other hands beyond their known cards."""
    pool: dict[Card, int] = {}
    for c in make_deck(view.rules.decks, view.rules.jokers):
        pool[c] = pool.get(c, 0) + 1
    seen: list[Card] = [*view.hand, *view.pile]
    for m in view.melds:
        for cs in m.values():
            seen.extend(cs)
    for t in view.threes:
        seen.extend(t)
    for s, k in enumerate(view.known):
        if s != view.seat:
            seen.extend(k)
    for c in seen:
        pool[c] = pool.get(c, 0) - 1
    return [c for c, n in sorted(pool.items(), key=lambda kv: kv[0].index) for _ in range(max(n, 0))]


#: Cards a seat is known to be laying: (rank, naturals, jokers, twos); rank 3 means black threes.
Need = tuple[Rank, int, int, int]
#: Random deals `resample` tries (as many again leaning toward useful cards) before it searches.
RESAMPLE_TRIES = 48


def resample(
    view: SeatView,
    rng: random.Random,
    holding: Sequence[Need] = (),
    accept: Callable[[State], bool] | None = None,
    tries: int = RESAMPLE_TRIES,
) -> State:
    """A full state consistent with everything the view's seat knows, hidden cards dealt at random.

    Cards known to be in a hand (taken with the pile) stay in that hand; no bonus three is dealt
    into a hidden hand, since a real deal lays each one out at once. When the turn is another
    seat's, its hidden cards must let it go on as it has: the result lists a legal move (or is
    over), the turn's player holds the cards of `holding` (what it is known to be laying, such as
    the learning interface's staged ids) and `accept` (if given) holds. Deals are tried at random,
    the turn's player dealt `holding` first, `tries` of them plain and as many leaning toward
    the ranks it can use; then a few hands built rank by rank (`_search_hand`).
    """
    unseen = unseen_cards(view)
    rules = view.rules
    # a bonus three is laid out as soon as it is dealt or drawn: unseen ones are in the stock
    # (a made-up position may hold more of them than the stock can: the rest go to the hands)
    bonus = [c for c in unseen if rules.is_bonus_three(c)]
    pool = [c for c in unseen if not rules.is_bonus_three(c)]
    pool.extend(bonus[view.stock_size :])
    bonus = bonus[: view.stock_size]
    turn = view.turn
    if view.result is not None or turn == view.seat:
        return _deal(view, rng, pool, bonus, [])
    held = view.known[turn]
    useful = _useful_ranks(view)
    for attempt in range(2 * tries):
        first = _needed(holding, held, pool, rng)
        rest = _without(pool, first)
        free = view.hand_sizes[turn] - len(held) - len(first)
        chosen = rng.sample(rest, free) if attempt < tries else _leaning(rest, useful, free, rng)
        state = _deal(view, rng, _without(rest, chosen), bonus, first + chosen)
        if _goes_on(state, accept):
            return state
    return _search_hand(view, rng, pool, bonus, holding, accept)


def _deal(
    view: SeatView, rng: random.Random, pool: list[Card], bonus: list[Card], turns: list[Card]
) -> State:
    """The state with `pool` dealt at random to the hidden hands and the stock, the turn's
    player (when hidden) holding its known cards and `turns`, the others their known cards."""
    rules = view.rules
    pool = pool[:]
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(rules.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        hand = list(view.known[s])
        if s == view.turn:
            hand.extend(turns)
        need = view.hand_sizes[s] - len(hand)
        hand.extend(pool[:need])
        del pool[:need]
        hands.append(hand)
    stock = bonus + pool[: view.stock_size - len(bonus)]
    rng.shuffle(stock)
    state = State.blank(rules, view.scores, view.dealer, view.sitting_out)
    state = state.with_parts(_board_of(view), _turn_of(view), Cards(hands, stock))
    state.result = view.result
    return state


def _goes_on(state: State, accept: Callable[[State], bool] | None) -> bool:
    """Whether a dealt state is one the deal could be in: over, or listing a legal move and not
    one the engine would have ended (a turn's player to draw from an empty stock must have been
    able to take the pile when its turn began); and `accept` holds."""
    if not state.is_over:
        began = state.clone()
        if began.now.permission == "pending":
            began.now.permission = None
        began.settle()
        if began.is_over or not legal_actions(state):
            return False
    return accept is None or accept(state)


def _needed(
    holding: Sequence[Need], held: Sequence[Card], pool: Sequence[Card], rng: random.Random
) -> list[Card]:
    """Cards of `pool`, chosen at random by kind, that the turn's player needs for `holding`
    beyond its known cards `held`."""
    wanted: dict[Rank, int] = {}
    for rank, k, j, t in holding:
        for kind, n in ((rank, k), (Rank.JOKER, j), (Rank.TWO, t)):
            if n:
                wanted[kind] = wanted.get(kind, 0) + n
    out: list[Card] = []
    for kind, n in wanted.items():
        n -= sum(1 for c in held if c.rank is kind)
        if n > 0:
            matches = [c for c in pool if c.rank is kind and not c.is_red_three]
            out.extend(rng.sample(matches, min(n, len(matches))))
    return out


def _without(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    rest = list(cards)
    for c in taken:
        rest.remove(c)
    return rest


def _useful_ranks(view: SeatView) -> set[Rank]:
    """The ranks the turn's player can most likely use: the pile's top card's, its team's melds',
    its known cards', and the wild cards."""
    ranks = {Rank.JOKER, Rank.TWO, *view.melds[view.rules.team_of(view.turn)]}
    ranks.update(c.rank for c in view.known[view.turn])
    if view.pile:
        ranks.add(view.pile[-1].rank)
    return ranks


def _leaning(pool: Sequence[Card], useful: set[Rank], n: int, rng: random.Random) -> list[Card]:
    """`n` cards of `pool` at random, three in four of useful ranks while there are any."""
    good = [c for c in pool if c.rank in useful and not c.is_red_three]
    other = [c for c in pool if c.rank not in useful or c.is_red_three]
    rng.shuffle(good)
    rng.shuffle(other)
    out: list[Card] = []
    while len(out) < n:
        source = good if good and (not other or rng.random() < 0.75) else other
        out.append(source.pop())
    return out


def _search_hand(
    view: SeatView,
    rng: random.Random,
    pool: list[Card],
    bonus: list[Card],
    holding: Sequence[Need],
    accept: Callable[[State], bool] | None,
) -> State:
    """The last resort, rare: the turn's player dealt, after the cards of `holding`, the unseen
    cards of one rank first (each rank in turn, all of them, three or two), then those of the
    most plentiful ranks or of the highest points. A made-up view that no deal fits raises
    `InvalidActionError`."""
    held = view.known[view.turn]
    first = _needed(holding, held, pool, rng)
    rest = _without(pool, first)
    free = view.hand_sizes[view.turn] - len(held) - len(first)
    plenty: dict[Rank, int] = {}
    for c in rest:
        plenty[c.rank] = plenty.get(c.rank, 0) + 1
    leads = sorted(plenty, key=lambda r: -plenty[r]) or [Rank.WILD]  # no unseen card: one deal
    for lead in leads:
        for cap in sorted({free, 3, 2}, reverse=True):
            for by_points in (False, True):
                order = sorted(rest, key=lambda c: _rank_by_rank(c, lead, plenty, by_points))
                chosen = [c for c in order if c.rank is lead][: min(cap, free)]
                chosen += [c for c in order if c.rank is not lead][: free - len(chosen)]
                state = _deal(view, rng, _without(rest, chosen), bonus, first + chosen)
                if _goes_on(state, accept):
                    return state
    raise InvalidActionError(f"no deal of the unseen cards fits seat {view.seat}'s view", "bad_position")


def _rank_by_rank(card: Card, lead: Rank, plenty: Mapping[Rank, int], by_points: bool) -> tuple[int, ...]:
    """Where `card` comes in `_search_hand`'s order: the lead rank's cards, then the most
    plentiful ranks' (or the highest points') first, rank by rank."""
    more = (-card.points, -plenty[card.rank]) if by_points else (-plenty[card.rank], -card.points)
    return (card.rank is not lead, *more, card.index)


def _board_of(view: SeatView) -> Board:
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


def _turn_of(view: SeatView) -> Turn:
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
