"""The deal procedure (RULES.md 1.3-1.5): who plays, the cards dealt, the upcard, the threes laid out.

A deal is dealt from an explicit deck (index 0 is the top card), as FORMATS.md describes: the
cards go round one at a time from the dealer's left, the upcard is turned as the rule set says,
and each player lays out the bonus threes dealt to them, replacing each from the stock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from canasta.rules.cards import ALL_CARDS, Card, make_deck
from canasta.rules.errors import InvalidActionError
from canasta.rules.parts import Turn
from canasta.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from canasta.rules.state import State

T = TypeVar("T")

#: With 5 players, the trio seat that sits out deal 1, 2, 3 (then again from the first).
FIVE_PLAYER_SIT_OUT: Final = (4, 0, 2)

#: The key of `seat_teams` in a rule set's cache.
_SEAT_TEAMS: Final = "seat_teams"
#: The key of `bonus_threes` in a rule set's cache.
_BONUS_THREES: Final = "bonus_threes"


def active_order(players: int, sitting_out: int | None) -> tuple[int, ...]:
    """Seats that play a deal, in turn order (5 players: trio 0,2,4 with one out, pair 1,3)."""
    if players != 5:
        return tuple(range(players))
    trio = [s for s in (0, 2, 4) if s != sitting_out]
    return (trio[0], 1, trio[1], 3)


def seat_teams(rules: RuleSet) -> tuple[int, ...]:
    """Each seat's team (`rules.team_of`), made once per rule set: compiled code reads it by index."""
    teams: tuple[int, ...] | None = rules.cache.get(_SEAT_TEAMS)
    if teams is None:
        teams = rules.cache[_SEAT_TEAMS] = tuple([rules.team_of(seat) for seat in range(rules.players)])
    return teams


def bonus_threes(rules: RuleSet) -> tuple[bool, ...]:
    """Whether each card, by its index, is a bonus three (`rules.is_bonus_three`), made once per
    rule set: compiled code reads it by index."""
    bonus: tuple[bool, ...] | None = rules.cache.get(_BONUS_THREES)
    if bonus is None:
        bonus = rules.cache[_BONUS_THREES] = tuple([rules.is_bonus_three(c) for c in ALL_CARDS])
    return bonus


def deal_into(s: State, deck: Sequence[Card]) -> None:
    """Deal `deck` onto the empty table `s` (`State.blank`): the first player to the dealer's
    left is to move."""
    rules = s.rules
    dealer = s.board.dealer
    check_deck(rules, deck)
    if dealer not in s.order:
        raise InvalidActionError(f"dealer {dealer} does not play this deal", "bad_dealer")
    seats = []
    seat = dealer
    for _ in s.order:
        seat = s.next_seat(seat)
        seats.append(seat)
    pos = 0
    for _ in range(rules.hand_size):
        for seat in seats:
            s.hands[seat].append(deck[pos])
            pos += 1
    pos = _turn_upcard(s, deck, pos)
    s.cards.stock = list(reversed(deck[pos:]))
    for seat in seats:
        _lay_out_threes(s, seat)
    s.now = Turn.begin(seats[0], True)


def _turn_upcard(s: State, deck: Sequence[Card], pos: int) -> int:
    """Turn the upcard (again on a wild card or a three, as the rule set says)."""
    rules = s.rules
    mode = rules.upcard_mode
    if mode == "none":
        return pos
    while pos < len(deck):
        card = deck[pos]
        pos += 1
        s.pile.append(card)
        if card.is_wild and "wild" in rules.freeze_triggers:
            s.board.pile_frozen = True
        if card.is_red_three and "red3_upcard" in rules.freeze_triggers:
            s.board.pile_frozen = True
        if mode == "single":
            break
        if not (card.is_wild or card.is_red_three or (card.is_black_three and rules.upcard_skip_black3)):
            break
    return pos


def _lay_out_threes(s: State, seat: int) -> None:
    """The bonus threes dealt to `seat` go to its team, each replaced from the stock."""
    hand = s.hands[seat]
    team = s.rules.team_of(seat)
    bonus = bonus_threes(s.rules)
    i = 0
    while i < len(hand):
        card = hand[i]
        if bonus[card.index] and s.stock:
            s.threes[team].append(card)
            hand[i] = s.stock.pop()
        else:
            i += 1


def check_deck(rules: RuleSet, deck: Sequence[Card]) -> None:
    """A deck must hold exactly the cards of the rule set's packs."""
    expected: list[int] | None = rules.cache.get("deck_counts")
    if expected is None:
        expected = rules.cache["deck_counts"] = card_counts(make_deck(rules.decks, rules.jokers))
    if len(deck) != rules.deck_size:
        raise InvalidActionError(
            f"the deck has {len(deck)} cards, the rule set uses {rules.deck_size}", "bad_deck"
        )
    counts = card_counts(deck)
    if counts != expected:
        for c in ALL_CARDS:
            have, want = counts[c.index], expected[c.index]
            if have != want:
                raise InvalidActionError(f"the deck holds {have} of {c.code}, expected {want}", "bad_deck")


def card_counts(cards: Sequence[Card]) -> list[int]:
    """How many of each card value, by its index."""
    counts = [0] * len(ALL_CARDS)
    for c in cards:
        counts[c.index] += 1
    return counts


def shuffle(rng: random.Random, items: list[T]) -> None:
    """`rng.shuffle(items)`: the same order from the same generator, drawn the same way
    (`getrandbits`, as `random.Random` does), without its interpreted loop."""
    draw = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = draw(bits)
        while j >= n:
            j = draw(bits)
        items[i], items[j] = items[j], items[i]
