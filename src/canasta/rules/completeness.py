"""The completeness checker of `legal_actions`: brute force over the hand, judged by `apply`.

For a position, every meld (play phase) or pickup (draw phase) that can be formed from the
hand of the seat to move is tried with `State.check`; each legal one must be reachable by a
sequence of listed actions in the same turn (cards of one rank are interchangeable), every
listed action must apply, and none may lead to a position where the deal goes on with nothing
legal. Where a hand allows more combinations than `limit`, a seeded sample of them is tried.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from canasta.rules.actions import Action, Group, Meld, Pickup, describe
from canasta.rules.cards import Card, Rank
from canasta.rules.errors import IllegalActionError
from canasta.rules.groups import group_rank, spec_of
from canasta.rules.hand import HandKinds, wild_splits
from canasta.rules.judge import Judge, Spec
from canasta.rules.state import State

#: A position up to interchangeable cards: (turn, phase, melds by counts, hands by kind, pile size)
Signature = tuple[object, ...]


@dataclass
class Report:
    """What the checker found in one position."""

    listed: int = 0
    legal: int = 0
    sampled: bool = False
    unreachable: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    dead_ends: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.unreachable or self.refused or self.dead_ends)


def _kind(card: Card) -> str:
    return card.rank.value if not card.is_red_three else "r3"


def signature(state: State) -> Signature:
    """The position within a turn: the mover's team's melds by counts, the mover's hand by kind."""
    team = state.team_of(state.turn)
    melds = tuple(sorted((r.value, _counts(cs)) for r, cs in state.melds[team].items()))
    hand = tuple(sorted(Counter(_kind(c) for c in state.hands[state.turn]).items()))
    done = None if state.result is None else state.result.reason
    return (state.turn, state.phase, melds, hand, len(state.pile), state.must_meld_out, done)


def _counts(cards: Sequence[Card]) -> tuple[int, int, int]:
    _, naturals, jokers, twos = spec_of(Rank.WILD, cards)
    return naturals, jokers, twos


def _goal(target: State) -> dict[Rank, tuple[int, int, int]]:
    return {r: _counts(cs) for r, cs in target.melds[target.team_of(target.turn)].items()}


def _fits(state: State, action: Meld | Pickup, goal: dict[Rank, tuple[int, int, int]]) -> bool:
    """Whether the team's melds with `action` laid stay within the target's (melding only adds)."""
    melds = state.melds[state.team_of(state.turn)]
    added: dict[Rank, list[int]] = {}
    groups = list(action.melds)
    if isinstance(action, Pickup):
        top = state.pile[-1]
        groups.append(Group((*action.with_, top), top.rank))
    for g in groups:
        rank = group_rank(g)
        have = added.setdefault(rank, list(_counts(melds.get(rank, ()))))
        for i, n in enumerate(_counts(g.cards)):
            have[i] += n
    for rank, have in added.items():
        want = goal.get(rank)
        if want is None or any(h > w for h, w in zip(have, want, strict=True)):
            return False
    return True


class _Turn:
    """The listed actions from positions of one turn and their results, each found once."""

    def __init__(self) -> None:
        self.listed: dict[Signature, list[Meld | Pickup]] = {}
        self.results: dict[tuple[Signature, Meld | Pickup], tuple[State, Signature]] = {}

    def actions(self, state: State, sig: Signature) -> list[Meld | Pickup]:
        found = self.listed.get(sig)
        if found is None:
            found = self.listed[sig] = [a for a in state.legal_actions() if isinstance(a, (Meld, Pickup))]
        return found

    def result(self, state: State, sig: Signature, action: Meld | Pickup) -> tuple[State, Signature]:
        key = (sig, action)
        found = self.results.get(key)
        if found is None:
            after = state.clone()
            after.apply(action)
            found = self.results[key] = (after, signature(after))
        return found


def reachable(state: State, target: State, turn: _Turn | None = None) -> bool:
    """Whether listed actions of the same turn lead from `state` to `target`'s position."""
    turn = _Turn() if turn is None else turn
    goal = signature(target)
    melds = _goal(target)
    seen: set[Signature] = set()

    def search(here: State, sig: Signature) -> bool:
        if sig == goal:
            return True
        if here.is_over or here.turn != target.turn:
            return False
        for action in turn.actions(here, sig):
            if not _fits(here, action, melds):
                continue
            after, after_sig = turn.result(here, sig, action)
            if after_sig in seen:
                continue
            seen.add(after_sig)
            if search(after, after_sig):
                return True
        return False

    return search(state, signature(state))


def _options(judge: Judge, hand: HandKinds, rank: Rank, melded: bool) -> list[Spec]:
    """Every group of `rank` the hand can form whose composition the rules allow on its own."""
    limit = 99 if rank is Rank.WILD else judge.rules.meld_max_wilds
    splits = wild_splits(len(hand.jokers), len(hand.twos), limit)
    n = 0 if rank is Rank.WILD else len(hand.pool(rank))
    out: list[Spec] = []
    for k in range(n + 1):
        for j, t in splits:
            if (k or j or t) and judge.group_error(rank, k, j, t, False) is None:
                out.append((rank, k, j, t))
    if not melded and rank is not Rank.WILD:
        out = [s for s in out if s[1]]
    return out


def _combinations(
    per_rank: Sequence[Sequence[Spec]], jokers: int, twos: int, limit: int, rng: random.Random
) -> tuple[list[tuple[Spec, ...]], bool]:
    """Combinations of at most one group per rank within the wild cards; sampled past `limit`."""
    choices = [[None, *opts] for opts in per_rank]
    total = 1
    for c in choices:
        total *= len(c)
    if total <= limit:
        pool: Iterator[tuple[Spec | None, ...]] = itertools.product(*choices)
        sampled = False
    else:
        pool = (tuple(rng.choice(c) for c in choices) for _ in range(limit))
        sampled = True
    out = []
    seen = set()
    for combo in pool:
        specs = tuple(s for s in combo if s is not None)
        if sum(s[2] for s in specs) > jokers or sum(s[3] for s in specs) > twos or specs in seen:
            continue
        seen.add(specs)
        out.append(specs)
    return out, sampled


def candidates(state: State, limit: int = 4000, seed: int = 0) -> tuple[list[Action], bool]:
    """Every meld or pickup the seat to move can form (a sample past `limit`), legal or not."""
    rng = random.Random(seed)
    seat = state.turn
    team = state.team_of(seat)
    hand = HandKinds(state.hands[seat])
    judge = Judge.of(state.mover(), team)
    melds = state.melds[team]
    ranks = list(dict.fromkeys([*hand.naturals, *(r for r in melds if r is not Rank.THREE)]))
    if state.rules.wild_melds != "none":
        ranks.append(Rank.WILD)
    if len(hand.black_threes) >= 3:
        ranks.append(Rank.THREE)
    out: list[Action] = []
    if state.phase == "play":
        per_rank = [_options(judge, hand, r, r in melds) for r in ranks]
        combos, sampled = _combinations(per_rank, len(hand.jokers), len(hand.twos), limit, rng)
        out.extend(Meld(hand.groups(specs)) for specs in combos if specs)
        return out, sampled
    if not state.pile:
        return out, False
    top = state.pile[-1]
    others = [r for r in ranks if r is not top.rank]
    per_rank = [_options(judge, hand, r, r in melds) for r in others]
    n = len(hand.pool(top.rank))
    bases = [
        (top.rank, k, j, t)
        for k in range(n + 1)
        for j, t in wild_splits(len(hand.jokers), len(hand.twos), judge.rules.meld_max_wilds)
    ]
    combos, sampled = _combinations(
        per_rank, len(hand.jokers), len(hand.twos), max(1, limit // len(bases)), rng
    )
    for base in bases:
        with_: tuple[Card, ...] = hand.groups((base,))[0].cards
        for specs in combos:
            if sum(s[2] for s in specs) + base[2] > len(hand.jokers):
                continue
            if sum(s[3] for s in specs) + base[3] > len(hand.twos):
                continue
            groups: tuple[Group, ...] = hand.groups(specs, (base,))
            out.append(Pickup(with_, groups))
            if state.rules.top_card_only_go_out:
                out.append(Pickup(with_, groups, top_only=True))
    return out, sampled


def check_position(state: State, limit: int = 4000, seed: int = 0) -> Report:
    """Compare the listed actions of `state` with every meld or pickup formed from the hand."""
    report = Report()
    listed = state.legal_actions()
    report.listed = len(listed)
    for action in listed:
        after = state.clone()
        try:
            after.apply(action)
        except IllegalActionError as exc:
            report.refused.append(f"{describe(action)}: {exc.message}")
            continue
        if not after.is_over and not after.legal_actions():
            report.dead_ends.append(describe(action))
    if state.is_over or state.permission == "pending":
        return report
    tried, report.sampled = candidates(state, limit, seed)
    listed_set = set(listed)
    turn = _Turn()
    for action in tried:
        if state.check(action) is not None:
            continue
        report.legal += 1
        if action in listed_set:
            continue
        target = state.clone()
        target.apply(action)
        if not reachable(state, target, turn):
            report.unreachable.append(describe(action))
    return report
