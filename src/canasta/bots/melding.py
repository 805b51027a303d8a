"""Meld planning for one seat: the opening, the melds of a turn, and going out.

Candidates are built from the hand and checked by the engine's validator on what the seat to
move knows (its `Mover`): a candidate accepted there is legal at the real table.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, TypeVar

from canasta.bots.skill import SOLO_MELDED, Skill
from canasta.bots.table import NO_CARDS, Table
from canasta.rules.actions import Action, Group, Meld
from canasta.rules.cards import Card, Rank
from canasta.rules.hand import HandKinds, group_of, meld_of, single_meld
from canasta.rules.legal import DISCARDS
from canasta.rules.melds import Melds, meld_ok, wild_count, wild_rule_error
from canasta.rules.ruleset import RuleSet
from canasta.rules.state import mover_after

T = TypeVar("T")

CANASTA: Final = 7


def wild_room(
    rules: RuleSet, rank: Rank, size: int, wilds: int, new: bool, opening: bool, pending: bool
) -> int:
    """How many wild cards a meld of `rank` holding `size` cards (`wilds` of them wild) may take."""
    room = 0
    for w in range(1, rules.meld_max_wilds - wilds + 1):
        if not meld_ok(rules, rank, size + w, wilds + w, new):
            break
        if wild_rule_error(rules, rank, size - wilds, opening, pending):
            break
        room = w
    return room


def wild_meld_pending(rules: RuleSet, melds: dict[Rank, list[Card]]) -> bool:
    """Whether the team's progressive wild meld is incomplete (wilds then go only into it)."""
    meld = melds.get(Rank.WILD)
    return rules.wild_melds == "progressive" and meld is not None and len(meld) < CANASTA


#: Modern American: the bonus of a natural canasta of sevens or aces, the penalty when such a
#: meld stays incomplete, and the penalty for three of them left in one hand (RULES.md R13, R27).
SPECIAL_STAKE: Final = 2500.0
HAND_SET_PENALTY: Final = 1500.0
#: The chance of completing a meld short of `k` cards (index k), roughly.
_COMPLETE_CHANCE: Final = (0.95, 0.55, 0.3, 0.15, 0.07)


def special_outlook(table: Table, rank: Rank, size: int, wilds: int, spare: int) -> float:
    """The expected bonus minus penalty of a Modern American meld of sevens, clean aces or wild
    cards holding `size` cards (`wilds` of them wild), with `spare` more of its cards in hand."""
    rules = table.rules
    if not rules.special_canasta_bonuses:
        return 0.0
    if rank is Rank.WILD:
        unseen = rules.decks * 4 + rules.jokers
    elif rank is Rank.SEVEN or (rank is Rank.ACE and not wilds):
        unseen = table.unseen(rank)
    else:
        return 0.0
    missing = max(0, CANASTA - size - spare)
    if missing > unseen or missing >= len(_COMPLETE_CHANCE):
        return -SPECIAL_STAKE
    return SPECIAL_STAKE * (2 * _COMPLETE_CHANCE[missing] - 1)


def risky_special(table: Table, rank: Rank, size: int, wilds: int) -> bool:
    """Whether starting this special meld is worse than keeping its cards in hand."""
    return special_outlook(table, rank, size, wilds, 0) < -HAND_SET_PENALTY


# -- the opening ---------------------------------------------------------------------------------


def opening_meld(table: Table, skill: Skill) -> Meld | None:
    """The cheapest legal opening from hand: fewest wild cards, then most points."""
    for groups in _opening_candidates(table, skill):
        action = meld_of(tuple(groups))
        if table.mover.check(action) is None:
            return action
    return None


def _opening_candidates(table: Table, skill: Skill) -> list[list[Group]]:
    rules = table.rules
    parts = table.kinds
    minimum = table.mover.minimum(table.team)
    wilds = parts.wilds
    # Each rank's group: all its naturals, or a pair with one wild.
    options: list[tuple[Rank, list[Card], int]] = []  # (rank, naturals, wilds needed)
    for rank, nat in parts.naturals.items():
        if rank in table.dead:
            continue
        cap = rules.meld_max_size or len(nat)
        nat = nat[:cap]
        if len(nat) >= 3:
            needs = 0
        elif len(nat) == 2 and wild_room(rules, rank, 2, 0, True, True, False) >= 1:
            needs = 1
        else:
            continue
        if skill.special_care and risky_special(table, rank, len(nat), needs):
            if rank is Rank.ACE and wilds and wild_room(rules, rank, len(nat), 0, True, True, False):
                needs = 1  # aces with a wild are an ordinary meld
            else:
                continue
        options.append((rank, nat, needs))
    found: list[tuple[int, int, list[Group]]] = []
    n = len(options)
    most = sum(c.points for _, nat, _ in options for c in nat) + sum(c.points for c in wilds)
    if most < minimum and not rules.opening_canasta_exempt:
        n = 0  # not even every group with every wild card reaches the minimum
    for mask in range(1, 1 << min(n, 8)):
        chosen = [options[i] for i in range(n) if mask >> i & 1]
        need = sum(o[2] for o in chosen)
        if need > len(wilds):
            continue
        groups, points, used = _with_wilds(rules, chosen, wilds, minimum)
        if groups is not None:
            found.append((used, -points, groups))
    if rules.wild_melds == "progressive" and len(wilds) >= (CANASTA if skill.special_care else 3):
        found.append((len(wilds), 0, [group_of(tuple(wilds[:CANASTA]))]))
    found.sort(key=lambda f: (f[0], f[1]))
    clean = rules.initial_meld_composition == "clean_or_wild"
    return [f[2] for f in found[:6] if not clean or any(_clean(g) for g in f[2])]


def _clean(group: Group) -> bool:
    """A group of wild cards only, or of three or more naturals and no wild card (what a
    `clean_or_wild` opening needs one of)."""
    wild = sum(1 for c in group.cards if c.is_wild)
    return wild == len(group.cards) or (wild == 0 and len(group.cards) >= 3)


def _with_wilds(
    rules: RuleSet, chosen: list[tuple[Rank, list[Card], int]], wilds: list[Card], minimum: int
) -> tuple[list[Group] | None, int, int]:
    """Groups for the chosen ranks, topped up with wild cards until they reach the minimum."""
    spare = wilds[:]
    taken: dict[Rank, list[Card]] = {}
    for rank, _nat, needs in chosen:
        taken[rank] = [spare.pop() for _ in range(needs)]  # twos first for pairs
    points = sum(c.points for rank, nat, _ in chosen for c in (*nat, *taken[rank]))
    for rank, nat, _needs in sorted(chosen, key=lambda o: -len(o[1])):
        while points < minimum and spare:
            have = taken[rank]
            if wild_room(rules, rank, len(nat) + len(have), len(have), True, True, False) < 1:
                break
            card = _closing_wild(spare, minimum - points)
            spare.remove(card)
            have.append(card)
            points += card.points
    if points < minimum and not rules.opening_canasta_exempt:
        return None, 0, 0
    groups = [group_of((*nat, *taken[rank])) for rank, nat, _ in chosen]
    return groups, points, sum(len(t) for t in taken.values())


def _closing_wild(spare: list[Card], short: int) -> Card:
    """The wild card to add to an opening `short` points below the minimum: a two if one closes
    the gap, else a joker (most points) if there is one."""
    two = next((c for c in spare if c.is_two), None)
    if two is not None and two.points >= short:
        return two
    return spare[0]


# -- building during a turn ----------------------------------------------------------------------


def next_build(table: Table, skill: Skill, shed: bool) -> Meld | None:
    """The next meld of a turn that does not go out, or None to stop melding.

    `shed`: the deal may end soon, so meld whatever lowers the cards left in hand.
    """
    mover = table.mover
    if shed:
        keep = 2
    elif table.can_go_out_team(table.team):
        keep = skill.min_keep
    else:
        keep = max(skill.min_keep, skill.hold)
        if skill.solo_hold and not table.partners and table.rules.draw_count == 1:
            keep = max(keep, table.rules.hand_size - SOLO_MELDED)
    size = len(table.hand)
    for cards, rank, completes in _build_candidates(table, skill, shed):
        after = size - len(cards)
        if after < keep and not (completes and after >= 2):
            continue
        action = single_meld(cards, rank)
        if mover.check(action) is None:
            return action
    return None


#: A group to meld: its cards, its explicit rank (or None), and whether it completes a canasta.
Candidate = tuple[tuple[Card, ...], Rank | None, bool]


def _ordered(items: list[T], keys: list[int]) -> list[T]:
    """`items` by their `keys` (one each), smallest first, in the given order among equal keys
    (`sorted` with a key, for the few items here)."""
    if len(items) < 2:
        return items[:]
    out: list[T] = []
    held: list[int] = []
    for n, item in enumerate(items):
        key = keys[n]
        i = len(out)
        while i > 0 and held[i - 1] > key:
            i -= 1
        out.insert(i, item)
        held.insert(i, key)
    return out


def _build_candidates(table: Table, skill: Skill, shed: bool) -> Iterator[Candidate]:
    """Groups worth melding, best first. Within a step on the team's melds, the longest meld
    comes first (in table order among equals): each step finds its groups in table order and
    then orders them, which is the order of the melds sorted first."""
    rules = table.rules
    melds = table.board.melds[table.team]
    parts = table.kinds
    naturals = parts.naturals
    wilds = parts.wilds
    cap = rules.meld_max_size or 10**6
    pending = wild_meld_pending(rules, melds)
    need_canastas = table.canastas() < rules.go_out_min_canastas
    open_melds = [  # each with the naturals of its rank in hand
        (r, m, naturals.get(r, NO_CARDS)) for r, m in melds.items() if r not in (Rank.WILD, Rank.THREE)
    ]
    # 1. Naturals that complete a canasta.
    found: list[Candidate] = []
    keys: list[int] = []
    for _, meld, nat in open_melds:
        if len(meld) < CANASTA <= len(meld) + len(nat):
            found.append((tuple(nat[: cap - len(meld)]), None, True))
            keys.append(-len(meld))
    for candidate in _ordered(found, keys):
        yield candidate
    # 2. Wild cards that complete a canasta (with the naturals of its rank).
    if wilds and not pending:
        found, keys = [], []
        for rank, meld, nat in open_melds:
            size = len(meld) + len(nat)
            need = CANASTA - size
            if need <= 0 or need > len(wilds):
                continue
            eager = skill.wilds != "complete" or shed or need <= (3 if need_canastas else 2)
            room = wild_room(rules, rank, size, wild_count(meld), False, False, pending)
            if eager and need <= room:
                found.append(((*nat, *wilds[:need]), rank if not nat else None, True))
                keys.append(-len(meld))
        for candidate in _ordered(found, keys):
            yield candidate
    # 3. The wild meld: complete or add to it; start one only with enough wild cards.
    if rules.wild_melds != "none" and wilds:
        wild_meld = melds.get(Rank.WILD)
        if wild_meld is not None and len(wild_meld) < CANASTA:
            done = len(wild_meld) + len(wilds) >= CANASTA
            yield tuple(wilds[: CANASTA - len(wild_meld)]), Rank.WILD, done
        elif wild_meld is None and len(wilds) >= (CANASTA if skill.special_care else 3):
            yield tuple(wilds[:CANASTA]), None, len(wilds) >= CANASTA
    # 4. Naturals onto the team's melds (single cards first: pairs can take the pile).
    found, keys = [], []
    for _, meld, nat in open_melds:
        if nat and len(meld) < cap:
            found.append((tuple(nat[: cap - len(meld)]), None, False))
            keys.append(len(nat) * 1000 - len(meld))  # fewest in hand, then the longest meld
    for candidate in _ordered(found, keys):
        yield candidate
    # 5. New melds of three or more naturals.
    for new, nat in naturals.items():
        if new in melds or new in table.dead or len(nat) < 3:
            continue
        if skill.special_care and risky_special(table, new, min(len(nat), cap), 0):
            continue
        yield tuple(nat[:cap]), None, len(nat) >= CANASTA
    # 6. Wild cards elsewhere, and pairs with a wild, when the level or the moment calls for it.
    if not wilds or pending:
        return
    found, keys = [], []
    for rank, meld, _ in open_melds:
        natural_canasta = len(meld) >= CANASTA and not wild_count(meld)
        if natural_canasta or not (skill.wilds == "greedy" or shed):
            continue
        if wild_room(rules, rank, len(meld), wild_count(meld), False, False, pending):
            found.append((tuple(wilds[:1]), rank, len(meld) + 1 == CANASTA))
            keys.append(-len(meld))
    for candidate in _ordered(found, keys):
        yield candidate
    if not skill.keep_pairs or shed:
        for new, nat in naturals.items():
            if len(nat) == 2 and new not in melds and new not in table.dead:
                if skill.special_care and risky_special(table, new, 3, 1):
                    continue
                yield (*nat, wilds[-1]), None, False


# -- going out -----------------------------------------------------------------------------------


def go_out(table: Table) -> Action | None:
    """The first action of a legal way to go out this turn, if one is found.

    Either the last card's discard, or one meld action of every card but the one kept for the
    final discard (or of every card, when no discard is needed).
    """
    mover = table.mover
    hand = table.hand
    if len(hand) == 1:
        last = DISCARDS[hand[0].index]
        return last if mover.check(last) is None else None
    if not may_go_out_this_turn(table):
        return None
    for keep in _keep_candidates(table):
        for groups in _go_out_groups(table, keep):
            action = meld_of(tuple(groups))
            if mover.check(action) is not None:
                continue
            if keep is None or mover_after(mover, action).check(DISCARDS[keep.index]) is None:
                return action
    return None


def may_go_out_this_turn(table: Table) -> bool:
    """Whether going out this turn may be possible for the seat: its side has the canastas it
    needs (or is one card from them), or its hand could complete them (a cheap bound)."""
    facts = table.facts
    if facts.may_go_out is None:
        facts.may_go_out = table.can_go_out_team(table.team) or _may_complete(table)
    return facts.may_go_out


def _may_complete(table: Table) -> bool:
    """Whether this hand could complete the canastas the team still needs (a cheap bound)."""
    parts = table.kinds
    melds = table.melds
    spare = len(parts.jokers) + len(parts.twos)
    need = table.rules.go_out_min_canastas - table.canastas()
    sizes: list[int] = []  # the ranks in hand, largest first, then the short melds of the others
    for r, nat in parts.naturals.items():
        meld = melds.get(r)
        sizes.append(len(nat) + (0 if meld is None else len(meld)))
    sizes.sort()
    sizes.reverse()
    others: list[int] = []
    for r, m in melds.items():
        if r not in parts.naturals and len(m) < CANASTA:
            others.append(len(m))
    others.sort()
    others.reverse()
    sizes.extend(others)
    for size in sizes:
        if need <= 0:
            break
        if size >= CANASTA:
            need -= 1
        elif CANASTA - size <= min(spare, 3):
            spare -= CANASTA - size
            need -= 1
    if need > 0 and table.rules.wild_melds != "none" and spare >= CANASTA:
        need -= 1
    return need <= 0


def _keep_candidates(table: Table) -> list[Card | None]:
    """Cards that might be kept for the final discard (None: meld everything)."""
    rules = table.rules
    parts = table.kinds
    melds = table.melds
    stuck: list[Card] = []
    for rank, nat in parts.naturals.items():
        if rank in table.dead or (rank not in melds and len(nat) < rules.meld_min_naturals):
            stuck.extend(nat)
    if 0 < len(parts.black_threes) < 3 or len(parts.black_threes) > 4:
        stuck.extend(parts.black_threes)
    if len(stuck) > 1:
        return []
    if stuck:
        return [stuck[0]]
    out: list[Card | None] = [] if rules.go_out_discard == "mandatory" else [None]
    spare = [c for c in dict.fromkeys(table.hand) if not c.is_three]
    spare.sort(key=_keep_order)
    out.extend(spare[:3])
    return out


def _keep_order(card: Card) -> int:
    """Naturals before wild cards, each the cheapest first (points are below 1000)."""
    return card.points + (1000 if card.is_wild else 0)


def _go_out_groups(table: Table, keep: Card | None) -> list[list[Group]]:
    """Ways to meld every card but `keep`, leaving the team able to go out (unchecked)."""
    rules = table.rules
    naturals, black_threes, spare = _kinds_without(table.kinds, keep)
    melds = table.melds
    opening = not table.opened
    base: dict[Rank, list[Card]] = {}
    needy: list[Rank] = []
    for rank, nat in naturals.items():
        base[rank] = list(nat)
        if rank not in melds and len(nat) < 3:
            if len(nat) < rules.meld_min_naturals:
                return []
            needy.append(rank)
    if black_threes:
        if not 3 <= len(black_threes) <= 4:
            return []
        base[Rank.THREE] = list(black_threes)
    extra: dict[Rank, list[Card]] = {r: [] for r in base}
    for rank in needy:
        if not spare:
            return []
        extra[rank].append(spare.pop())
    targets: list[Rank] = [r for r in base if r is not Rank.THREE]
    targets.extend([r for r in melds if r not in base and r not in (Rank.THREE, Rank.WILD)])
    canastas = 0
    for r in targets:
        if _size(melds, base, extra, r) >= CANASTA:
            canastas += 1
    for r in melds:
        if r not in targets and _size(melds, base, extra, r) >= CANASTA:
            canastas += 1
    wanted = rules.go_out_min_canastas - canastas
    for rank in _ordered(targets, [-_size(melds, base, extra, r) for r in targets]):
        if wanted <= 0:
            break
        size = _size(melds, base, extra, rank)
        need = CANASTA - size
        if 0 < need <= len(spare):
            meld = melds.get(rank, NO_CARDS)
            w = wild_count(meld) + len(extra.get(rank, NO_CARDS))
            if need <= wild_room(rules, rank, size, w, rank not in melds, opening, False):
                extra.setdefault(rank, []).extend(spare[:need])
                del spare[:need]
                wanted -= 1
    out: list[list[Group]] = []
    wild_meld = len(melds.get(Rank.WILD, NO_CARDS)) + len(spare)
    if rules.wild_melds != "none" and spare and (wanted <= 0 or len(spare) >= CANASTA):
        groups = _groups(base, extra)
        penalised = rules.special_canasta_bonuses and wild_meld < CANASTA
        if (Rank.WILD in melds or len(spare) >= 3) and not penalised:
            groups.append(group_of(tuple(spare), Rank.WILD))
            out.append(groups)
    if wanted > 0:
        return out
    spread = {r: list(ws) for r, ws in extra.items()}
    left = list(spare)
    for rank in _ordered(targets, [-_size(melds, base, extra, r) for r in targets]):
        while left:
            meld = melds.get(rank, NO_CARDS)
            w = wild_count(meld) + len(spread.get(rank, NO_CARDS))
            total = len(meld) + len(base.get(rank, NO_CARDS)) + len(spread.get(rank, NO_CARDS))
            if not wild_room(rules, rank, total, w, rank not in melds, opening, False):
                break
            spread.setdefault(rank, []).append(left.pop())
    if not left:
        out.insert(0, _groups(base, spread))
    return out


def _size(melds: Melds, base: dict[Rank, list[Card]], extra: dict[Rank, list[Card]], rank: Rank) -> int:
    """The cards of `rank` on the table and to be laid, from hand and as extra wild cards."""
    return (
        len(melds.get(rank, NO_CARDS)) + len(base.get(rank, NO_CARDS)) + len(extra.get(rank, NO_CARDS))
    )


def _kinds_without(
    kinds: HandKinds, keep: Card | None
) -> tuple[dict[Rank, list[Card]], list[Card], list[Card]]:
    """The naturals by rank, the black threes and the wild cards (a new list) of the hand of
    `kinds` less the card `keep`, as `HandKinds` of that hand would give them."""
    naturals = kinds.naturals
    black_threes = kinds.black_threes
    wilds = kinds.wilds
    if keep is None:
        return naturals, black_threes, wilds
    if keep.is_natural:
        rest = list(naturals[keep.rank])
        rest.remove(keep)
        naturals = dict(naturals)
        if rest:
            naturals[keep.rank] = rest
        else:
            del naturals[keep.rank]
    elif keep.is_wild:
        wilds.remove(keep)
    elif keep.is_black_three:
        black_threes = list(black_threes)
        black_threes.remove(keep)
    return naturals, black_threes, wilds


def _groups(base: dict[Rank, list[Card]], extra: dict[Rank, list[Card]]) -> list[Group]:
    out = []
    for rank in dict.fromkeys([*base, *extra]):
        cards = (*base.get(rank, ()), *extra.get(rank, ()))
        if cards:
            out.append(group_of(cards, None if base.get(rank) else rank))
    return out
