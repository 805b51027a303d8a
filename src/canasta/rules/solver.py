"""Find a way to meld every card of a hand at once (going out without a discard)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from canasta.rules.actions import Group
from canasta.rules.cards import Card, Rank
from canasta.rules.melds import dead_ranks, meld_error, wild_count, wild_rule_error

if TYPE_CHECKING:
    from canasta.rules.state import State


def meld_out(
    state: State, team: int, cards: Sequence[Card], melds: Mapping[Rank, Sequence[Card]]
) -> list[Group] | None:
    """Groups that meld all `cards` onto the team's `melds` and leave the team able to go out.

    Returns None when no such melding exists. The team is taken as opened.
    """
    rules = state.rules
    naturals: dict[Rank, list[Card]] = {}
    wilds: list[Card] = []
    for c in cards:
        if c.is_red_three:
            return None
        if c.is_wild:
            wilds.append(c)
        else:
            naturals.setdefault(c.rank, []).append(c)
    if any(r not in melds and len(cs) < rules.meld_min_naturals for r, cs in naturals.items()):
        return None
    dead = dead_ranks(rules, [melds if t == team else state.melds[t] for t in range(rules.teams)])
    if any(r in dead for r in naturals):
        return None
    targets = list(naturals)
    targets += [r for r in melds if r not in naturals and r is not Rank.THREE]
    if rules.wild_melds != "none" and Rank.WILD not in targets:
        targets.append(Rank.WILD)
    for assignment in _assignments(wilds, len(targets)):
        groups: dict[Rank, list[Card]] = {r: list(cs) for r, cs in naturals.items()}
        for w, i in zip(wilds, assignment, strict=True):
            groups.setdefault(targets[i], []).append(w)
        if _valid(state, team, groups, melds):
            return [
                Group(
                    tuple(cs),
                    r if not any(not c.is_wild for c in cs) and r is not Rank.WILD else None,
                )
                for r, cs in groups.items()
            ]
    return None


def _assignments(wilds: Sequence[Card], n_targets: int) -> Iterator[tuple[int, ...]]:
    """Every way to send each wild card to a target (jokers and twos told apart only by kind)."""
    if not wilds:
        yield ()
        return
    if n_targets == 0:
        return
    seen: set[tuple[tuple[int, bool], ...]] = set()

    def rec(i: int, acc: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if i == len(wilds):
            key = tuple(sorted((t, w.is_joker) for t, w in zip(acc, wilds, strict=True)))
            if key not in seen:
                seen.add(key)
                yield acc
            return
        for t in range(n_targets):
            yield from rec(i + 1, (*acc, t))

    yield from rec(0, ())


def _valid(
    state: State,
    team: int,
    groups: Mapping[Rank, Sequence[Card]],
    melds: Mapping[Rank, Sequence[Card]],
) -> bool:
    rules = state.rules
    after = {r: list(cs) for r, cs in melds.items()}
    for rank, cs in groups.items():
        after.setdefault(rank, []).extend(cs)
    wild_meld = after.get(Rank.WILD)
    pending = rules.wild_melds == "progressive" and wild_meld is not None and len(wild_meld) < 7
    for rank, cs in groups.items():
        before = melds.get(rank)
        final = after[rank]
        w = wild_count(final)
        if meld_error(rules, rank, len(final), w, before is None):
            return False
        if (
            rank is not Rank.WILD
            and wild_count(cs)
            and wild_rule_error(rules, rank, len(final) - w, False, pending)
        ):
            return False
    return state.may_go_out(team, after) is None
