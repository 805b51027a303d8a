"""The long completeness check of `legal_actions`, for every configuration.

Usage: .venv/bin/python benchmarks/completeness.py [--states N] [--seed S] [--limit L] [--config LABEL]
Plays seeded random deals (scores drawn so that every opening minimum occurs, deals past the
first) and runs `canasta.rules.completeness.check_position` on a sample of the positions met,
N per configuration; prints a table of positions checked, legal melds and pickups found, and the
positions with an unreachable legal action, a refused listed action or a dead end (with the
first examples on standard error). Exit status 1 when any is found.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from canasta.cli.engine_commands import format_table
from canasta.rules import RuleSet, State, make_deck
from canasta.rules.completeness import check_position
from canasta.rules.game import default_dealer
from canasta.rules.position import position_to_json
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

SCORES = (0, -200, 1600, 3100)


def check_configuration(rules: RuleSet, states: int, seed: int, limit: int) -> dict[str, int]:
    rng = random.Random(seed)
    found = {"positions": 0, "legal": 0, "sampled": 0, "unreachable": 0, "refused": 0, "dead_ends": 0}
    deal = 0
    started = time.monotonic()
    while found["positions"] < states:
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        dealer, sitting_out = default_dealer(rules, deal)
        deal += 1
        state = State.deal(rules, deck, dealer, [rng.choice(SCORES) for _ in range(rules.teams)], sitting_out)
        while not state.is_over:
            moves = state.legal_actions()
            if rng.random() < 0.2 and found["positions"] < states:
                report = check_position(state, limit, found["positions"])
                found["positions"] += 1
                found["legal"] += report.legal
                found["sampled"] += report.sampled
                for kind in ("unreachable", "refused", "dead_ends"):
                    examples = getattr(report, kind)
                    if examples:
                        found[kind] += 1
                        if found[kind] <= 3:
                            print(f"  {kind}: {examples[:3]} in {position_to_json(state)}", file=sys.stderr)
                if found["positions"] % 500 == 0:
                    rate = found["positions"] / (time.monotonic() - started)
                    print(f"  {found['positions']}/{states} positions ({rate:.0f}/s)", file=sys.stderr)
            state.apply(rng.choice(moves))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=1500, help="combinations tried per position")
    parser.add_argument("--config", help="one configuration, e.g. 'classic 4p'")
    args = parser.parse_args()
    rows = []
    bad = 0
    for variant, players, options in CONFIGURATIONS:
        label = configuration_label(variant, players, options)
        if args.config and args.config != label:
            continue
        print(f"{label} ...", file=sys.stderr)
        rules = RuleSet.preset(variant, players, options)
        found = check_configuration(rules, args.states, args.seed, args.limit)
        bad += found["unreachable"] + found["refused"] + found["dead_ends"]
        rows.append([label, *(str(found[k]) for k in found)])
    headers = ["rule set", "positions", "legal melds/pickups", "sampled"]
    headers += ["unreachable", "refused", "dead ends"]
    print(format_table(headers, rows))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
