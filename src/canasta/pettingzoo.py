"""PettingZoo adapter: `env(variant=..., players=...)` is an AEC environment of one deal.

    from canasta.pettingzoo import env
    e = env(variant="classic", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else pick(observation)  # from the mask
        e.step(action)

Agents are `player_0` ... `player_{n-1}` (seat numbers); the agent to act is the seat to move
(the partner while an ask awaits its answer). An observation is `{"observation": float32
tensor of canasta.learning.observation, "action_mask": int8 mask of the legal ids}` (all zeros
for an agent not to act); actions are the ids of `canasta.learning.actions`. Rewards come at
the end of the deal: each seat's team's deal score / 1000. `reset(seed)` deals from a seed
derived from it, so a seed gives the same deals. Needs the `pettingzoo` extra
(`pip install 'canasta[pettingzoo]'`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from canasta.learning import LearningGame, LearningState


def env(
    variant: str = "classic",
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    scores: Sequence[int] | None = None,
    render_mode: str | None = None,
) -> CanastaEnv:
    """An AEC environment of one deal of the rule set (`RuleSet.preset(variant, players, options)`)."""
    return CanastaEnv(LearningGame(variant, players, options, scores), render_mode)


class CanastaEnv(AECEnv):  # type: ignore[misc]
    """One deal of Canasta in PettingZoo's agent-environment-cycle API."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "canasta_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: LearningGame, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        size = game.num_distinct_actions
        space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, game.observation_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(size))
        self._rng = random.Random()
        self.state: LearningState = game.new_initial_state(seed=0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed=self._rng.randrange(2**63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        tensor = np.asarray(self.state.observation_tensor(seat), np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for an agent whose deal is over")
        self.state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            self.rewards = dict(zip(self.agents, self.state.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The table as the seat to move sees it (`render_mode` "ansi" returns it, "human" prints
        it after every step)."""
        if self.render_mode is None:
            return None
        state = self.state
        seat = max(state.current_player(), 0)
        return state.observation_string(seat)

    def close(self) -> None:
        pass
