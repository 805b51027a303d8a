"""Canasta for learning code: fixed integer actions, atomic steps, observation tensors.

`LearningGame(variant, players, options, scores)` is one deal of a rule set;
`new_initial_state()` starts it at its chance nodes (or dealt from a seed). See
docs/learning.md.
"""

from canasta.learning.actions import ASK, COMMIT, DISCARD, DRAW, NO, PASS, YES, ActionSpace
from canasta.learning.game import CHANCE, POINTS_SCALE, TERMINAL, LearningGame, LearningState
from canasta.learning.observation import ObservationLayout

__all__ = [
    "ASK",
    "CHANCE",
    "COMMIT",
    "DISCARD",
    "DRAW",
    "NO",
    "PASS",
    "POINTS_SCALE",
    "TERMINAL",
    "YES",
    "ActionSpace",
    "LearningGame",
    "LearningState",
    "ObservationLayout",
]
