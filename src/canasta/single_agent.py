"""A Gymnasium environment in which one seat learns and bots play the other seats.

    from canasta.single_agent import SingleAgentEnv
    env = SingleAgentEnv("classic", 4, seat=0, opponents="hard")
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(action)

The learner's observation is `{"observation": float32 tensor, "action_mask": int8 mask}` (as
in `canasta.pettingzoo`), its actions the ids of `canasta.learning.actions`; `action_masks()`
gives the mask (the convention of maskable learners). The other seats are bots
(`canasta.learning.bots.BotPolicy`: a name such as `hard` or `search:iterations=100`, or a `Bot`,
one for all or one per seat; a partner is a bot too). `step` plays the learner's id, then the
bots until the learner is to act again or the episode is over; the reward is the learner's
return at the end, 0 before. An id that is not legal is not played: the observation stays, the
reward is 0 and `info["illegal"]` is True. Game parameters (`zero_sum`, `skip_forced`,
`episode`, ...) as in `canasta.learning.LearningGame`. Needs the `pettingzoo` extra (Gymnasium).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from canasta.bots.base import Bot
from canasta.learning import LearningGame, LearningState
from canasta.learning.bots import BotPolicy
from canasta.learning.gym_spaces import action_space, mask, observation_space

Observation = dict[str, np.ndarray[Any, Any]]


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Canasta against bots, as a Gymnasium environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's form)

    def __init__(
        self,
        variant: str = "classic",
        players: int = 4,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "hard",
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        **parameters: Any,
    ) -> None:
        self.game = LearningGame(variant, players, options, **parameters)
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat of this {players}-player game, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.seat = seat
        self.render_mode = render_mode
        others = [s for s in range(players) if s != seat]
        bots: list[str | Bot] = (
            list(opponents)
            if isinstance(opponents, Sequence) and not isinstance(opponents, str)
            else [opponents] * len(others)
        )
        if len(bots) != len(others):
            raise ValueError(f"opponents: one bot, or one per other seat ({len(others)}), not {len(bots)}")
        self._bots: dict[int, str | Bot] = dict(zip(others, bots, strict=True))
        self.policies: dict[int, BotPolicy] = {}
        self.observation_space = observation_space(self.game)  # type: ignore[assignment]
        self.action_space: spaces.Discrete = action_space(self.game)
        self.deal: LearningState = self.game.new_initial_state(seed=0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.policies = {s: BotPolicy(bot, rng.randrange(2**63)) for s, bot in self._bots.items()}
        while True:  # a deal the bots end before the learner acts is dealt again
            self.deal = self.game.new_initial_state(seed=rng.randrange(2**63))
            self._play_bots()
            if not self.deal.is_terminal():
                return self._observe(), {}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        deal = self.deal
        if int(action) not in deal.legal_actions():
            return self._observe(), 0.0, False, False, {"illegal": True}
        deal.apply_action(int(action))
        self._play_bots()
        done = deal.is_terminal()
        reward = deal.returns()[self.seat] if done else 0.0
        return self._observe(), reward, done, False, {}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        return mask(self.game, [] if self.deal.is_terminal() else self.deal.legal_actions())

    def render(self) -> str | None:
        """The table as the learner sees it ("ansi")."""
        return self.deal.observation_string(self.seat) if self.render_mode == "ansi" else None

    def _play_bots(self) -> None:
        deal = self.deal
        while not deal.is_terminal() and deal.current_player() != self.seat:
            deal.apply_action(self.policies[deal.current_player()](deal))

    def _observe(self) -> Observation:
        tensor = np.asarray(self.deal.observation_tensor(self.seat), np.float32)
        return {"observation": tensor, "action_mask": self.action_masks()}
