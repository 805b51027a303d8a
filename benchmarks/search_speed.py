"""Search speed: sampled continuations per second per core, and the search's decision times.

Usage: .venv/bin/python benchmarks/search_speed.py [--positions N] [--seed S] [--time X]
                                                   [--continuations C] [--only classic|modern-american]

Positions: for each configuration (classic 4 players, Modern American), N seeded deals are
played by `hard` for a random number of moves up to a decision the search weighs (more than
one candidate action). On each position:

- continuations alone: C determinizations of the seat's view, each played on from the
  heuristic's choice as the search plays its candidates (`canasta.bots.search.continuation`),
  one determinization per continuation; per second of this process's CPU time (one core);
- continuations in the search: `search:iterations=C` chooses on every position, and the
  continuations it played (its candidates share each determinization) are counted per CPU
  second, everything the search does included;
- decision times: `search` at its default budget and `search:time=X` choose on every position;
  the wall-clock times of those choices give median, 90th and 99th percentiles and maximum.

Run it with `nice` on a shared machine; wall-clock times include what other work takes away.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from canasta.bots.heuristic import decide
from canasta.bots.registry import make_bot
from canasta.bots.search import SearchBot, candidates, continuation, determinize, pair_caps
from canasta.bots.skill import HARD
from canasta.rules.cards import make_deck
from canasta.rules.ruleset import RuleSet
from canasta.rules.state import State
from canasta.rules.view import SeatView

CONFIGS = (("classic", 4), ("modern-american", 4))


def positions(variant: str, players: int, count: int, seed: int) -> list[SeatView]:
    """`count` seeded positions where the seat to move has more than one candidate."""
    rules = RuleSet.preset(variant, players)
    out: list[SeatView] = []
    rng = random.Random(seed)
    while len(out) < count:
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        state = State.deal(rules, deck, 0)
        stop = rng.randrange(4, 120)
        for _ in range(stop):
            if state.is_over:
                break
            state.apply(decide(state.mover(), HARD, rng))
        if state.is_over:
            continue
        view = state.view(state.to_move)
        mover = view.mover()
        if len(view.legal) > 1 and len(candidates(mover, decide(mover, HARD, random.Random(0)), 3)) > 1:
            out.append(view)
    return out


def continuation_rate(views: Sequence[SeatView], per_position: int, seed: int) -> float:
    """Continuations per CPU second over the positions."""
    rng = random.Random(seed)
    done = 0
    start = time.process_time()
    for view in views:
        assert view.seat is not None
        team = view.rules.team_of(view.seat)
        action = decide(view.mover(), HARD, random.Random(0))
        caps = pair_caps(view)  # as the search reads them: once a position
        for _ in range(per_position):
            world = determinize(view, rng, caps)
            world.apply(action)
            continuation(world, team, random.Random(rng.getrandbits(32)))
            done += 1
    return done / (time.process_time() - start)


def search_rate(views: Sequence[SeatView], per_position: int, seed: int) -> float:
    """Continuations the search plays per CPU second, candidates and determinizations included."""
    bot = SearchBot(iterations=per_position)
    start = time.process_time()
    for i, view in enumerate(views):
        bot.choose(view, random.Random(seed + i))
    return bot.continuations / (time.process_time() - start)


def decision_times(views: Sequence[SeatView], spec: str, seed: int) -> list[float]:
    """Wall-clock seconds of `spec`'s choice on each position."""
    bot = make_bot(spec)
    times = []
    for i, view in enumerate(views):
        start = time.perf_counter()
        bot.choose(view, random.Random(seed + i))
        times.append(time.perf_counter() - start)
    return times


def percentiles(times: Sequence[float]) -> str:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return f"median {at(0.5):.0f} ms, p90 {at(0.9):.0f}, p99 {at(0.99):.0f}, max {ordered[-1] * 1000:.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per configuration")
    parser.add_argument("--continuations", type=int, default=100, help="continuations per position")
    parser.add_argument("--time", type=float, default=0.5, help="the X of search:time=X")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=[v for v, _ in CONFIGS])
    args = parser.parse_args()
    for variant, players in CONFIGS:
        if args.only and variant != args.only:
            continue
        views = positions(variant, players, args.positions, args.seed)
        alone = continuation_rate(views, args.continuations, args.seed)
        searched = search_rate(views, args.continuations, args.seed)
        print(f"{variant} {players}p, {len(views)} positions:")
        print(f"  continuations: {alone:.0f} a second per core alone, {searched:.0f} in the search")
        for spec in ("search", f"search:time={args.time:g}"):
            print(f"  {spec}: {percentiles(decision_times(views, spec, args.seed))}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
