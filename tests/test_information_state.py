"""The information-state tensor: the observation tensor and the deal's public history (per
seat, the cards it discarded, took with the pile and melded), kept by copies, serialisation and
resampling; and OpenSpiel's tensors read directly equal the observer's."""

from __future__ import annotations

import random

import numpy as np
import pyspiel

import canasta.openspiel  # noqa: F401  (registers python_canasta)
from canasta.learning import DISCARD, LearningGame, LearningState
from canasta.learning.observation import KINDS


def played(variant: str, players: int, steps: int, seed: int) -> LearningState:
    state = LearningGame(variant, players).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while steps and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps -= 1
    return state


def test_the_history_piece_counts_discards_pickups_and_melds() -> None:
    for variant, players, seed in (("classic", 4, 1), ("online", 2, 2), ("mendelev", 4, 3)):
        state = played(variant, players, 400, seed)
        layout = state.game.observation
        offset, shape = layout.info_pieces["history"]
        assert shape == (players, 3, KINDS)
        for seat in range(players):
            info = state.information_state_tensor(seat)
            assert len(info) == layout.info_size and info[:offset] == state.observation_tensor(seat)
            history = np.asarray(info[offset:]).reshape(shape)
            discards = sum(1 for a in state.history if DISCARD <= a < DISCARD + KINDS)
            assert history[:, 0].sum() == discards
            teams = state.game.rules.teams
            for team in range(teams):
                rows = [(s - seat) % players for s in range(team, players, teams)]
                on_table = sum(map(len, state.engine.melds[team].values()))
                assert history[rows, 2].sum() == on_table
        assert np.asarray(state.public).reshape(players, 3, KINDS)[:, 1].sum() > 0  # a pickup


def test_copies_serialisation_and_resampling_keep_the_history() -> None:
    state = played("classic", 4, 120, 4)
    seat = state.current_player()
    info = state.information_state_tensor(seat)
    assert state.clone().information_state_tensor(seat) == info
    assert state.game.state_from_json(state.to_json()).information_state_tensor(seat) == info
    for other in range(4):
        resampled = state.resample(other, random.Random(other))
        assert resampled.information_state_tensor(other) == state.information_state_tensor(other)


def test_openspiel_tensors_read_directly_equal_the_observers() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [game.learning.observation.info_size]
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while state.is_chance_node() or len(state.inner.history) < 60:
        state.apply_action(int(rng.choice(state.legal_actions())))
    for seat in range(4):  # the same numbers (OpenSpiel's own copies are float32)
        for name in ("observation_tensor", "information_state_tensor"):
            through = np.asarray(getattr(pyspiel.State, name)(state, seat), np.float32)
            direct = np.asarray(getattr(state, name)(seat), np.float32)
            assert (through == direct).all()
    assert state.observation_tensor() == state.observation_tensor(state.current_player())
