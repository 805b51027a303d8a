"""Positions with large hands and many wild cards, where listing legal moves is hardest.

Random play reaches hands of 30 to 60 cards (a player who takes large piles and melds little);
`large_hand_positions` builds such positions directly, in every phase a pickup or a meld is
listed in, so that the lister's worst cases can be bounded by a test and timed by a benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from canasta.rules.cards import NATURAL_RANKS, Card, make_deck
from canasta.rules.game import default_dealer
from canasta.rules.position import position_from_json
from canasta.rules.ruleset import RuleSet
from canasta.rules.state import State


def large_hand_position(rules: RuleSet, rng: random.Random) -> State:
    """One position: the first seat to move with 30–60 cards, 4–12 of them wild (as the deck allows),
    its team opened or not, in the draw phase (a pile whose top it can take) or the play phase."""
    deck = make_deck(rules.decks, rules.jokers)
    rng.shuffle(deck)
    wilds = [c for c in deck if c.is_wild]
    naturals = [c for c in deck if c.is_natural or c.is_black_three]
    size = rng.randint(30, min(60, len(naturals) // 2))
    hand = wilds[: rng.randint(4, min(12, len(wilds)))]
    melds: list[list[Card]] = []
    opened = rng.random() < 0.6
    if opened:
        for rank in rng.sample(NATURAL_RANKS, rng.randint(1, 3)):
            of_rank = [c for c in naturals if c.rank is rank]
            length = rng.choice((3, 4, 7)) if len(melds) else 7
            melds.append(of_rank[:length])
            for c in of_rank[:length]:
                naturals.remove(c)
    more = size - len(hand)
    hand += naturals[:more]
    del naturals[:more]
    top = next(c for c in naturals if c.is_natural and sum(h.rank is c.rank for h in hand) >= 2)
    naturals.remove(top)
    pile = [*naturals[: rng.randint(0, 8)], top]
    used = [*hand, *pile, *(c for m in melds for c in m)]
    stock = list(deck)
    for c in used:
        stock.remove(c)
    stock = [c for c in stock if not rules.is_bonus_three(c)][:10]
    phase = rng.choice(("draw", "play"))
    players, teams = rules.players, rules.teams
    dealer, sitting_out = default_dealer(rules, 0)
    seat = State.blank(rules, [0] * teams, dealer, sitting_out).now.seat
    team = rules.team_of(seat)
    hands: list[list[str]] = [[] for _ in range(players)]
    hands[seat] = [c.code for c in hand]
    team_melds: list[list[list[str]]] = [[] for _ in range(teams)]
    team_melds[team] = [[c.code for c in m] for m in melds]
    position = {
        "format": "canasta-position/1",
        "variant": rules.variant,
        "players": players,
        "options": rules.to_options(),
        "scores": [rng.choice((0, 1600, 3100)) for _ in range(teams)],
        "dealer": dealer,
        "turn": seat,
        "phase": phase,
        "drew": "stock" if phase == "play" else None,
        "hands": hands,
        "stock": [c.code for c in stock],
        "pile": [c.code for c in pile],
        "melds": team_melds,
        "red_threes": [[] for _ in range(teams)],
        "opened": [opened and t == team for t in range(teams)],
        "seat_melded": [opened and s == seat for s in range(players)],
    }
    if sitting_out is not None:
        position["sitting_out"] = sitting_out
    return position_from_json(position)


def large_hand_positions(rules: RuleSet, count: int, seed: int) -> Iterator[State]:
    """`count` seeded positions of `large_hand_position`."""
    rng = random.Random(seed)
    for _ in range(count):
        yield large_hand_position(rules, rng)
