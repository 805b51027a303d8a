"""Engine speed: random self-play of every configuration, compiled and pure, against RLCard's gin rummy.

Usage: .venv/bin/python benchmarks/engine_speed.py [--deals N] [--games G] [--rounds R]
                                                   [--seed S] [--engine both|compiled|pure] [--json]
The peer is RLCard's gin-rummy game core (`pip install -e '.[bench]'`): `GinRummyGame`, seeded as
`rlcard.make("gin-rummy", config={"seed": S})` seeds it, plays G games of a uniformly random
action of `judge.get_legal_actions()` per `step` until `is_over()`. Canasta plays N seeded deals
of every configuration the way `canasta selfplay` does: a uniformly random action of
`legal_actions`, applied as listed (`State.apply_listed`). Each measurement runs in a fresh
process and counts that process's CPU time (`time.process_time`), dealing included on both
sides. In each of R rounds, for each configuration and engine (compiled, and pure Python with
`CANASTA_PURE=1`), the Canasta and RLCard measurements run back to back, the order alternating,
and give one ratio of decisions per CPU second to steps per CPU second; the table shows the
median of the R ratios and their range. RLCard's env (`rlcard.make`, which also builds a numpy
observation every step) is measured once per round for a second, named column. Each round
also plays its deals again with every `legal_actions` call timed by the thread's CPU clock (so
that other work on the machine does not count), and times it on positions with hands of 30–60
cards, many of them wild (`canasta.rules.large_hands`); the table shows the median over the
rounds of each round's slowest call, and the slowest of all rounds (a call the machine
interrupted once shows there alone). The same timed calls give the mean cost of a listing after
the draw by a seat whose team has not opened (its openings searched) and by one whose team has.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from importlib import metadata, util
from typing import Any

from canasta import native
from canasta.cli.engine_commands import format_table, selfplay
from canasta.rules import Action, RuleSet, State, legal_actions
from canasta.rules.large_hands import large_hand_positions
from canasta.rules.parts import Phase
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

ENGINES = ("compiled", "pure")
#: Positions with large hands timed for the slowest `legal_actions` call, per configuration.
LARGE_HANDS = 40
RLCARD_MISSING = (
    "RLCard is not installed, so there is no comparison with gin rummy: "
    "install it with `.venv/bin/pip install -e '.[bench]'` (or `.venv/bin/pip install rlcard`)"
)


def canasta_speed(config: int, deals: int, seed: int, time_calls: bool) -> dict[str, Any]:
    """Self-play of one configuration with the engine of this process."""
    variant, players, options = CONFIGURATIONS[config]
    rules = RuleSet.preset(variant, players, options)
    start = time.process_time()
    result = selfplay(rules, deals, seed)
    row = {
        "engine": result["engine"],
        "decisions": result["decisions"],
        "cpu_seconds": time.process_time() - start,
    }
    return {**row, **slowest_listing(rules, deals, seed)} if time_calls else row


def slowest_listing(rules: RuleSet, deals: int, seed: int) -> dict[str, Any]:
    """The slowest `legal_actions` call of the same self-play and of `LARGE_HANDS` positions with
    hands of 30–60 cards, many of them wild (`canasta.rules.large_hands`), and the hand size of the
    seat to move; and the self-play's mean call after a draw (the play phase) by a seat whose team
    has opened and by one whose team has not."""
    slowest = (0.0, 0)
    play = {True: [0.0, 0], False: [0.0, 0]}  # by whether the team has opened: seconds, calls

    def timed(state: State) -> list[Action]:
        nonlocal slowest
        start = time.thread_time()
        actions = legal_actions(state)
        seconds = time.thread_time() - start
        if seconds > slowest[0]:
            slowest = (seconds, state.hand_sizes[state.to_move])
        if state.phase is Phase.PLAY and state.permission != "pending":
            cost = play[state.opened[state.team_of(state.turn)]]
            cost[0] += seconds
            cost[1] += 1
        return actions

    selfplay(rules, deals, seed, lister=timed)
    mean = {opened: seconds / max(calls, 1) * 1e6 for opened, (seconds, calls) in play.items()}
    for state in large_hand_positions(rules, LARGE_HANDS, seed):
        timed(state)
    return {
        "slowest_legal_ms": slowest[0] * 1000,
        "slowest_legal_hand": slowest[1],
        "play_opened_us": mean[True],
        "play_unopened_us": mean[False],
    }


def rlcard_core_speed(games: int, seed: int) -> dict[str, Any]:
    """Random play of RLCard's gin-rummy game core: the judge's legal actions and the game's step."""
    from rlcard.games.gin_rummy.game import GinRummyGame  # type: ignore[import-untyped]
    from rlcard.utils.seeding import np_random  # type: ignore[import-untyped]

    game = GinRummyGame()
    game.np_random, _ = np_random(seed)  # as rlcard.make("gin-rummy", config={"seed": seed}) does
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
            steps += 1
    return {"steps": steps, "cpu_seconds": time.process_time() - start}


def rlcard_env_speed(games: int, seed: int) -> dict[str, Any]:
    """Random play of RLCard's gin-rummy env, which builds an observation every step."""
    import rlcard  # type: ignore[import-untyped]

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return {"steps": steps, "cpu_seconds": time.process_time() - start}


def measure(
    kind: str, args: argparse.Namespace, config: int = 0, engine: str = "compiled", time_calls: bool = False
) -> dict[str, Any]:
    """One measurement (`canasta`, `rlcard-core` or `rlcard-env`) in a fresh process."""
    env = {k: v for k, v in os.environ.items() if k != "CANASTA_PURE"}
    if engine == "pure":
        env["CANASTA_PURE"] = "1"
    command = [sys.executable, __file__, f"--this-process={kind}", f"--config={config}"]
    command += [f"--deals={args.deals}", f"--games={args.games}", f"--seed={args.seed}"]
    if time_calls:
        command.append("--time-calls")
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def in_this_process(args: argparse.Namespace) -> dict[str, Any]:
    if args.this_process == "canasta":
        return canasta_speed(args.config, args.deals, args.seed, args.time_calls)
    if args.this_process == "rlcard-core":
        return rlcard_core_speed(args.games, args.seed)
    return rlcard_env_speed(args.games, args.seed)


def per_second(result: dict[str, Any], key: str) -> float:
    return float(result[key]) / float(result["cpu_seconds"])


def run_rounds(
    args: argparse.Namespace, engines: tuple[str, ...], peer: bool
) -> tuple[list[dict[str, Any]], list[dict[str, float]]]:
    """Every round's measurements: a row per configuration and engine, and RLCard's speeds by round."""
    pairs = [(config, engine) for config in range(len(CONFIGURATIONS)) for engine in engines]
    rows: list[dict[str, Any]] = [
        {
            "config": configuration_label(*CONFIGURATIONS[c]),
            "speeds": [],
            "core": [],
            "env": [],
            "slowest": [],
            "play": [],
        }
        for c, _ in pairs
    ]
    peers: list[dict[str, float]] = []
    for r in range(args.rounds):
        env_speed = per_second(measure("rlcard-env", args), "steps") if peer else 0.0
        for n, ((config, engine), row) in enumerate(zip(pairs, rows, strict=True)):
            kinds = ("canasta", "rlcard-core") if peer else ("canasta",)
            done = {
                kind: measure(kind, args, config, engine, kind == "canasta")
                for kind in (kinds if (r + n) % 2 == 0 else kinds[::-1])
            }
            ours = done["canasta"]
            if r == 0:
                row |= {"engine": ours["engine"], "decisions": ours["decisions"]}
            row["slowest"].append((ours["slowest_legal_ms"], ours["slowest_legal_hand"]))
            row["play"].append((ours["play_unopened_us"], ours["play_opened_us"]))
            speed = per_second(ours, "decisions")
            row["speeds"].append(speed)
            note = ""
            if peer:
                core = done["rlcard-core"]
                peers.append(
                    {
                        "core": per_second(core, "steps"),
                        "steps_per_game": core["steps"] / args.games,
                        "env": env_speed,
                    }
                )
                row["core"].append(speed / peers[-1]["core"])
                row["env"].append(speed / env_speed)
                note = f", RLCard core {peers[-1]['core']:.0f} steps/s: × {row['core'][-1]:.2f}"
            label = f"round {r + 1}/{args.rounds}: {row['config']} {row['engine']}"
            print(f"{label}: {speed:.0f} decisions/s{note}", file=sys.stderr, flush=True)
    return rows, peers


def summary(row: dict[str, Any], deals: int) -> dict[str, Any]:
    """A row of the table: medians over the rounds, the per-round ratios' range."""
    core, env = row["core"], row["env"]
    rounds = sorted(row["slowest"])
    median_slowest = rounds[len(rounds) // 2]  # a round's own figure (the upper middle one of an even number)
    return {
        "config": row["config"],
        "engine": row["engine"],
        "deals": deals,
        "rounds": len(row["speeds"]),
        "decisions_per_deal": round(row["decisions"] / deals, 1),
        "decisions_per_second": round(statistics.median(row["speeds"]), 1),
        "rlcard_core_ratio": round(statistics.median(core), 2) if core else None,
        "rlcard_core_ratio_min": round(min(core), 2) if core else None,
        "rlcard_core_ratio_max": round(max(core), 2) if core else None,
        "rlcard_env_ratio": round(statistics.median(env), 2) if env else None,
        "slowest_legal_ms": round(median_slowest[0], 3),
        "slowest_legal_hand": median_slowest[1],
        "slowest_legal_ms_max": round(max(ms for ms, _ in row["slowest"]), 3),
        "play_unopened_us": round(statistics.median(unopened for unopened, _ in row["play"]), 2),
        "play_opened_us": round(statistics.median(opened for _, opened in row["play"]), 2),
        "play_unopened_ratio": round(statistics.median(u / o for u, o in row["play"] if o), 2),
    }


def ratio_range(row: dict[str, Any]) -> str:
    """`median [min–max]` of the ratios to RLCard's game core."""
    if row["rlcard_core_ratio"] is None:
        return "-"
    low, high = row["rlcard_core_ratio_min"], row["rlcard_core_ratio_max"]
    return f"{row['rlcard_core_ratio']:.2f} [{low:.2f}–{high:.2f}]"


def table(rows: list[dict[str, Any]]) -> str:
    header = [
        "configuration",
        "engine",
        "decisions/deal",
        "decisions/CPU-s",
        "× RLCard core",
        "× RLCard env",
        "slowest legal_actions [max]",
        "play µs: not opened / opened",
    ]
    lines = [
        [
            row["config"],
            row["engine"],
            f"{row['decisions_per_deal']:.0f}",
            f"{row['decisions_per_second']:.0f}",
            ratio_range(row),
            "-" if row["rlcard_env_ratio"] is None else f"{row['rlcard_env_ratio']:.2f}",
            f"{row['slowest_legal_ms']:.2f} ms (hand {row['slowest_legal_hand']})"
            f" [{row['slowest_legal_ms_max']:.2f}]",
            f"{row['play_unopened_us']:.1f} / {row['play_opened_us']:.1f}"
            f" (× {row['play_unopened_ratio']:.1f})",
        ]
        for row in rows
    ]
    return format_table(header, lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60, help="deals per configuration, engine and round")
    parser.add_argument("--games", type=int, default=100, help="games of RLCard's gin rummy per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the median ratio counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=("both", *ENGINES), default="both")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    parser.add_argument(
        "--this-process", choices=("canasta", "rlcard-core", "rlcard-env"), help=argparse.SUPPRESS
    )
    parser.add_argument("--config", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--time-calls", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if min(args.deals, args.games, args.rounds) < 1:
        parser.error("--deals, --games and --rounds must be at least 1")
    if args.this_process:
        print(json.dumps(in_this_process(args)))
        return 0
    engines = ENGINES if args.engine == "both" else (args.engine,)
    if "compiled" in engines and not native.current():
        print("no current compiled engine: run `canasta compile` (or scripts/setup)", file=sys.stderr)
        return 1
    peer = util.find_spec("rlcard") is not None
    measured, peers = run_rounds(args, engines, peer)
    rows = [summary(row, args.deals) for row in measured]
    method = (
        f"per second of each process's CPU time; {args.rounds} interleaved rounds, in each the Canasta and "
        "RLCard game-core measurements of a row back to back in fresh processes; × RLCard core is the "
        "median of the per-round ratios [min–max]; × RLCard env likewise against the env measured once "
        "per round; slowest legal_actions by the thread's CPU clock over a round's deals and "
        f"{LARGE_HANDS} positions with hands of 30–60 cards, many of them wild, the median of the rounds "
        "with the hand size of the seat to move [the slowest of all rounds]; play µs: a round's mean "
        "legal_actions call after the draw by a seat whose team has not opened, and has, by the same "
        "clock, the median of the rounds (× the median of the rounds' ratios)"
    )
    reference = None
    if peer:
        reference = {
            "config": "rlcard gin-rummy",
            "rlcard": metadata.version("rlcard"),
            "games": args.games,
            "steps_per_game": round(statistics.median(p["steps_per_game"] for p in peers), 1),
            "core_steps_per_second": round(statistics.median(p["core"] for p in peers), 1),
            "env_steps_per_second": round(statistics.median(p["env"] for p in peers), 1),
        }
    if args.json:
        for row in [*rows, *([reference] if reference else []), {"method": method}]:
            print(json.dumps(row))
    else:
        print(table(rows))
        if reference:
            print(
                f"RLCard {reference['rlcard']} gin-rummy, {args.games} games per measurement, "
                f"{reference['steps_per_game']:.0f} steps/game: game core "
                f"{reference['core_steps_per_second']:.0f} steps/CPU-s (median), env "
                f"{reference['env_steps_per_second']:.0f} steps/CPU-s"
            )
        print(f"method: {method}")
    if not peer:
        print(RLCARD_MISSING, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
