"""The learning interface's game parameters: `zero_sum` returns (and OpenSpiel's zero-sum game
type), `skip_forced` decisions, and utility bounds that hold in every configuration."""

from __future__ import annotations

import random

import pytest

from canasta.learning import LearningGame, LearningState
from canasta.rules import InvalidActionError
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]


def play_out(state: LearningState, rng: random.Random) -> int:
    """Random ids to the end of the deal; returns the decisions with a single legal id seen."""
    single = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        single += len(legal) == 1
        state.apply_action(rng.choice(legal))
    return single


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_returns_stay_within_the_bounds_and_zero_sum_returns_add_up_to_zero(
    variant: str, players: int, options: dict[str, int]
) -> None:
    plain = LearningGame(variant, players, options)
    zero = LearningGame(variant, players, options, zero_sum=True)
    low, high = plain.bounds()
    zero_low, zero_high = zero.bounds()
    assert zero_low == -zero_high < 0 < high and low < 0
    rng = random.Random(players)
    for seed in range(3):
        state = plain.new_initial_state(seed=seed)
        play_out(state, rng)
        assert all(low <= r <= high for r in state.returns())
        other = zero.state_from_json({**state.to_json(), **zero.options_json()})
        assert all(zero_low <= r <= zero_high for r in other.returns())
        assert sum(other.returns()) == pytest.approx(0)


def test_zero_sum_returns_are_the_difference_from_the_mean() -> None:
    rng = random.Random(1)
    for variant, players in (("classic", 2), ("classic", 5), ("classic", 6)):
        plain = LearningGame(variant, players)
        zero = LearningGame(variant, players, zero_sum=True)
        state = plain.new_initial_state(seed=3)
        play_out(state, rng)
        other = zero.state_from_json({**state.to_json(), **zero.options_json()})
        totals = [part.total / 1000 for part in state.engine.result.scores]
        mean = sum(totals) / len(totals)
        teams = plain.rules.teams
        seats = [len(range(t, players, teams)) for t in range(teams)]
        expected = [(totals[s % teams] - mean) * players / teams / seats[s % teams] for s in range(players)]
        assert other.returns() == pytest.approx(expected)
        assert sum(other.returns()) == pytest.approx(0)
        low, high = zero.bounds()
        assert all(low <= r <= high for r in other.returns())


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_skip_forced_plays_every_single_choice_and_says_so(
    variant: str, players: int, options: dict[str, int]
) -> None:
    game = LearningGame(variant, players, options, skip_forced=True)
    state = game.new_initial_state(seed=players)
    assert play_out(state, random.Random(players)) == 0
    assert state.forced and all(0 <= i < len(state.history) for i in state.forced)
    text = state.information_state_string(0)
    marked = text.split("history: ")[1].split()
    assert [i for i, word in enumerate(marked) if word.endswith("*")] == state.forced
    again = game.state_from_json(state.to_json())
    assert again.forced == state.forced and again.to_json() == state.to_json()
    assert state.clone().forced == state.forced


def test_a_forced_id_played_mid_deal_is_the_only_legal_one() -> None:
    plain = LearningGame("classic", 4)
    skipping = LearningGame("classic", 4, skip_forced=True)
    rng = random.Random(5)
    state = plain.new_initial_state(seed=9)
    other = skipping.new_initial_state(seed=9)
    while not other.is_terminal():
        while len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
        assert other.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        other.apply_action(action)
    while not state.is_terminal():
        (only,) = state.legal_actions()
        state.apply_action(only)
    assert state.history == other.history and state.returns() == other.returns()


def test_the_flags_must_be_booleans() -> None:
    with pytest.raises(InvalidActionError, match="zero_sum must be true or false"):
        LearningGame("classic", 4, zero_sum=1)  # type: ignore[arg-type]
