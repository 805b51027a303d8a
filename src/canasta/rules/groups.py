"""The groups of a meld or a pickup read from its cards: the rank each melds, the cards it
takes from the hand, its counts (naturals, jokers, twos)."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.rules.actions import Group
from canasta.rules.cards import ALL_CARDS, WILD_RANK, Card, Rank
from canasta.rules.errors import IllegalActionError
from canasta.rules.judge import Spec
from canasta.rules.refusal import Code, Refusal


def not_in_hand(card: Card, text: str) -> Refusal:
    """The refusal of a card that the hand does not hold."""
    return Refusal(Code.CARD_NOT_IN_HAND, text, None, {"card": card.code})


def read_groups(
    groups: tuple[Group, ...],
    hand: list[Card],
    top: Card | None,
    top_with: tuple[Card, ...],
    checked: bool = True,
) -> tuple[list[Card], list[tuple[Rank, Sequence[Card]]]]:
    """The cards a step takes from the hand, and its groups as (rank, cards), the top's first
    (`checked`: refuse cards that the hand does not hold)."""
    used: list[Card] = list(top_with)
    for g in groups:
        used.extend(g.cards)
    if checked:
        _check_in_hand(used, hand)
    steps: list[tuple[Rank, Sequence[Card]]] = []
    if top is not None:
        steps.append((top.rank, (*top_with, top)))
    for g in groups:
        if not g.cards:
            raise IllegalActionError.of(Code.EMPTY_GROUP, "a group needs at least one card")
        steps.append((group_rank(g), g.cards))
    return used, steps


def spec_of(rank: Rank, cards: Sequence[Card]) -> Spec:
    """A group's counts: naturals (black threes for rank 3), jokers, twos."""
    jokers = twos = 0
    for c in cards:
        if c.is_joker:
            jokers += 1
        elif c.is_two:
            twos += 1
    return rank, len(cards) - jokers - twos, jokers, twos


def group_rank(group: Group) -> Rank:
    """The rank a group melds: explicit, or that of its natural cards (A50)."""
    rank: Rank | None = None
    for card in group.cards:
        if card.is_wild:
            continue
        r = card.rank
        if card.is_red_three:
            raise IllegalActionError.of(Code.BAD_MELD, "red threes are never melded", "red_three")
        if rank is None:
            rank = r
        elif rank is not r:
            raise IllegalActionError.of(
                Code.MIXED_RANKS, "a meld holds cards of one rank (sequences are not melds)"
            )
    if group.rank is not None:
        if rank is not None and rank is not group.rank:
            raise IllegalActionError.of(
                Code.MIXED_RANKS, f"group of rank {group.rank.value} holds {rank.value}s"
            )
        return group.rank
    return WILD_RANK if rank is None else rank


def _check_in_hand(cards: list[Card], hand: list[Card]) -> None:
    if len(cards) == 1:
        if cards[0] not in hand:
            raise IllegalActionError(not_in_hand(cards[0], f"{cards[0].code} is not in your hand"))
        return
    need = [0] * len(ALL_CARDS)  # by the card's index
    named: list[Card] = []  # each card value once, in the order named
    for c in cards:
        if not need[c.index]:
            named.append(c)
        need[c.index] += 1
    held = [0] * len(ALL_CARDS)
    for c in hand:
        held[c.index] += 1
    for c in named:
        have = held[c.index]
        if have < need[c.index]:
            detail = "is not in your hand" if have == 0 else f"is only {have} time(s) in your hand"
            raise IllegalActionError(not_in_hand(c, f"{c.code} {detail}"))
