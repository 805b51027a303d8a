"""Tournaments between bot configurations on paired deals and paired games.

Every deal (and every game) is played once per *seating* of the two configurations it compares,
on the same decks: with two teams, X on team 0 and Y on team 1, then swapped. With three teams
(3 players, or 6 in three teams) the seatings are X on one team and Y on the other two, rotated,
then Y on one team and X on the other two, rotated: six plays, so that X and Y meet on equal terms
and the comparison stays antisymmetric. With more than two configurations every pair meets (a
round robin) on the same decks.

A paired deal's difference, from X's side, is the mean over its seatings of (mean score of X's
teams − mean score of Y's teams). Each task is seeded from the tournament's seed and its own
index only, so results do not depend on how many processes run them (the decision times, which
measure each bot's `choose` call alone, of course do).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import itertools
import math
import multiprocessing
import random
import signal
import statistics
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.bots.loading import load_bot
from canasta.match import play_deal, play_game, seat_rngs
from canasta.rules import Card, Game, RuleSet, make_deck
from canasta.rules.game import default_dealer

#: Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)


@dataclass(frozen=True)
class TournamentSpec:
    """What to play: the rule set, the bot specs, how many paired deals and games, the seed."""

    variant: str
    players: int
    bots: tuple[str, ...]
    deals: int
    games: int = 0
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    max_game_deals: int = 100

    def rules(self) -> RuleSet:
        return RuleSet.preset(self.variant, self.players, self.options)


@dataclass(frozen=True)
class Task:
    """One paired deal (`kind` "deal") or one paired game ("game") between configurations x, y."""

    kind: str
    x: int
    y: int
    index: int


@dataclass
class TaskResult:
    """What one task produced; `times` are the milliseconds each `Bot.choose` call took."""

    task: Task
    diff: float | None = None  # deals: the paired difference, from x's side
    games: list[int | None] = field(default_factory=list)  # games: winning configuration per seating
    times: dict[int, list[float]] = field(default_factory=dict)  # ms per decision, by configuration


def seatings(teams: int) -> list[tuple[bool, ...]]:
    """Per seating, for each team, whether X plays it (the rest are Y's): see the module doc."""
    result: list[tuple[bool, ...]] = []
    for alone in (True, False):
        for team in range(teams):
            seating = tuple((t == team) == alone for t in range(teams))
            if seating not in result:
                result.append(seating)
    return result


def tasks(spec: TournamentSpec) -> list[Task]:
    pairs = list(itertools.combinations(range(len(spec.bots)), 2))
    deals = [Task("deal", x, y, i) for i in range(spec.deals) for x, y in pairs]
    games = [Task("game", x, y, i) for i in range(spec.games) for x, y in pairs]
    return games + deals  # the long tasks first, so that parallel jobs finish together


def run_task(spec: TournamentSpec, task: Task) -> TaskResult:
    """Play one task in every seating (a pure function of the spec and the task, timings aside)."""
    rules = spec.rules()
    result = TaskResult(task, times={task.x: [], task.y: []})
    diffs = []
    for n, seating in enumerate(seatings(rules.teams)):
        configs = [task.x if seating[rules.team_of(s)] else task.y for s in range(rules.players)]
        bots = [load_bot(spec.bots[c]) for c in configs]
        rngs = seat_rngs(f"{spec.seed}/{task.kind}/{task.index}/{task.x}-{task.y}/{n}", rules.players)
        times: list[list[float]] = [[] for _ in range(rules.players)]
        if task.kind == "deal":
            game = Game(rules)
            game.next_deal(deal_deck(spec, rules, task.index), *default_dealer(rules, task.index))
            scores = [part.total for part in play_deal(game, bots, rngs, times).scores]
            x_mean = statistics.fmean(v for t, v in enumerate(scores) if seating[t])
            y_mean = statistics.fmean(v for t, v in enumerate(scores) if not seating[t])
            diffs.append(x_mean - y_mean)
        else:
            game = Game(rules, rng=random.Random(f"{spec.seed}/game/{task.index}"))
            winner = play_game(game, bots, rngs, spec.max_game_deals, times)
            result.games.append(None if winner is None else (task.x if seating[winner] else task.y))
        for seat, config in enumerate(configs):
            result.times[config].extend(times[seat])
    if diffs:
        result.diff = statistics.fmean(diffs)
    return result


def deal_deck(spec: TournamentSpec, rules: RuleSet, index: int) -> list[Card]:
    """The shuffled deck of paired deal `index` (the same for every seating and every pair)."""
    deck = make_deck(rules.decks, rules.jokers)
    random.Random(f"{spec.seed}/deal/{index}").shuffle(deck)
    return deck


def run(spec: TournamentSpec, jobs: int = 1,
        progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play every task (in `jobs` processes) and summarise; `progress(done, total)` after each.

    On KeyboardInterrupt (Ctrl-C) the worker processes are stopped at once and the report
    summarises the tasks played so far: `interrupted` is then true and `tasks_played` tells
    how many of the `tasks` were.
    """
    todo = tasks(spec)
    played: list[tuple[int, TaskResult]] = []
    interrupted = False
    try:
        with contextlib.closing(_played(spec, todo, jobs)) as results:  # closed (workers stopped) at once
            for result in results:
                played.append(result)
                if progress:
                    progress(len(played), len(todo))
    except KeyboardInterrupt:
        interrupted = True
    report = summarize(spec, [result for _, result in sorted(played, key=lambda p: p[0])])
    report.update(tasks=len(todo), tasks_played=len(played), interrupted=interrupted)
    return report


def _played(
    spec: TournamentSpec, todo: list[Task], jobs: int
) -> Generator[tuple[int, TaskResult], None, None]:
    """(index, result) of each task as it is played, in `jobs` processes (in any order then)."""
    if jobs <= 1:
        for i, task in enumerate(todo):
            yield i, run_task(spec, task)
        return
    pool = multiprocessing.Pool(jobs, initializer=_ignore_interrupts)
    try:
        yield from pool.imap_unordered(functools.partial(_run_indexed, spec), enumerate(todo))
        pool.close()
    finally:
        pool.terminate()  # at once, also when interrupted
        pool.join()


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is for the parent, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_indexed(spec: TournamentSpec, item: tuple[int, Task]) -> tuple[int, TaskResult]:
    return item[0], run_task(spec, item[1])


def summarize(spec: TournamentSpec, results: Sequence[TaskResult]) -> dict[str, Any]:
    """The report: per configuration and per pair, the score differences, game wins and timings."""
    n = len(spec.bots)
    diffs: list[list[float]] = [[] for _ in range(n)]
    pair_diffs: dict[tuple[int, int], list[float]] = {}
    games = [0] * n
    wins = [0] * n
    unfinished = 0
    times: list[list[float]] = [[] for _ in range(n)]
    for r in results:
        x, y = r.task.x, r.task.y
        if r.diff is not None:
            diffs[x].append(r.diff)
            diffs[y].append(-r.diff)
            pair_diffs.setdefault((x, y), []).append(r.diff)
        for winner in r.games:
            games[x] += 1
            games[y] += 1
            if winner is None:
                unfinished += 1
            else:
                wins[winner] += 1
        for config, ms in r.times.items():
            times[config].extend(ms)
    names = labels(spec.bots)
    rows = []
    for c in range(n):
        mean, ci = mean_ci(diffs[c])
        rows.append({
            "bot": names[c],
            "mean_diff": mean,
            "ci95": ci,
            "deals": len(diffs[c]),
            "games": games[c],
            "game_wins": wins[c],
            "decisions": len(times[c]),
            "decision_ms_median": round(statistics.median(times[c]), 4) if times[c] else None,
            "decision_ms_p99": round(percentile(times[c], 99), 4) if times[c] else None,
        })
    pairs = []
    for (x, y), ds in sorted(pair_diffs.items()):
        mean, ci = mean_ci(ds)
        pairs.append({"bots": [names[x], names[y]], "mean_diff": mean, "ci95": ci, "deals": len(ds)})
    return {
        "variant": spec.variant,
        "players": spec.players,
        "options": dict(spec.options),
        "seed": spec.seed,
        "deals": spec.deals,
        "games": spec.games,
        "seatings": len(seatings(spec.rules().teams)),
        "max_game_deals": spec.max_game_deals,
        "games_unfinished": unfinished,
        "results": rows,
        "pairs": pairs,
    }


def labels(specs: Sequence[str]) -> list[str]:
    """The specs as the report names them: one given more than once is numbered (`hard #1`, `hard #2`)."""
    counts = collections.Counter(specs)
    seen: collections.Counter[str] = collections.Counter()
    out = []
    for spec in specs:
        seen[spec] += 1
        out.append(f"{spec} #{seen[spec]}" if counts[spec] > 1 else spec)
    return out


def mean_ci(values: Sequence[float]) -> tuple[float | None, list[float] | None]:
    """The mean and its 95% confidence interval (Student's t), rounded to 0.1 (None: too few values)."""
    if not values:
        return None, None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return round(mean, 1), None
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return round(mean, 1), [round(mean - half, 1), round(mean + half, 1)]


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t (a table, then a Cornish-Fisher expansion, error < 1e-4)."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile with linear interpolation between order statistics."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)
