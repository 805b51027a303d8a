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
derived from it, so a seed gives the same deals. With `skip_forced`, the ids then played for
the agents (each the only legal one) are every agent's `info["forced"]`. `deal` is the deal
being played (a `LearningState`), `state()` the global state: every seat's tensor. With
`max_cycles`, the episode is truncated once the agents have taken `max_cycles` steps per agent
in all (each step one agent's id). `parallel_env(...)` is the same environment in PettingZoo's
parallel API (each parallel step is the agent to act's step).

With `round_robin=True` the agents are selected in seat order, every agent once a cycle, as in
PettingZoo's simultaneous games: a cycle plays one id, of the agent to act when it began; every
other agent's action is not used (its mask is all zeros), and the deal's end (rewards and
terminations) or a truncation comes at the end of a cycle; its `parallel_env` steps every agent
once per parallel step (`aec_to_parallel`), so `max_cycles` counts cycles and parallel steps alike. With
`illegal="ignore"` an id that is not legal is not played (the step counts, the deal is as it was,
the agent's `info["illegal"]` is True) instead of raising `ValueError`. Needs the `pettingzoo`
extra (`pip install 'canasta[pettingzoo]'`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import (  # type: ignore[import-untyped]
    aec_to_parallel,
    turn_based_aec_to_parallel,
)

from canasta.learning import LearningGame, LearningState
from canasta.learning.game import MAX_DEALS
from canasta.learning.gym_spaces import action_space, observation_space
from canasta.learning.gym_spaces import mask as action_mask


def env(
    variant: str = "classic",
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    scores: Sequence[int] | None = None,
    render_mode: str | None = None,
    zero_sum: bool = False,
    skip_forced: bool = False,
    episode: str = "deal",
    max_deals: int = MAX_DEALS,
    max_cycles: int | None = None,
    round_robin: bool = False,
    illegal: str = "raise",
) -> CanastaEnv:
    """An AEC environment of one deal of the rule set (`RuleSet.preset(variant, players, options)`),
    or of a game (`episode="game"`); the parameters as in `canasta.learning.LearningGame`, and
    `max_cycles`, `round_robin` and `illegal` (`CanastaEnv`)."""
    flags = {"zero_sum": zero_sum, "skip_forced": skip_forced}
    game = LearningGame(variant, players, options, scores, **flags, episode=episode, max_deals=max_deals)
    return CanastaEnv(game, render_mode, max_cycles, round_robin, illegal)


def parallel_env(*args: Any, **kwargs: Any) -> ParallelEnv:
    """`env(...)`'s environment in PettingZoo's parallel API: a parallel step plays the action of
    the agent to act, the others' actions are not used; with `round_robin` it is a cycle
    (`aec_to_parallel`), else one step (`turn_based_aec_to_parallel`)."""
    aec = env(*args, **kwargs)
    return aec_to_parallel(aec) if aec.round_robin else turn_based_aec_to_parallel(aec)


class CanastaEnv(AECEnv):  # type: ignore[misc]
    """One deal of Canasta in PettingZoo's agent-environment-cycle API; with `max_cycles`, an
    episode is truncated (every agent's `truncation`, no reward) once the agents have taken
    `max_cycles` times as many steps as there are agents (ids played for them with
    `skip_forced` are not steps). `round_robin` selects every agent once a cycle, in seat order,
    plays one id a cycle (the agent to act at its start) and ends an episode only at a cycle's
    end; `illegal` is "raise" (an id that is not legal
    raises `ValueError`) or "ignore" (it is not played: `info["illegal"]`)."""

    metadata: dict[str, Any]

    def __init__(
        self,
        game: LearningGame,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        round_robin: bool = False,
        illegal: str = "raise",
    ) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or a whole number from 1, not {max_cycles!r}")
        if type(round_robin) is not bool:
            raise ValueError(f"round_robin must be True or False, not {round_robin!r}")
        if illegal not in ("raise", "ignore"):
            raise ValueError(f"illegal must be 'raise' or 'ignore', not {illegal!r}")
        self.game = game
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.round_robin = round_robin
        self.illegal = illegal
        self.metadata = {
            "render_modes": ["human", "ansi"],
            "name": "canasta_v0",
            "is_parallelizable": round_robin,
        }
        #: The agents' steps in this episode.
        self.steps = 0
        #: The agent whose id a step plays (None while no agent's is to be played).
        self._waiting: str | None = None
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        space = observation_space(game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space(game))
        box = space["observation"]
        assert isinstance(box, spaces.Box)
        seats = game.num_players
        self.state_space = spaces.Box(np.tile(box.low, seats), np.tile(box.high, seats), dtype=np.float32)
        self._rng = random.Random()
        #: The deal being played (`canasta.learning.LearningState`).
        self.deal: LearningState = game.new_initial_state(seed=0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.deal = self.game.new_initial_state(seed=self._rng.randrange(2**63))
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._set_infos(list(self.deal.forced))
        self._waiting = self._to_act()
        self.agent_selection = self.possible_agents[0]
        if not self.round_robin and self._waiting is not None:
            self.agent_selection = self._waiting

    def _to_act(self) -> str | None:
        """The agent whose id the deal waits for; None once it is over."""
        deal = self.deal
        return None if deal.is_terminal() else self.possible_agents[deal.current_player()]

    def _set_infos(self, forced: list[int]) -> None:
        """Every agent's info after a step: the history's indices of the ids played for them."""
        ids = [self.deal.history[i] for i in forced]
        self.infos: dict[str, dict[str, Any]] = {a: {"forced": ids} if ids else {} for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self.possible_agents.index(agent)
        mask = action_mask(self.game, self.deal.legal_actions() if agent == self._waiting else [])
        tensor = np.asarray(self.deal.observation_tensor(seat), np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.deal
        deals, before = deal.deals, len(deal.forced)
        illegal = False
        if agent == self._waiting:
            if action is None:
                raise ValueError(f"{agent} is to act: None is only for an agent whose deal is over")
            illegal = self.illegal == "ignore" and int(action) not in deal.legal_actions()
            if not illegal:
                deal.apply_action(int(action))
            self._waiting = None
        self._set_infos(deal.forced[before if deal.deals == deals else 0 :])  # (a new deal: all its own)
        if illegal:
            self.infos[agent]["illegal"] = True
        self._cumulative_rewards[agent] = 0.0
        self.steps += 1
        agents = len(self.possible_agents)
        if not self.round_robin or self.steps % agents == 0:
            self._waiting = self._to_act()
            if deal.is_terminal():
                self.rewards = dict(zip(self.agents, deal.returns(), strict=True))
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.max_cycles is not None and self.steps >= self.max_cycles * agents:
                self.truncations = dict.fromkeys(self.agents, True)
        if self.round_robin:
            self.agent_selection = self.possible_agents[self.steps % agents]
        elif self._waiting is not None:
            self.agent_selection = self._waiting
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state (`state_space`): every seat's observation tensor in seat order, so
        every hand and the public table (the stock's order aside)."""
        seats = range(self.game.num_players)
        return np.asarray([x for seat in seats for x in self.deal.observation_tensor(seat)], np.float32)

    def render(self) -> str | None:
        """The table as the seat to move sees it: "ansi" returns it, "human" prints it (and
        returns None), also after every step."""
        if self.render_mode is None:
            return None
        text = self.deal.observation_string(max(self.deal.current_player(), 0))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
