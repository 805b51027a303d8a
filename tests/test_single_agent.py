"""canasta.single_agent: one seat learns against bots in a Gymnasium environment that passes
Gymnasium's `check_env`; the bots move between the learner's steps, an illegal id is refused
without a change, and the reward is the learner's return at the end."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from canasta.single_agent import SingleAgentEnv


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("online", 2)])
def test_gymnasium_check_env(variant: str, players: int) -> None:
    check_env(SingleAgentEnv(variant, players, seat=1, opponents="easy"), skip_render_check=True)


def test_an_episode_against_bots() -> None:
    env = SingleAgentEnv("classic", 4, seat=2, opponents=["easy", "hard", "normal"], zero_sum=True)
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps, done, reward = 0, False, 0.0
    while not done:
        assert env.deal.current_player() == 2
        mask = observation["action_mask"]
        assert (mask == env.action_masks()).all() and list(np.flatnonzero(mask)) == env.deal.legal_actions()
        observation, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated and "illegal" not in info and (done or reward == 0.0)
        steps += 1
    assert steps > 5 and reward == env.deal.returns()[2]
    again, _ = env.reset(seed=5)
    first, _ = SingleAgentEnv("classic", 4, seat=2, opponents=["easy", "hard", "normal"]).reset(seed=5)
    assert (again["observation"] == first["observation"]).all()


def test_an_illegal_id_changes_nothing() -> None:
    env = SingleAgentEnv("online", 2, opponents="hard", render_mode="ansi")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.deal.to_json()
    after, reward, done, _, info = env.step(illegal)
    assert info == {"illegal": True} and reward == 0.0 and not done and env.deal.to_json() == before
    assert (after["observation"] == observation["observation"]).all()
    text = env.render()
    assert text is not None and text.startswith("seat 0")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seat": 4}, "seat must be a seat of this 4-player game"),
        ({"opponents": ["hard"]}, r"one per other seat \(3\), not 1"),
        ({"render_mode": "human"}, "render_mode must be None or 'ansi'"),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv("classic", 4, **arguments)  # type: ignore[arg-type]
