"""Resampling at scale: the property tests of `tests/test_resample.py` and
`tests/test_openspiel.py`, counting their failures.

Usage: .venv/bin/python benchmarks/resample_soak.py [--count N] [--seconds T] [--seed S] [--only LABEL]
           [--json]
           [--openspiel [--skip-forced] [--episode game] [--max-deals D] [--first-deal F]
            [--profile K]]
For each configuration, resamples for every seat at every decision point of random deals (a
step being formed included) N times in all (default 20,000), checks each result as the
property test does (`check_resample`: the seat's information state and tensor kept, a legal
move or the end, the mover's list kept, a JSON round trip, a share played to the end of the
deal) and counts the failures by the check that failed instead of stopping (after T CPU seconds
a configuration stops where it is, its count of resamples taken while forming a step not kept). With
`--openspiel`, resamples OpenSpiel states (`resample_from_infostate`, with the game's
parameters; in a game episode from its deal F on, default 1) and checks each as the test does
(`check_resampled`: a history that replays to it, the deals before as they were), timing
each resample (median, 90th percentile, slowest; `--profile K` profiles the K slowest again).
Progress goes to stderr; the table (or `--json`) to stdout, with the first failure of each kind.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from canasta.cli.engine_commands import format_table
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label
from test_resample import PLAYOUT_RATE, check_resample, resample_deals

PROGRESS_EVERY = 2000


class OutOfTime(Exception):
    """A configuration's `--seconds` are spent."""


class Tally:
    """Runs a check, counting each resample and each failure by where it failed; raises
    `OutOfTime` once `seconds` of CPU time have passed since it was made."""

    def __init__(self, label: str, check: Callable[[Any, int, random.Random], None], seconds: float) -> None:
        self.label = label
        self.check = check
        self.until = time.process_time() + seconds
        self.done = 0
        self.failures: Counter[str] = Counter()
        self.first: dict[str, str] = {}

    def __call__(self, state: Any, seat: int, rng: random.Random) -> None:
        if time.process_time() > self.until:
            raise OutOfTime
        try:
            self.check(state, seat, rng)
        except Exception as exc:  # every failure is counted, whatever raised it
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            kind = f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
            self.failures[kind] += 1
            self.first.setdefault(kind, str(exc)[:400])
        self.done += 1
        if self.done % PROGRESS_EVERY == 0:
            print(f"{self.label}: {self.done} resamples, {self.failures.total()} failures", file=sys.stderr)


class OpenSpielCheck:
    """`check_resampled` of one `resample_from_infostate`, timed; keeps the `keep` slowest
    (their state, seat and sampler value) to profile again, of those during which no full garbage
    collection ran (one makes a resample slow that is not: its time is the whole heap's)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.seconds: list[float] = []
        self.slowest: list[tuple[float, Any, int, float]] = []
        #: The garbage collector's full collections so far, and the times of the resamples
        #: during which one ran.
        self.collecting = 0
        self.collected: list[float] = []
        gc.callbacks.append(self._collect)
        #: Whether the last resample found a deck (else it is a copy of the state).
        self.found = True
        from canasta.openspiel import CanastaState

        replayed = CanastaState._replayed

        def counted(state: Any, seat: int, rng: random.Random) -> Any:
            out = replayed(state, seat, rng)
            self.found = out is not None
            return out

        CanastaState._replayed = counted

    def _collect(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            self.collecting += 1

    def __call__(self, state: Any, seat: int, rng: random.Random) -> None:
        from test_openspiel import check_resampled

        value = rng.random()
        collected = self.collecting
        start = time.process_time()
        self.found = True
        other = state.resample_from_infostate(seat, sampler(value))
        seconds = time.process_time() - start
        self.seconds.append(seconds)
        if self.collecting != collected:
            self.collected.append(seconds)
        elif self.keep and (len(self.slowest) < self.keep or seconds > self.slowest[-1][0]):
            copy = state.clone()
            copy._positions = {}  # profiled from scratch
            slowest = [*self.slowest, (seconds, copy, seat, value)]
            self.slowest = sorted(slowest, key=lambda s: -s[0])[: self.keep]
        if not self.found:
            raise LookupError("no deck found: the resample is a copy of the state")
        check_resampled(state, seat, other)
        if rng.random() < PLAYOUT_RATE:
            deal = other.inner.deals
            while not other.is_terminal() and other.inner.deals == deal:
                other.apply_action(rng.choice(other.legal_actions()))

    def summary(self) -> dict[str, float]:
        times = sorted(self.seconds)
        if not times:
            return {}
        at = lambda share: times[min(len(times) - 1, int(share * len(times)))] * 1000  # noqa: E731
        calm = max(set(self.seconds) - set(self.collected), default=0.0)
        return {"median_ms": round(at(0.5), 1), "p90_ms": round(at(0.9), 1), "p99_ms": round(at(0.99), 1),
                "slowest_ms": round(times[-1] * 1000, 1), "slowest_without_gc_ms": round(calm * 1000, 1)}

    def profile(self, label: str) -> None:
        during = sorted(self.collected, reverse=True)[:5]
        print(f"\n{label}: a full garbage collection ran during {len(self.collected)} resamples,"
              f" the slowest of them {[round(s * 1000) for s in during]} ms")
        for seconds, state, seat, value in self.slowest:
            profiler = cProfile.Profile()
            profiler.enable()
            state.resample_from_infostate(seat, sampler(value))
            profiler.disable()
            inner = state.inner
            print(f"\n{label}: {seconds * 1000:.0f} ms, seat {seat}, deal {inner.deals},"
                  f" {len(inner.history)} ids, {len(inner.forced)} forced, to move {inner.current_player()},"
                  f" staged {list(inner.staged)}")
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(14)


def sampler(value: float) -> Callable[[], float]:
    """A probability sampler that gives `value`."""
    return lambda: value


def openspiel_deals(game: Any, count: int, seed: int, first_deal: int, check: Tally) -> int:
    """`check` for every seat at each decision point of random episodes of `game` (from their
    deal `first_deal` on), `count` times in all; returns how many while a step was being formed."""
    rng = random.Random(seed)
    players = game.num_players()
    done = forming = 0
    while done < count:
        state = game.new_initial_state()
        while not state.is_terminal() and done < count:
            if state.is_chance_node():
                kinds, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(kinds, odds)[0])
                continue
            if state.inner.deals >= first_deal:
                for seat in range(players):
                    check(state, seat, rng)
                done += players
                forming += players if state.inner.staged else 0
            state.apply_action(rng.choice(state.legal_actions()))
    return forming


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="resamples per configuration")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", help='one configuration, e.g. "classic 4p"')
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seconds", type=float, default=float("inf"), help="CPU seconds per configuration")
    parser.add_argument("--openspiel", action="store_true", help="resample_from_infostate with a history")
    parser.add_argument("--skip-forced", action="store_true")
    parser.add_argument("--episode", choices=["deal", "game"], default="deal")
    parser.add_argument("--max-deals", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=1, help="game episodes: resample from this deal on")
    parser.add_argument("--profile", type=int, default=0, help="profile the K slowest resamples again")
    args = parser.parse_args()
    rows, report = [], []
    for variant, players, options in CONFIGURATIONS:
        label = configuration_label(variant, players, options)
        if args.only and label != args.only:
            continue
        timed = OpenSpielCheck(args.profile) if args.openspiel else None
        tally = Tally(label, timed or check_resample, args.seconds)
        start = time.process_time()
        seed = args.seed + players
        forming: int | None = None
        try:
            if timed is None:
                forming = resample_deals(variant, players, dict(options), args.count, seed, tally)
            else:
                game = openspiel_game(variant, players, dict(options), args)
                first = args.first_deal if args.episode == "game" else 0
                forming = openspiel_deals(game, args.count, seed, first, tally)
        except OutOfTime:
            pass
        seconds = time.process_time() - start
        failures = tally.failures.total()
        times = timed.summary() if timed else {}
        formed = "-" if forming is None else str(forming)
        rows.append([label, str(tally.done), formed, str(failures), f"{seconds:.0f}",
                     *(f"{v:.1f}" for v in times.values())])
        report.append(
            {"configuration": label, "resamples": tally.done, "while_forming": forming,
             "failures": dict(tally.failures), "first": tally.first, "cpu_seconds": round(seconds, 1),
             **times}
        )
        print(f"{label}: done, {tally.done} resamples, {failures} failures {times}", file=sys.stderr)
        if timed:
            timed.profile(label)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    timing = ["median ms", "p90 ms", "p99 ms", "slowest ms", "without a full gc"] if args.openspiel else []
    header = ["configuration", "resamples", "step being formed", "failures", "CPU s", *timing]
    print(format_table(header, rows))
    for entry in report:
        for kind, message in entry["first"].items():
            print(f"\n{entry['configuration']}: {entry['failures'][kind]} x {kind}\n  {message}")


def openspiel_game(variant: str, players: int, options: dict[str, object], args: argparse.Namespace) -> Any:
    """The OpenSpiel game of a configuration with the command line's parameters."""
    import pyspiel

    import canasta.openspiel  # noqa: F401  (registers python_canasta)

    params: dict[str, object] = {"variant": variant, "players": players, "skip_forced": args.skip_forced,
                                 "episode": args.episode, "max_deals": args.max_deals}
    if options:
        params["options"] = " ".join(f"{k}:{v}" for k, v in options.items())
    return pyspiel.load_game("python_canasta", params)


if __name__ == "__main__":
    main()
