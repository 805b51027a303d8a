"""Determinization for search: a full state consistent with what one seat knows."""

from __future__ import annotations

import random

from canasta.rules.cards import Card, make_deck
from canasta.rules.parts import Cards
from canasta.rules.state import State
from canasta.rules.view import SeatView, board_of, turn_of


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


def resample(view: SeatView, rng: random.Random) -> State:
    """A full state consistent with everything the view's seat knows, hidden cards dealt at random.

    Cards known to be in a hand (taken with the pile) stay in that hand; no bonus three is dealt
    into a hidden hand, since a real deal lays each one out at once.
    """
    rules = view.rules
    # a bonus three is laid out as soon as it is dealt or drawn: unseen ones are in the stock
    # (a made-up position may hold more of them than the stock can: the rest go to the hands)
    unseen = unseen_cards(view)
    bonus = [c for c in unseen if rules.is_bonus_three(c)]
    pool = [c for c in unseen if not rules.is_bonus_three(c)]
    pool.extend(bonus[view.stock_size :])
    bonus = bonus[: view.stock_size]
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(rules.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        hand = list(view.known[s])
        need = view.hand_sizes[s] - len(hand)
        hand.extend(pool[:need])
        del pool[:need]
        hands.append(hand)
    stock = bonus + pool[: view.stock_size - len(bonus)]
    rng.shuffle(stock)
    state = State.blank(rules, view.scores, view.dealer, view.sitting_out)
    state = state.with_parts(board_of(view), turn_of(view), Cards(hands, stock))
    state.result = view.result
    return state
