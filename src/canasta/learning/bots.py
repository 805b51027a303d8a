"""The engine's bots (`canasta.bots`: `random`, `easy`, `normal`, `hard`, `search` or an own
bot) as policies over the learning interface's ids.

A bot chooses an engine action from its seat's view; `BotPolicy` plays it as ids. A listed
action is its id sequence. A meld or pickup that the list does not hold as one action (a bot
may lay several groups at once where the list has them one by one) is played as a listed
action of the same kind that lays part of its cards, then the cards left a rank at a time;
every id is checked against the legal ids before it is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.bots.base import Bot
from canasta.bots.registry import make_bot
from canasta.learning.actions import COMMIT, ActionSpace
from canasta.learning.game import LearningState
from canasta.rules import Meld, Pickup, Rank


class BotPolicy:
    """A bot as a policy: `policy(state)` is the id the bot plays at `state` (its seat to act).

    `fallbacks` counts the decisions where the bot's move could not be played as ids (the first
    legal id was played instead); a test keeps it at 0 for the built-in bots.
    """

    def __init__(self, bot: str | Bot, seed: int | None = None) -> None:
        self.bot = make_bot(bot) if isinstance(bot, str) else bot
        self.rng = random.Random(seed)
        self.fallbacks = 0
        self._plan: list[int] = []
        self._seat = -1
        self._mark = 0

    def __call__(self, state: LearningState) -> int:
        legal = state.legal_actions()
        seat = state.current_player()
        going_on = self._plan and seat == self._seat and len(state.history) >= self._mark
        if not (going_on and self._plan[0] in legal):
            self._plan = self._decide(state, legal)
            self._seat = seat
        self._mark = len(state.history) + 1
        return self._plan.pop(0)

    def _decide(self, state: LearningState, legal: list[int]) -> list[int]:
        """The ids of the bot's move at `state`, from the first (see the module docstring)."""
        if state.staged:  # a step another player began: the bot did not choose it
            self.fallbacks += 1
            return [legal[0]]
        space = state.game.actions
        action = self.bot.choose(state.engine.view(state.current_player()), self.rng)
        target = space.sequence(action)
        listed = [seq for seq, _ in state.candidates]
        if (len(target) == 1 and target[0] in legal) or target in listed:
            return list(target)
        if isinstance(action, Meld | Pickup):
            plan = _in_parts(space, target, listed, isinstance(action, Pickup))
            if plan:
                return plan
        self.fallbacks += 1
        return [legal[0]]


def _in_parts(
    space: ActionSpace, target: Sequence[int], listed: Sequence[Sequence[int]], pickup: bool
) -> list[int]:
    """`target` (a meld's or pickup's ids) as a listed sequence of the same kind whose groups
    lay part of its cards, rank by rank, then a meld per rank for the cards left; [] if none fits."""
    head = 1 if pickup else 0
    want = _by_rank(space, target[head:-1])
    best: tuple[int, list[int]] | None = None
    for seq in listed:
        if seq[:head] != target[:head] or (not pickup and seq[0] < space.group):
            continue
        rest = _left(space, want, _by_rank(space, seq[head:-1]))
        if rest is not None and (best is None or len(rest) < best[0]):
            best = (len(rest), [*seq, *(i for group in rest for i in (group, COMMIT))])
    return [] if best is None else best[1]


def _by_rank(space: ActionSpace, groups: Sequence[int]) -> dict[Rank, tuple[int, int, int]]:
    """Group ids as the (naturals, jokers, twos) they lay per rank."""
    out: dict[Rank, tuple[int, int, int]] = {}
    for group in groups:
        rank, k, j, t = space.groups[group - space.group]
        a, b, c = out.get(rank, (0, 0, 0))
        out[rank] = (a + k, b + j, c + t)
    return out


def _left(
    space: ActionSpace, want: dict[Rank, tuple[int, int, int]], laid: dict[Rank, tuple[int, int, int]]
) -> list[int] | None:
    """The group ids of the cards `want` has beyond `laid`, one per rank; None if `laid` lays a
    card `want` does not or a rank's rest is no group of the action space."""
    if any(rank not in want for rank in laid):
        return None
    rest = []
    for rank, counts in want.items():
        left = tuple(w - v for w, v in zip(counts, laid.get(rank, (0, 0, 0)), strict=True))
        if min(left) < 0:
            return None
        if any(left):
            try:
                rest.append(space.group_id(rank, *left))
            except KeyError:
                return None
    return sorted(rest)
