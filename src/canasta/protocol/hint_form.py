"""A computer player's move in the form the state's `legal` list holds it.

The engine lists melds and pickups in canonical form (cards of one rank are interchangeable,
and a meld of several groups is laid group by group once the side has opened; see
`canasta.rules.legal`), while a computer player may choose the same move with other cards of
a rank, or several groups at once. `listed_form` answers the listed action that plays the same
cards by kind, or else the listed action of the same kind that lays the most of its cards (its
first step; the rest is laid afterwards), so that a hint is always one of the moves in `legal`.
"""

from __future__ import annotations

from collections.abc import Iterable

from canasta.rules.actions import Action, Meld, Pickup
from canasta.rules.cards import Card, Rank
from canasta.rules.groups import group_rank, spec_of
from canasta.rules.view import SeatView

Counts = dict[Rank, tuple[int, int, int]]  # per rank: naturals, jokers, twos


def _add(counts: Counts, rank: Rank, cards: Iterable[Card]) -> None:
    _, naturals, jokers, twos = spec_of(rank, tuple(cards))
    a, b, c = counts.get(rank, (0, 0, 0))
    counts[rank] = (a + naturals, b + jokers, c + twos)


def _laid(action: Meld | Pickup, top: Card | None) -> Counts:
    """The cards an action lays from the hand, by rank and kind."""
    counts: Counts = {}
    if isinstance(action, Pickup) and top is not None:
        _add(counts, top.rank, action.with_)
    for group in action.melds:
        _add(counts, group_rank(group), group.cards)
    return counts


def _within(part: Counts, whole: Counts) -> bool:
    return all(
        rank in whole and all(p <= w for p, w in zip(counts, whole[rank], strict=True))
        for rank, counts in part.items()
    )


def _kind(action: Action) -> tuple[type, bool]:
    return type(action), isinstance(action, Pickup) and action.top_only


def listed_form(view: SeatView, action: Action) -> Action:
    """`action` as the seat's `view.legal` holds it (see the module docstring); the action
    itself when it is listed, or when no listed action lays a part of it."""
    if action in view.legal or not isinstance(action, Meld | Pickup):
        return action
    top = view.board.pile[-1] if view.board.pile else None
    wanted = _laid(action, top)
    best: tuple[int, Action] | None = None
    for listed in view.legal:
        if not isinstance(listed, Meld | Pickup) or _kind(listed) != _kind(action):
            continue
        laid = _laid(listed, top)
        if _within(laid, wanted):
            size = sum(sum(counts) for counts in laid.values())
            if best is None or size > best[0]:
                best = (size, listed)
    return action if best is None else best[1]

