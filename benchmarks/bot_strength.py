"""Bot strength: the ladder random < easy < normal < hard < search, for every preset.

Usage: .venv/bin/python benchmarks/bot_strength.py [--only "classic 4p"] [--deals N] [--games G]
       [--search-deals K] [--search SPEC] [--seed S] [--jobs J]

Per configuration, with `canasta tournament`'s paired deals (each deck replayed with the seats
swapped): games to the target won by `hard` against `random`, and the mean score difference per
deal with its 95% confidence interval for hard − normal, normal − easy and search − hard.
Prints a Markdown table; progress goes to stderr. A comparison given 0 deals (or games) is left
out. The search rows dominate the run time (about 17 s per paired deal and core for classic 4
players).
"""

from __future__ import annotations

import argparse
import sys
import time

from canasta.cli.tournament import Progress, interval, signed
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label
from canasta.tournament import TournamentSpec, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help='one configuration, e.g. "classic 4p" or "classic 6p (3 teams)"')
    parser.add_argument("--deals", type=int, default=400, help="paired deals per level comparison")
    parser.add_argument("--games", type=int, default=20, help="paired games of hard against random")
    parser.add_argument("--search-deals", type=int, default=100, help="paired deals of search against hard")
    parser.add_argument("--search", default="search", help="the search bot's spec (default: search)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    configs = [(v, n, dict(o)) for v, n, o in CONFIGURATIONS
               if args.only in (None, configuration_label(v, n, o))]
    if not configs:
        parser.error(f"unknown configuration {args.only!r}")
    comparisons = [("hard vs random: games won", "hard", "random", 0, args.games),
                   (f"hard − normal ({args.deals} deals)", "hard", "normal", args.deals, 0),
                   (f"normal − easy ({args.deals} deals)", "normal", "easy", args.deals, 0),
                   (f"search − hard ({args.search_deals} deals)", args.search, "hard", args.search_deals, 0)]
    comparisons = [c for c in comparisons if c[3] or c[4]]
    header = ["rule set", *(c[0] for c in comparisons)]
    if args.search_deals:
        header.append("search ms median / p99")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for variant, players, options in configs:
        cells = [configuration_label(variant, players, options)]
        for _, a, b, deals, games in comparisons:
            start = time.perf_counter()
            spec = TournamentSpec(variant, players, (a, b), deals, games, args.seed, options)
            first = run(spec, args.jobs, Progress(sys.stderr))["results"][0]
            difference = f"{signed(first['mean_diff'])} {interval(first['ci95'])}"
            cells.append(f"{first['game_wins']}/{first['games']}" if games else difference)
            print(f"{cells[0]}: {a} vs {b}: {cells[-1]} ({time.perf_counter() - start:.0f} s)",
                  file=sys.stderr, flush=True)
            if a == args.search:
                cells.append(f"{first['decision_ms_median']:.2f} / {first['decision_ms_p99']:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
