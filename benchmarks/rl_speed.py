"""Speed through the learning frameworks' loops: OpenSpiel's `rl_environment` and the Gymnasium
single-agent environment, beside OpenSpiel's gin rummy through `rl_environment` in the same run.

Usage: .venv/bin/python benchmarks/rl_speed.py [--episodes N] [--rounds R] [--seed S]
Plays N episodes of `python_canasta` (classic, 2 and 4 players) and of `gin_rummy` through
`rl_environment.Environment` (which reads every player's tensor at every step) with uniformly
random legal actions, and N episodes of `canasta.single_agent.SingleAgentEnv` (classic 4
players, the learner random, the other seats `random` bots and then `hard` bots). Speeds are
steps per second of the process's CPU time (an `rl_environment` step is any player's; a
single-agent step is the learner's, the bots' moves inside it), the fastest of R rounds.
Needs the `openspiel` and `pettingzoo` extras.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python import rl_environment

import canasta.openspiel  # noqa: F401  (registers python_canasta)
from canasta.cli.engine_commands import format_table
from canasta.single_agent import SingleAgentEnv


def through_rl_environment(game: pyspiel.Game, episodes: int, seed: int) -> tuple[int, float]:
    env = rl_environment.Environment(game, seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([rng.choice(time_step.observations["legal_actions"][player])])
            steps += 1
    return steps, time.process_time() - start


def through_single_agent(opponents: str, episodes: int, seed: int) -> tuple[int, float]:
    env = SingleAgentEnv("classic", 4, seat=0, opponents=opponents)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, done, _, _ = env.step(action)
            steps += 1
    return steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    episodes = args.episodes

    def canasta(players: int) -> Callable[[int], tuple[int, float]]:
        game = pyspiel.load_game("python_canasta", {"players": players})
        return lambda seed: through_rl_environment(game, episodes, seed)

    gin = pyspiel.load_game("gin_rummy")
    runs: list[tuple[str, Callable[[int], tuple[int, float]]]] = [
        ("gin_rummy (rl_environment)", lambda seed: through_rl_environment(gin, 5 * episodes, seed)),
        ("classic 2p (rl_environment)", canasta(2)),
        ("classic 4p (rl_environment)", canasta(4)),
        ("classic 4p single-agent, random bots", lambda seed: through_single_agent("random", episodes, seed)),
        ("classic 4p single-agent, hard bots", lambda seed: through_single_agent("hard", episodes, seed)),
    ]
    rows = []
    for label, run in runs:
        results = [run(args.seed + r) for r in range(args.rounds)]
        rate, steps = max((steps / seconds, steps) for steps, seconds in results)
        rows.append((label, steps, round(rate)))
    base = rows[0][2]
    table = [[label, str(steps), str(rate), f"{rate / base:.2f}"] for label, steps, rate in rows]
    print(format_table(["loop", "steps", "steps/s", "× gin_rummy"], table))


if __name__ == "__main__":
    main()
