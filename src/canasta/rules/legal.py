"""Legal-move enumeration, free of side effects.

Complete for draw, pickup (every allowed way of taking the top card: a natural pair, a natural
and a joker, a natural and a two, adding it to the team's meld), discard, ask, answer and pass.
Melds are yielded in canonical form: a group is (rank, number of naturals, jokers, twos), since
cards of one rank are interchangeable. After the opening every single group is listed; an
opening (and a pickup by a team that has not opened) is a combination of groups, each using all,
three or two of its rank's naturals, at most `COMBO_LIMIT` of them. Every listed action is
accepted by `State.apply`; candidates are screened by counts with the same meld rules
(`canasta.rules.melds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Group, Meld, Pass, Pickup
from canasta.rules.cards import ALL_CARDS, Card, Rank
from canasta.rules.melds import canasta_count, dead_ranks, meld_ok, wild_count, wild_rule_error

if TYPE_CHECKING:
    from canasta.rules.ruleset import RuleSet
    from canasta.rules.state import State

COMBO_LIMIT = 32

#: A candidate group: (rank, naturals, jokers, twos).
Spec = tuple[Rank, int, int, int]

_POINTS = {c.rank: c.points for c in ALL_CARDS} | {Rank.WILD: 0}
_DRAW, _ASK, _PASS = Draw(), Ask(), Pass()
_ANSWERS: list[Action] = [Answer(True), Answer(False)]
_DISCARDS = {c: Discard(c) for c in ALL_CARDS}


_INDEX = attrgetter("index")


class _Hand:
    """A hand sorted by what matters for melding, in card order (so the result is canonical)."""

    __slots__ = ("black_threes", "jokers", "naturals", "size", "twos")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.naturals: dict[Rank, list[Card]] = {}
        self.jokers: list[Card] = []
        self.twos: list[Card] = []
        self.black_threes: list[Card] = []
        self.size = len(cards)
        naturals = self.naturals
        for c in sorted(cards, key=_INDEX):
            if c.is_natural:
                group = naturals.get(c.rank)
                if group is None:
                    naturals[c.rank] = [c]
                else:
                    group.append(c)
            elif c.is_joker:
                self.jokers.append(c)
            elif c.is_two:
                self.twos.append(c)
            elif c.is_black_three:
                self.black_threes.append(c)

    def group(self, spec: Spec, jokers_used: int = 0, twos_used: int = 0) -> Group:
        """The group of a spec, taking wild cards after those already used."""
        rank, k, j, t = spec
        pool = self.black_threes if rank is Rank.THREE else self.naturals.get(rank, [])
        cards = (
            *pool[:k],
            *self.jokers[jokers_used : jokers_used + j],
            *self.twos[twos_used : twos_used + t],
        )
        explicit = rank if k == 0 and rank is not Rank.WILD else None
        return Group(cards, explicit)

    def groups(self, specs: Sequence[Spec]) -> tuple[Group, ...]:
        out = []
        used_j = used_t = 0
        for spec in specs:
            out.append(self.group(spec, used_j, used_t))
            used_j += spec[2]
            used_t += spec[3]
        return tuple(out)


def legal_actions(state: State) -> list[Action]:
    """The legal actions of the seat to move (see the module docstring for melds)."""
    if state.phase == "ended":
        return []
    if state.permission == "pending":
        return _ANSWERS[:]
    actions: list[Action] = []
    if state.phase == "draw":
        if state.stock:
            actions.append(_DRAW)
        pickups = pickup_actions(state)
        if not state.stock and pickups and not state.must_take_pile():
            actions.append(_PASS)
        actions.extend(pickups)
    else:
        actions.extend(discard_actions(state))
        actions.extend(meld_actions(state))
    if _may_ask(state):
        actions.append(_ASK)
    return actions


def _may_ask(state: State) -> bool:
    rules = state.rules
    mode = rules.permission_mode
    if mode == "off" or state.permission is not None or not rules.partnership:
        return False
    if mode == "once_per_deal_after_draw" and (state.asked[state.turn] or state.phase != "play"):
        return False
    return state.phase == "draw" or (state.drew == "stock" and not state.turn_melded)


def discard_actions(state: State) -> list[Action]:
    if state.must_meld_out:
        return []
    hand = state.hands[state.turn]
    going_out = len(hand) == 1
    if going_out and state.may_go_out(state.team_of(state.turn)) is not None:
        return []
    if state.rules.discard_rules != "modern":
        return [_DISCARDS[c] for c in dict.fromkeys(hand)]
    errors = state.modern_discard_errors(hand, going_out)
    return [_DISCARDS[c] for c in dict.fromkeys(hand) if c not in errors]


# -- screening groups -----------------------------------------------------------------------------


class _Screen:
    """Checks candidate groups of one team against the meld rules, by counts."""

    __slots__ = (
        "dead",
        "melds",
        "opening",
        "progressive",
        "rules",
        "state",
        "stats",
        "team",
        "wild_size",
    )

    def __init__(self, state: State, team: int) -> None:
        rules = state.rules
        self.state = state
        self.rules = rules
        self.team = team
        self.melds = melds = state.melds[team]
        self.stats: dict[Rank, tuple[int, int]] = {}
        self.opening = not state.opened[team]
        self.dead = dead_ranks(rules, state.melds) if rules.dead_rank_trigger != "none" else ()
        self.progressive = rules.wild_melds == "progressive"
        wild = melds.get(Rank.WILD)
        self.wild_size = len(wild) if wild is not None else -1

    def before(self, rank: Rank) -> tuple[int, int] | None:
        """(size, wild cards) of the team's meld of `rank`, or None."""
        stat = self.stats.get(rank)
        if stat is None:
            meld = self.melds.get(rank)
            if meld is None:
                return None
            stat = self.stats[rank] = (len(meld), wild_count(meld))
        return stat

    def group_ok(self, spec: Spec, wild_pending: bool) -> bool:
        rank, k, j, t = spec
        if rank in self.dead:
            return False
        before = self.before(rank)
        if before is None:
            size, wilds = k + j + t, j + t
        else:
            size, wilds = before[0] + k + j + t, before[1] + j + t
        if not meld_ok(self.rules, rank, size, wilds, before is None):
            return False
        if (j or t) and rank is not Rank.WILD:
            return wild_rule_error(self.rules, rank, size - wilds, self.opening, wild_pending) is None
        return True

    def new_canastas(self, specs: Sequence[Spec]) -> int:
        n = 0
        for rank, k, j, t in specs:
            before = self.before(rank)
            b = before[0] if before is not None else 0
            if b < 7 <= b + k + j + t:
                n += 1
        return n

    def go_ok(self, specs: Sequence[Spec]) -> bool:
        """Whether the team may go out once these groups are laid."""
        if (
            self.state.permission_blocks() is not None
            or canasta_count(self.melds) + self.new_canastas(specs) < self.rules.go_out_min_canastas
        ):
            return False
        if self.rules.forbid_go_out_with_incomplete_special:
            sizes = {r: [len(cs), wild_count(cs)] for r, cs in self.melds.items()}
            for rank, k, j, t in specs:
                size = sizes.setdefault(rank, [0, 0])
                size[0] += k + j + t
                size[1] += j + t
            return not any(
                n < 7 and (r in (Rank.SEVEN, Rank.WILD) or (r is Rank.ACE and w == 0))
                for r, (n, w) in sizes.items()
            )
        return True

    def wild_pending(self, specs: Sequence[Spec]) -> bool:
        if not self.progressive:
            return False
        size = self.wild_size
        for rank, _k, j, t in specs:
            if rank is Rank.WILD:
                size = max(size, 0) + j + t
        return 0 <= size < 7

    def step_ok(self, specs: Sequence[Spec], hand_after: int) -> bool:
        """The hand-size rules of a melding step (A45) given its groups."""
        rules = self.rules
        if hand_after == 0 and rules.go_out_discard == "mandatory":
            return False
        if self.state.must_meld_out and hand_after:
            return False
        if any(s[0] is Rank.THREE for s in specs):
            if hand_after > (0 if rules.black3_meld_no_discard else 1):
                return False
            return self.go_ok(specs)
        return hand_after > 1 or self.go_ok(specs)


def _wild_options(jokers: int, twos: int, limit: int) -> list[tuple[int, int]]:
    return [(j, t) for j in range(min(jokers, limit) + 1) for t in range(min(twos, limit - j) + 1)]


# -- melds ----------------------------------------------------------------------------------------


def meld_actions(state: State) -> list[Action]:
    seat = state.turn
    team = state.team_of(seat)
    hand = _Hand(state.hands[seat])
    screen = _Screen(state, team)
    if screen.opening:
        return [Meld(hand.groups(specs)) for specs in _openings(screen, hand, (), None)]
    rules = state.rules
    out: list[Action] = []
    pending = screen.wild_pending(())
    size = hand.size
    must_out = state.must_meld_out
    dead = screen.dead
    n_j, n_t = len(hand.jokers), len(hand.twos)
    single = rules.meld_min_naturals > 1
    melds = screen.melds
    for rank, cards in hand.naturals.items():
        if rank in dead or (single and len(cards) == 1 and rank not in melds):
            continue
        before = screen.before(rank)
        for k, j, t in _single_specs(rules, rank, len(cards), n_j, n_t, before, pending):
            after = size - k - j - t
            if (after <= 1 or must_out) and not screen.step_ok(((rank, k, j, t),), after):
                continue
            out.append(_single_meld((*cards[:k], *hand.jokers[:j], *hand.twos[:t]), rank if k == 0 else None))
    extra: list[Spec] = []
    if rules.wild_melds != "none":
        low = 1 if Rank.WILD in melds else 3
        extra.extend(
            (Rank.WILD, 0, j, t)
            for j in range(len(hand.jokers) + 1)
            for t in range(len(hand.twos) + 1)
            if j + t >= low
        )
    nb = len(hand.black_threes)
    extra.extend((Rank.THREE, k, 0, 0) for k in range(min(nb, 4), 2, -1))
    for spec in extra:
        if not screen.group_ok(spec, screen.wild_pending((spec,))):
            continue
        if not screen.step_ok((spec,), size - spec[1] - spec[2] - spec[3]):
            continue
        out.append(Meld((hand.group(spec),)))
    if state.must_meld_out and not out:
        from canasta.rules.solver import meld_out

        solution = meld_out(state, team, state.hands[seat], state.melds[team])
        if solution is not None:
            out.append(Meld(tuple(solution)))
    return out


_MELD_CACHE: dict[tuple[tuple[Card, ...], Rank | None], Meld] = {}


def _single_meld(cards: tuple[Card, ...], rank: Rank | None) -> Meld:
    """The one-group meld action of these cards (actions are values, so they are shared)."""
    key = (cards, rank)
    action = _MELD_CACHE.get(key)
    if action is None:
        if len(_MELD_CACHE) > 200_000:
            _MELD_CACHE.clear()
        action = _MELD_CACHE[key] = Meld((Group(cards, rank),))
    return action


def _single_specs(
    rules: RuleSet,
    rank: Rank,
    naturals: int,
    jokers: int,
    twos: int,
    before: tuple[int, int] | None,
    pending: bool,
) -> list[tuple[int, int, int]]:
    """The (naturals, jokers, twos) one group of a natural rank may hold, for an opened team.

    Memoised per rule set: it depends only on counts.
    """
    key = ("single", rank, naturals, jokers, twos, before, pending)
    cached: list[tuple[int, int, int]] | None = rules.cache.get(key)
    if cached is not None:
        return cached
    new = before is None
    bl, bw = (0, 0) if before is None else before
    wild_rules = rules.aces_wilds_opening_only or rules.rule_of_five or rules.wild_melds == "progressive"
    out = []
    for j, t in _wild_options(jokers, twos, min(rules.meld_max_wilds, 3)):
        w = bw + j + t
        for k in range(naturals, 0 if new else -1, -1):
            total = bl + k + j + t
            if k + j + t == 0 or not meld_ok(rules, rank, total, w, new):
                continue
            if (j or t) and wild_rules and wild_rule_error(rules, rank, total - w, False, pending):
                continue
            out.append((k, j, t))
    rules.cache[key] = out
    return out


def _openings(
    screen: _Screen, hand: _Hand, base: Sequence[Spec], top: Card | None, gained: int = 0
) -> list[tuple[Spec, ...]]:
    """Combinations of groups (after the fixed `base` groups) that make a legal opening.

    With a pickup, `base` is the top card's group (its naturals include the top card) and
    `gained` the number of cards the rest of the pile adds to the hand.
    """
    state = screen.state
    rules = screen.rules
    minimum = state.minimum(screen.team)
    hand_size = hand.size + (1 if top is not None else 0)
    base_points = sum(_spec_points(s) for s in base)
    if top is not None and not rules.initial_meld_counts_top_card:
        base_points -= top.points
    taken = {s[0] for s in base}
    ranks: list[Rank] = [r for r in hand.naturals if r not in taken]
    if rules.wild_melds != "none":
        ranks.append(Rank.WILD)
    if len(hand.black_threes) >= 3:
        ranks.append(Rank.THREE)
    j_all = len(hand.jokers) - sum(s[2] for s in base)
    t_all = len(hand.twos) - sum(s[3] for s in base)
    max_w = min(rules.meld_max_wilds, 3)
    # Upper bounds of what the remaining ranks can add, for pruning.
    rest_points = [0] * (len(ranks) + 1)
    for i in range(len(ranks) - 1, -1, -1):
        r = ranks[i]
        n = len(hand.black_threes) if r is Rank.THREE else len(hand.naturals.get(r, ()))
        rest_points[i] = rest_points[i + 1] + _POINTS[r] * n
    longest = max([len(cs) for cs in hand.naturals.values()] + [0])
    if base:
        longest = max(longest, base[0][1])
    canasta_possible = (
        canasta_count(screen.melds) > 0 or longest + min(j_all + t_all, max_w) >= 7 or j_all + t_all >= 7
    )
    exempt = (
        rules.opening_canasta_exempt
        or (
            top is None and state.drew == "stock" and rules.concealed_min_rule == "stock_exempt_pile_required"
        )
    ) and canasta_possible
    progressive = screen.progressive
    # Each rank's candidate groups with their points, screened once (the rule on wild cards while
    # a wild meld is incomplete depends on the whole combination and is checked in `accept`).
    options: list[list[tuple[Spec, int]]] = []
    for rank in ranks:
        specs: list[Spec]
        if rank is Rank.WILD:
            specs = [
                (rank, 0, j, t) for j in range(j_all, -1, -1) for t in range(t_all, -1, -1) if j + t >= 3
            ]
        elif rank is Rank.THREE:
            nb = len(hand.black_threes)
            specs = [(rank, k, 0, 0) for k in range(min(nb, 4), 2, -1)]
        else:
            n = len(hand.naturals[rank])
            specs = [
                (rank, k, j, t)
                for k in sorted({k for k in (n, 3, 2) if 2 <= k <= n}, reverse=True)
                for j in range(min(j_all, max_w), -1, -1)
                for t in range(min(t_all, max_w - j), -1, -1)
                if k + j + t >= 3
            ]
        options.append([(sp, _spec_points(sp)) for sp in specs if screen.group_ok(sp, False)])

    def accept(specs: tuple[Spec, ...], points: int) -> bool:
        if progressive and screen.wild_pending(specs) and not all(screen.group_ok(s, True) for s in specs):
            return False
        used = sum(s[1] + s[2] + s[3] for s in specs)
        hand_after = hand_size - used + gained
        if top is None:
            if not screen.step_ok(specs, hand_after):
                return False
        elif hand_after <= 1 and (
            (hand_after == 0 and rules.go_out_discard == "mandatory") or not screen.go_ok(specs)
        ):
            return False
        if rules.initial_meld_composition == "clean_or_wild" and not any(
            s[0] is Rank.WILD or (s[1] >= 3 and not s[2] + s[3]) for s in specs
        ):
            return False
        if points >= minimum:
            return True
        if rules.opening_canasta_exempt and any(s[1] + s[2] + s[3] >= 7 for s in specs[len(base) :]):
            return True
        return (
            top is None
            and state.drew == "stock"
            and rules.concealed_min_rule == "stock_exempt_pile_required"
            and hand_after <= 1
            and screen.new_canastas(specs) > 0
        )

    # Without a possible canasta nobody may be left with fewer than two cards.
    max_used = hand_size + gained - (0 if canasta_possible else 2)

    results: list[tuple[Spec, ...]] = []
    n_ranks = len(ranks)
    if base and not screen.group_ok(base[0], False):
        return results

    def walk(i: int, chosen: tuple[Spec, ...], points: int, j_left: int, t_left: int, used: int) -> None:
        if len(results) >= COMBO_LIMIT or used > max_used:
            return
        if not exempt and points + rest_points[i] + j_left * 50 + t_left * 20 < minimum:
            return
        if i == n_ranks:
            full = (*base, *chosen)
            if full and accept(full, points):
                results.append(full)
            return
        for spec, gain in options[i]:
            if spec[2] <= j_left and spec[3] <= t_left:
                walk(
                    i + 1,
                    (*chosen, spec),
                    points + gain,
                    j_left - spec[2],
                    t_left - spec[3],
                    used + spec[1] + spec[2] + spec[3],
                )
        walk(i + 1, chosen, points, j_left, t_left, used)

    walk(0, (), base_points, j_all, t_all, sum(s[1] + s[2] + s[3] for s in base))
    return results


def _spec_points(spec: Spec) -> int:
    rank, k, j, t = spec
    return (0 if rank is Rank.WILD else _POINTS[rank] * k) + j * 50 + t * 20


# -- pickups --------------------------------------------------------------------------------------


def pickup_actions(state: State, first_only: bool = False) -> list[Action]:
    """Legal pickups in canonical form (`first_only`: stop at the first one found)."""
    if state.phase != "draw" or not state.pile:
        return []
    rules = state.rules
    seat = state.turn
    team = state.team_of(seat)
    top = state.pile[-1]
    black3 = top.is_black_three and rules.black3_pickup_to_go_out and "black3_top" in rules.block_rules
    cards = state.hands[seat]
    rank = top.rank
    team_melds = state.melds[team]
    if rank not in team_melds and not any(c.rank is rank for c in cards):
        return []
    if state.pile_blocked(seat, black3):
        return []
    pool = sorted((c for c in cards if c.rank is rank), key=_INDEX)
    n = len(pool)
    withs: list[tuple[Card, ...]] = []
    if n >= 2:
        withs.append((pool[0], pool[1]))
    if black3:
        if n >= 3:
            withs.append((pool[0], pool[1], pool[2]))
        return [a for a in (Pickup(w) for w in withs) if state.check(a) is None]
    if not state.frozen_for(team):
        methods = rules.pile_take_methods
        if "natural_wild" in methods and n >= 1:
            joker = next((c for c in cards if c.is_joker), None)
            two = min((c for c in cards if c.is_two), key=_INDEX, default=None)
            withs.extend((pool[0], w) for w in (joker, two) if w is not None)
        if "layoff" in methods and rank in team_melds:
            withs.append(())
    if not withs:
        return []
    screen = _Screen(state, team)
    out: list[Action] = []
    gained = -1
    for with_cards in withs:
        if rules.top_card_only_go_out and len(state.pile) > 1 and not first_only:
            out.extend(_top_only(state, team, with_cards, top))
        jokers = sum(1 for c in with_cards if c.is_joker)
        twos = sum(1 for c in with_cards if c.is_two)
        top_spec = (rank, len(with_cards) - jokers - twos + 1, jokers, twos)
        if screen.opening:
            if gained < 0:
                gained = _gained(state)
            hand = _Hand(cards)
            for specs in _openings(screen, hand, (top_spec,), top, gained):
                out.append(Pickup(with_cards, hand.groups(specs)[1:]))
                if first_only:
                    return out
            continue
        if not screen.group_ok(top_spec, screen.wild_pending(())):
            continue
        hand_after = len(cards) - len(with_cards)
        if hand_after <= 1:
            if gained < 0:
                gained = _gained(state)
            hand_after += gained
            if hand_after <= 1 and (
                (hand_after == 0 and rules.go_out_discard == "mandatory") or not screen.go_ok((top_spec,))
            ):
                continue
        out.append(Pickup(with_cards))
        if first_only:
            return out
    return out


def _gained(state: State) -> int:
    """Cards the rest of the pile would add to the hand."""
    return sum(1 for c in state.pile[:-1] if not state._is_bonus_three(c))


def _top_only(state: State, team: int, with_cards: tuple[Card, ...], top: Card) -> list[Action]:
    """The Mendelev top-card-only purchase that melds every card (A32, A47), if one exists."""
    from canasta.rules.solver import meld_out

    hand = list(state.hands[state.turn])
    for c in with_cards:
        hand.remove(c)
    melds = dict(state.melds[team])
    melds[top.rank] = [*melds.get(top.rank, []), *with_cards, top]
    solution = meld_out(state, team, hand, melds) if hand else []
    if solution is None:
        return []
    action = Pickup(with_cards, tuple(solution), top_only=True)
    return [action] if state.check(action) is None else []
