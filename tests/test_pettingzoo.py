"""canasta.pettingzoo: the AEC environment passes PettingZoo's API, seed and render tests, its
observations are the learning interface's tensor and mask, its global state every seat's
tensor, and a seed gives the same deals."""

from __future__ import annotations

import random
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test, seed_test

from canasta.learning import LearningGame
from canasta.pettingzoo import env, parallel_env

# The observation is {"observation", "action_mask"}, as in PettingZoo's own card and board games;
# its API test warns about any observation that is not a single array.
DICT_OBSERVATION = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 4), ("classic", 5), ("online", 2), ("modern-american", 4)]
)
def test_pettingzoo_api_test(variant: str, players: int) -> None:
    api_test(env(variant=variant, players=players), num_cycles=300)


def play(seed: int, max_cycles: int | None = None) -> list[tuple[str, int, float]]:
    """A deal of random legal ids: (agent, id, reward) per step."""
    e = env(variant="classic", players=4, max_cycles=max_cycles)
    e.reset(seed=seed)
    rng = random.Random(seed)
    steps = []
    game = LearningGame("classic", 4)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        if termination or truncation:
            steps.append((agent, -1, reward))
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions,)
        assert observation["observation"].shape == game.observation_shape
        assert list(np.flatnonzero(mask)) == e.unwrapped.deal.legal_actions()
        seat = e.possible_agents.index(agent)
        assert seat == e.unwrapped.deal.current_player()
        other = e.possible_agents[(seat + 1) % 4]
        assert not e.observe(other)["action_mask"].any()
        action = rng.choice(list(np.flatnonzero(mask)))
        steps.append((agent, int(action), reward))
        e.step(int(action))
    return steps


def test_a_deal_through_the_environment() -> None:
    steps = play(11)
    final = [s for s in steps if s[1] == -1]
    assert sorted(agent for agent, _, _ in final) == ["player_0", "player_1", "player_2", "player_3"]
    rewards = {agent: reward for agent, _, reward in final}
    assert rewards["player_0"] == rewards["player_2"] and rewards["player_1"] == rewards["player_3"]
    assert any(r != 0 for r in rewards.values())
    assert play(11) == steps and play(12) != steps


def test_a_step_for_the_agent_to_act_needs_an_action() -> None:
    e = env(variant="classic", players=4)
    e.reset(seed=1)
    with pytest.raises(ValueError, match="None is only for an agent whose deal is over"):
        e.step(None)
    with pytest.raises(ValueError, match="not legal here"):
        e.step(5)


def test_render_shows_the_seat_to_moves_table(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(variant="classic", players=4, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert text is not None and text.startswith("seat 0 team 0") and "hand: " in text
    human = env(variant="classic", players=4, render_mode="human")
    human.reset(seed=2)
    assert human.render() is None and capsys.readouterr().out == text + "\n"
    human.step(0)  # draw
    assert "phase play" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode must be"):
        env(render_mode="rgb_array")


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_and_render_tests(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    seed_test(lambda: env(variant="classic", players=players), num_cycles=300)
    render_test(lambda render_mode=None: env(variant="classic", players=players, render_mode=render_mode))
    assert "hand: " in capsys.readouterr().out


def test_the_global_state_is_every_seats_observation() -> None:
    e = env(variant="online", players=2)
    e.reset(seed=4)
    e.step(0)  # player_0 draws
    deal = e.unwrapped.deal
    state = e.state()
    assert state.dtype == np.float32 and e.state_space.contains(state)
    assert list(state) == pytest.approx(deal.observation_tensor(0) + deal.observation_tensor(1))


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_the_game_parameters_pass_through() -> None:
    parameters = {"zero_sum": True, "skip_forced": True, "episode": "game", "max_deals": 2}
    api_test(env(variant="online", players=4, **parameters), num_cycles=300)  # type: ignore[arg-type]
    e = env(variant="online", players=4, **parameters)  # type: ignore[arg-type]
    e.reset(seed=3)
    rng = random.Random(3)
    deal = e.unwrapped.deal
    forced = []  # the ids played for the agents in the deal being played
    for _ in e.agent_iter():
        observation, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        forced.extend(info.get("forced", []))  # the ids played for the agents after the last step
        assert forced == [deal.history[i] for i in deal.forced]
        mask = observation["action_mask"]
        assert mask.sum() > 1  # a single choice is played for the agent
        deals = deal.deals
        e.step(int(rng.choice(list(np.flatnonzero(mask)))))
        if deal.deals != deals:
            forced = []  # a new deal: its own ids from here (the first ones in the step's info)
    assert deal.deals == 1 and forced
    assert sum(e.unwrapped.rewards.values()) == pytest.approx(0)


@pytest.mark.parametrize(("players", "skip_forced"), [(2, False), (4, True)])
def test_max_cycles_truncates_after_as_many_steps_per_agent(players: int, skip_forced: bool) -> None:
    """With `max_cycles`, every agent is truncated (without a reward) once the agents have taken
    `max_cycles` steps per agent in all (ids played for them are not steps), and leaves with
    its one last step; a deal that ends sooner ends as without it."""
    max_cycles = 5
    e = env(variant="classic", players=players, skip_forced=skip_forced, max_cycles=max_cycles)
    e.reset(seed=5)
    rng = random.Random(5)
    steps, last = 0, []
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0
            last.append(agent)
            e.step(None)
            continue
        assert not last
        e.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
        steps += 1
    deal = e.unwrapped.deal
    assert steps == max_cycles * players == len(deal.history) - len(deal.forced) and not deal.is_terminal()
    assert sorted(last) == e.possible_agents and (deal.forced != []) == skip_forced
    assert [agent for agent, *_ in play(11, max_cycles=1000)] == [agent for agent, *_ in play(11)]
    with pytest.raises(ValueError, match="max_cycles must be None or a whole number from 1"):
        env(max_cycles=0)


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_the_parallel_environment() -> None:
    """`parallel_env` passes PettingZoo's parallel API test and, with `max_cycles`, ends after
    `max_cycles` steps per agent, each parallel step the agent to act's."""
    parallel_api_test(parallel_env(variant="classic", players=4), num_cycles=300)
    e = parallel_env(variant="online", players=2, max_cycles=3)
    observations, _ = e.reset(seed=6)
    steps = 0
    while e.agents:
        actions = {a: e.action_space(a).sample(mask=observations[a]["action_mask"]) for a in e.agents}
        observations, _, terminations, truncations, _ = e.step(actions)
        steps += 1
    assert steps == 6 and all(truncations.values()) and not any(terminations.values())


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_pettingzoo_max_cycles_test(players: int) -> None:
    """PettingZoo's `max_cycles_test` (unmasked random ids, every agent once a cycle) passes with
    `round_robin` and `illegal="ignore"`."""
    kwargs: dict[str, Any] = {
        "variant": "classic",
        "players": players,
        "round_robin": True,
        "illegal": "ignore",
    }
    max_cycles_test(SimpleNamespace(env=partial(env, **kwargs), parallel_env=partial(parallel_env, **kwargs)))


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_the_round_robin_environment_passes_the_api_tests(capsys: pytest.CaptureFixture[str]) -> None:
    api_test(env(variant="classic", players=4, round_robin=True), num_cycles=300)
    api_test(env(variant="modern-american", players=4, round_robin=True, illegal="ignore"), num_cycles=300)
    parallel_api_test(parallel_env(variant="online", players=4, round_robin=True), num_cycles=300)
    seed_test(partial(env, variant="classic", players=2, round_robin=True), num_cycles=300)
    render_test(partial(env, variant="classic", players=3, round_robin=True))
    assert "hand: " in capsys.readouterr().out


def play_round_robin(seed: int, players: int) -> tuple[list[int], list[str], dict[str, float]]:
    """A deal in the round-robin environment, the agent to act choosing as `play` does: the ids
    played, the agents selected, and the rewards at the end."""
    e = env(variant="classic", players=players, round_robin=True)
    e.reset(seed=seed)
    rng = random.Random(seed)
    played: list[int] = []
    selected: list[str] = []
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        selected.append(agent)
        if termination or truncation:
            assert termination and len(played) * players == e.unwrapped.steps
            rewards[agent] = reward
            e.step(None)
            continue
        mask = observation["action_mask"]
        if not mask.any():
            e.step(int(rng.randrange(len(mask))))  # not used
            continue
        assert e.possible_agents.index(agent) == e.unwrapped.deal.current_player()
        assert not any(e.observe(other)["action_mask"].any() for other in e.possible_agents if other != agent)
        played.append(int(rng.choice(list(np.flatnonzero(mask)))))
        e.step(played[-1])
    return played, selected, rewards


@pytest.mark.parametrize("players", [2, 4])
def test_a_round_robin_cycle_plays_one_id_of_the_agent_to_act(players: int) -> None:
    """Every agent is selected once a cycle in seat order, a cycle plays the id of the agent to act
    at its start, and the deal and its rewards are those of the turn-based environment."""
    played, selected, rewards = play_round_robin(7, players)
    agents = [f"player_{seat}" for seat in range(players)]
    cycles = len(played)
    assert selected == agents * (cycles + 1)
    e = env(variant="classic", players=players)
    e.reset(seed=7)
    for action in played:
        e.step(action)
    assert e.unwrapped.deal.is_terminal()
    assert rewards == e.unwrapped.rewards and any(rewards.values())


def test_an_illegal_id_is_ignored_on_request() -> None:
    e = env(variant="classic", players=4, illegal="ignore")
    e.reset(seed=1)
    before = e.unwrapped.deal.to_json()
    e.step(5)  # not legal at a deal's first decision
    assert e.unwrapped.deal.to_json() == before and e.infos["player_0"]["illegal"]
    assert e.agent_selection == "player_0" and e.unwrapped.steps == 1
    e.step(0)  # draw
    assert e.unwrapped.deal.history and e.infos["player_0"] == {}
    with pytest.raises(ValueError, match="illegal must be 'raise' or 'ignore'"):
        env(illegal="skip")
    with pytest.raises(ValueError, match="round_robin must be True or False"):
        env(round_robin=1)  # type: ignore[arg-type]
