"""Find a way to meld every card of a hand at once (going out without a discard).

Meld rules never tell a joker from a two, so the search shares out the number of wild cards: a
small dynamic programme over the target melds (wild cards used so far -> most canastas), run
once with any wild-card meld complete or absent and once with it incomplete (then no other meld
may take a wild card, Modern American R12).
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import TYPE_CHECKING

from canasta.rules.actions import Group
from canasta.rules.cards import ACE_RANK, SEVEN_RANK, THREE_RANK, WILD_RANK, Card, Rank
from canasta.rules.melds import Melds, dead_ranks, incomplete_special, meld_ok, wild_count, wild_rule_error

if TYPE_CHECKING:
    from canasta.rules.mover import Mover
    from canasta.rules.ruleset import RuleSet

#: A target meld: (rank, cards it holds before the wild cards, wild cards among them, new, must lay)
_Target = tuple[Rank, int, int, bool, bool]


def meld_out(
    mover: Mover, team: int, cards: Sequence[Card], melds: Melds
) -> list[Group] | None:
    """Groups that meld all `cards` onto the team's `melds` and leave the team able to go out.

    Returns None when no such melding exists. The team is taken as opened.
    """
    groups = melding_out(mover, team, cards, melds)
    if groups is None:
        return None
    return [Group(tuple(cs), _explicit(r, cs)) for r, cs in groups.items()]


def melding_out(
    mover: Mover, team: int, cards: Sequence[Card], melds: Melds
) -> dict[Rank, list[Card]] | None:
    """`meld_out`'s cards by the rank of their meld (None when no melding exists), without
    making the groups: whether one exists is all most callers ask."""
    rules = mover.rules
    naturals: dict[Rank, list[Card]] = {}
    wilds: list[Card] = []
    for c in cards:
        if c.is_red_three:
            return None
        if c.is_wild:
            wilds.append(c)
        else:
            naturals.setdefault(c.rank, []).append(c)
    if short_rank(rules, {r: len(cs) for r, cs in naturals.items()}, melds):
        return None
    dead = dead_ranks(rules, [melds if t == team else mover.board.melds[t] for t in range(rules.teams)])
    if any(r in dead for r in naturals):
        return None
    targets: list[_Target] = []
    for rank, cs in naturals.items():
        before = melds.get(rank, ())
        targets.append((rank, len(before) + len(cs), wild_count(before), rank not in melds, True))
    for rank, before in melds.items():
        if rank not in naturals and rank is not THREE_RANK:
            targets.append((rank, len(before), wild_count(before), False, False))
    if rules.wild_melds != "none" and WILD_RANK not in melds:
        targets.append((WILD_RANK, 0, 0, True, False))
    aimed = {t[0] for t in targets}
    fixed_canastas = sum(1 for r, cs in melds.items() if len(cs) >= 7 and r not in aimed)
    for wild_meld_incomplete in (False, True) if rules.wild_melds == "progressive" else (False,):
        shares = _share(rules, targets, len(wilds), wild_meld_incomplete, fixed_canastas)
        if shares is None:
            continue
        groups: dict[Rank, list[Card]] = {r: list(cs) for r, cs in naturals.items()}
        taken = 0
        for target, w in zip(targets, shares, strict=True):
            if w:
                groups.setdefault(target[0], []).extend(wilds[taken : taken + w])
                taken += w
        if _valid(mover, team, groups, melds):
            return groups
    return None


def short_rank(rules: RuleSet, naturals: Mapping[Rank, int], melds: Container[Rank]) -> bool:
    """Whether a rank of cards that are not wild (counts by rank) is too short for a meld of its
    own and has no meld to join: then no melding of them all exists."""
    least = rules.meld_min_naturals
    return any(0 < count < least and rank not in melds for rank, count in naturals.items())


def _explicit(rank: Rank, cards: Sequence[Card]) -> Rank | None:
    """The rank a group must name: only wild cards added to a natural meld."""
    return rank if rank is not WILD_RANK and all(c.is_wild for c in cards) else None


def _share(
    rules: RuleSet, targets: Sequence[_Target], total: int, wild_meld_incomplete: bool, fixed: int
) -> list[int] | None:
    """Wild cards per target so that every meld is valid and the team may go out, or None."""
    need = rules.go_out_min_canastas
    progressive = rules.wild_melds == "progressive"
    options: list[list[tuple[int, int]]] = []
    for rank, size, wilds, new, must in targets:
        choices = []
        for w in range(total + 1):
            final = size + w
            if w == 0 and new and not must:
                choices.append((0, 0))  # nothing laid
                continue
            if not meld_ok(rules, rank, final, wilds + w, new):
                continue
            if rank is WILD_RANK:
                if progressive and (0 < final < 7) != wild_meld_incomplete:
                    continue
            elif w and wild_rule_error(rules, rank, final - wilds - w, False, wild_meld_incomplete):
                continue
            special = rank in (SEVEN_RANK, WILD_RANK) or (rank is ACE_RANK and wilds + w == 0)
            if rules.forbid_go_out_with_incomplete_special and final < 7 and special:
                continue
            choices.append((w, 1 if final >= 7 else 0))
        if not choices:
            return None
        options.append(choices)
    # most[used]: the most canastas over the targets seen so far with `used` wild cards (-1: none
    # reaches it); reached: those numbers, in the order first reached; picks: each target's share
    # on the way to each number (the first best found)
    most = [-1] * (total + 1)
    most[0] = fixed
    reached = [0]
    picks: list[list[int]] = []
    for choices in options:
        step = [-1] * (total + 1)
        pick = [0] * (total + 1)
        order: list[int] = []
        for used in reached:
            canastas = most[used]
            for w, canasta in choices:
                u = used + w
                if u > total:
                    continue
                if step[u] < 0:
                    order.append(u)
                if step[u] < canastas + canasta:
                    step[u] = canastas + canasta
                    pick[u] = w
        most, reached = step, order
        picks.append(pick)
    if most[total] < need:
        return None
    shares = [0] * len(picks)
    used = total
    for i in range(len(picks) - 1, -1, -1):
        shares[i] = picks[i][used]
        used -= shares[i]
    return shares


def _valid(
    mover: Mover,
    team: int,
    groups: Mapping[Rank, Sequence[Card]],
    melds: Melds,
) -> bool:
    """The full check of a candidate melding (the search models the rules by counts)."""
    rules = mover.rules
    after = dict(melds)  # the melds as they would stand (those the groups join, new lists)
    for rank, cs in groups.items():
        after[rank] = [*melds.get(rank, ()), *cs]
    wild_meld = after.get(WILD_RANK)
    pending = rules.wild_melds == "progressive" and wild_meld is not None and len(wild_meld) < 7
    for rank, cs in groups.items():
        before = melds.get(rank)
        final = after[rank]
        w = wild_count(final)
        if not meld_ok(rules, rank, len(final), w, before is None):
            return False
        if (
            rank is not WILD_RANK
            and wild_count(cs)
            and wild_rule_error(rules, rank, len(final) - w, False, pending)
        ):
            return False
    if rules.forbid_go_out_with_incomplete_special and any(
        incomplete_special(r, cs) for r, cs in after.items()
    ):
        return False
    return mover.go_out_refusal(team, after) is None
