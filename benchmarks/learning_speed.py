"""Learning-interface speed: random play in atomic ids, beside OpenSpiel's gin rummy from Python.

Usage: .venv/bin/python benchmarks/learning_speed.py [--deals N] [--games G] [--rounds R]
                                                     [--seed S] [--all] [--json]
Plays N deals of classic for 4 players (`--all`: of every configuration) through
`canasta.learning` and, in the same run, G games of OpenSpiel's gin rummy
(`pyspiel.load_game("gin_rummy")`, C++ driven from Python), both the same way: at every
node, chance nodes included, `state.legal_actions()`, a uniformly random choice and
`state.apply_action`. Speeds are steps (every applied id) and decisions (the players' steps)
per second of the process's own CPU time, the fastest of R rounds; the last column is steps
per second as a multiple of gin rummy's. Needs the `openspiel` extra (`scripts/setup dev`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib import metadata
from typing import Any, Protocol

from canasta import native
from canasta.cli.engine_commands import format_table
from canasta.learning import LearningGame
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label


class _Playable(Protocol):
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...


def play(new_state: Any, games: int, seed: int) -> dict[str, float]:
    """Random play of `games` games from `new_state()`: steps, decisions and CPU seconds."""
    rng = random.Random(seed)
    steps = decisions = 0
    start = time.process_time()
    for _ in range(games):
        state: _Playable = new_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    seconds = time.process_time() - start
    return {"games": games, "steps": steps, "decisions": decisions, "cpu_seconds": round(seconds, 4)}


def measure(label: str, new_state: Any, games: int, seed: int) -> dict[str, Any]:
    row: dict[str, Any] = {"config": label, **play(new_state, games, seed)}
    row["steps_per_second"] = round(row["steps"] / row["cpu_seconds"], 1)
    row["decisions_per_second"] = round(row["decisions"] / row["cpu_seconds"], 1)
    print(f"{label}: {row['steps_per_second']:.0f} steps/s", file=sys.stderr)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per configuration")
    parser.add_argument("--games", type=int, default=1000, help="games of gin rummy")
    parser.add_argument("--rounds", type=int, default=3, help="repetitions; the fastest counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="every configuration, not only classic 4p")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    args = parser.parse_args()
    if min(args.deals, args.games, args.rounds) < 1:
        parser.error("--deals, --games and --rounds must be at least 1")
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed: run scripts/setup dev", file=sys.stderr)
        return 1
    configs = CONFIGURATIONS if args.all else [("classic", 4, {})]
    gin = pyspiel.load_game("gin_rummy")
    rounds: list[list[dict[str, Any]]] = []
    for _ in range(args.rounds):
        rows = [measure("OpenSpiel gin_rummy", gin.new_initial_state, args.games, args.seed)]
        for variant, players, options in configs:
            game = LearningGame(variant, players, options)
            label = configuration_label(variant, players, options)
            rows.append(measure(label, game.new_initial_state, args.deals, args.seed))
        rounds.append(rows)
    best = [max(rows, key=lambda row: float(row["steps_per_second"])) for rows in zip(*rounds, strict=True)]
    reference = best[0]["steps_per_second"]
    for row in best:
        row["gin_rummy_ratio"] = round(row["steps_per_second"] / reference, 2)
    if args.json:
        for row in best:
            print(json.dumps(row))
        return 0
    header = ["game", "games", "steps/game", "steps/s", "decisions/s", "× gin_rummy"]
    table = [
        [
            row["config"],
            str(row["games"]),
            f"{row['steps'] / row['games']:.0f}",
            f"{row['steps_per_second']:.0f}",
            f"{row['decisions_per_second']:.0f}",
            f"{row['gin_rummy_ratio']:.2f}",
        ]
        for row in best
    ]
    print(format_table(header, table))
    engine = "compiled" if native.active() else "pure Python"
    print(
        f"open_spiel {metadata.version('open_spiel')}; canasta engine {engine}; per second of CPU time, "
        f"the fastest of {args.rounds} rounds"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
