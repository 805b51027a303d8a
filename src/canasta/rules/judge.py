"""The rules core of melding: one judge of melds and pickups, by counts.

A melding step (a `meld` action, or the melds of a `pickup`) is judged on what matters to the
rules: for each rank it touches, how many naturals, jokers and twos it adds to the team's meld
of that rank. `State.apply` turns an action's cards into those counts and asks the judge; the
legal-move generator (`canasta.rules.legal`) asks the same judge about the candidates it forms
from the hand. So one piece of code decides what is legal, and the list of legal moves is
exactly what `apply` accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Final

from canasta.rules.cards import ALL_CARDS, RANK_CODE, THREE_RANK, WILD_RANK, Card, Rank
from canasta.rules.melds import (
    NEW_MELD_MIN,
    incomplete_special_counts,
    judged_alike,
    kills_rank,
    meld_ok_in,
    meld_refusal,
    melds_ok_known,
    wild_count,
    wild_rule_error,
)
from canasta.rules.parts import MeldFacts
from canasta.rules.refusal import Code, Refusal

if TYPE_CHECKING:
    from canasta.rules.mover import Mover
    from canasta.rules.ruleset import RuleSet

#: A group by counts: (rank, naturals, jokers, twos); black threes are the naturals of rank 3.
Spec = tuple[Rank, int, int, int]
#: What a step adds to each rank it touches: rank -> (naturals, jokers, twos), in order.
Touched = dict[Rank, tuple[int, int, int]]

POINTS: Final[dict[Rank, int]] = {c.rank: c.points for c in ALL_CARDS} | {WILD_RANK: 0}

_METHOD_TEXT: Final = {
    "pair": "a natural pair",
    "natural_wild": "a natural and a wild card",
    "layoff": "adding it to your meld",
}
_FROZEN_TEXT: Final = {
    "always": "the pile is always frozen",
    "frozen": "the pile is frozen",
    "unopened": "your team has not opened",
}
# The refusals that name no fact, made once (the legal-move lister meets them constantly).
SPECIAL_INCOMPLETE: Final = Refusal(
    Code.CANNOT_GO_OUT, "an incomplete meld of sevens, aces or wild cards forbids going out", "special"
)
_PARTNER_NO: Final = Refusal(Code.CANNOT_GO_OUT, "your partner said no to going out this turn", "partner_no")
_MUST_ASK: Final = Refusal(Code.CANNOT_GO_OUT, "you must ask your partner before going out", "must_ask")
_MUST_DISCARD: Final = Refusal(Code.MUST_DISCARD, "a card must remain for the final discard")
_BLACK_THREES_MELD_ALL: Final = Refusal(
    Code.BLACK_THREES, "black threes may be melded only when melding every card (no discard follows)"
)
_BLACK_THREES_NOT_OUT: Final = Refusal(Code.BLACK_THREES, "black threes may be melded only when going out")
#: The naturals of a meld without wild cards that makes an opening's composition (`clean_or_wild`).
CLEAN_OPENING_MIN: Final = 3
_OPENING_COMPOSITION: Final = Refusal(
    Code.OPENING_COMPOSITION,
    "the opening needs a meld of three or more naturals without wild cards, or a meld of wild cards",
)


_NOTHING: Final[frozenset[Rank]] = frozenset()


#: Every group a memo keeps, made once (`shared_spec`): a group holds its rank, an object the
#: garbage collector walks, so each copy kept would lengthen every full collection.
_SPECS: Final[dict[int, object]] = {}


def shared_spec(rank: Rank, naturals: int, jokers: int, twos: int) -> Any:
    """The group `(rank, naturals, jokers, twos)`, one object for each (by `_counts_code`); typed
    `Any` so that compiled code stores the object itself, not a copy of its fields."""
    code = _counts_code(RANK_CODE[rank], naturals, jokers, twos, None, 0)
    found = _SPECS.get(code)
    if found is None:
        found = _SPECS[code] = (rank, naturals, jokers, twos)
    return found


def spec_points(spec: Spec) -> int:
    """The points a group's cards count toward an opening."""
    rank, k, j, t = spec
    return group_points(rank, k, j, t)


def group_points(rank: Rank, naturals: int, jokers: int, twos: int) -> int:
    """The points a group of `naturals` of `rank`, `jokers` and `twos` counts toward an opening."""
    return POINTS[rank] * naturals + jokers * 50 + twos * 20


def grown(before: tuple[int, int] | None, naturals: int, jokers: int, twos: int) -> tuple[int, int]:
    """A meld's (size, wild cards) once a group is added to it (`before`: None for a new meld)."""
    if before is None:
        return naturals + jokers + twos, jokers + twos
    return before[0] + naturals + jokers + twos, before[1] + jokers + twos


def pending_kept(rules: RuleSet) -> bool:
    """Whether a team's wild-card meld may stand incomplete (`wild_pending`) under these rules."""
    return rules.wild_melds == "progressive"


def wild_pending(rules: RuleSet, meld: tuple[int, int] | None, add: tuple[int, int, int] | None) -> bool:
    """Whether a team's wild-card meld (`meld`: its size and wild cards, None for none) stands
    incomplete once the wild cards `add` (naturals, jokers, twos; None for none) are laid."""
    if not pending_kept(rules):
        return False
    if add is None:
        return meld is not None and meld[0] < 7
    size = (meld[0] if meld is not None else 0) + add[0] + add[1] + add[2]
    return size < 7


def single_key(
    rank: Rank, k: int, j: int, t: int, before: tuple[int, int] | None, pending: bool, dead: bool
) -> int:
    """The key in `Memo.singles` of a single group laid by an opened team keeping two cards or
    more: its counts (of its rank `judged_alike`), the team's meld of it, whether the wild-card
    meld is pending once it is laid and whether the rank is dead."""
    return _counts_code(judged_alike(rank), k, j, t, before, pending << 1 | dead)


def canasta_done(stats: dict[Rank, tuple[int, int]], started: AbstractSet[Rank], touched: Touched) -> bool:
    """Whether laying `touched` onto a team's melds (`stats`, those of `started` ranks begun this
    turn) completes a canasta in a meld begun this turn (concealed going out)."""
    for rank, (k, j, t) in touched.items():
        before = stats.get(rank)
        b = 0 if before is None else before[0]
        if b + k + j + t >= 7 and (before is None or (rank in started and b < 7)):
            return True
    return False


def touched_of(specs: Sequence[Spec]) -> Touched:
    """Groups merged by rank (several groups of one rank make one meld)."""
    out: Touched = {}
    for rank, k, j, t in specs:
        had = out.get(rank)
        out[rank] = (k, j, t) if had is None else (had[0] + k, had[1] + j, had[2] + t)
    return out


def has_groups(cards: int, melded: bool) -> bool:
    """Whether a rank may have groups with `cards` cards for it in hand (its own and wild ones):
    one adds to the team's meld of it (`melded`), a new meld needs `NEW_MELD_MIN`."""
    return cards >= (1 if melded else NEW_MELD_MIN)


def facts_with(
    rules: RuleSet, facts: MeldFacts, laid: Sequence[tuple[Rank, Sequence[Card]]]
) -> tuple[MeldFacts, bool]:
    """A team's judged facts once `laid` joins its melds (the ranks the other teams' melds make
    dead stay as they were), and whether a rank its melds make dead may have changed (then every
    other team's facts may change too)."""
    stats, other_dead, canastas, dead = facts
    stats = dict(stats)
    killing = rules.dead_rank_trigger != "none"
    changed = False
    for rank, cards in laid:
        before = stats.get(rank)
        size, wilds = (0, 0) if before is None else before
        if size < 7 <= size + len(cards):
            canastas += 1
        after = (size + len(cards), wilds + wild_count(cards))
        stats[rank] = after
        if killing and kills_rank(rules, rank, size, wilds) != kills_rank(rules, rank, after[0], after[1]):
            changed = True
    if killing:
        dead = other_dead | _dead_of(rules, stats)
    return (stats, other_dead, canastas, dead), changed


def judged_alone(rules: RuleSet) -> bool:
    """Whether a team's judged facts depend on its own melds alone (no rank dies by another
    team's melds)."""
    return rules.dead_rank_trigger == "none"


class Memo:
    """What a rule set's judges remember, by numbers (cheap to look up): the groups of a rank
    (`Judge.groups`) and whether each one fits, whether one group may be laid
    (`Judge.single_allowed`), whether a meld's composition is allowed (`meld_ok`), the opening
    minimum of a score. Whether a group fits or may be laid, and the groups of given counts
    (`shapes`, by counts), are the same for ranks judged alike (`judged_alike`)."""

    __slots__ = ("fits", "groups", "melds", "minimums", "shapes", "singles")

    def __init__(self, melds: dict[int, bool]) -> None:
        self.groups: dict[int, tuple[Spec, ...]] = {}
        self.shapes: dict[int, tuple[Spec, ...]] = {}
        self.fits: dict[int, bool] = {}
        self.singles: dict[int, bool] = {}
        self.melds = melds
        self.minimums: dict[int, int] = {}

    def minimum(self, rules: RuleSet, score: int) -> int:
        """`rules.minimum_for(score)`, remembered."""
        minimum = self.minimums.get(score)
        if minimum is None:
            minimum = self.minimums[score] = rules.minimum_for(score)
        return minimum

    @staticmethod
    def of(rules: RuleSet) -> Memo:
        """The rule set's memo, made once."""
        memo: Memo | None = rules.cache.get(Memo)
        if memo is None:
            memo = rules.cache[Memo] = Memo(melds_ok_known(rules))
        return memo


def _counts_code(
    rank: int, naturals: int, jokers: int, twos: int, before: tuple[int, int] | None, facts: int
) -> int:
    """Counts of a rank (by its number below 16: `RANK_CODE`, or `judged_alike` for a rule's
    answer), of the team's meld of it (`before`) and a few bits of `facts` as a number, each
    count in the bits the largest deck needs (`OPTION_RANGES`: four packs and eight jokers hold
    16 naturals of a rank, 8 jokers, 16 twos, a meld of 40 cards). What differs most from one
    key to the next comes lowest, in bits that all differ: a dictionary looks an int key up by
    its lowest bits first."""
    code = ((twos << 4 | jokers) << 5 | naturals) << 4 | rank
    if before is not None:
        code |= (before[0] + 1 << 5 | before[1]) << 18
    return code | facts << 29


class Judge:
    """The melding rules for one team at one moment of a turn, on counts.

    `stats` holds (size, wild cards) of each of the team's melds; `after` gives the judge of the
    same turn once a step is laid, so a sequence of steps can be judged without a `State`.
    """

    __slots__ = (
        "canastas",
        "dead",
        "drew",
        "memo",
        "minimum",
        "opened",
        "other_dead",
        "pending",
        "permission",
        "rules",
        "started",
        "stats",
    )

    rules: RuleSet
    stats: dict[Rank, tuple[int, int]]
    opened: bool
    minimum: int
    started: frozenset[Rank]
    permission: str | None
    drew: str | None
    other_dead: frozenset[Rank]
    dead: frozenset[Rank]
    canastas: int
    memo: Memo
    pending: bool  # the team's wild-card meld stands incomplete (`wild_pending` of nothing laid)

    @staticmethod
    def of(mover: Mover, team: int) -> Judge:
        """The judge of `team` as the table stands (the seat to play is the turn's)."""
        rules = mover.rules
        board, now = mover.board, mover.now
        j = Judge()
        j.rules = rules
        j.memo = memo = Memo.of(rules)
        j.opened = board.opened[team]
        j.minimum = memo.minimum(rules, board.scores[team])
        j.started = frozenset(now.started) if now.started else _NOTHING
        j.permission = now.permission
        j.drew = now.drew
        facts = board.judged[team]  # the melds' counts change only when cards are melded
        if facts is None:
            j.stats = {r: (len(cs), wild_count(cs)) for r, cs in board.melds[team].items()}
            other: set[Rank] = set()
            if not judged_alone(rules):
                for t, melds in enumerate(board.melds):
                    if t != team:
                        other |= _dead_of(rules, {r: (len(cs), wild_count(cs)) for r, cs in melds.items()})
            j.other_dead = frozenset(other)
            j._settle()
            board.judged[team] = (j.stats, j.other_dead, j.canastas, j.dead)
        else:
            j.stats, j.other_dead, j.canastas, j.dead = facts
        j.pending = wild_pending(j.rules, j.stats.get(WILD_RANK), None)  # (nothing laid)
        return j

    def _settle(self) -> None:
        canastas = 0
        for size, _ in self.stats.values():
            if size >= 7:
                canastas += 1
        self.canastas = canastas
        self.dead = self._dead()

    def _dead(self) -> frozenset[Rank]:
        """The ranks dead for the team: the other teams' melds make, and its own."""
        if self.rules.dead_rank_trigger == "none":
            return self.other_dead
        return self.other_dead | _dead_of(self.rules, self.stats)

    def after(self, touched: Touched, top: Card | None = None) -> Judge:
        """The judge once `touched` is laid (with the pile's `top`, for a pickup)."""
        j = Judge()
        j.rules = self.rules
        j.memo = self.memo
        stats = dict(self.stats)
        started: list[Rank] = []
        canastas = self.canastas
        for rank, (k, jk, tw) in with_top(touched, top).items():
            before = stats.get(rank)
            size = 0 if before is None else before[0]
            if before is None:
                started.append(rank)
            stats[rank] = grown(before, k, jk, tw)
            if size < 7 <= size + k + jk + tw:
                canastas += 1
        j.stats = stats
        j.opened = True
        j.minimum = self.minimum
        j.started = self.started.union(started) if started else self.started
        j.permission = self.permission
        j.drew = "pile" if top is not None else self.drew
        j.other_dead = self.other_dead
        j.canastas = canastas
        j.dead = j._dead()
        j.pending = wild_pending(j.rules, j.stats.get(WILD_RANK), None)  # (nothing laid)
        return j

    # -- one step -----------------------------------------------------------------------------

    def group_error(self, rank: Rank, k: int, jokers: int, twos: int, wild_pending: bool) -> Refusal | None:
        """The composition rules of what one step adds to the meld of `rank` (dead ranks too)."""
        if rank in self.dead:
            return Refusal(Code.DEAD_RANK, f"{rank.value}s are a dead rank", None, {"rank": rank.value})
        rules = self.rules
        before = self.stats.get(rank)
        wilds = jokers + twos
        if before is None:
            size, total_wilds = k + wilds, wilds
        else:
            size, total_wilds = before[0] + k + wilds, before[1] + wilds
        new = before is None
        if not meld_ok_in(self.memo.melds, rules, rank, size, total_wilds, new):
            return meld_refusal(rules, rank, size, total_wilds, new)
        if wilds and rank is not WILD_RANK:
            return wild_rule_error(rules, rank, size - total_wilds, not self.opened, wild_pending)
        return None

    def groups(self, rank: Rank, naturals: int, jokers: int, twos: int, pending: bool) -> tuple[Spec, ...]:
        """Every group of `rank` (from `naturals` of it, `jokers`, `twos`) whose addition the
        composition rules allow, largest first; memoised per rule set, as it depends on counts."""
        dead = bool(self.dead) and rank in self.dead
        before = self.stats.get(rank)
        facts = pending << 2 | self.opened << 1 | dead
        key = _counts_code(RANK_CODE[rank], naturals, jokers, twos, before, facts)
        memo = self.memo.groups
        found = memo.get(key)
        if found is None:
            alike = judged_alike(rank)
            shapes = self.memo.shapes  # the groups of a rank judged alike, of the same counts
            shape_key = _counts_code(alike, naturals, jokers, twos, before, facts)
            shape = shapes.get(shape_key)
            if shape is not None:
                found = memo[key] = tuple([shared_spec(rank, s[1], s[2], s[3]) for s in shape])
                return found
            limit = 99 if rank is WILD_RANK else self.rules.meld_max_wilds
            made: list[Spec] = []
            if not dead:
                fits = self.memo.fits  # the same for ranks judged alike
                # a cell's key, `_counts_code(alike, k, j, t, before, facts)`, and its group's in
                # `_SPECS` (`shared_spec`'s), with `rank`'s number: the counts' bits over the rest's
                rest, number = _counts_code(alike, 0, 0, 0, before, facts), RANK_CODE[rank]
                for k in range(0 if rank is WILD_RANK else naturals, -1, -1):
                    for j in range(min(jokers, limit), -1, -1):
                        for t in range(min(twos, limit - j), -1, -1):
                            if not k + j + t:
                                continue
                            counts = ((t << 4 | j) << 5 | k) << 4
                            fit = fits.get(rest | counts)
                            if fit is None:
                                fit = fits[rest | counts] = self.group_error(rank, k, j, t, pending) is None
                            if fit:
                                spec: Any = _SPECS.get(counts | number)  # (made once)
                                made.append(shared_spec(rank, k, j, t) if spec is None else spec)
            found = memo[key] = shapes[shape_key] = tuple(made)
        return found

    def fits(self, rank: Rank, k: int, j: int, t: int, pending: bool) -> bool:
        """Whether `group_error` allows the group, remembered per rule set (the same for ranks
        judged alike)."""
        dead = bool(self.dead) and rank in self.dead
        facts = pending << 2 | self.opened << 1 | dead
        cell = _counts_code(judged_alike(rank), k, j, t, self.stats.get(rank), facts)
        fits = self.memo.fits  # (as `groups` reads it)
        fit = fits.get(cell)
        if fit is None:
            fit = fits[cell] = self.group_error(rank, k, j, t, pending) is None
        return fit

    def wild_pending(self, touched: Mapping[Rank, tuple[int, int, int]]) -> bool:
        """Whether the team's wild-card meld stands incomplete once `touched` is laid."""
        return wild_pending(self.rules, self.stats.get(WILD_RANK), touched.get(WILD_RANK))

    def canasta_done(self, touched: Touched) -> bool:
        """Whether the step completes a canasta in a meld begun this turn (concealed going out)."""
        return canasta_done(self.stats, self.started, touched)

    def go_out_error(self, touched: Touched) -> Refusal | None:
        """Why the team may not go out once `touched` is laid (None when it may)."""
        rules = self.rules
        canastas = self.canastas
        special = rules.forbid_go_out_with_incomplete_special
        after = dict(self.stats) if special else self.stats
        for rank, (k, j, t) in touched.items():
            before = self.stats.get(rank)
            b, bw = (0, 0) if before is None else before
            if b < 7 <= b + k + j + t:
                canastas += 1
            if special:
                after[rank] = (b + k + j + t, bw + j + t)
        if canastas < rules.go_out_min_canastas:
            return canastas_refusal(rules.go_out_min_canastas, canastas)
        if special and any(incomplete_special_counts(r, n, w) for r, (n, w) in after.items()):
            return SPECIAL_INCOMPLETE
        return permission_error(rules, self.permission)

    def canastas_within(self, cards: int) -> int:
        """The most canastas the team can hold once `cards` more cards are laid, as `go_out_error`
        counts them: its melds short of seven completed, those lacking fewest first, then melds of
        seven new cards."""
        canastas = self.canastas
        lacking = [7 - size for size, _ in self.stats.values() if size < 7]
        lacking.sort()
        for need in lacking:
            if need > cards:
                break
            cards -= need
            canastas += 1
        return canastas + cards // 7

    def single_allowed(self, spec: Spec, hand_after: int) -> bool:
        """Whether laying one group is legal: `step_error` of it is None. For an opened team that
        keeps two cards or more, only the group's composition decides, memoised per rule set."""
        rank, k, j, t = spec
        touched = {rank: (k, j, t)}
        if hand_after < 2 or rank is THREE_RANK or not self.opened:
            return not self.step_illegal(touched, hand_after)
        pending = self.wild_pending(touched)
        key = single_key(rank, k, j, t, self.stats.get(rank), pending, rank in self.dead)
        singles = self.memo.singles
        ok = singles.get(key)
        if ok is None:
            ok = singles[key] = self.group_error(rank, k, j, t, pending) is None
        return ok

    def plain_key(self, rank: Rank, alike: bool = False) -> int | None:
        """What alone decides `single_allowed` for every group of a natural `rank` when two cards
        or more stay in hand, and `step_error` of a pickup of a top card of `rank` melded with
        cards of its rank alone, as a number: the rank (`alike`: its `judged_alike` number, which
        decides as much), the team's meld of it, whether its wild meld is pending and the rank
        dead (None for threes, wild cards and a team that has not opened)."""
        if rank is THREE_RANK or rank is WILD_RANK or not self.opened:
            return None
        meld = self.stats.get(rank)
        size, wilds = (0, 0) if meld is None else (meld[0] + 1, meld[1])
        number = judged_alike(rank) if alike else RANK_CODE[rank]
        key = ((number << 8 | size) << 8 | wilds) << 1 | self.pending
        return key << 1 | (rank in self.dead)

    def step_error(self, touched: Touched, hand_after: int, top: Card | None = None) -> Refusal | None:
        """Why laying `touched` is illegal (None when it is legal).

        For a meld action `hand_after` is the hand once it is laid. For a pickup, `top` is the
        pile's top card (melded with the touched cards of its rank) and `hand_after` counts the
        rest of the pile joining the hand (none after a top-card-only purchase).
        """
        full = with_top(touched, top)
        refusal = self._laying_error(touched, full, hand_after, top)
        if refusal is None and not self.opened:
            return self.opening_error(touched, full, hand_after, top)
        return refusal

    def step_illegal(self, touched: Touched, hand_after: int, top: Card | None = None) -> bool:
        """Whether `step_error` refuses the step: the same rules, an opening's count and
        composition (the cheapest to judge) first."""
        full = with_top(touched, top)
        if not self.opened and self.opening_error(touched, full, hand_after, top) is not None:
            return True
        return self._laying_error(touched, full, hand_after, top, False) is not None

    def _laying_error(
        self, touched: Touched, full: Touched, hand_after: int, top: Card | None, explain: bool = True
    ) -> Refusal | None:
        """`step_error` but for the opening's count and composition (not `explain`: a refusal of
        going out is not told in full, as `step_illegal` needs none)."""
        rules = self.rules
        pending = self.wild_pending(full)
        for rank, (k, j, t) in full.items():
            refusal = self.group_error(rank, k, j, t, pending)
            if refusal is not None:
                return refusal
        black_threes = THREE_RANK in touched and (top is None or top.rank is not THREE_RANK)
        if hand_after == 0 and rules.go_out_discard == "mandatory":
            return _MUST_DISCARD
        if black_threes and rules.black3_meld_no_discard and hand_after:
            return _BLACK_THREES_MELD_ALL
        if hand_after <= 1 or black_threes:
            why = self.go_out_error(full)
            if black_threes and (why or hand_after > 1):
                if not explain:
                    return _BLACK_THREES_NOT_OUT
                because = why.text if why else "cards would remain"
                return Refusal(
                    Code.BLACK_THREES, f"black threes may be melded only when going out ({because})"
                )
            if why:
                if explain and top is None and hand_after == 1:
                    return why.worded(f"it would leave one card that could not be discarded ({why.text})")
                return why
        return None

    def opening_error(
        self, touched: Touched, full: Touched, hand_after: int, top: Card | None
    ) -> Refusal | None:
        """The initial meld: its count against the minimum, composition, exemptions (1.10, A43, A46)."""
        rules = self.rules
        count = 0
        from_hand = False  # a canasta laid from hand (A43)
        for r, (k, j, t) in touched.items():
            count += group_points(r, k, j, t)
            if k + j + t >= 7 and (top is None or r is not top.rank):
                from_hand = True
        if top is not None and rules.initial_meld_counts_top_card:
            count += top.points
        if composition_needed(rules) and not _clean_or_wild(full):
            return _OPENING_COMPOSITION
        if count >= self.minimum:
            return None
        if rules.opening_canasta_exempt and from_hand:
            return None
        if (
            top is None
            and self.drew == "stock"
            and rules.concealed_min_rule == "stock_exempt_pile_required"
            and hand_after <= 1
            and self.canasta_done(full)
        ):
            return None
        return _below_minimum(rules, count, self.minimum)


def _below_minimum(rules: RuleSet, count: int, minimum: int) -> Refusal:
    """The refusal of an opening counting `count` against `minimum`, made once per rule set (the
    lister's searches meet the same few again and again)."""
    key = -1 - (count * 65536 + minimum)  # negative: no other key of the rule set's cache is
    cache = rules.cache
    found: Refusal | None = cache.get(key)
    if found is None:
        found = cache[key] = Refusal(
            Code.OPENING_MINIMUM,
            f"opening melds count {count}, minimum is {minimum}",
            None,
            {"count": count, "minimum": minimum},
        )
    return found


def take_refused(rules: RuleSet, frozen: bool, naturals: int, wilds: int, melded: bool) -> bool:
    """Whether the cards taken with the top card (`naturals` of its rank, `wilds`) may not take the
    pile (`take_error` says why). `frozen`: the pile is frozen for the team; `melded`: the team has
    a meld of the top's rank."""
    if frozen:
        return naturals < 2
    methods = rules.pile_take_methods
    return not (
        ("pair" in methods and naturals >= 2)
        or ("natural_wild" in methods and naturals >= 1 and wilds >= 1)
        or ("layoff" in methods and melded)
    )


def take_error(
    rules: RuleSet, frozen: bool, pile_frozen: bool, top: Card, naturals: int, wilds: int, melded: bool
) -> Refusal | None:
    """Why the cards taken with the top card may not take the pile (None when they may; see
    `take_refused`)."""
    if not take_refused(rules, frozen, naturals, wilds, melded):
        return None
    if frozen:
        case = "always" if rules.freeze_scope == "always" else "frozen" if pile_frozen else "unopened"
        return Refusal(
            Code.FROZEN_PILE,
            f"{_FROZEN_TEXT[case]}: take it with a natural pair matching {top.code}",
            case,
            {"rank": top.rank.value},
        )
    methods = rules.pile_take_methods
    allowed = ", ".join(_METHOD_TEXT[m] for m in sorted(methods))
    return Refusal(
        Code.BAD_PICKUP,
        f"take the pile with cards matching {top.code} (allowed: {allowed})",
        "method",
        {"rank": top.rank.value, "card": top.code, "methods": tuple(m for m in _METHOD_TEXT if m in methods)},
    )


def permission_error(rules: RuleSet, permission: str | None) -> Refusal | None:
    """Why partner's permission (or its absence) forbids going out this turn."""
    if permission == "no":
        return _PARTNER_NO
    if rules.permission_mode == "mandatory" and permission != "yes":
        return _MUST_ASK
    return None


def canastas_refusal(need: int, have: int) -> Refusal:
    """Going out refused for want of canastas: the team needs `need` and has `have` (made once
    for each: the lister's searches meet them again and again)."""
    key = need << 8 | have
    found = _CANASTAS.get(key)
    if found is None:
        found = _CANASTAS[key] = Refusal(
            Code.CANNOT_GO_OUT,
            f"going out needs {need} canasta{'s' if need > 1 else ''}, your team has {have}",
            "canastas",
            {"need": need, "have": have},
        )
    return found


_CANASTAS: Final[dict[int, Refusal]] = {}


def with_top(touched: Touched, top: Card | None) -> Touched:
    """A pickup's touched counts with the pile's top card added to its rank."""
    if top is None:
        return touched
    full = {top.rank: (1, 0, 0)}
    for rank, (k, j, t) in touched.items():
        if rank is top.rank:
            full[rank] = (k + 1, j, t)
        else:
            full[rank] = (k, j, t)
    return full


def _clean_or_wild(full: Touched) -> bool:
    """Whether a step holds a meld of three naturals or more without wild cards, or of wild cards."""
    for rank, (k, j, t) in full.items():  # noqa: SIM110 (a generator costs plain Python more)
        if composes(rank, k, j, t):
            return True
    return False


def composition_needed(rules: RuleSet) -> bool:
    """Whether an opening must hold a group that `composes` (`initial_meld_composition`)."""
    return rules.initial_meld_composition == "clean_or_wild"


def composes(rank: Rank, naturals: int, jokers: int, twos: int) -> bool:
    """Whether a group of an opening (with a pickup's top card among its naturals) makes its
    composition: three naturals or more without wild cards, or wild cards."""
    return rank is WILD_RANK or (naturals >= CLEAN_OPENING_MIN and not jokers + twos)


def composable(rules: RuleSet, longest: int, wilds: int, black_threes: int) -> bool:
    """Whether a hand whose longest rank holds `longest` naturals, with `wilds` wild cards and
    `black_threes`, may hold a group that `composes` (told from counts: False only where none
    can)."""
    return (
        longest >= CLEAN_OPENING_MIN
        or black_threes >= CLEAN_OPENING_MIN
        or (rules.wild_melds != "none" and wilds >= NEW_MELD_MIN)
    )


def rank_dead(rules: RuleSet, other_dead: frozenset[Rank], rank: Rank, meld: tuple[int, int] | None) -> bool:
    """Whether `rank` is dead for a team whose meld of it is `meld` (size, wild cards; None for
    none) and for which the other teams' melds make `other_dead` dead: `rank in Judge.dead`."""
    return rank in other_dead or (
        meld is not None and rules.dead_rank_trigger != "none" and kills_rank(rules, rank, *meld)
    )


def _dead_of(rules: RuleSet, stats: Mapping[Rank, tuple[int, int]]) -> set[Rank]:
    """Ranks a team's melds make dead (Modern American, R11 and A23)."""
    return {r for r, (n, w) in stats.items() if kills_rank(rules, r, n, w)}

