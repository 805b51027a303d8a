"""Gymnasium spaces of a learning game (for `canasta.pettingzoo` and `canasta.single_agent`;
needs Gymnasium, part of the `pettingzoo` extra)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from canasta.learning.game import LearningGame


def observation_space(game: LearningGame) -> spaces.Dict:
    """`{"observation": the tensor within game.observation_bounds(), "action_mask": 0/1 per id}`."""
    low, high = (np.asarray(bound, np.float32) for bound in game.observation_bounds())
    size = game.num_distinct_actions
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }
    )


def action_space(game: LearningGame) -> spaces.Discrete:
    return spaces.Discrete(game.num_distinct_actions)


def mask(game: LearningGame, legal: list[int]) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The action mask of the legal ids."""
    out = np.zeros(game.num_distinct_actions, np.int8)
    out[legal] = 1
    return out
