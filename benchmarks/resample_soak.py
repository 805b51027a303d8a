"""Resampling at scale: the property test of `tests/test_resample.py`, counting its failures.

Usage: .venv/bin/python benchmarks/resample_soak.py [--count N] [--seed S] [--only LABEL] [--json]
For each configuration, resamples for every seat at every decision point of random deals (a
step being formed included) N times in all (default 20,000), checks each result as the
property test does (`check_resample`: the seat's information state and tensor kept, a legal
move or the end, the mover's list kept, a JSON round trip, a share played to the end of the
deal) and counts the failures by the check that failed instead of stopping. Progress goes to
stderr; the table (or `--json`) to stdout, with the first failure of each kind.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from canasta.cli.engine_commands import format_table
from canasta.learning import LearningState
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label
from test_resample import check_resample, resample_deals

PROGRESS_EVERY = 2000


class Tally:
    """Runs `check_resample`, counting each resample and each failure by where it failed."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.done = 0
        self.failures: Counter[str] = Counter()
        self.first: dict[str, str] = {}

    def __call__(self, state: LearningState, seat: int, rng: random.Random) -> None:
        try:
            check_resample(state, seat, rng)
        except Exception as exc:  # every failure is counted, whatever raised it
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            kind = f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
            self.failures[kind] += 1
            self.first.setdefault(kind, str(exc)[:400])
        self.done += 1
        if self.done % PROGRESS_EVERY == 0:
            print(f"{self.label}: {self.done} resamples, {self.failures.total()} failures", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="resamples per configuration")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", help='one configuration, e.g. "classic 4p"')
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows, report = [], []
    for variant, players, options in CONFIGURATIONS:
        label = configuration_label(variant, players, options)
        if args.only and label != args.only:
            continue
        tally = Tally(label)
        start = time.process_time()
        forming = resample_deals(variant, players, dict(options), args.count, args.seed + players, tally)
        seconds = time.process_time() - start
        failures = tally.failures.total()
        rows.append([label, str(tally.done), str(forming), str(failures), f"{seconds:.0f}"])
        report.append(
            {"configuration": label, "resamples": tally.done, "while_forming": forming,
             "failures": dict(tally.failures), "first": tally.first, "cpu_seconds": round(seconds, 1)}
        )
        print(f"{label}: done, {tally.done} resamples, {failures} failures", file=sys.stderr)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(format_table(["configuration", "resamples", "step being formed", "failures", "CPU s"], rows))
    for entry in report:
        for kind, message in entry["first"].items():
            print(f"\n{entry['configuration']}: {entry['failures'][kind]} x {kind}\n  {message}")


if __name__ == "__main__":
    main()
