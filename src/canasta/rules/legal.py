"""Legal-move enumeration, free of side effects: the moves `State.apply` accepts, listed.

The lists are computed on what the seat to move knows (its `Mover`, from a state or a view).

Every candidate is judged by the rules core (`canasta.rules.judge`), the same code `apply`
uses, so every listed action applies. Melds and pickups are listed in canonical form: cards
of one rank are interchangeable, so a group is (rank, naturals, jokers, twos), its cards taken
from the hand in card order. The list is complete in this sense:

- every listed action applies;
- every legal action is reachable: some sequence of listed actions in the same turn reaches
  the position it reaches (cards of one rank being interchangeable). Once the team has
  opened, every single group is listed (a meld of several groups is laid group by group). An
  opening, and a pickup, is listed in its irreducible forms: those from which no card or group
  can be held back and laid afterwards by a listed single group; every other legal opening or
  pickup is one of them followed by single groups. After a black-three pickup or a
  top-card-only purchase the cards are laid group by group, each step leaving the rest
  meldable (a purchase is also listed once melding every card at once, as the solver melds
  them). What must be one action is listed whole: a going out below the minimum (concealed,
  after a stock draw), and a going out with the last few cards where adding them one by one
  would pass through a hand of one card that may not go out yet;
- no listed action leads to a position where the deal is not over and nothing is legal;
- the list and its order depend only on what the seat to move sees (its view).

The list is bounded whatever the hand: the search of openings and pickups visits at most
`SEARCH_BUDGET` combinations a listing, and a whole-hand meld-out tries at most
`MELD_OUT_LIMIT` ways of sharing the wild cards. Random play stays far within both (its
largest search visits about half the budget); a hand of dozens of cards, most of them wild,
may have more irreducible openings than that, and only the first found are listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from operator import attrgetter
from typing import TYPE_CHECKING

from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Group, Meld, Pass, Pickup
from canasta.rules.cards import ALL_CARDS, Card, Rank
from canasta.rules.errors import IllegalActionError
from canasta.rules.judge import POINTS, Judge, Spec, spec_points, take_error, touched_of
from canasta.rules.mover import Mover, read_groups

if TYPE_CHECKING:
    from canasta.rules.state import State

_DRAW, _ASK, _PASS = Draw(), Ask(), Pass()
_ANSWERS: list[Action] = [Answer(True), Answer(False)]
_DISCARDS = {c: Discard(c) for c in ALL_CARDS}
_INDEX = attrgetter("index")
#: A step being formed: the top card's group of a pickup (or None), then further groups.
_Combo = tuple[Spec | None, tuple[Spec, ...]]
#: The meld actions of single groups made so far, by their cards and explicit rank.
_SINGLES: dict[tuple[tuple[Card, ...], Rank | None], Meld] = {}
#: A hand this small (with what the pile adds) may go out with a pickup: its groups are searched.
SMALL_HAND = 4
#: A hand this small may need to go out with several groups in one action.
TINY_HAND = 3
#: Nodes the search of the openings, or of the pickups, may visit in one listing: a hand of
#: dozens of cards has more irreducible openings than any list can hold; the first found are listed.
SEARCH_BUDGET = 5_000
#: Ways of melding a whole hand at once tried in one listing (a hand of dozens of cards with
#: many wild cards can share them out in millions of ways).
MELD_OUT_LIMIT = 300


class _Hand:
    """A hand by what matters for melding, each kind in card order (so the result is canonical)."""

    __slots__ = ("black_threes", "jokers", "naturals", "size", "threes", "twos")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.naturals: dict[Rank, list[Card]] = {}
        self.jokers: list[Card] = []
        self.twos: list[Card] = []
        self.black_threes: list[Card] = []
        self.threes: list[Card] = []  # black and red, as a made-up position may hold red ones
        self.size = len(cards)
        for c in sorted(cards, key=_INDEX):
            if c.is_natural:
                self.naturals.setdefault(c.rank, []).append(c)
            elif c.is_joker:
                self.jokers.append(c)
            elif c.is_two:
                self.twos.append(c)
            else:
                self.threes.append(c)
                if c.is_black_three:
                    self.black_threes.append(c)

    def cards(self) -> list[Card]:
        """The hand in card order."""
        out = [*self.jokers, *self.twos]
        for cs in self.naturals.values():
            out.extend(cs)
        out.extend(self.threes)
        return out

    def pool(self, rank: Rank) -> list[Card]:
        return self.black_threes if rank is Rank.THREE else self.naturals.get(rank, [])

    def single(self, spec: Spec) -> Meld:
        """The meld action of one group of `spec`, its cards taken first in card order (actions
        are values: one object serves every hand that forms the same group)."""
        rank, k, j, t = spec
        cards = (*self.pool(rank)[:k], *self.jokers[:j], *self.twos[:t])
        explicit = rank if k == 0 and rank is not Rank.WILD else None
        action = _SINGLES.get((cards, explicit))
        if action is None:
            if len(_SINGLES) > 100_000:
                _SINGLES.clear()
            action = _SINGLES[(cards, explicit)] = Meld((Group(cards, explicit),))
        return action

    def groups(self, specs: Sequence[Spec], start: Sequence[Spec] = ()) -> tuple[Group, ...]:
        """The groups of `specs`, each taking the next cards after those `start` took."""
        taken: dict[Rank, int] = {}
        jokers = twos = 0
        for rank, k, j, t in start:
            taken[rank] = taken.get(rank, 0) + k
            jokers += j
            twos += t
        out = []
        for rank, k, j, t in specs:
            first = taken.get(rank, 0)
            cards = (
                *self.pool(rank)[first : first + k],
                *self.jokers[jokers : jokers + j],
                *self.twos[twos : twos + t],
            )
            taken[rank] = first + k
            jokers += j
            twos += t
            out.append(Group(cards, rank if k == 0 and rank is not Rank.WILD else None))
        return tuple(out)


def _mover(of: Mover | State) -> Mover:
    return of if isinstance(of, Mover) else of.mover()


def legal_actions(of: Mover | State) -> list[Action]:
    """The legal actions of the seat to move, complete as the module docstring says."""
    m = _mover(of)
    now = m.now
    if now.phase == "ended":
        return []
    if now.permission == "pending":
        return _ANSWERS[:]
    actions: list[Action] = []
    if now.phase == "draw":
        if m.stock_size:
            actions.append(_DRAW)
        pickups = pickup_actions(m)
        if not m.stock_size and pickups and not m.must_take_pile():
            actions.append(_PASS)
        actions.extend(pickups)
    else:
        hand = _Hand(m.hand)
        actions.extend(_discards(m, hand))
        actions.extend(_melds(m, hand))
    if _may_ask(m):
        actions.append(_ASK)
    return actions


def _may_ask(m: Mover) -> bool:
    rules, now = m.rules, m.now
    mode = rules.permission_mode
    if mode == "off" or now.permission is not None or not rules.partnership:
        return False
    if mode == "once_per_deal_after_draw" and (m.board.asked[now.seat] or now.phase != "play"):
        return False
    return now.phase == "draw" or (now.drew == "stock" and not now.melded)


def discard_actions(of: Mover | State) -> list[Action]:
    """The legal discards, in card order."""
    m = _mover(of)
    return _discards(m, _Hand(m.hand))


def _discards(m: Mover, hand: _Hand) -> list[Action]:
    if m.now.must_meld_out:
        return []
    going_out = hand.size == 1
    if going_out and m.may_go_out(m.team) is not None:
        return []
    cards = hand.cards()
    errors = m.discard_errors(cards, going_out)
    return [_DISCARDS[c] for c in dict.fromkeys(cards) if c not in errors]


# -- melds ----------------------------------------------------------------------------------------


def meld_actions(of: Mover | State) -> list[Action]:
    """Meld actions: single groups once the team has opened, else irreducible openings."""
    state = _mover(of)
    return _melds(state, _Hand(state.hand))


def _melds(state: Mover, hand: _Hand) -> list[Action]:
    team = state.team
    judge = Judge.of(state, team)
    if judge.opened:
        singles = [hand.single(spec) for spec in _singles(judge, hand, hand.size)]
        if state.now.must_meld_out:  # the turn ends by melding every card: a step must leave that possible
            cards = state.hand
            singles = [m for m in singles if _leaves_meld_out(state, team, m, cards)]
        elif hand.size <= TINY_HAND and state.rules.go_out_discard != "mandatory":
            # going out by adding the last cards one by one may pass through a hand of one card
            # that could not go out yet (two canastas to complete with the last two cards)
            listed = {m.melds for m in singles}
            for specs in _meld_outs(state, judge, hand, 0):
                groups = hand.groups(specs)
                if len(groups) > 1 and groups not in listed:
                    singles.append(Meld(groups))
        return list(singles)
    out: list[Action] = [
        Meld(hand.groups(specs)) for _, specs in _Search(state, judge, hand, None).combos((None,))
    ]
    if (
        state.now.drew == "stock"
        and state.rules.concealed_min_rule == "stock_exempt_pile_required"
        and _canasta_possible(hand, state.rules.meld_max_wilds)
    ):
        seen = {a.melds for a in out if isinstance(a, Meld)}
        for keep in (0, 1):
            for specs in _meld_outs(state, judge, hand, keep):
                groups = hand.groups(specs)
                if groups not in seen:
                    seen.add(groups)
                    out.append(Meld(groups))
    return out


def _leaves_meld_out(state: Mover, team: int, meld: Meld, cards: Sequence[Card]) -> bool:
    used, steps = read_groups(meld.melds, cards, None, ())
    return len(used) == len(cards) or state.can_meld_out(team, used, steps)


def _wild_splits(jokers: int, twos: int, limit: int) -> list[tuple[int, int]]:
    return [(j, t) for j in range(min(jokers, limit) + 1) for t in range(min(twos, limit - j) + 1)]


def _singles(judge: Judge, hand: _Hand, size: int) -> list[Spec]:
    """Every single group an opened team may lay or add now, judged whole."""
    rules = judge.rules
    jokers, twos = len(hand.jokers), len(hand.twos)
    pending = judge.wild_pending({})
    ranks = list(hand.naturals)
    ranks.extend(r for r in judge.stats if r not in hand.naturals and r not in (Rank.WILD, Rank.THREE))
    if rules.wild_melds != "none":
        ranks.append(Rank.WILD)
    if len(hand.black_threes) >= 3:
        ranks.append(Rank.THREE)
    out: list[Spec] = []
    for rank in ranks:
        for spec in judge.groups(rank, len(hand.pool(rank)), jokers, twos, pending):
            after = size - spec[1] - spec[2] - spec[3]
            if (after > 1 and rank is not Rank.THREE and rank is not Rank.WILD) or judge.step_error(
                touched_of((spec,)), after
            ) is None:
                out.append(spec)
    return out


def _canasta_possible(hand: _Hand, max_wilds: int) -> bool:
    """Whether a team without melds might lay every card but one, a canasta among them."""
    wilds = len(hand.jokers) + len(hand.twos)
    longest = max((len(cs) for cs in hand.naturals.values()), default=0)
    short = sum(1 for cs in hand.naturals.values() if len(cs) < 2) + (0 < len(hand.black_threes) < 3)
    return short <= 1 and (longest + min(wilds, max_wilds) >= 7 or wilds >= 7)


class _Search:
    """Irreducible openings and pickups: legal steps from which nothing can be held back.

    A combination is (the top card's group, further groups); it is reducible when one card
    or one group can leave it with the rest still legal and then be laid by a single group.
    """

    def __init__(
        self, state: Mover, judge: Judge, hand: _Hand, top: Card | None, top_only: bool = False
    ) -> None:
        self.state = state
        self.judge = judge
        self.rules = state.rules
        self.hand = hand
        self.top = top
        self.top_only = top_only
        self.gained = state.gained() if top is not None and not top_only else 0
        self.frozen = state.frozen_for(state.team)
        self.black3 = top is not None and top.is_black_three
        # after a black three or a top-card-only purchase every card left must be meldable
        self.meld_out = self.black3 or top_only
        self.budget = SEARCH_BUDGET
        self.errors: dict[_Combo, bool] = {}
        self.afters: dict[_Combo, Callable[[Spec], bool]] = {}
        self.ranks: list[Rank] = []
        self.options: list[list[Spec]] = []
        self.rest: list[int] = []
        self.exempt = False

    def _prepare(self) -> None:
        """What the walk over further groups needs (a pickup by an opened team with a hand of
        some size needs none of it)."""
        if self.rest:
            return
        hand, top, judge = self.hand, self.top, self.judge
        # the ranks worth most first, so that the bound below the minimum prunes early
        self.ranks = sorted(
            (r for r in hand.naturals if top is None or r is not top.rank),
            key=lambda r: -POINTS[r] * len(hand.naturals[r]),
        )
        if self.rules.wild_melds != "none" and (hand.jokers or hand.twos):
            self.ranks.append(Rank.WILD)
        if len(hand.black_threes) >= 3 and not self.black3:
            self.ranks.append(Rank.THREE)
        self.options = [self._options(r) for r in self.ranks]
        # points the ranks from i on can still add, for pruning below the minimum
        self.rest = [0] * (len(self.ranks) + 1)
        for i in range(len(self.ranks) - 1, -1, -1):
            r = self.ranks[i]
            self.rest[i] = self.rest[i + 1] + POINTS[r] * len(hand.pool(r))
        # an opening below the minimum: a canasta from hand (A43); the concealed going out below
        # it (A46) melds every card, which `_meld_outs` lists
        wilds = min(len(hand.jokers) + len(hand.twos), self.rules.meld_max_wilds)
        longest = max((len(cs) for cs in hand.naturals.values()), default=0)
        self.exempt = (
            not judge.opened
            and self.rules.opening_canasta_exempt
            and (longest + wilds >= 7 or len(hand.jokers) + len(hand.twos) >= 7)
        )

    def _options(self, rank: Rank) -> list[Spec]:
        hand = self.hand
        specs = self.judge.groups(rank, len(hand.pool(rank)), len(hand.jokers), len(hand.twos), False)
        if rank is Rank.THREE:
            return [s for s in specs if s[1] >= 3]
        return [s for s in specs if s[1] or rank is Rank.WILD]

    # -- judging ------------------------------------------------------------------------------

    def error(self, combo: _Combo) -> bool:
        """Whether the step is illegal (each combination judged once per search)."""
        known = self.errors.get(combo)
        if known is None:
            known = self.errors[combo] = self._error(combo)
        return known

    def _error(self, combo: _Combo) -> bool:
        base, specs = combo
        hand = self.hand
        top = self.top
        used = sum(s[1] + s[2] + s[3] for s in specs)
        if base is not None:
            used += base[1] + base[2] + base[3]
            assert top is not None
            if take_error(
                self.rules,
                self.frozen,
                self.state.board.pile_frozen,
                top,
                base[1],
                base[2] + base[3],
                top.rank in self.state.board.melds[self.state.team],
            ):
                return True
            touched = touched_of((base, *specs))
        else:
            touched = touched_of(specs)
        kept = hand.size - used
        if self.judge.step_error(touched, kept + self.gained, top) is not None:
            return True
        if self.meld_out and kept + self.gained:
            return not self._meld_out_ok(combo)
        return False

    def _meld_out_ok(self, combo: _Combo) -> bool:
        """Whether every card left (with the pile's, but for a top-card-only purchase) can be melded."""
        base, specs = combo
        assert base is not None and self.top is not None
        state = self.state
        with_ = self.hand.groups((base,))[0].cards
        used, steps = read_groups(self.hand.groups(specs, (base,)), state.hand, self.top, with_)
        rest = [] if self.top_only else state.board.pile[:-1]
        gained = [c for c in rest if not state.rules.is_bonus_three(c)]
        return state.can_meld_out(state.team, used, steps, gained)

    def addable(self, combo: _Combo, unit: Spec) -> bool:
        """Whether `unit` may be laid by a single group once `combo` is laid."""
        return self.after(combo)(unit)

    def after(self, combo: _Combo) -> Callable[[Spec], bool]:
        """Whether a single group may be laid once `combo` is laid (made once per combination)."""
        known = self.afters.get(combo)
        if known is None:
            known = self.afters[combo] = self._after(combo)
        return known

    def _after(self, combo: _Combo) -> Callable[[Spec], bool]:
        base, specs = combo
        laid = (base, *specs) if base is not None else specs
        after = self.judge.after(touched_of(laid), self.top)
        hand_after = self.hand.size - sum(s[1] + s[2] + s[3] for s in laid) + self.gained

        def single(unit: Spec) -> bool:
            return after.step_error(touched_of((unit,)), hand_after - unit[1] - unit[2] - unit[3]) is None

        return single

    def reducible(self, combo: _Combo) -> bool:
        base, specs = combo
        for i, spec in enumerate(specs):
            rest = (*specs[:i], *specs[i + 1 :])
            if not self.error((base, rest)) and self.addable((base, rest), spec):
                return True
            for unit, smaller in _units(spec):
                if smaller is not None:
                    less = (base, (*specs[:i], smaller, *specs[i + 1 :]))
                    if not self.error(less) and self.addable(less, unit):
                        return True
        if base is not None:
            for unit, smaller in _units(base):
                less = (smaller or (base[0], 0, 0, 0), specs)
                if not self.error(less) and self.addable(less, unit):
                    return True
        return False

    # -- the search ---------------------------------------------------------------------------

    def combos(self, bases: Sequence[Spec | None]) -> Iterator[_Combo]:
        """The irreducible legal steps with each of these top-card groups.

        An opened team needs no further group with its pickup unless the pickup leaves it
        almost no cards (going out): any other group is laid afterwards.
        """
        alone = self.judge.opened and self.hand.size + self.gained > SMALL_HAND
        for base in bases:
            if alone:
                combo: _Combo = (base, ())
                if not self.error(combo) and not self.reducible(combo):
                    yield combo
            else:
                yield from self._start(base)

    def _start(self, base: Spec | None) -> Iterator[_Combo]:
        self._prepare()
        points = 0
        if base is not None:
            points = spec_points(base)
            if self.rules.initial_meld_counts_top_card and self.top is not None:
                points += self.top.points
        jokers, twos = (base[2], base[3]) if base is not None else (0, 0)
        return self._walk(base, 0, (), points, jokers, twos)

    def _walk(
        self, base: Spec | None, i: int, chosen: tuple[Spec, ...], points: int, jokers: int, twos: int
    ) -> Iterator[_Combo]:
        """Choose a group (or none) of rank i on, with the points and wild cards chosen so far."""
        self.budget -= 1
        if self.budget < 0:
            return
        hand = self.hand
        opening = not self.exempt and not self.judge.opened
        if opening:
            left = self.rest[i] + 50 * (len(hand.jokers) - jokers) + 20 * (len(hand.twos) - twos)
            if points + left < self.judge.minimum:
                return
        if i == len(self.ranks):
            combo = (base, chosen)
            if (base is not None or chosen) and not self.error(combo) and not self.reducible(combo):
                yield combo
            return
        # once what is chosen is legal, a group that could be laid after it only makes it reducible
        partial = (base, chosen)
        laid_later = (
            self.after(partial)
            if (base is not None or chosen)
            and (not opening or points >= self.judge.minimum)
            and not self.error(partial)
            else None
        )
        for spec in self.options[i]:
            if spec[2] + jokers > len(hand.jokers) or spec[3] + twos > len(hand.twos):
                continue
            if laid_later is not None and laid_later(spec):
                continue
            yield from self._walk(
                base, i + 1, (*chosen, spec), points + spec_points(spec), jokers + spec[2], twos + spec[3]
            )
        yield from self._walk(base, i + 1, chosen, points, jokers, twos)


def _units(spec: Spec) -> Iterator[tuple[Spec, Spec | None]]:
    """Each kind of card one could hold back from a group: (that card, the group without it)."""
    rank, k, j, t = spec
    for unit, smaller in (
        ((rank, 1, 0, 0), (rank, k - 1, j, t)),
        ((rank, 0, 1, 0), (rank, k, j - 1, t)),
        ((rank, 0, 0, 1), (rank, k, j, t - 1)),
    ):
        if min(smaller[1:]) >= 0:
            yield unit, smaller if sum(smaller[1:]) else None


# -- melding every card ---------------------------------------------------------------------------


def _meld_outs(state: Mover, judge: Judge, hand: _Hand, keep: int) -> Iterator[tuple[Spec, ...]]:
    """Every way to meld the whole hand (less `keep` cards, one of a kind), each judged whole."""
    kinds: list[Spec | None] = [None]
    if keep:
        kinds = [(r, 1, 0, 0) for r in hand.naturals]
        kinds += [(Rank.WILD, 0, 1, 0)] * bool(hand.jokers) + [(Rank.WILD, 0, 0, 1)] * bool(hand.twos)
        kinds += [(Rank.THREE, 1, 0, 0)] * bool(hand.black_threes)
    rules = state.rules
    tries = MELD_OUT_LIMIT
    for kept in kinds:
        naturals = {r: len(cs) for r, cs in hand.naturals.items()}
        jokers, twos, threes = len(hand.jokers), len(hand.twos), len(hand.black_threes)
        if kept is not None:
            if kept[0] is Rank.THREE:
                threes -= 1
            elif kept[0] is Rank.WILD:
                jokers, twos = jokers - kept[2], twos - kept[3]
            else:
                naturals[kept[0]] -= 1
        least = rules.meld_min_naturals
        if any(0 < n < least and r not in judge.stats for r, n in naturals.items()) or 0 < threes < 3:
            continue  # a rank too short for a meld of its own: this hand cannot all be melded
        targets = [r for r, n in naturals.items() if n > 0]
        targets += [r for r in judge.stats if r not in naturals and r not in (Rank.WILD, Rank.THREE)]
        if rules.wild_melds != "none":
            targets.append(Rank.WILD)
        fixed = [(Rank.THREE, threes, 0, 0)] if threes else []
        used = hand.size - (1 if kept is not None else 0)
        options = [_target_options(judge, r, naturals.get(r, 0), jokers, twos) for r in targets]
        for shares in islice(_shares(options, jokers, twos), tries):
            tries -= 1
            specs = [
                (r, naturals.get(r, 0) if r is not Rank.WILD else 0, j, t)
                for r, (j, t) in zip(targets, shares, strict=True)
            ]
            specs = [s for s in specs if s[1] + s[2] + s[3]] + fixed
            if sum(s[1] + s[2] + s[3] for s in specs) != used:
                continue
            if judge.step_error(touched_of(specs), hand.size - used) is None:
                yield tuple(specs)


def _target_options(judge: Judge, rank: Rank, naturals: int, jokers: int, twos: int) -> list[tuple[int, int]]:
    """The (jokers, twos) a target of a meld-out may take: what its meld's composition allows."""
    limit = 99 if rank is Rank.WILD else judge.rules.meld_max_wilds
    out = []
    for j in range(min(jokers, limit), -1, -1):
        for t in range(min(twos, limit - j), -1, -1):
            if (naturals + j + t == 0 and rank is Rank.WILD) or judge.group_error(
                rank, 0 if rank is Rank.WILD else naturals, j, t, False
            ) is None:
                out.append((j, t))
    return out


def _shares(
    options: Sequence[Sequence[tuple[int, int]]], jokers: int, twos: int
) -> Iterator[list[tuple[int, int]]]:
    """Every way to share all the wild cards out, one (jokers, twos) option per target."""
    room = [0] * (len(options) + 1)  # wild cards the targets from i on can take at most
    for i in range(len(options) - 1, -1, -1):
        room[i] = room[i + 1] + max((j + t for j, t in options[i]), default=0)

    def share(i: int, jokers: int, twos: int) -> Iterator[list[tuple[int, int]]]:
        if i == len(options):
            if not jokers and not twos:
                yield []
            return
        if jokers + twos > room[i]:
            return
        for j, t in options[i]:
            if j <= jokers and t <= twos:
                for tail in share(i + 1, jokers - j, twos - t):
                    yield [(j, t), *tail]

    return share(0, jokers, twos)


# -- pickups --------------------------------------------------------------------------------------


def pickup_actions(of: Mover | State, first_only: bool = False) -> list[Action]:
    """Legal pickups in canonical form (`first_only`: stop at the first one found)."""
    state = _mover(of)
    if state.now.phase != "draw" or state.pile_error() is not None:
        return []
    team = state.team
    pile = state.board.pile
    top = pile[-1]
    rules = state.rules
    melded = top.rank in state.board.melds[team]
    if not melded and not any(c.rank is top.rank and not c.is_wild for c in state.hand):
        return []  # nothing of the top card's rank in hand to take it with (nor a meld of it)
    hand = _Hand(state.hand)
    n = len(hand.pool(top.rank))
    frozen = state.frozen_for(team)
    bases: list[Spec] = []
    for k in range(n + 1):
        for j, t in _wild_splits(len(hand.jokers), len(hand.twos), rules.meld_max_wilds):
            if take_error(rules, frozen, state.board.pile_frozen, top, k, j + t, melded) is None:
                bases.append((top.rank, k, j, t))
    if not bases:
        return []
    judge = Judge.of(state, team)
    out: list[Action] = []
    search = _Search(state, judge, hand, top)
    for base, specs in search.combos(bases):
        assert base is not None
        with_ = hand.groups((base,))[0].cards
        out.append(Pickup(with_, hand.groups(specs, (base,))))
        if first_only:
            return out
    if rules.top_card_only_go_out and len(pile) > 1:
        for base, specs in _Search(state, judge, hand, top, top_only=True).combos(bases):
            assert base is not None
            purchase = Pickup(hand.groups((base,))[0].cards, hand.groups(specs, (base,)), top_only=True)
            whole = _bought_out(state, purchase)
            out.extend((purchase,) if whole is None or whole == purchase else (whole, purchase))
            if first_only:
                return out
    return out


def _bought_out(state: Mover, purchase: Pickup) -> Pickup | None:
    """A top-card-only purchase that melds every card at once (going out in one action), made
    from `purchase` by melding the cards it leaves as the solver does, if that is legal."""
    from canasta.rules.solver import meld_out

    used, steps = read_groups(purchase.melds, state.hand, state.board.pile[-1], purchase.with_)
    melds = {r: list(cs) for r, cs in state.board.melds[state.team].items()}
    for rank, cards in steps:
        melds.setdefault(rank, []).extend(cards)
    rest = sorted(state.hand, key=_INDEX)  # in card order, so that the groups are canonical
    for c in used:
        rest.remove(c)
    groups = meld_out(state, state.team, rest, melds) if rest else []
    if groups is None:
        return None
    whole = Pickup(purchase.with_, (*purchase.melds, *groups), top_only=True)
    try:
        state.validate(whole)
    except IllegalActionError:
        return None
    return whole
