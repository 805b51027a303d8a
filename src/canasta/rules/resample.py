"""Determinization for search: a full state consistent with what one seat knows."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from canasta.rules.cards import ALL_CARDS, Card, Rank
from canasta.rules.deal import bonus_threes, shuffle
from canasta.rules.errors import InvalidActionError
from canasta.rules.legal import legal_actions
from canasta.rules.parts import Cards
from canasta.rules.state import State
from canasta.rules.view import SeatView


def unseen_cards(view: SeatView) -> list[Card]:
    """The cards this seat cannot locate: in the stock or in other hands beyond their known cards."""
    rules = view.rules
    count = [rules.jokers if c.is_joker else rules.decks for c in ALL_CARDS]  # by card index
    seen: list[Sequence[Card]] = [view.hand, view.board.pile, *view.board.threes]
    for m in view.board.melds:
        seen.extend(m.values())
    seen.extend(k for s, k in enumerate(view.board.known) if s != view.seat)
    for cards in seen:
        for c in cards:
            count[c.index] -= 1
    return [c for c in ALL_CARDS for _ in range(count[c.index])]


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
    is_bonus = bonus_threes(rules)
    bonus = [c for c in unseen if is_bonus[c.index]]
    pool = [c for c in unseen if not is_bonus[c.index]]
    pool.extend(bonus[view.stock_size :])
    bonus = bonus[: view.stock_size]
    turn = view.now.seat
    if view.result is not None or turn == view.seat:
        return _deal(view, rng, pool, bonus, [])
    held = view.board.known[turn]
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
    shuffle(rng, pool)
    hands: list[list[Card]] = []
    for s in range(rules.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        hand = list(view.board.known[s])
        if s == view.now.seat:
            hand.extend(turns)
        need = view.hand_sizes[s] - len(hand)
        hand.extend(pool[:need])
        del pool[:need]
        hands.append(hand)
    stock = bonus + pool[: view.stock_size - len(bonus)]
    shuffle(rng, stock)
    state = State.blank(rules, view.board.scores, view.board.dealer, view.board.sitting_out)
    state = state.with_parts(view.board.copy(), view.now.copy(), Cards(hands, stock))
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
    ranks = {Rank.JOKER, Rank.TWO, *view.board.melds[view.rules.team_of(view.now.seat)]}
    ranks.update(c.rank for c in view.board.known[view.now.seat])
    if view.board.pile:
        ranks.add(view.board.pile[-1].rank)
    return ranks


def _leaning(pool: Sequence[Card], useful: set[Rank], n: int, rng: random.Random) -> list[Card]:
    """`n` cards of `pool` at random, three in four of useful ranks while there are any."""
    good = [c for c in pool if c.rank in useful and not c.is_red_three]
    other = [c for c in pool if c.rank not in useful or c.is_red_three]
    shuffle(rng, good)
    shuffle(rng, other)
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
    held = view.board.known[view.now.seat]
    first = _needed(holding, held, pool, rng)
    rest = _without(pool, first)
    free = view.hand_sizes[view.now.seat] - len(held) - len(first)
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
