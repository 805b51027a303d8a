"""Irreducible openings and pickups: the legal steps from which no card or group can be held
back and laid afterwards by a single group (`canasta.rules.legal` lists them), and the pickups
of the seat to move, which the validator of a `pass` asks about too."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from canasta.rules.actions import Action, Pickup
from canasta.rules.cards import RANK_CODE, THREE_RANK, WILD_RANK, Card, Rank
from canasta.rules.errors import IllegalActionError
from canasta.rules.groups import read_groups
from canasta.rules.hand import INDEX, HandKinds, pickup_of, wild_splits
from canasta.rules.judge import (
    POINTS,
    Judge,
    Spec,
    Touched,
    composable,
    composes,
    composition_needed,
    group_points,
    grown,
    has_groups,
    pending_kept,
    rank_dead,
    shared_spec,
    single_key,
    spec_points,
    take_refused,
    wild_pending,
)
from canasta.rules.melds import judged_alike
from canasta.rules.parts import DRAW
from canasta.rules.solver import meld_out, short_rank

if TYPE_CHECKING:
    from canasta.rules.mover import Mover

#: A step being formed: the top card's group of a pickup (or None), then further groups.
Combo = tuple[Spec | None, tuple[Spec, ...]]
#: The key of a (key, step) pair, to sort steps by (`_canonical`).
_KEY: Final = itemgetter(0)
#: `units` of each group met so far (a few hundred at most: groups are small counts).
_UNITS: Final[dict[Spec, list[tuple[Spec, Spec | None]]]] = {}
#: A hand this small (with what the pile adds) may go out with a pickup: its groups are searched.
SMALL_HAND: Final = 4
#: Work the searches of the openings, or of the pickups, may do in one listing: a node of the
#: walk costs 1, a step judged or a judge made once a step is laid `JUDGED` (three times that
#: when every card left must be meldable), and a step's verdict (legal and irreducible) that
#: times one plus its groups. The work is counted as asked for, whether or not an answer is
#: remembered, so that what a listing holds depends on the position alone. A hand of up to
#: `FULL_BUDGET_HAND` cards gets `SEARCH_BUDGET`: random play's largest searches, facing a
#: minimum of 120 with hands of 19 to 23 cards, did 22,000 to 28,052 units. A larger hand gets
#: `LARGE_HAND_BUDGET` (random play's searches of such hands do a few thousand): a hand of
#: dozens of cards, many of them wild, has more irreducible openings than any list can hold,
#: and the first found are listed.
SEARCH_BUDGET: Final = 40_000
FULL_BUDGET_HAND: Final = 25
LARGE_HAND_BUDGET: Final = 20_000
JUDGED: Final = 4
#: A hand of `LARGE_HAND` cards or more with `MANY_WILDS` wild cards or more searches their
#: groups first (else last, their place in the canonical order): its walk would spend the budget
#: on natural groups alone. A smaller hand searches faster with them last, but for an opening
#: that must hold a clean meld or one of wild cards (`composition_needed`): its walk stops where
#: no rank left has such a group.
MANY_WILDS: Final = 4
LARGE_HAND: Final = 20
#: Steps remembered per rule set (`Remembered`), all facts together: verdicts (keys and values
#: plain numbers, which the garbage collector does not walk), and judges (objects it walks at
#: each full collection, whose pause lengthens a listing).
VERDICTS_REMEMBERED: Final = 16_384
JUDGES_REMEMBERED: Final = 2048
#: More than the naturals of one rank can count (`_prepare` orders ranks by what they lack of it).
_WORTH: Final = 1 << 16


def searched_alone(opened: bool, cards: int) -> bool:
    """Whether a pickup holding `cards` in hand once taken is searched with no further group:
    an opened team lays any other group afterwards, unless it is going out."""
    return opened and cards > SMALL_HAND


class IrreducibleSearch:
    """Irreducible openings and pickups: legal steps from which nothing can be held back.

    A combination is (the top card's group, further groups); it is reducible when one card
    or one group can leave it with the rest still legal and then be laid by a single group.
    """

    __slots__ = (
        "allowed",
        "bad",
        "black3",
        "budget",
        "compose_stop",
        "composers",
        "count_bits",
        "exempt",
        "extendable",
        "first",
        "found",
        "fresh",
        "frozen",
        "gained",
        "hand",
        "joker_bits",
        "judge",
        "largest",
        "meld_out",
        "memory",
        "options",
        "pending_kept",
        "prepared",
        "quiet",
        "ranks",
        "reachable",
        "rest",
        "roomiest",
        "rules",
        "spec_bits",
        "state",
        "top",
        "top_only",
        "unlaids",
        "unwild",
        "weight",
    )

    def __init__(
        self, state: Mover, judge: Judge, hand: HandKinds, top: Card | None, top_only: bool = False
    ) -> None:
        self.state = state
        self.judge = judge
        self.rules = state.rules
        self.hand = hand
        self.top = top
        self.top_only = top_only
        self.gained = len(state.pile_gain(top_only)) if top is not None else 0
        self.frozen = state.frozen_for(state.team)
        self.pending_kept = pending_kept(self.rules)
        self.black3 = top is not None and top.is_black_three
        # after a black three or a top-card-only purchase every card left must be meldable
        self.meld_out = self.black3 or top_only
        self.allowed = SEARCH_BUDGET if hand.size <= FULL_BUDGET_HAND else LARGE_HAND_BUDGET
        self.budget = self.allowed
        self.weight = 3 * JUDGED if self.meld_out else JUDGED
        self.memory = None if self.meld_out else Remembered.of(judge, top, self.frozen)
        self.unwild: dict[Rank, int] | None = None
        # a group's number (`spec_code`): its rank, then each count in bits enough for the deck
        # (a step of four groups stays a machine-sized number)
        self.count_bits = (4 * self.rules.decks).bit_length()
        self.joker_bits = self.rules.jokers.bit_length()
        self.spec_bits = 4 + 2 * self.count_bits + self.joker_bits
        self.bad: dict[Spec, bool] = {}
        self.exempt: bool | None = None  # `_exempt`, once worked out
        self.reachable = -1  # the points `_short` finds the naturals may add, once worked out
        self.prepared = False  # the walk's facts below, made by `_prepare` when a walk needs them
        self.found: list[Combo] = []
        self.first = False

    unlaids: dict[int, list[Spec]]
    fresh: list[list[Spec] | None]
    largest: list[int]
    extendable: list[bool]  # whether a rank from i on has a group
    roomiest: int  # the cards left from which no group leaves fewer than two
    quiet: list[int]  # by the wild-card meld pending: from which rank on none has an unlaid group
    ranks: list[Rank]
    options: list[list[Spec]]
    rest: list[int]

    def _prepare(self) -> None:
        """What the walk over further groups needs (a pickup by an opened team with a hand of
        some size needs none of it)."""
        if self.prepared:
            return
        self.prepared = True
        self.unlaids = {}
        hand, top = self.hand, self.top
        # the ranks worth most first (ties in card order), so that the bound below the minimum
        # prunes early: sorted as numbers, what a rank's naturals lack of `_WORTH` then its place
        ranks = [r for r in hand.naturals if top is None or r is not top.rank]
        order = [(_WORTH - POINTS[r] * len(hand.naturals[r])) << 5 | i for i, r in enumerate(ranks)]
        order.sort()
        self.ranks = [ranks[k & 31] for k in order]
        wilds = len(hand.jokers) + len(hand.twos)
        if self.rules.wild_melds != "none" and wilds:
            # first where an opening's composition is asked for (the walk then stops where no
            # rank left has a group that `composes` it), or the hand holds many of them
            composing = not self.judge.opened and composition_needed(self.rules)
            first = composing or (wilds >= MANY_WILDS and hand.size >= LARGE_HAND)
            self.ranks.insert(0 if first else len(self.ranks), WILD_RANK)
        if len(hand.black_threes) >= 3 and not self.black3:
            self.ranks.append(THREE_RANK)
        self.options = [self._options(r) for r in self.ranks]
        self.fresh = [None] * (4 * len(self.ranks))
        # the largest group of each rank, and the most points the naturals of the ranks from i on
        # can still add (one group a rank), for pruning below the minimum
        self.largest = [0] * len(self.ranks)
        self.rest = [0] * (len(self.ranks) + 1)
        self.extendable = [False] * (len(self.ranks) + 1)
        self.roomiest = 2
        for i in range(len(self.ranks) - 1, -1, -1):
            options = self.options[i]
            self.extendable[i] = self.extendable[i + 1] or bool(options)
            largest = 0
            for _, k, j, t in options:
                if k + j + t > largest:
                    largest = k + j + t
            self.largest[i] = largest
            if largest + 2 > self.roomiest:
                self.roomiest = largest + 2
            most = options[0][1] if options else 0  # (groups come largest first by naturals)
            self.rest[i] = self.rest[i + 1] + POINTS[self.ranks[i]] * most
        self._exempt()  # (the walk reads `exempt`)
        self.quiet = [len(self.ranks)] * 2
        self.composers = -1  # no step needs a group that `composes`
        if not self.judge.opened and composition_needed(self.rules):
            self.composers = 0  # past the last rank with such a group
            for i in range(len(self.ranks)):
                for _, k, j, t in self.options[i]:
                    if composes(self.ranks[i], k, j, t):
                        self.composers = i + 1
                        break
        self.compose_stop = self.composers  # (for a walk with no top card's group)

    def spent(self) -> int:
        """The work the search has done of its budget."""
        return self.allowed - self.budget

    def _exempt(self) -> bool:
        """Whether an opening may fall below the minimum: a canasta from hand (A43); the
        concealed going out below it (A46) melds every card, which `_meld_outs` lists. Worked out
        once (`exempt`)."""
        exempt = self.exempt
        if exempt is None:
            hand, rules = self.hand, self.rules
            wilds = len(hand.jokers) + len(hand.twos)
            exempt = self.exempt = (
                not self.judge.opened
                and rules.opening_canasta_exempt
                and (hand.longest() + min(wilds, rules.meld_max_wilds) >= 7 or wilds >= 7)
            )
        return exempt

    def _short(self, points: int, jokers: int, twos: int) -> bool:
        """Whether a step worth `points` so far, with `jokers` and `twos`, cannot reach the
        opening minimum whatever groups follow: where `_walk` stops at its first node (the most
        the naturals of the ranks can add, `rest`, is below what is lacking), told from counts
        before `_prepare` works out the groups. A rank the team has no meld of has groups only
        with `meld_min_naturals` of its naturals, and no more of them than the hand holds."""
        judge, hand, top = self.judge, self.hand, self.top
        if judge.opened:
            return False
        lacking = judge.minimum - points - 50 * (len(hand.jokers) - jokers) - 20 * (len(hand.twos) - twos)
        if lacking <= 0:
            return False
        most = self.reachable
        if most < 0:  # worked out once: the same for every top-card group
            fewest = self.rules.meld_min_naturals
            most = 0
            for rank, cards in hand.naturals.items():
                if (len(cards) >= fewest or rank in judge.stats) and (top is None or rank is not top.rank):
                    most += POINTS[rank] * len(cards)
            if len(hand.black_threes) >= 3 and not self.black3:
                most += POINTS[THREE_RANK] * len(hand.black_threes)
            self.reachable = most
        return most < lacking and not self._exempt()

    def _uncomposed(self) -> bool:
        """Whether the opening needs a group that `composes` and the hand has none to choose (the
        walk would stop at its first node, `compose_stop`), told from counts."""
        judge, hand = self.judge, self.hand
        if judge.opened or not composition_needed(self.rules):
            return False
        wilds = len(hand.jokers) + len(hand.twos)
        return not composable(self.rules, hand.longest(), wilds, len(hand.black_threes))

    def _options(self, rank: Rank) -> list[Spec]:
        hand = self.hand
        judge = self.judge
        naturals, jokers, twos = len(hand.pool(rank)), len(hand.jokers), len(hand.twos)
        if not has_groups(naturals + jokers + twos, rank in judge.stats):
            return []
        specs = judge.groups(rank, naturals, jokers, twos, False)
        if rank is WILD_RANK:
            return list(specs)
        # groups come largest first by naturals: those with naturals enough are a prefix, those
        # without a short tail (copied whole, so that compiled code keeps the memo's objects
        # rather than copies)
        least = 3 if rank is THREE_RANK else 1
        cut = len(specs)
        while cut and specs[cut - 1][1] < least:
            cut -= 1
        return list(specs[:cut])

    def spec_code(self, spec: Spec) -> int:
        """A group as a number of `spec_bits` bits, never 0 (a step's number is its groups' in
        order)."""
        _, k, j, t = spec
        return self._code(RANK_CODE[spec[0]], k, j, t)

    def verdict_code(self, spec: Spec) -> int:
        """`spec_code` with the rank's `judged_alike` number: a step's verdict is the same for
        every step whose groups differ only by ranks judged alike (a dead rank has no groups)."""
        _, k, j, t = spec
        return self._code(judged_alike(spec[0]), k, j, t)

    def _code(self, rank: int, k: int, j: int, t: int) -> int:
        """The number of a group of the rank numbered `rank`: each count, then the rank (lowest:
        a dictionary looks an int key up by its lowest bits first; `_walk` works it out so too)."""
        return ((k << self.joker_bits | j) << self.count_bits | t) << 4 | rank + 1

    # -- judging ------------------------------------------------------------------------------

    def error(self, combo: Combo) -> bool:
        """Whether the step is illegal (what a search asks again is remembered by `Remembered`)."""
        base, specs = combo
        hand = self.hand
        top = self.top
        used = 0
        for s in specs:
            used += s[1] + s[2] + s[3]
        if base is not None:
            used += base[1] + base[2] + base[3]
            assert top is not None
            melded = top.rank in self.state.board.melds[self.state.team]
            if take_refused(self.rules, self.frozen, base[1], base[2] + base[3], melded):
                return True
        touched = _touched(base, specs)
        kept = hand.size - used
        if self.judge.step_illegal(touched, kept + self.gained, top):
            return True
        if self.meld_out and kept + self.gained:
            return not self._meld_out_ok(combo)
        return False

    def _meld_out_ok(self, combo: Combo) -> bool:
        """Whether every card left (with the pile's, but for a top-card-only purchase) can be melded."""
        base, specs = combo
        assert base is not None and self.top is not None
        state = self.state
        kept = dict(self._unwild())  # less the step's
        melded = set(state.board.melds[state.team])
        for rank, k, _, _ in (base, *specs):
            if k:
                kept[rank] -= k
            melded.add(rank)
        if short_rank(self.rules, kept, melded):
            return False  # what `meld_out` finds first, on counts
        with_ = self.hand.groups((base,))[0].cards
        used, steps = read_groups(self.hand.groups(specs, (base,)), state.hand, self.top, with_, False)
        return state.can_meld_out(state.team, used, steps, state.pile_gain(self.top_only))

    def addable(self, combo: Combo, unit: Spec, laid: Laid | None = None) -> bool:
        """Whether `unit` may be laid by a single group once `combo` is laid (`laid`: that table,
        if made)."""
        known = self._known_addable(combo, unit)
        if known is not None:
            return known
        return (self.after(combo) if laid is None else laid).addable(unit)

    def _known_addable(self, combo: Combo, unit: Spec) -> bool | None:
        """`addable` as the judge's memo of single groups knows it (None when it does not), told
        without the table once `combo` is laid: a group that keeps two cards or more, not of
        threes, is decided by its counts, the team's melds of its rank and of wild cards then,
        and whether its rank is dead then."""
        rank, k, j, t = unit
        if rank is THREE_RANK or self._left(combo) - k - j - t < 2:
            return None
        meld = self._meld_after(combo, rank)
        if rank is WILD_RANK:
            pending = wild_pending(self.rules, meld, (k, j, t))
        else:
            pending = self.pending_after(combo)
        judge = self.judge
        dead = rank_dead(self.rules, judge.other_dead, rank, meld)
        return judge.memo.singles.get(single_key(rank, k, j, t, meld, pending, dead))

    def pending_after(self, combo: Combo) -> bool:
        """Whether the team's wild-card meld stands incomplete once `combo` is laid."""
        return self.pending_kept and wild_pending(self.rules, self._meld_after(combo, WILD_RANK), None)

    def _meld_after(self, combo: Combo, rank: Rank) -> tuple[int, int] | None:
        """The team's meld of `rank` (size, wild cards) once `combo` is laid (None for none), as
        `Judge.after` counts it: a pickup's base group is of the top card's rank, which it adds."""
        base, specs = combo
        before = self.judge.stats.get(rank)
        if base is not None and base[0] is rank:
            return grown(before, base[1] + 1, base[2], base[3])
        for spec in specs:
            if spec[0] is rank:
                return grown(before, spec[1], spec[2], spec[3])
        return before

    def after(self, combo: Combo) -> Laid:
        """The table once `combo` is laid, to judge single groups."""
        return Laid(self, combo, self._left(combo), -1)

    def judge_after(self, combo: Combo, key: int) -> Judge:
        """The judge once `combo` is laid, remembered in the memory's judges under `key` (-1: not
        remembered)."""
        memory = self.memory
        judges = None if memory is None or key < 0 else memory.judges
        if judges is not None:
            known = judges.get(key)
            if known is not None:
                return known
        base, specs = combo
        judge = self.judge.after(_touched(base, specs), self.top)
        if judges is not None and memory is not None:
            judges[key] = judge
            memory.everything.added_judge()
        return judge

    def unlaid(self, i: int, later: Laid) -> list[Spec]:
        """The groups of rank i that could not be laid by themselves once `later`'s step is laid
        (with any other the step would be reducible); shared by the steps that leave the same
        facts deciding a group of that rank."""
        rank = self.ranks[i]
        if later.hand - self.largest[i] < 2:
            return self._unlaid(i, later)
        if rank not in self.judge.stats and rank is not THREE_RANK and rank is not WILD_RANK:
            # `plain_key` of a rank the team has no meld of (nor has the step, of ranks before
            # i): by its number in this search, the wild-card meld pending once the step is laid
            # and the rank dead (as now: no meld of its own makes it so)
            code = 4 * i + 2 * later.pending() + (rank in self.judge.dead)
            fresh = self.fresh[code]
            if fresh is None:
                fresh = self.fresh[code] = self._unlaid(i, later)
            return fresh
        if rank is WILD_RANK:  # decided by the team's wild-card meld once the step is laid
            meld = self._meld_after(later.combo, WILD_RANK)
            key: int | None = -1 if meld is None else -2 - (meld[0] << 8 | meld[1])  # (plain keys are >= 0)
        else:
            key = later.judge().plain_key(rank)
        if key is None:
            return self._unlaid(i, later)
        found = self.unlaids.get(key)
        if found is None:
            found = self.unlaids[key] = self._unlaid(i, later)
        return found

    def all_laid(self, start: int, later: Laid) -> bool:
        """Whether no rank from `start` on has a group that `later`'s step would leave unlaid
        (`unlaid`), for a step that leaves `roomiest` cards or more: then each such rank has no
        group or is decided by whether the wild-card meld stands pending (`fresh`), or is the
        wild cards' (decided by the team's meld of them, which no step of ranks before holds);
        worked out once per search from the last rank down."""
        pending = later.pending()
        quiet = self.quiet[pending]
        judge = self.judge
        while quiet > start:
            i = quiet - 1
            rank = self.ranks[i]
            if self.options[i] and (
                rank is THREE_RANK or (rank in judge.stats and rank is not WILD_RANK) or self.unlaid(i, later)
            ):
                break
            quiet = self.quiet[pending] = i
        return quiet <= start

    def _unlaid(self, i: int, later: Laid) -> list[Spec]:
        """The groups of rank i that `later` does not let be laid by themselves."""
        options: list[Any] = self.options[i]  # `Any`: compiled code keeps the objects, not copies
        return [s for s in options if not self.addable(later.combo, s, later)]

    def bad_group(self, spec: Spec) -> bool:
        """Whether the judge refuses `spec` as a step's whole group of its rank (then so is every
        step holding it: a wild meld left incomplete only refuses more)."""
        known = self.bad.get(spec)
        if known is None:
            rank, k, j, t = spec
            known = self.bad[spec] = not self.judge.fits(rank, k, j, t, False)
        return known

    def accepted(self, combo: Combo, code: int, left: int) -> bool:
        """Whether the step (numbered `code`, its groups' `verdict_code` in order) is legal and
        irreducible, remembered across searches as `Remembered` says, with the cards it leaves
        (`left`, as `_left` counts them), which decide only when fewer than two."""
        base, specs = combo
        self.budget -= self.weight * (1 + len(specs) + (base is not None))
        memory = self._verdicts(specs, left)
        if memory is None:
            return not self.error(combo) and not self.reducible(combo)
        verdicts = memory.verdicts
        key = code * 3 + (left if left < 2 else 2)
        known = verdicts.get(key)
        if known is None:
            known = verdicts[key] = self._legal(memory, combo, key) and not self.reducible(combo)
            memory.everything.added_verdict()
        return known

    def _verdicts(self, specs: tuple[Spec, ...], left: int) -> Remembered | None:
        """The memory of a step's verdicts, None where `Remembered` keeps none (a plain pickup
        with further groups, or leaving fewer than two cards)."""
        memory = self.memory
        if memory is None or (memory.plain and (left < 2 or specs)):
            return None
        return memory

    def _legal(self, memory: Remembered, combo: Combo, key: int) -> bool:
        """Whether the step is legal, remembered as its verdict is (`key`)."""
        legal = memory.legal.get(key)
        if legal is None:
            legal = memory.legal[key] = not self.error(combo)
            memory.everything.added_verdict()
        return legal

    def laid(self, combo: Combo, code: int, verdict: int, left: int) -> Laid | None:
        """The table once the step is laid, None when the step is illegal; a step of a team that
        has not opened (an opening, from hand or with the pile's top card) is legal as `accepted`
        remembers (by `verdict`), and its judge, when one is needed, is remembered by its groups'
        `spec_code` in order (the table holds their very ranks, the top card's among them); an
        opened team's pickup not. `left`: the cards it leaves, as `_left` counts them."""
        self.budget -= self.weight
        memory = self.memory
        if memory is None or memory.plain:
            return None if self.error(combo) else self.after(combo)
        if not self._legal(memory, combo, verdict * 3 + (left if left < 2 else 2)):
            return None
        return Laid(self, combo, left, code * 3 + (left if left < 2 else 2))

    def _left(self, combo: Combo) -> int:
        """The cards in hand once the step is laid (with the rest of the pile it takes)."""
        base, specs = combo
        left = self.hand.size + self.gained
        if base is not None:
            left -= base[1] + base[2] + base[3]
        for s in specs:
            left -= s[1] + s[2] + s[3]
        return left

    def reducible(self, combo: Combo) -> bool:
        base, specs = combo
        for i, spec in enumerate(specs):
            before, after = specs[:i], specs[i + 1 :]
            rest = (base, before + after)
            if self._judged_legal(rest) and self.addable(rest, spec):
                return True
            for unit, smaller in units(spec):
                if smaller is not None and not self.bad_group(smaller):
                    less = (base, before + (smaller,) + after)  # noqa: RUF005 (compiled: no list made)
                    if self._judged_legal(less) and self.addable(less, unit):
                        return True
        if base is not None:
            for unit, smaller in units(base):
                less = (smaller or (base[0], 0, 0, 0), specs)
                if self._judged_legal(less) and self.addable(less, unit):
                    return True
        return False

    def _judged_legal(self, combo: Combo) -> bool:
        """`not error(combo)`, remembered by the step's ranks judged alike where `accepted`
        remembers verdicts."""
        base, specs = combo
        left = self._left(combo)
        memory = self._verdicts(specs, left)
        if memory is None:
            return not self.error(combo)
        code = 0 if base is None else self.verdict_code(base)
        for spec in specs:
            code = code << self.spec_bits | self.verdict_code(spec)
        return self._legal(memory, combo, code * 3 + (left if left < 2 else 2))

    # -- the search ---------------------------------------------------------------------------

    def combos(self, bases: Sequence[Spec | None], first: bool = False) -> list[Combo]:
        """The irreducible legal steps with each of these top-card groups (`first`: the first
        one found only).

        An opened team needs no further group with its pickup unless the pickup leaves it
        almost no cards (going out): any other group is laid afterwards.
        """
        self.found = []
        self.first = first
        alone = searched_alone(self.judge.opened, self.hand.size + self.gained)
        if self.meld_out and self._stranded(alone):
            return self.found  # every step's verdict would refuse it (none)
        for base in bases:
            if first and self.found:
                break
            if alone:
                combo: Combo = (base, ())
                if self.accepted(combo, 0 if base is None else self.verdict_code(base), self._left(combo)):
                    self.found.append(combo)
            else:
                start = len(self.found)
                self._start(base)
                if len(self.found) > start and self.ranks and self.ranks[0] is WILD_RANK:
                    self.found[start:] = self._canonical(self.found[start:])
        return self.found

    def _stranded(self, alone: bool) -> bool:
        """`stranded` with the ranks this search's further groups may take (none alone)."""
        takes: set[Rank] = set()
        if not alone:
            self._prepare()
            for i in range(len(self.ranks)):
                if self.options[i]:
                    takes.add(self.ranks[i])
        assert self.top is not None  # (a step that must leave every card meldable is a pickup)
        return stranded(self.state, self.top, takes, self._unwild())

    def _unwild(self) -> dict[Rank, int]:
        """The cards in hand and gained that are not wild, by rank (`unwild_counts`), counted once."""
        unwild = self.unwild
        if unwild is None:
            unwild = self.unwild = unwild_counts(self.state.hand, self.state.pile_gain(self.top_only))
        return unwild

    def _canonical(self, found: list[Combo]) -> list[Combo]:
        """Steps found with the wild cards' groups chosen first, in the canonical order: each
        step's groups by rank (the wild cards' after the naturals, before black threes), the
        steps as a walk choosing them in that order finds them (a step after those extending it)."""
        ranks = self.ranks
        order = {r: i for i, r in enumerate((*ranks[1:], WILD_RANK))}
        threes = ranks[-1] is THREE_RANK
        if threes:
            order[WILD_RANK], order[THREE_RANK] = len(ranks) - 2, len(ranks) - 1
        # a group's place among its rank's (the walk's order: largest first by naturals, then by
        # jokers, then by twos), after its rank's, as one number
        count_bits, joker_bits = self.count_bits, self.joker_bits
        most, most_jokers = (1 << count_bits) - 1, (1 << joker_bits) - 1
        end = len(ranks) << 2 * count_bits + joker_bits  # after every group's: a step comes
        keyed: list[tuple[list[int], Combo]] = []  # after the steps that extend it
        for base, specs in found:
            ordered = specs
            if specs and specs[0][0] is WILD_RANK:  # chosen first, its place is after the naturals'
                wild, rest = specs[0], specs[1:]
                if threes and rest and rest[-1][0] is THREE_RANK:
                    ordered = (*rest[:-1], wild, rest[-1])
                else:
                    ordered = (*rest, wild)
            key = []
            for rank, k, j, t in ordered:
                place = (order[rank] << count_bits | most - k) << joker_bits | most_jokers - j
                key.append(place << count_bits | most - t)
            key.append(end)
            keyed.append((key, (base, ordered)))
        keyed.sort(key=_KEY)
        return [combo for _, combo in keyed]

    def _start(self, base: Spec | None) -> None:
        points = 0
        if base is not None:
            points = spec_points(base)
            if self.rules.initial_meld_counts_top_card and self.top is not None:
                points += self.top.points
        jokers, twos = (base[2], base[3]) if base is not None else (0, 0)
        if self._short(points, jokers, twos) or (base is None and self._uncomposed()):
            self.budget -= 1  # the walk's first node, where it would stop
            return
        self._prepare()
        self.compose_stop = self.composers
        if base is not None and composes(base[0], base[1] + 1, base[2], base[3]):  # the top card too
            self.compose_stop = -1
        code, verdict = (0, 0) if base is None else (self.spec_code(base), self.verdict_code(base))
        self._walk(base, 0, (), points, jokers, twos, code, verdict, self._left((base, ())))

    def _walk(
        self,
        base: Spec | None,
        start: int,
        chosen: tuple[Spec, ...],
        points: int,
        jokers: int,
        twos: int,
        code: int,
        verdict: int,
        left: int,
    ) -> None:
        """Choose a group of rank i (for each i from `start` on) or none, with the points and wild
        cards chosen so far (`code`, `verdict`: the step's numbers so far, as `laid` and
        `accepted` take them; `left`: the cards it leaves); each rank passed over is a node of
        the search, as is the end."""
        hand = self.hand
        all_jokers, all_twos = len(hand.jokers), len(hand.twos)
        opening = not self.exempt and not self.judge.opened
        least = self.judge.minimum - points - 50 * (all_jokers - jokers) - 20 * (all_twos - twos)
        partial = (base, chosen)
        # once what is chosen is legal, a group that could be laid after it only makes it reducible
        later: Laid | None = None
        if (
            start < len(self.ranks)
            and (base is not None or chosen)
            and (not opening or points >= self.judge.minimum)
        ):
            if self.extendable[start]:
                later = self.laid(partial, code, verdict, left)
            else:  # no rank left has a group: counted as judged all the same (see `SEARCH_BUDGET`)
                self.budget -= self.weight
        end, rest, every = len(self.ranks), self.rest, self.options
        bits = self.spec_bits
        count_bits, joker_bits = self.count_bits, self.joker_bits
        compose_stop = self.compose_stop
        stop = end + 1
        if (
            later is not None
            and later.hand >= self.roomiest
            and not (self.first and self.found)
            and self.all_laid(start, later)
        ):
            # the loop would pass over every rank left, one node each, choosing nothing
            if self.budget <= end - start:
                self.budget = -1
                return
            self.budget -= end - start + 1
            stop = start
        for i in range(start, stop):
            self.budget -= 1
            if self.budget < 0 or (self.first and self.found):
                return
            if opening and rest[i] < least:
                return
            if i == compose_stop and not _composed(chosen):
                return  # no rank from here on has a group that makes the opening's composition
            if i == end:
                break
            options = every[i]
            # `Any`: compiled code keeps each group's object for the step, rather than a copy
            choices: list[Any] = options if later is None or not options else self.unlaid(i, later)
            for choice in choices:
                spec: Spec = choice
                rank, k, j, t = spec
                if j + jokers > all_jokers or t + twos > all_twos:
                    continue
                counts = ((k << joker_bits | j) << count_bits | t) << 4  # `spec_code` and `verdict_code`
                self._walk(
                    base,
                    i + 1,
                    chosen + (choice,),  # noqa: RUF005 (compiled code makes no list for it)
                    points + group_points(rank, k, j, t),
                    jokers + j,
                    twos + t,
                    code << bits | counts | RANK_CODE[rank] + 1,
                    verdict << bits | counts | judged_alike(rank) + 1,
                    left - k - j - t,
                )
        if base is None and not chosen:
            return
        if opening and points < self.judge.minimum and left > 1:
            # an opening below the minimum that keeps two cards or more: refused whatever else
            # (`Judge.opening_error`: no canasta is exempt, no concealed going out keeps two);
            # its verdict counted as `accepted` counts it
            self.budget -= self.weight * (1 + len(chosen) + (base is not None))
            return
        if self.accepted(partial, verdict, left):
            self.found.append(partial)


class Remembered:
    """What searches learn under the same facts, shared through the rule set's cache: whether a
    step is legal and irreducible, and the judge once a legal step is laid.

    Openings by a team that has not opened are remembered under the table's facts (with a
    pickup, the top card's rank, by its `judged_alike` number, whether it is dead and whether the
    pile is frozen: a black three's is not remembered). A pickup by an opened team of a natural
    top card is `plain`: only its verdict with no further group is remembered, under the judge's
    `plain_key` of the top's rank (judged alike) and whether the pile is frozen, which decide it
    when two cards or more stay in hand.
    """

    __slots__ = ("alone", "everything", "judges", "legal", "plain", "verdicts")

    def __init__(self, plain: bool, everything: Memories) -> None:
        self.plain = plain
        self.everything = everything
        #: by the step's number (of ranks judged alike) and the cards it leaves (`accepted`), and
        #: whether it is legal alone, by the same numbers
        self.verdicts: dict[int, bool] = {}
        self.legal: dict[int, bool] = {}
        #: the judge once a legal step is laid, by its groups' `spec_code` and the cards it leaves
        self.judges: dict[int, Judge] = {}
        #: a plain memory's pickups searched alone, by the counts in hand (`_alone`)
        self.alone: dict[int, tuple[list[Spec], int]] = {}

    @staticmethod
    def of(judge: Judge, top: Card | None, frozen: bool) -> Remembered | None:
        """The memory for these facts (None when nothing is remembered: an opening by a team
        that holds melds, a top card of no natural rank)."""
        key: object
        plain = top is not None and judge.opened
        if plain:
            assert top is not None
            facts = judge.plain_key(top.rank, alike=True)
            if facts is None:
                return None
            key = facts << 1 | frozen  # a number: the other keys are tuples
        elif judge.opened or judge.stats:
            return None
        else:  # an opening, from hand or with the pile's top card (only its rank decides)
            taken = None if top is None else (judged_alike(top.rank), top.rank in judge.dead, frozen)
            key = ("openings", taken, judge.minimum, judge.permission, judge.drew, judge.started, judge.dead)
        cache = judge.rules.cache
        everything: Memories | None = cache.get(Memories)
        if everything is None:
            everything = cache[Memories] = Memories()
        found = everything.by_facts.get(key)
        if found is None:
            found = everything.by_facts[key] = Remembered(plain, everything)
        return found


class Memories:
    """Every `Remembered` of a rule set, by its facts, and how many steps they hold."""

    __slots__ = ("by_facts", "judges", "verdicts")

    def __init__(self) -> None:
        self.by_facts: dict[object, Remembered] = {}
        self.verdicts = 0
        self.judges = 0

    def added_verdict(self) -> None:
        """Count a verdict remembered; past `VERDICTS_REMEMBERED`, everything is forgotten."""
        self.verdicts += 1
        if self.verdicts > VERDICTS_REMEMBERED:
            self.by_facts.clear()
            self.verdicts = self.judges = 0

    def added_judge(self) -> None:
        """Count a judge remembered; past `JUDGES_REMEMBERED`, every judge is forgotten."""
        self.judges += 1
        if self.judges > JUDGES_REMEMBERED:
            for memory in self.by_facts.values():
                memory.judges.clear()
            self.judges = 0


class Laid:
    """The table once a step is laid: the cards left in hand, and its judge, made when first
    asked for (`IrreducibleSearch.judge_after`, remembered under `key` unless it is -1)."""

    __slots__ = ("_judge", "_pending", "combo", "hand", "key", "search")

    def __init__(self, search: IrreducibleSearch, combo: Combo, hand: int, key: int) -> None:
        self.search = search
        self.combo = combo
        self.hand = hand
        self.key = key
        self._judge: Judge | None = None
        self._pending: bool | None = None

    def pending(self) -> bool:
        """Whether the team's wild-card meld then stands incomplete."""
        pending = self._pending
        if pending is None:
            pending = self._pending = self.search.pending_after(self.combo)
        return pending

    def judge(self) -> Judge:
        """The judge once the step is laid."""
        judge = self._judge
        if judge is None:
            judge = self._judge = self.search.judge_after(self.combo, self.key)
        return judge

    def addable(self, unit: Spec) -> bool:
        """Whether the group `unit` may then be laid by itself."""
        return self.judge().single_allowed(unit, self.hand - unit[1] - unit[2] - unit[3])


def _composed(specs: tuple[Spec, ...]) -> bool:
    """Whether one of an opening's further groups `composes` it."""
    for rank, k, j, t in specs:  # noqa: SIM110 (a generator costs plain Python more)
        if composes(rank, k, j, t):
            return True
    return False


def _touched(base: Spec | None, specs: tuple[Spec, ...]) -> Touched:
    """`touched_of` a step's groups: each of its own rank (one group a rank, the top card's
    first), so none is merged with another."""
    out: Touched = {} if base is None else {base[0]: (base[1], base[2], base[3])}
    for rank, k, j, t in specs:
        out[rank] = (k, j, t)
    return out


def units(spec: Spec) -> list[tuple[Spec, Spec | None]]:
    """Each kind of card one could hold back from a group: (that card, the group without it)."""
    found = _UNITS.get(spec)
    if found is None:
        rank, k, j, t = spec
        found = _UNITS[spec] = []
        for unit_k, unit_j, unit_t in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            less_k, less_j, less_t = k - unit_k, j - unit_j, t - unit_t
            if less_k >= 0 and less_j >= 0 and less_t >= 0:
                smaller = shared_spec(rank, less_k, less_j, less_t) if less_k + less_j + less_t else None
                found.append((shared_spec(rank, unit_k, unit_j, unit_t), smaller))
    return found


def list_pickups(state: Mover, first_only: bool = False) -> list[Action]:
    """Legal pickups in canonical form (`first_only`: stop at the first one found)."""
    if state.now.phase is not DRAW or state.pile_error() is not None:
        return []
    team = state.team
    pile = state.board.pile
    top = pile[-1]
    rules = state.rules
    melded = top.rank in state.board.melds[team]
    if not melded and not _holds_natural(state, top):
        return []  # nothing of the top card's rank in hand to take it with (nor a meld of it)
    # the pile's cards only add to the hand: an opened team's searches then look at the top's
    # rank and the wild cards alone
    alone = searched_alone(state.board.opened[team], len(state.hand))
    hand = HandKinds.of_rank(state.hand, top.rank) if alone and not state.keeps_kinds() else state.kinds()
    frozen = state.frozen_for(team)
    wilds = min(len(hand.jokers) + len(hand.twos), rules.meld_max_wilds)
    if take_refused(rules, frozen, len(hand.pool(top.rank)), wilds, melded):
        return []  # not even with all its naturals and wild cards (more of either never refuses)
    judge = Judge.of(state, team)
    out: list[Action] = []
    found, spent = _alone(state, judge, hand, top, frozen, melded) if alone else (None, 0)
    bases: list[Spec] = []
    if found is not None:
        for group in found:
            out.append(hand.single_pickup(group))
            if first_only:
                return out
    else:
        bases = _bases(state, hand, top, frozen, melded)
        search = IrreducibleSearch(state, judge, hand, top)
        for base, specs in search.combos(bases, first_only):
            assert base is not None
            with_ = hand.groups((base,))[0].cards
            out.append(pickup_of(with_, hand.groups(specs, (base,))))
            if first_only:
                return out
        spent = search.spent()
    purchasable = rules.top_card_only_go_out and len(pile) > 1  # (a purchase gains no pile card)
    if purchasable and not (alone and stranded(state, top, (), unwild_counts(state.hand))):
        buying = IrreducibleSearch(state, judge, hand, top, top_only=True)
        buying.budget -= spent  # one budget for the listing
        for base, specs in buying.combos(bases or _bases(state, hand, top, frozen, melded), first_only):
            assert base is not None
            purchase = pickup_of(hand.groups((base,))[0].cards, hand.groups(specs, (base,)), True)
            whole = bought_out(state, purchase)
            out.extend((purchase,) if whole is None or whole == purchase else (whole, purchase))
            if first_only:
                return out
    return out


def stranded(state: Mover, top: Card, takes: Iterable[Rank], unwild: dict[Rank, int]) -> bool:
    """Whether the cards that are not wild (`unwild`: in hand and gained from the pile, by rank)
    hold a rank other than the top card's and those of `takes` too short for a meld of its own
    and of no meld of the team's (`short_rank`): then no pickup that must leave every card
    meldable (of a black three, or of the top card alone) is legal, whichever cards take the top
    card and whichever groups of `takes`' ranks join it (the first thing each one's verdict asks)."""
    joined = {top.rank, *takes, *state.board.melds[state.team]}  # ranks its cards may join
    return short_rank(state.rules, unwild, joined)


def unwild_counts(*piles: Sequence[Card]) -> dict[Rank, int]:
    """The cards of these piles that are not wild, counted by rank."""
    counts: dict[Rank, int] = {}
    for cards in piles:
        for c in cards:
            if not c.is_wild:
                counts[c.rank] = counts.get(c.rank, 0) + 1
    return counts


def _holds_natural(state: Mover, top: Card) -> bool:
    """Whether the hand holds a card of the top card's rank that is not wild (read off the hand by
    kinds where it is kept)."""
    if top.is_natural and state.keeps_kinds():
        return top.rank in state.kinds().naturals
    return any(c.rank is top.rank and not c.is_wild for c in state.hand)


def _bases(state: Mover, hand: HandKinds, top: Card, frozen: bool, melded: bool) -> list[Spec]:
    """The top card's groups that may take the pile: of its naturals and wild cards in hand."""
    rules = state.rules
    bases: list[Spec] = []
    for k in range(len(hand.pool(top.rank)) + 1):
        for j, t in wild_splits(len(hand.jokers), len(hand.twos), rules.meld_max_wilds):
            if not take_refused(rules, frozen, k, j + t, melded):
                bases.append((top.rank, k, j, t))
    return bases


def _alone(
    state: Mover, judge: Judge, hand: HandKinds, top: Card, frozen: bool, melded: bool
) -> tuple[list[Spec] | None, int]:
    """The top-card groups of an opened team's pickups searched alone (`searched_alone`), and
    the budget their search spends, remembered under the verdicts' facts and the counts of the
    top's rank and of wild cards in hand, which decide every verdict when each pickup leaves two
    cards or more (None when one might not, or nothing is remembered: the search decides)."""
    naturals, jokers, twos = len(hand.pool(top.rank)), len(hand.jokers), len(hand.twos)
    if hand.size - naturals - jokers - twos < 2:  # (not counting what the pile adds)
        return None, 0
    memory = Remembered.of(judge, top, frozen)
    if memory is None:
        return None, 0
    key = (twos << 8 | jokers) << 8 | naturals
    known = memory.alone.get(key)
    if known is None:
        search = IrreducibleSearch(state, judge, hand, top)
        bases = _bases(state, hand, top, frozen, melded)
        found = [base for base, _ in search.combos(bases) if base is not None]
        known = memory.alone[key] = (found, search.spent())
    found, spent = known
    if found and found[0][0] is not top.rank:  # learnt with a rank judged alike
        found = [shared_spec(top.rank, k, j, t) for _, k, j, t in found]
    return found, spent


def bought_out(state: Mover, purchase: Pickup) -> Pickup | None:
    """A top-card-only purchase that melds every card at once (going out in one action), made
    from `purchase` by melding the cards it leaves as the solver does, if that is legal."""
    used, steps = read_groups(purchase.melds, state.hand, state.board.pile[-1], purchase.with_)
    melds = {r: list(cs) for r, cs in state.board.melds[state.team].items()}
    for rank, cards in steps:
        melds.setdefault(rank, []).extend(cards)
    rest = sorted(state.hand, key=INDEX)  # in card order, so that the groups are canonical
    for c in used:
        rest.remove(c)
    groups = meld_out(state, state.team, rest, melds) if rest else []
    if groups is None:
        return None
    whole = pickup_of(purchase.with_, (*purchase.melds, *groups), True)
    try:
        state.validate(whole)
    except IllegalActionError:
        return None
    return whole
