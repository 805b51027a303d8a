"""The learning interface's game parameters: `zero_sum` returns (and OpenSpiel's zero-sum game
type), `skip_forced` decisions, utility bounds that hold in every configuration, and episodes of
a whole game."""

from __future__ import annotations

import random

import pytest

from canasta.learning import LearningGame, LearningState
from canasta.rules import Game, InvalidActionError
from canasta.rules.game import default_dealer
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label
from canasta.rules.scoring import game_winner

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
        LearningGame("classic", 4, zero_sum=1)


def test_a_game_episode_plays_deals_until_the_last() -> None:
    game = LearningGame("classic", 4, episode="game", max_deals=3)
    state = game.new_initial_state(seed=5)
    rules = game.rules
    assert state.engine.hands == Game.new("classic", 4, seed=5).current.hands
    rng = random.Random(5)
    points = [0, 0]
    hands = []
    for index in range(3):
        assert state.deals == index and not state.is_terminal()
        assert state.engine.dealer == default_dealer(rules, index)[0]
        assert list(state.engine.scores) == points
        hands.append(state.engine.hands)
        if index == 1:  # mid-episode, a JSON round trip keeps the deal and the totals
            again = game.state_from_json(state.to_json())
            assert again.to_json() == state.to_json() and again.deals == 1
        while not state.is_terminal() and state.deals == index:
            before = state.engine
            state.apply_action(rng.choice(state.legal_actions()))
        assert before.result is not None
        points = [p + part.total for p, part in zip(points, before.result.scores, strict=True)]
    assert hands[0] != hands[1] != hands[2]
    assert state.is_terminal() and state.returns() == [points[s % 2] / 1000 for s in range(4)]
    assert game.max_game_length == 3 * LearningGame("classic", 4).max_game_length
    assert game.bounds() == pytest.approx([3 * b for b in LearningGame("classic", 4).bounds()])


def test_a_game_episode_ends_when_a_team_wins() -> None:
    game = LearningGame("classic", 2, scores=[4990, 4990], episode="game")
    rng = random.Random(2)
    for seed in range(5):
        state = game.new_initial_state(seed=seed)
        first = state.engine
        while state.deals == 0 and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert first.result is not None
        totals = [4990 + part.total for part in first.result.scores]
        assert state.is_terminal() == (game_winner(game.rules, totals) is not None)
        if state.is_terminal():
            assert state.returns() == [(totals[s] - 4990) / 1000 for s in range(2)]
            return
    raise AssertionError("no deal of five reached the target")


def test_an_unseeded_game_episode_deals_the_next_deal_by_chance_nodes() -> None:
    game = LearningGame("online", 2, episode="game", max_deals=2)
    state = game.new_initial_state()
    rng = random.Random(3)
    deal_out(state, rng)
    while state.deals == 0:
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_chance_node() and len(state.chance_outcomes()) == 53 and not state.history
    again = game.state_from_json(state.to_json())
    assert again.is_chance_node() and again.scores == state.scores and again.deals == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"episode": "match"}, "episode must be 'deal' or 'game'"),
        ({"episode": "game", "max_deals": 0}, "max_deals must be a whole number from 1"),
    ],
)
def test_bad_episode_parameters_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        LearningGame("classic", 4, **options)  # type: ignore[arg-type]


def deal_out(state: LearningState, rng: random.Random) -> None:
    while state.is_chance_node():
        kinds, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(kinds, probs)[0])
