"""The fixed integer action space of a rule set, and the engine's actions as sequences of its ids.

Ids, in this order (each block's size depends on the rule set's deck and `meld_max_wilds`):

- `DRAW` 0, `PASS` 1, `ASK` 2, `YES` 3, `NO` 4, `COMMIT` 5 (ends the step being laid);
- discard: one id per card kind, `DISCARD + card.index` (53 kinds, `canasta.rules.ALL_CARDS`);
- take the pile: with `k` naturals of the top card's rank (black threes for a black three),
  `j` jokers and `t` twos from the hand, `0 <= k <= 4 * decks`, `j <= jokers`,
  `t <= 4 * decks`, `j + t <= meld_max_wilds`; then the same for a top-card-only purchase;
- a group: (rank, naturals, jokers, twos) for the natural ranks A to 4, for black threes (rank
  3) and for wild cards only (rank `wild`, no naturals, no bound on its wild cards), with the
  same bounds and at least one card. A group of a rank the team has melded adds to that meld.

An engine action is a sequence of ids: draw, pass, ask, yes, no and a discard are one id; a
pickup is its take id, the ids of its further groups in increasing order, then `COMMIT`; a
meld is the ids of its groups in increasing order, then `COMMIT`.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.rules import (
    ALL_CARDS,
    Action,
    Answer,
    Ask,
    Card,
    Discard,
    Draw,
    Group,
    Meld,
    Pass,
    Pickup,
    Rank,
    RuleSet,
)

DRAW, PASS, ASK, YES, NO, COMMIT = range(6)
DISCARD = 6
SIMPLE_NAMES = ("draw", "pass", "ask", "yes", "no", "commit")
#: Ranks of groups, in id order: A down to 4, black threes, wild cards only.
GROUP_RANKS = (
    *(r for r in Rank if r not in (Rank.THREE, Rank.TWO, Rank.JOKER, Rank.WILD)),
    Rank.THREE,
    Rank.WILD,
)
#: (naturals, jokers, twos) of a group or of the cards taken with the pile.
Counts = tuple[int, int, int]

#: Single-group melds whose ids `ActionSpace.sequence` remembers before it starts again: few
#: enough that the memo adds little to the heap a full garbage collection walks.
MELD_MEMO = 4096
_SIMPLE: dict[type, tuple[int, ...]] = {Draw: (DRAW,), Pass: (PASS,), Ask: (ASK,)}
_YES_SEQ, _NO_SEQ = (YES,), (NO,)


class ActionSpace:
    """The ids of one rule set: `size` of them, from 0 (see the module docstring)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        per_rank = 4 * rules.decks
        wilds = [
            (j, t)
            for j in range(rules.jokers + 1)
            for t in range(per_rank + 1)
            if j + t <= rules.meld_max_wilds
        ]
        self.take_counts: list[Counts] = [(k, j, t) for k in range(per_rank + 1) for j, t in wilds]
        self.take = DISCARD + len(ALL_CARDS)
        self.take_top = self.take + len(self.take_counts)
        self.group = self.take_top + len(self.take_counts)
        self._take_index = {c: i for i, c in enumerate(self.take_counts)}
        self.groups: list[tuple[Rank, int, int, int]] = []
        for rank in GROUP_RANKS:
            if rank is Rank.WILD:
                counts = [(0, j, t) for j in range(rules.jokers + 1) for t in range(per_rank + 1)]
            else:
                naturals = per_rank // 2 if rank is Rank.THREE else per_rank
                counts = [(k, j, t) for k in range(naturals + 1) for j, t in wilds]
            self.groups.extend((rank, k, j, t) for k, j, t in counts if k + j + t)
        self._group_index = {g: self.group + i for i, g in enumerate(self.groups)}
        self.size = self.group + len(self.groups)
        self._melds: dict[int, tuple[Meld, tuple[int, ...]]] = {}

    # -- ids ------------------------------------------------------------------------------------

    def take_id(self, counts: Counts, top_only: bool = False) -> int:
        return (self.take_top if top_only else self.take) + self._take_index[counts]

    def group_id(self, rank: Rank, naturals: int, jokers: int, twos: int) -> int:
        return self._group_index[(rank, naturals, jokers, twos)]

    def sequence(self, action: Action) -> tuple[int, ...]:
        """The ids that make up an engine action."""
        if type(action) is Discard:
            return (DISCARD + action.card.index,)
        if type(action) is Meld:
            if len(action.melds) > 1:  # made anew for each list: remembering it would only fill the heap
                return (*self._group_ids(action.melds), COMMIT)
            # the engine lists a meld of a single group as the same object each time
            hit = self._melds.get(id(action))
            if hit is not None and hit[0] is action:
                return hit[1]
            seq = (*self._group_ids(action.melds), COMMIT)
            if len(self._melds) > MELD_MEMO:
                self._melds.clear()
            self._melds[id(action)] = (action, seq)  # holding the action keeps its id unique
            return seq
        if type(action) is Pickup:
            take = self.take_id(with_counts(action.with_), action.top_only)
            return (take, *self._group_ids(action.melds), COMMIT)
        if type(action) is Answer:
            return _YES_SEQ if action.yes else _NO_SEQ
        return _SIMPLE[type(action)]

    def _group_ids(self, groups: Sequence[Group]) -> list[int]:
        ids = [self.group_id(*group_counts(g)) for g in groups]
        if len(ids) > 1:
            ids.sort()
        return ids

    # -- text -----------------------------------------------------------------------------------

    def to_string(self, action_id: int) -> str:
        """The id's text: `draw`, `discard KS`, `take 2n 1j 0t`, `take-top 1n 0j 0t`, `group K 3n 1j 0t`."""
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is outside 0..{self.size - 1}")
        if action_id < DISCARD:
            return SIMPLE_NAMES[action_id]
        if action_id < self.take:
            return f"discard {ALL_CARDS[action_id - DISCARD].code}"
        if action_id < self.group:
            top_only = action_id >= self.take_top
            k, j, t = self.take_counts[action_id - (self.take_top if top_only else self.take)]
            return f"{'take-top' if top_only else 'take'} {k}n {j}j {t}t"
        rank, k, j, t = self.groups[action_id - self.group]
        return f"group {rank.value} {k}n {j}j {t}t"

    def from_string(self, text: str) -> int:
        """The id of a text written by `to_string` (spaces and case are free)."""
        words = text.split()
        key = [w.lower() for w in words]
        try:
            if len(key) == 1 and key[0] in SIMPLE_NAMES:
                return SIMPLE_NAMES.index(key[0])
            if len(key) == 2 and key[0] == "discard":
                return DISCARD + _card_index(words[1])
            if len(key) == 4 and key[0] in ("take", "take-top"):
                return self.take_id(_counts(key[1:]), key[0] == "take-top")
            if len(key) == 5 and key[0] == "group":
                rank = Rank.parse_meld_rank(words[1])
                return self.group_id(rank, *_counts(key[2:]))
        except (KeyError, ValueError):
            pass
        raise ValueError(f"not an action of this rule set: {text!r}")


def _card_index(code: str) -> int:
    return Card.parse(code).index


def _counts(words: Sequence[str]) -> Counts:
    suffixes = ("n", "j", "t")
    if any(not w.endswith(s) or not w[:-1].isdigit() for w, s in zip(words, suffixes, strict=True)):
        raise ValueError(f"expected counts such as 2n 1j 0t, not {' '.join(words)!r}")
    k, j, t = (int(w[:-1]) for w in words)
    return k, j, t


def group_counts(group: Group) -> tuple[Rank, int, int, int]:
    """A group as (rank, naturals, jokers, twos); black threes are the naturals of rank 3."""
    rank = group.rank
    k = j = t = 0
    for c in group.cards:
        if c.is_joker:
            j += 1
        elif c.is_two:
            t += 1
        else:
            k += 1
            rank = c.rank
    return (Rank.WILD if rank is None else rank), k, j, t


def with_counts(cards: Sequence[Card]) -> Counts:
    """The cards taken with the pile's top card as (naturals, jokers, twos)."""
    j = sum(1 for c in cards if c.is_joker)
    t = sum(1 for c in cards if c.is_two)
    return len(cards) - j - t, j, t
