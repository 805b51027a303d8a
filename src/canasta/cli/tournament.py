"""`canasta tournament`: bot configurations against each other on paired deals and games."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from canasta.bots.loading import load_bot
from canasta.cli.engine_commands import _fail, _rules, _rules_args, format_table
from canasta.rules.errors import InvalidActionError
from canasta.tournament import TournamentSpec, run


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="pit bot configurations against each other on paired deals",
        description="Each deal is replayed with the configurations' seats swapped (with three teams: "
        "one configuration on one team and the other on the rest, rotated, both ways). Reports per "
        "configuration the mean score difference per deal with a 95%% confidence interval, game "
        "wins to the target score and the time per decision.",
    )
    _rules_args(p)
    p.add_argument("--bots", required=True, metavar="A,B[,...]",
                   help="bot specs separated by commas, e.g. random,hard or mybot.py:MyBot,hard "
                   "(a class of your own: path.py:Class or package.module:Class; more than two: round robin)")
    p.add_argument("--deals", type=int, default=100, help="paired deals per pair of bots (default 100)")
    p.add_argument("--games", type=int, default=0,
                   help="paired games to the target score per pair of bots (default 0)")
    p.add_argument("--max-game-deals", type=int, default=100,
                   help="a game still undecided after this many deals counts as unfinished (default 100)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(run=run_tournament)


def split_specs(text: str) -> list[str]:
    """Bot specs from `A,B,...`; a piece like `depth=3` continues the previous spec's parameters
    (so `search:iterations=200,depth=3,hard` is two specs)."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and "=" in piece.partition(":")[0]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


class Progress:
    """A progress bar on a terminal; otherwise a line at each tenth of the work, at most one a second."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.start = self.last = time.perf_counter()
        self.tenth = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.start
        if self.tty:
            filled = 30 * done // total
            bar = "#" * filled + "." * (30 - filled)
            end = "\n" if done == total else ""
            print(f"\r[{bar}] {done}/{total} tasks {elapsed:.1f} s", end=end, file=self.stream, flush=True)
        elif done == total or (10 * done // total > self.tenth and now - self.last >= 1):
            self.tenth, self.last = 10 * done // total, now
            print(f"tournament: {done}/{total} tasks, {elapsed:.1f} s", file=self.stream, flush=True)


def run_tournament(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    specs = split_specs(args.bots)
    if len(specs) < 2:
        return _fail("--bots needs at least two bot specs, e.g. --bots random,hard")
    for text in specs:
        try:
            load_bot(text)
        except ValueError as exc:
            return _fail(f"--bots: {exc}")
    if args.deals < 0 or args.games < 0 or args.deals + args.games == 0:
        return _fail("--deals and --games must not be negative, and not both zero")
    if args.deals == 1:
        return _fail("--deals must be 0 or at least 2 (a confidence interval needs two deals)")
    if args.jobs < 1 or args.max_game_deals < 1:
        return _fail("--jobs and --max-game-deals must be at least 1")
    spec = TournamentSpec(rules.variant, rules.players, tuple(specs), args.deals, args.games, args.seed,
                          rules.to_options(), args.max_game_deals)
    start = time.perf_counter()
    report = run(spec, args.jobs, Progress(sys.stderr))
    report["jobs"] = args.jobs
    report["seconds"] = round(time.perf_counter() - start, 2)
    print(json.dumps(report) if args.json else format_report(report))
    if report["interrupted"]:
        print(f"tournament: interrupted: {report['tasks_played']} of {report['tasks']} tasks played "
              "(the report above is of those)", file=sys.stderr)
        return 130
    return 0


def signed(value: float | None) -> str:
    """A mean difference, signed, to 0.1 (`-` when there is none)."""
    return "-" if value is None else f"{value:+.1f}"


def interval(ci: list[float] | None) -> str:
    """A confidence interval as `[low, high]`, signed (`-` when there is none)."""
    return "-" if ci is None else f"[{ci[0]:+.1f}, {ci[1]:+.1f}]"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_report(report: dict[str, Any]) -> str:
    """The report as a readable table (per configuration, then per pair with more than two)."""
    cut = report.get("interrupted")
    lines = [
        f"{report['variant']}, {report['players']} players, seed {report['seed']}: "
        f"{report['deals']} paired deals and {report['games']} paired games per pair of bots, "
        f"{report['seatings']} seatings each ({report['seconds']} s, {report['jobs']} jobs)"
        + (f"; interrupted: {report['tasks_played']} of {report['tasks']} tasks played" if cut else ""),
        "",
    ]
    header = ["bot", "mean diff/deal", "95% CI", "games", "wins", "decisions", "ms median", "ms p99"]
    rows = [
        [r["bot"], signed(r["mean_diff"]), interval(r["ci95"]), str(r["games"]), str(r["game_wins"]),
         str(r["decisions"]), _ms(r["decision_ms_median"]), _ms(r["decision_ms_p99"])]
        for r in report["results"]
    ]
    lines.append(format_table(header, rows))
    if len(report["results"]) > 2:
        pair_rows = [
            [" vs ".join(p["bots"]), signed(p["mean_diff"]), interval(p["ci95"])]
            for p in report["pairs"]
        ]
        lines += ["", format_table(["pair (first's side)", "mean diff/deal", "95% CI"], pair_rows)]
    if report["games_unfinished"]:
        lines.append(f"\n{report['games_unfinished']} games were unfinished after "
                     f"{report['max_game_deals']} deals")
    return "\n".join(lines)
