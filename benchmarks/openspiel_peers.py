"""OpenSpiel's ISMCTS as a peer: its information-set MCTS bot against `random`, `hard` and `search`.

Usage: .venv/bin/python benchmarks/openspiel_peers.py [--deals N] [--simulations S | --seconds T]
       [--search-time T] [--only random,hard,search] [--variant V] [--players P] [--seed X] [--jobs J]

`ISMCTS` below is a Canasta bot (the `Bot` protocol) that decides with OpenSpiel's own
`open_spiel.python.algorithms.ismcts.ISMCTSBot` on the game `python_canasta` (`canasta.openspiel`):
from a world resampled from its view it searches the atomic steps of its turn, S simulations a
step (or as many as fit in T seconds with `--seconds`, the time `search:time=T` has), each
simulation ending in a playout of the deal by the `hard` heuristic (the evaluator OpenSpiel's
MCTS takes). It sees its view only, as every bot. The comparisons are `canasta
tournament`'s paired deals (each deck replayed with the seats swapped); the table gives the
mean score difference per deal with its 95% interval and the decision times of both sides.
Needs the `openspiel` extra. The tournament's worker processes build the bot by its spec,
`benchmarks/openspiel_peers.py:ISMCTS`, reading S from `CANASTA_ISMCTS_SIMULATIONS` and T from
`CANASTA_ISMCTS_SECONDS`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts

from canasta.bots.heuristic import decide, fallback
from canasta.bots.skill import LEVELS
from canasta.cli.tournament import Progress, interval, signed
from canasta.learning.game import STATE_FORMAT
from canasta.openspiel import CanastaGame, CanastaState
from canasta.rules import Action, CanastaError, RuleSet, SeatView, State, position_to_json, resample
from canasta.tournament import TournamentSpec, run

SPEC = f"{__file__}:ISMCTS"
SIMULATIONS_VARIABLE = "CANASTA_ISMCTS_SIMULATIONS"
SECONDS_VARIABLE = "CANASTA_ISMCTS_SECONDS"
HARD = LEVELS["hard"]
PLAYOUT_LIMIT = 2000


class HardRollouts:
    """OpenSpiel's evaluator interface: a state's value is the deal played out by `hard`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: CanastaState) -> np.ndarray[Any, np.dtype[np.float64]]:
        world: State = state.inner.engine.clone()
        for _ in range(PLAYOUT_LIMIT):
            if world.is_over:
                break
            try:
                world.apply(decide(world.mover(), HARD, self.rng))
            except CanastaError:
                world.apply(fallback(world.legal_actions()))
        teams = world.rules.teams
        totals = [0.0] * teams if world.result is None else [p.total / 1000 for p in world.result.scores]
        return np.array([totals[s % teams] for s in range(world.rules.players)])

    def prior(self, state: CanastaState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS with a time a step instead of a number of simulations: its own search
    loop, run until `seconds` are spent and the root has been visited (its first simulation
    only expands it: OpenSpiel's final policy needs a visit)."""

    def __init__(self, *args: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds

    def run_search(self, state: CanastaState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self.reset()
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        while True:
            self.run_simulation(self.sample_root_state(state))
            if time.perf_counter() >= deadline and self._root_node.total_visits > 0:
                return list(self.get_final_policy(state, self._root_node))


class ISMCTS:
    """OpenSpiel's ISMCTS bot deciding one Canasta action from a seat's view (see the module doc)."""

    name = "ismcts"

    def __init__(self) -> None:
        self.simulations = int(os.environ.get(SIMULATIONS_VARIABLE, "40"))
        seconds = os.environ.get(SECONDS_VARIABLE)
        self.seconds = None if seconds is None else float(seconds)
        self._games: dict[tuple[RuleSet, tuple[int, ...]], CanastaGame] = {}

    def _game(self, view: SeatView) -> CanastaGame:
        key = (view.rules, tuple(view.board.scores))
        game = self._games.get(key)
        if game is None:
            params = {"variant": view.rules.variant, "players": view.rules.players,
                      "options": _options_text(view.rules), "scores": " ".join(map(str, view.board.scores))}
            game = self._games[key] = CanastaGame(params)
        return game

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        game = self._game(view)
        world = resample(view, rng)
        inner = game.learning.state_from_json(
            {"format": STATE_FORMAT, **game.learning.options_json(),
             "position": position_to_json(world), "staged": [], "history": []}
        )
        state = CanastaState(game, inner)
        rollouts, seed = HardRollouts(rng), np.random.RandomState(rng.getrandbits(32))
        bot = (
            ismcts.ISMCTSBot(game, rollouts, uct_c=2.0, max_simulations=self.simulations, random_state=seed)
            if self.seconds is None
            else TimedISMCTSBot(game, rollouts, uct_c=2.0, max_simulations=0, random_state=seed,
                                seconds=self.seconds)
        )
        chosen: list[int] = []
        while True:  # the atomic steps of one engine action: a take or groups end with a commit
            ids = state.legal_actions()
            step = ids[0] if len(ids) == 1 else int(bot.step(state))
            chosen.append(step)
            state.apply_action(step)
            if not inner.staged:
                break
        space = game.learning.actions
        for action in legal:
            if space.sequence(action) == tuple(chosen):
                return action
        raise RuntimeError(f"ISMCTS chose the ids {chosen}, which name no listed action")


def _options_text(rules: RuleSet) -> str:
    """House options in the `options` parameter's form (only the preset's own are supported)."""
    if RuleSet.preset(rules.variant, rules.players) != rules:
        raise ValueError("the ISMCTS peer plays the presets only")
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="paired deals per opponent")
    parser.add_argument("--simulations", type=int, default=40, help="ISMCTS simulations per step")
    parser.add_argument("--seconds", type=float, help="ISMCTS seconds a step (instead of --simulations)")
    parser.add_argument("--search-time", type=float, default=0.5, help="seconds a move for `search`")
    parser.add_argument("--only", default="random,hard,search", help="the opponents, comma-separated")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    os.environ[SIMULATIONS_VARIABLE] = str(args.simulations)
    if args.seconds is not None:
        os.environ[SECONDS_VARIABLE] = str(args.seconds)
    budget = f"{args.simulations} simulations" if args.seconds is None else f"{args.seconds} s"
    names = {"random": "random", "hard": "hard", "search": f"search:time={args.search_time}"}
    lines = [
        f"ISMCTS ({budget} a step, `hard` rollouts), "
        f"{args.variant} {args.players}p, {args.deals} paired deals each",
        "",
        "| opponent | ISMCTS − opponent (points a deal, 95% interval) "
        "| ISMCTS ms a decision median / p99 | opponent ms median / p99 |",
        "|---|---|---|---|",
    ]
    for key in args.only.split(","):
        opponent = names[key.strip()]
        start = time.perf_counter()
        spec = TournamentSpec(args.variant, args.players, (SPEC, opponent), args.deals, 0, args.seed)
        report = run(spec, args.jobs, Progress(sys.stderr))
        first, second = report["results"]
        times = [_times(row) for row in (first, second)]
        lines.append(f"| {opponent} | {signed(first['mean_diff'])} {interval(first['ci95'])} "
                     f"| {times[0]} | {times[1]} |")
        print(f"ISMCTS vs {opponent}: {lines[-1]} ({time.perf_counter() - start:.0f} s)",
              file=sys.stderr, flush=True)
    print("\n".join(lines))
    return 0


def _times(row: dict[str, Any]) -> str:
    median, p99 = row["decision_ms_median"], row["decision_ms_p99"]
    return "none" if median is None else f"{median:.0f} / {p99:.0f}"


if __name__ == "__main__":
    sys.exit(main())
