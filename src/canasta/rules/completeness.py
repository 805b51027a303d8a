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
from canasta.rules.judge import Judge, Spec
from canasta.rules.legal import _Hand, _wild_splits
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
    melds = tuple(tuple(sorted((r.value, _counts(cs)) for r, cs in m.items())) for m in state.melds)
    hands = tuple(tuple(sorted(Counter(_kind(c) for c in h).items())) for h in state.hands)
    return (state.turn, state.phase, melds, hands, len(state.pile), state.must_meld_out, state.result)


def _counts(cards: Sequence[Card]) -> tuple[int, int, int]:
    jokers = sum(1 for c in cards if c.is_joker)
    twos = sum(1 for c in cards if c.is_two)
    return len(cards) - jokers - twos, jokers, twos


def _fits(state: State, target: State) -> bool:
    """Whether `state` can still grow into `target` by melding (no meld beyond the target's)."""
    for m, goal in zip(state.melds, target.melds, strict=True):
        for rank, cards in m.items():
            want = goal.get(rank)
            if want is None:
                return False
            have, need = _counts(cards), _counts(want)
            if any(h > n for h, n in zip(have, need, strict=True)):
                return False
    return True


def reachable(state: State, target: State, seen: set[Signature] | None = None) -> bool:
    """Whether listed actions of the same turn lead from `state` to `target`'s position."""
    goal = signature(target)
    if signature(state) == goal:
        return True
    if state.is_over or (state.turn != target.turn and not target.is_over):
        return False
    seen = set() if seen is None else seen
    for action in state.legal_actions():
        if not isinstance(action, (Meld, Pickup)):
            continue
        after = state.clone()
        after.apply(action)
        sig = signature(after)
        if sig in seen or not _fits(after, target):
            continue
        seen.add(sig)
        if sig == goal or reachable(after, target, seen):
            return True
    return False


def _options(judge: Judge, hand: _Hand, rank: Rank, melded: bool) -> list[Spec]:
    """Every group of `rank` the hand can form whose composition the rules allow on its own."""
    limit = 99 if rank is Rank.WILD else judge.rules.meld_max_wilds
    splits = _wild_splits(len(hand.jokers), len(hand.twos), limit)
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
    hand = _Hand(state.hands[seat])
    judge = Judge.of(state, team)
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
        for j, t in _wild_splits(len(hand.jokers), len(hand.twos), judge.rules.meld_max_wilds)
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
    for action in tried:
        if state.check(action) is not None:
            continue
        report.legal += 1
        if action in listed_set:
            continue
        target = state.clone()
        target.apply(action)
        if not reachable(state, target):
            report.unreachable.append(describe(action))
    return report
