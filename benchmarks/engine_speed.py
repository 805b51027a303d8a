"""Engine speed: random self-play for every preset, compiled and pure, beside RLCard's gin rummy.

Usage: .venv/bin/python benchmarks/engine_speed.py [--deals N] [--games G] [--rounds R]
                                                   [--seed S] [--engine both|compiled|pure] [--json]
Each configuration plays N deals of uniformly random legal moves, every move validated by
`State.apply` (the checks the server uses), with the compiled engine and in pure Python
(`CANASTA_PURE=1`), each in a process of its own on one core. In the same run, G games of
RLCard's gin rummy (pure Python; `pip install -e '.[bench]'`) are played the same way: a
uniformly random legal action per step until the game ends. Speeds are per second of the
process's own CPU time, so that other work on a shared machine counts as little as it can; all
of it is repeated R times and the fastest round of each counts. The table shows deals and
decisions per second, and decisions per second as a multiple of RLCard's steps per second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from importlib import metadata
from typing import Any

from canasta import native
from canasta.cli.engine_commands import format_table, selfplay
from canasta.rules import RuleSet
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

ENGINES = ("compiled", "pure")
RLCARD_MISSING = (
    "RLCard is not installed, so there is no comparison with gin rummy: "
    "install it with `.venv/bin/pip install -e '.[bench]'` (or `.venv/bin/pip install rlcard`)"
)


def canasta_speed(deals: int, seed: int) -> list[dict[str, Any]]:
    """Self-play of every configuration with the engine of this process."""
    rows = []
    for variant, players, options in CONFIGURATIONS:
        start = time.process_time()
        result = selfplay(RuleSet.preset(variant, players, options), deals, seed)
        seconds = time.process_time() - start
        label = configuration_label(variant, players, options)
        row = {
            "config": label,
            "engine": result["engine"],
            "deals": deals,
            "decisions": result["decisions"],
            "cpu_seconds": round(seconds, 4),
            "deals_per_second": round(deals / seconds, 1),
            "decisions_per_second": round(result["decisions"] / seconds, 1),
        }
        print(f"{label} ({row['engine']}): {row['decisions_per_second']} decisions/s", file=sys.stderr)
        rows.append(row)
    return rows


def rlcard_speed(games: int, seed: int) -> dict[str, Any] | None:
    """Random play of RLCard's gin rummy: steps per second, or None when RLCard is missing."""
    try:
        import rlcard  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    seconds = time.process_time() - start
    print(f"RLCard gin-rummy: {steps / seconds:.0f} steps/s", file=sys.stderr)
    return {
        "config": "rlcard gin-rummy",
        "rlcard": metadata.version("rlcard"),
        "games": games,
        "steps": steps,
        "cpu_seconds": round(seconds, 4),
        "steps_per_second": round(steps / seconds, 1),
    }


def in_subprocess(engine: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """`canasta_speed` in a fresh process with the given engine."""
    env = {k: v for k, v in os.environ.items() if k != "CANASTA_PURE"}
    if engine == "pure":
        env["CANASTA_PURE"] = "1"
    command = [sys.executable, __file__, "--this-process", f"--deals={args.deals}", f"--seed={args.seed}"]
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=True)
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def fastest(rounds: list[list[dict[str, Any]]], key: str) -> list[dict[str, Any]]:
    """Row by row, the round with the highest `key`."""
    return [max(rows, key=lambda row: float(row[key])) for rows in zip(*rounds, strict=True)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per configuration and engine")
    parser.add_argument("--games", type=int, default=300, help="games of RLCard's gin rummy")
    parser.add_argument("--rounds", type=int, default=3, help="repetitions; the fastest counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=("both", *ENGINES), default="both")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    parser.add_argument("--this-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if min(args.deals, args.games, args.rounds) < 1:
        parser.error("--deals, --games and --rounds must be at least 1")
    if args.this_process:
        print(json.dumps(canasta_speed(args.deals, args.seed)))
        return 0
    engines = ENGINES if args.engine == "both" else (args.engine,)
    if "compiled" in engines and not native.current():
        print("no current compiled engine: run `canasta compile` (or scripts/setup)", file=sys.stderr)
        return 1
    references: list[dict[str, Any] | None] = []
    rounds: list[list[dict[str, Any]]] = []
    for _ in range(args.rounds):
        references.append(rlcard_speed(args.games, args.seed))
        rounds.append([row for engine in engines for row in in_subprocess(engine, args)])
    rows = fastest(rounds, "decisions_per_second")
    measured = [r for r in references if r is not None]
    reference = max(measured, key=lambda r: float(r["steps_per_second"])) if measured else None
    steps = reference["steps_per_second"] if reference else None
    for row in rows:
        row["rlcard_ratio"] = round(row["decisions_per_second"] / steps, 2) if steps else None
    if args.json:
        for row in [*rows, *([reference] if reference else [])]:
            print(json.dumps(row))
    else:
        header = ["rule set", "engine", "deals", "deals/s", "decisions/deal", "decisions/s", "× RLCard"]
        table = [
            [
                row["config"],
                row["engine"],
                str(row["deals"]),
                f"{row['deals_per_second']:.0f}",
                f"{row['decisions'] / row['deals']:.0f}",
                f"{row['decisions_per_second']:.0f}",
                f"{row['rlcard_ratio']:.2f}" if steps else "-",
            ]
            for row in rows
        ]
        print(format_table(header, table))
        if reference:
            print(
                f"RLCard {reference['rlcard']} gin-rummy: {reference['games']} games, "
                f"{reference['steps'] / reference['games']:.0f} steps/game, "
                f"{reference['steps_per_second']:.0f} steps/s (× RLCard = decisions/s ÷ these steps/s)"
            )
        print(f"per second of CPU time, the fastest of {args.rounds} rounds")
    if reference is None:
        print(RLCARD_MISSING, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
