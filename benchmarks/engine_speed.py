"""Engine speed: random self-play deals per second for every preset, on one core.

Usage: .venv/bin/python benchmarks/engine_speed.py [--deals N] [--seed S] [--json]
Each configuration plays N deals of uniformly random legal moves, every move validated by
`State.apply` (the checks the server uses); the table shows deals and decisions per second.
"""

from __future__ import annotations

import argparse
import json
import sys

from canasta import native
from canasta.cli.engine_commands import format_table, selfplay
from canasta.rules import RuleSet
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    args = parser.parse_args()
    rows = []
    for variant, players, options in CONFIGURATIONS:
        rules = RuleSet.preset(variant, players, options)
        result = selfplay(rules, args.deals, args.seed)
        label = configuration_label(variant, players, options)
        if args.json:
            print(json.dumps({"config": label, **result}))
        else:
            print(f"{label}: {result['deals_per_second']} deals/s", file=sys.stderr)
        rows.append(
            [
                label,
                str(result["deals"]),
                f"{result['deals_per_second']:.0f}",
                f"{result['decisions'] / result['deals']:.0f}",
                f"{result['decisions_per_second']:.0f}",
            ]
        )
    if not args.json:
        print(f"engine: {'compiled (canasta compile)' if native.active() else 'pure Python'}")
        print(format_table(["rule set", "deals", "deals/s", "decisions/deal", "decisions/s"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
