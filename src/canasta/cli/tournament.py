"""`canasta tournament`: bot configurations against each other on paired deals and games."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from canasta.bots.loading import load_bot
from canasta.cli.arguments import seed_number, whole
from canasta.cli.engine_commands import _fail, _rules, _rules_args, format_table
from canasta.rules.errors import InvalidActionError
from canasta.tournament import TournamentSpec, run

#: Bounds of the counts: the task list is built before the first deal.
MAX_DEALS = 1_000_000
MAX_GAMES = 100_000
MAX_JOBS = 256


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="pit bot configurations against each other on paired deals",
        description="Each deal is replayed with the configurations' seats swapped (with three teams: "
        "one configuration on one team and the other on the rest, rotated, both ways). Reports per "
        "configuration the mean score difference per deal with a 95% confidence interval, game "
        "wins to the target score and the time per decision.",
    )
    _rules_args(p)
    p.add_argument("--bots", required=True, metavar="A,B[,...]",
                   help="bot specs separated by commas, e.g. random,hard or mybot.py:MyBot,hard "
                   "(a class of your own: path.py:Class or package.module:Class; more than two: round robin)")
    p.add_argument("--deals", type=whole(0, MAX_DEALS), default=100,
                   help=f"paired deals per pair of bots, 0 or 2 to {MAX_DEALS} (default 100)")
    p.add_argument("--games", type=whole(0, MAX_GAMES), default=0,
                   help=f"paired games to the target score per pair of bots, 0 to {MAX_GAMES} (default 0)")
    p.add_argument("--max-game-deals", type=whole(1, 1000), default=100,
                   help="a game still undecided after this many deals (1 to 1000) counts as unfinished "
                   "(default 100)")
    p.add_argument("--seed", type=seed_number, default=0, help="random seed, 0 or more (default 0)")
    p.add_argument("--jobs", type=whole(1, MAX_JOBS), default=1, help=f"parallel processes, 1 to {MAX_JOBS} "
                   "(default 1)")
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


def bad_spec(specs: list[str]) -> str | None:
    """Why one of the `--bots` specs cannot be played (its bot cannot be made), or None."""
    for text in specs:
        try:
            load_bot(text)
        except ValueError as exc:
            return f"--bots: {exc}"
    return None


class Progress:
    """A progress bar on a terminal; otherwise a line at each tenth of the work, at most one a second."""

    def __init__(self, stream: TextIO, command: str = "tournament", unit: str = "tasks") -> None:
        self.stream = stream
        self.command, self.unit = command, unit
        self.tty = stream.isatty()
        self.start = self.last = time.perf_counter()
        self.tenth = 0
        self.open = False  # a bar is on the terminal's last line, without its newline

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.start
        if self.tty:
            filled = 30 * done // total
            bar = "#" * filled + "." * (30 - filled)
            self.open = done < total
            end = "" if self.open else "\n"
            line = f"\r[{bar}] {done}/{total} {self.unit} {elapsed:.1f} s"
            print(line, end=end, file=self.stream, flush=True)
        elif done == total or (10 * done // total > self.tenth and now - self.last >= 1):
            self.tenth, self.last = 10 * done // total, now
            line = f"{self.command}: {done}/{total} {self.unit}, {elapsed:.1f} s"
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        """End a bar cut short (by Ctrl-C or an error), so that what follows starts a line."""
        if self.open:
            print(file=self.stream, flush=True)
            self.open = False


def run_tournament(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    specs = split_specs(args.bots)
    if len(specs) < 2:
        return _fail("--bots needs at least two bot specs, e.g. --bots random,hard")
    refusal = bad_spec(specs)
    if refusal:
        return _fail(refusal)
    if args.deals + args.games == 0:
        return _fail("--deals and --games must not both be zero")
    if args.deals == 1:
        return _fail("--deals must be 0 or at least 2 (a confidence interval needs two deals)")
    spec = TournamentSpec(rules.variant, rules.players, tuple(specs), args.deals, args.games, args.seed,
                          rules.to_options(), args.max_game_deals)
    start = time.perf_counter()
    progress = Progress(sys.stderr)
    try:
        report = run(spec, args.jobs, progress)
    finally:
        progress.close()
    report["jobs"] = args.jobs
    report["seconds"] = round(time.perf_counter() - start, 2)
    print(json.dumps(report) if args.json else format_report(report))
    if report["interrupted"]:
        print(f"tournament: interrupted: {report['tasks_played']} of {report['tasks']} tasks played "
              "(the report above is of those)", file=sys.stderr)
        return 130
    return 0


def plural(count: int, noun: str) -> str:
    """`1 job`, `2 jobs`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


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
        f"{report['seatings']} seatings each ({report['seconds']} s, {plural(report['jobs'], 'job')})"
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
