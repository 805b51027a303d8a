"""Legal-move enumeration, free of side effects.

Complete for draw, pickup-method, discard, ask, answer and pass. Melds are yielded in canonical
form: a group is (rank, number of naturals, jokers, twos); cards of one rank are
interchangeable. Openings (and pickups by an unopened team) are combinations of such groups that
reach the minimum, at most `COMBO_LIMIT` of them. Every action listed is accepted by
`State.apply`; candidates are screened with the same meld rules (`canasta.rules.melds`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Group, Meld, Pass, Pickup
from canasta.rules.cards import ALL_CARDS, JOKER, Card, Rank
from canasta.rules.melds import canasta_count, dead_ranks, meld_error, wild_count, wild_rule_error

if TYPE_CHECKING:
    from canasta.rules.state import State

COMBO_LIMIT = 64

#: A candidate group: (rank, naturals, jokers, twos).
Spec = tuple[Rank, int, int, int]


class _Hand:
    """Counts of a hand by what matters for melding."""

    __slots__ = ("black_threes", "jokers", "naturals", "size", "twos")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.naturals: dict[Rank, list[Card]] = {}
        self.jokers: list[Card] = []
        self.twos: list[Card] = []
        self.black_threes: list[Card] = []
        self.size = len(cards)
        for c in cards:
            if c.is_natural:
                self.naturals.setdefault(c.rank, []).append(c)
            elif c.is_joker:
                self.jokers.append(c)
            elif c.is_two:
                self.twos.append(c)
            elif c.is_black_three:
                self.black_threes.append(c)

    def cards_of(self, spec: Spec, jokers_used: int = 0, twos_used: int = 0) -> tuple[Card, ...]:
        rank, k, j, t = spec
        pool = self.black_threes if rank is Rank.THREE else self.naturals.get(rank, [])
        return (
            *pool[:k],
            *self.jokers[jokers_used : jokers_used + j],
            *self.twos[twos_used : twos_used + t],
        )


def legal_actions(state: State) -> list[Action]:
    """The legal actions of the seat to move (see the module docstring for melds)."""
    if state.phase == "ended":
        return []
    if state.permission == "pending":
        return [Answer(True), Answer(False)]
    actions: list[Action] = []
    if state.phase == "draw":
        if state.stock:
            actions.append(Draw())
        pickups = pickup_actions(state)
        if not state.stock and pickups and not state.must_take_pile():
            actions.append(Pass())
        actions.extend(pickups)
    else:
        actions.extend(discard_actions(state))
        actions.extend(meld_actions(state))
    if _may_ask(state):
        actions.append(Ask())
    return actions


def _may_ask(state: State) -> bool:
    rules = state.rules
    mode = rules.permission_mode
    if mode == "off" or not rules.partnership or state.permission is not None:
        return False
    if mode == "once_per_deal_after_draw" and (state.asked[state.turn] or state.phase != "play"):
        return False
    return state.phase == "draw" or (state.drew == "stock" and not state.turn_melded)


def discard_actions(state: State) -> list[Action]:
    if state.must_meld_out:
        return []
    seat = state.turn
    hand = state.hands[seat]
    if len(hand) == 1 and state.may_go_out(state.team_of(seat)) is not None:
        return []
    out: list[Action] = []
    seen: set[Card] = set()
    modern = state.rules.discard_rules == "modern"
    for card in hand:
        if card in seen:
            continue
        seen.add(card)
        if modern and state._modern_discard_error(card, hand, len(hand) == 1):
            continue
        out.append(Discard(card))
    return out


# -- melds ----------------------------------------------------------------------------------------


class _Screen:
    """Checks candidate groups for one team against the meld rules, by counts."""

    def __init__(self, state: State, team: int, hand_size: int) -> None:
        self.state = state
        self.rules = state.rules
        self.team = team
        self.melds = state.melds[team]
        self.opening = not state.opened[team]
        self.dead = dead_ranks(state.rules, state.melds)
        self.hand_size = hand_size
        self.canastas = canasta_count(self.melds)
        wild = self.melds.get(Rank.WILD)
        self.wild_size = len(wild) if wild is not None else -1

    def group_ok(self, spec: Spec, wild_pending: bool) -> bool:
        rank, k, j, t = spec
        if rank in self.dead:
            return False
        before = self.melds.get(rank)
        wilds = j + t
        size = k + wilds
        if before is not None:
            b_wilds = wild_count(before)
            size += len(before)
            wilds += b_wilds
        if meld_error(self.rules, rank, size, wilds, before is None):
            return False
        if j + t and rank is not Rank.WILD:
            return wild_rule_error(self.rules, rank, size - wilds, self.opening, wild_pending) is None
        return True

    def new_canastas(self, specs: Sequence[Spec]) -> int:
        n = 0
        for rank, k, j, t in specs:
            before = self.melds.get(rank)
            b = len(before) if before is not None else 0
            if b < 7 <= b + k + j + t:
                n += 1
        return n

    def wild_pending(self, specs: Sequence[Spec]) -> bool:
        if self.rules.wild_melds != "progressive":
            return False
        size = self.wild_size
        for rank, k, j, t in specs:
            if rank is Rank.WILD:
                size = max(size, 0) + j + t
        return 0 <= size < 7


def _group_specs(hand: _Hand, screen: _Screen, jokers: int, twos: int) -> Iterator[Spec]:
    """Candidate single groups from the counts available (not yet screened)."""
    rules = screen.rules
    max_w = min(rules.meld_max_wilds, 3)
    for rank, cards in hand.naturals.items():
        n = len(cards)
        has_meld = rank in screen.melds
        for k in range(n, 0, -1):
            for j in range(min(jokers, max_w) + 1):
                for t in range(min(twos, max_w - j) + 1):
                    yield (rank, k, j, t)
        if has_meld:
            for j in range(min(jokers, max_w) + 1):
                for t in range(min(twos, max_w - j) + 1):
                    if j + t:
                        yield (rank, 0, j, t)
    if rules.wild_melds != "none":
        low = 1 if Rank.WILD in screen.melds else 3
        for j in range(jokers + 1):
            for t in range(twos + 1):
                if j + t >= low:
                    yield (Rank.WILD, 0, j, t)
    nb = len(hand.black_threes)
    if nb >= 3:
        for k in range(min(nb, 4), 2, -1):
            yield (Rank.THREE, k, 0, 0)


def _to_group(hand: _Hand, spec: Spec, used_j: int, used_t: int) -> Group:
    rank = spec[0]
    cards = hand.cards_of(spec, used_j, used_t)
    explicit = rank if spec[1] == 0 and rank is not Rank.WILD else None
    return Group(cards, explicit)


def _go_out_ok(state: State, screen: _Screen, specs: Sequence[Spec], hand_after: int) -> bool:
    """The hand-size rules of a melding step (A45) given the groups."""
    rules = state.rules
    black = any(s[0] is Rank.THREE for s in specs)
    if hand_after == 0 and rules.go_out_discard == "mandatory":
        return False
    if black and hand_after > (0 if rules.black3_meld_no_discard else 1):
        return False
    if state.must_meld_out and hand_after:
        return False
    if hand_after <= 1:
        canastas = screen.canastas + screen.new_canastas(specs)
        return state.may_go_out(screen.team, canastas) is None
    return True


def meld_actions(state: State) -> list[Action]:
    seat = state.turn
    team = state.team_of(seat)
    hand = _Hand(state.hands[seat])
    screen = _Screen(state, team, hand.size)
    out: list[Action] = []
    if screen.opening:
        for specs in _openings(state, hand, screen, (), None):
            out.append(Meld(_groups(hand, specs)))
        return out
    for spec in _group_specs(hand, screen, len(hand.jokers), len(hand.twos)):
        specs = (spec,)
        if not screen.group_ok(spec, screen.wild_pending(specs)):
            continue
        if not _go_out_ok(state, screen, specs, hand.size - spec[1] - spec[2] - spec[3]):
            continue
        out.append(Meld((_to_group(hand, spec, 0, 0),)))
    if state.must_meld_out and not out:
        from canasta.rules.solver import meld_out

        solution = meld_out(state, team, state.hands[seat], state.melds[team])
        if solution is not None:
            out.append(Meld(tuple(solution)))
    return out


def _groups(hand: _Hand, specs: Sequence[Spec]) -> tuple[Group, ...]:
    groups = []
    used_j = used_t = 0
    for spec in specs:
        groups.append(_to_group(hand, spec, used_j, used_t))
        used_j += spec[2]
        used_t += spec[3]
    return tuple(groups)


def _openings(
    state: State,
    hand: _Hand,
    screen: _Screen,
    base: Sequence[Spec],
    top: Card | None,
    gained: int = 0,
) -> Iterator[tuple[Spec, ...]]:
    """Combinations of groups (after the fixed `base` groups) that make a legal opening.

    With a pickup, `base` is the top card's group (its naturals include the top card).
    """
    rules = state.rules
    minimum = state.minimum(screen.team)
    hand_size = hand.size + (1 if top is not None else 0)
    base_points = sum(_points(hand, s) for s in base)
    if top is not None and not rules.initial_meld_counts_top_card:
        base_points -= top.points
    ranks = [r for r, cs in hand.naturals.items() if r not in dict.fromkeys(s[0] for s in base)]
    if rules.wild_melds != "none":
        ranks.append(Rank.WILD)
    if len(hand.black_threes) >= 3:
        ranks.append(Rank.THREE)
    base_j = sum(s[2] for s in base)
    base_t = sum(s[3] for s in base)
    found = 0
    max_w = min(rules.meld_max_wilds, 3)

    def options(rank: Rank, j_left: int, t_left: int) -> list[Spec]:
        if rank is Rank.WILD:
            return [
                (rank, 0, j, t)
                for j in range(j_left, -1, -1)
                for t in range(t_left, -1, -1)
                if j + t >= 3
            ]
        if rank is Rank.THREE:
            nb = len(hand.black_threes)
            return [(rank, k, 0, 0) for k in range(min(nb, 4), 2, -1)]
        n = len(hand.naturals[rank])
        return [
            (rank, k, j, t)
            for k in range(n, 1, -1)
            for j in range(min(j_left, max_w), -1, -1)
            for t in range(min(t_left, max_w - j), -1, -1)
            if k + j + t >= 3
        ]

    def accept(specs: tuple[Spec, ...]) -> bool:
        if not specs:
            return False
        pending = screen.wild_pending(specs)
        if not all(screen.group_ok(s, pending) for s in specs):
            return False
        used = sum(s[1] + s[2] + s[3] for s in specs)
        hand_after = hand_size - used + gained
        if top is None and not _go_out_ok(state, screen, specs, hand_after):
            return False
        if top is not None and hand_after <= 1:
            if hand_after == 0 and rules.go_out_discard == "mandatory":
                return False
            if state.may_go_out(screen.team, screen.canastas + screen.new_canastas(specs)):
                return False
        if rules.initial_meld_composition == "clean_or_wild" and not any(
            s[0] is Rank.WILD or (s[1] >= 3 and not s[2] + s[3])
            for s in specs
        ):
            return False
        points = base_points + sum(_points(hand, s) for s in specs[len(base) :])
        if points >= minimum:
            return True
        if rules.opening_canasta_exempt and any(
            s[1] + s[2] + s[3] >= 7 for s in specs[len(base) :]
        ):
            return True
        return (
            top is None
            and state.drew == "stock"
            and rules.concealed_min_rule == "stock_exempt_pile_required"
            and hand_after <= 1
            and screen.new_canastas(specs) > 0
        )

    def walk(i: int, chosen: tuple[Spec, ...], j_left: int, t_left: int) -> Iterator[tuple[Spec, ...]]:
        nonlocal found
        if found >= COMBO_LIMIT:
            return
        if i == len(ranks):
            full = (*base, *chosen)
            if (chosen or base) and accept(full):
                found += 1
                yield full
            return
        for spec in options(ranks[i], j_left, t_left):
            yield from walk(i + 1, (*chosen, spec), j_left - spec[2], t_left - spec[3])
        yield from walk(i + 1, chosen, j_left, t_left)

    yield from walk(0, (), len(hand.jokers) - base_j, len(hand.twos) - base_t)


def _points(hand: _Hand, spec: Spec) -> int:
    rank, k, j, t = spec
    if rank is Rank.WILD:
        natural_points = 0
    elif rank is Rank.THREE:
        natural_points = 5 * k
    else:
        natural_points = _NATURAL_POINTS[rank] * k
    return natural_points + j * JOKER.points + t * 20


_NATURAL_POINTS = {c.rank: c.points for c in ALL_CARDS if c.is_natural}


# -- pickups --------------------------------------------------------------------------------------


def pickup_actions(state: State, first_only: bool = False) -> list[Action]:
    """Legal pickups in canonical form (`first_only`: stop at the first one found)."""
    if state.phase != "draw" or not state.pile:
        return []
    rules = state.rules
    seat = state.turn
    team = state.team_of(seat)
    top = state.pile[-1]
    blocked = state.pile_blocked(seat)
    black3 = top.is_black_three and rules.black3_pickup_to_go_out and "black3_top" in rules.block_rules
    if blocked and not black3:
        return []
    hand = _Hand(state.hands[seat])
    screen = _Screen(state, team, hand.size)
    frozen = state.frozen_for(team)
    methods = rules.pile_take_methods
    gained = sum(1 for c in state.pile[:-1] if not state._is_bonus_three(c))
    rank = top.rank
    pool = hand.black_threes if top.is_black_three else hand.naturals.get(rank, [])
    n = len(pool)
    withs: list[Spec] = []
    if n >= 2:
        withs.append((rank, 2, 0, 0))
    if not frozen and not top.is_black_three:
        if "natural_wild" in methods and n >= 1:
            if hand.jokers:
                withs.append((rank, 1, 1, 0))
            if hand.twos:
                withs.append((rank, 1, 0, 1))
        if "layoff" in methods and rank in screen.melds:
            withs.append((rank, 0, 0, 0))
    if black3 and n >= 3:
        withs.append((rank, 3, 0, 0))
    out: list[Action] = []
    for spec in withs:
        top_spec = (spec[0], spec[1] + 1, spec[2], spec[3])
        with_cards = hand.cards_of(spec)
        if top.is_black_three:
            out.extend(_black3_pickup(state, with_cards))
        elif screen.opening:
            for specs in _openings(state, hand, screen, (top_spec,), top, gained):
                out.append(Pickup(with_cards, _groups(hand, specs)[1:]))
                if first_only:
                    return out
        elif _pickup_ok(state, screen, top_spec, hand.size - spec[1] - spec[2] - spec[3] + gained):
            out.append(Pickup(with_cards))
        if first_only and out:
            return out
        if rules.top_card_only_go_out and len(state.pile) > 1 and not screen.opening:
            out.extend(_top_only(state, team, with_cards, top))
    return out


def _pickup_ok(state: State, screen: _Screen, top_spec: Spec, hand_after: int) -> bool:
    if not screen.group_ok(top_spec, screen.wild_pending((top_spec,))):
        return False
    if hand_after <= 1:
        if hand_after == 0 and state.rules.go_out_discard == "mandatory":
            return False
        canastas = screen.canastas + screen.new_canastas((top_spec,))
        return state.may_go_out(screen.team, canastas) is None
    return True


def _black3_pickup(
    state: State, with_cards: tuple[Card, ...]
) -> list[Action]:
    action = Pickup(with_cards)
    return [action] if state.check(action) is None else []


def _top_only(state: State, team: int, with_cards: tuple[Card, ...], top: Card) -> list[Action]:
    from canasta.rules.solver import meld_out

    hand = list(state.hands[state.turn])
    for c in with_cards:
        hand.remove(c)
    melds = dict(state.melds[team])
    rank = top.rank
    melds[rank] = [*melds.get(rank, []), *with_cards, top]
    solution = meld_out(state, team, hand, melds) if hand else []
    if solution is None:
        return []
    action = Pickup(with_cards, tuple(solution), top_only=True)
    return [action] if state.check(action) is None else []
