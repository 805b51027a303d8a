"""`canasta tournament` and `canasta.tournament`: paired deals, seatings, statistics, parallel runs."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

import canasta.tournament as tournament
from canasta.bots import BOT_NAMES, make_bot
from canasta.cli.main import main
from canasta.cli.tournament import split_specs
from canasta.match import BotError, play_deal, seat_rngs
from canasta.rules import Action, Card, Discard, Draw, Game, Meld, Pickup, SeatView
from canasta.tournament import Task, TournamentSpec, mean_ci, percentile, run, run_task, seatings, t975

TIMING = ("decision_ms_median", "decision_ms_p99")


class FirstMove:
    """Deterministic: always the first legal move (two of them in one deal play identically)."""

    name = "first"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        return view.legal[0]


class Greedy:
    """Takes the pile and melds whenever it can, discards its cheapest card: far better than random."""

    name = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        def key(a: Action) -> tuple[int, int]:
            if isinstance(a, Pickup):
                return 3, len(a.with_) + sum(len(g.cards) for g in a.melds)
            if isinstance(a, Meld):
                return 2, sum(len(g.cards) for g in a.melds)
            if isinstance(a, Draw):
                return 1, 0
            if isinstance(a, Discard):
                return 0, -100 if a.card.is_wild else -a.card.points
            return -1, 0

        return max(view.legal, key=key)


class Spy:
    """Random, recording what it was given."""

    name = "spy"
    seen: ClassVar[list[tuple[SeatView, random.Random]]] = []

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        Spy.seen.append((view, rng))
        return rng.choice(view.legal)


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """`first`, `greedy` and `spy` as bot specs (in this process: tournaments with one job)."""
    extra = {"first": FirstMove, "greedy": Greedy, "spy": Spy}
    monkeypatch.setattr(tournament, "load_bot",
                        lambda spec: extra[spec]() if spec in extra else make_bot(spec))


def without_timing(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k not in TIMING} for row in report["results"]]


# -- seatings and statistics ---------------------------------------------------------------------


def test_two_teams_swap_seats() -> None:
    assert seatings(2) == [(True, False), (False, True)]


def test_three_teams_rotate_one_against_two_both_ways() -> None:
    result = seatings(3)
    assert len(result) == len(set(result)) == 6
    assert sorted(s.count(True) for s in result) == [1, 1, 1, 2, 2, 2]
    for team in range(3):  # every team is played alone by each configuration
        assert (tuple(t == team for t in range(3))) in result
        assert (tuple(t != team for t in range(3))) in result


def test_mean_ci_uses_student_t() -> None:
    mean, ci = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert ci == [round(2 - 4.303 / 3**0.5, 1), round(2 + 4.303 / 3**0.5, 1)] == [-0.5, 4.5]
    assert mean_ci([5.0]) == (5.0, None)
    assert mean_ci([]) == (None, None)


def test_t_quantiles_join_the_normal_limit() -> None:
    assert t975(1) == 12.706
    assert t975(30) == 2.042
    assert t975(31) == pytest.approx(2.0395, abs=1e-4)
    assert t975(1000) == pytest.approx(1.96234, abs=1e-4)


def test_percentile_interpolates() -> None:
    values = [float(v) for v in range(1, 101)]
    random.Random(0).shuffle(values)
    assert percentile(values, 50) == 50.5
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile([7.0], 99) == 7.0


def test_bot_specs_split_on_commas_but_keep_parameters() -> None:
    assert split_specs("random,hard") == ["random", "hard"]
    assert split_specs("search:iterations=200,depth=3, hard") == ["search:iterations=200,depth=3", "hard"]


# -- playing -------------------------------------------------------------------------------------


@pytest.mark.usefixtures("test_bots")
def test_same_deterministic_bot_in_both_seatings_scores_exactly_zero() -> None:
    """Both seatings replay the same deck: identical deterministic bots give identical deals."""
    report = run(TournamentSpec("classic", 4, ("first", "first"), deals=6, seed=3))
    for row in report["results"]:
        assert row["mean_diff"] == 0 and row["ci95"] == [0, 0]
        assert row["deals"] == 6


@pytest.mark.usefixtures("test_bots")
def test_the_stronger_configuration_gets_a_positive_difference() -> None:
    report = run(TournamentSpec("classic", 4, ("greedy", "random"), deals=12, seed=0))
    greedy, rnd = report["results"]
    assert greedy["mean_diff"] == -rnd["mean_diff"]
    assert greedy["ci95"][0] > 0
    assert rnd["ci95"][1] < 0


@pytest.mark.usefixtures("test_bots")
def test_bots_get_their_own_view_and_their_own_rng() -> None:
    Spy.seen = []
    run(TournamentSpec("classic", 4, ("spy", "random"), deals=2, seed=1))
    assert Spy.seen
    rng_of: dict[int, set[int]] = {}
    for view, rng in Spy.seen:
        assert isinstance(view, SeatView)
        assert view.seat == view.to_move and view.legal
        assert view.seat is not None
        rng_of.setdefault(id(rng), set()).add(view.seat)
    assert all(len(seats) == 1 for seats in rng_of.values())


def test_paired_difference_is_the_mean_over_seatings() -> None:
    spec = TournamentSpec("classic", 4, ("random", "random"), deals=1, seed=4)
    result = run_task(spec, Task("deal", 0, 1, 0))
    rules = spec.rules()
    diffs = []
    for n, seating in enumerate(seatings(2)):
        game = Game(rules)
        game.next_deal(tournament.deal_deck(spec, rules, 0), 3)
        bots = [make_bot("random")] * 4
        scores = [p.total for p in play_deal(game, bots, seat_rngs(f"4/deal/0/0-1/{n}", 4)).scores]
        diffs.append(scores[0] - scores[1] if seating[0] else scores[1] - scores[0])
    assert result.diff == sum(diffs) / 2
    assert len(result.times[0]) + len(result.times[1]) > 20


def test_games_count_wins_per_seating_with_three_teams() -> None:
    spec = TournamentSpec("classic", 3, ("random", "random"), deals=2, games=1, seed=2,
                          options={"target_score": 300})
    report = run(spec)
    assert report["seatings"] == 6
    for row in report["results"]:
        assert row["games"] == 6
    assert sum(r["game_wins"] for r in report["results"]) + report["games_unfinished"] == 6


def test_unfinished_games_are_counted() -> None:
    spec = TournamentSpec("classic", 2, ("random", "random"), deals=0, games=1, max_game_deals=1)
    report = run(spec)
    assert report["games_unfinished"] == 2
    assert [r["game_wins"] for r in report["results"]] == [0, 0]
    assert report["results"][0]["mean_diff"] is None


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    spec = TournamentSpec("classic", 4, ("random", "random"), deals=6, games=1, seed=9,
                          options={"target_score": 1500})
    one, two = run(spec, jobs=1), run(spec, jobs=2)
    assert without_timing(one) == without_timing(two)
    assert one["pairs"] == two["pairs"]


def test_an_illegal_bot_move_names_the_bot() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, view: SeatView, rng: random.Random) -> Action:
            return Discard(Card.parse("JK"))

    game = Game.new("classic", 4, seed=1)
    with pytest.raises(BotError, match=r"bot 'cheat' at seat 0 chose discard JK: "):
        play_deal(game, [Cheat()] * 4, seat_rngs("x", 4))


@pytest.mark.parametrize("spec", [n if n != "search" else "search:iterations=2" for n in BOT_NAMES[1:]])
def test_every_registered_bot_plays_paired_deals(spec: str) -> None:
    report = run(TournamentSpec("modern-american", 4, (spec, "random"), deals=1, seed=1))
    row = report["results"][0]
    assert row["bot"] == spec and row["deals"] == 1 and row["decisions"] > 10


# -- the command ----------------------------------------------------------------------------------


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--bots", "random,random", "--deals", "3", "--seed", "5", "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    report = json.loads(out)
    assert [r["bot"] for r in report["results"]] == ["random #1", "random #2"]
    for row in report["results"]:
        assert set(row) >= {"bot", "mean_diff", "ci95", "games", "game_wins", *TIMING}
        assert len(row["ci95"]) == 2 and row["ci95"][0] <= row["mean_diff"] <= row["ci95"][1]
        assert 0 < row["decision_ms_median"] <= row["decision_ms_p99"]
    assert err.splitlines()[-1].startswith("tournament: 3/3 tasks")


def test_cli_table_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--players", "2", "--bots", "random,random,random", "--deals", "2"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "mean diff/deal" in out and "95% CI" in out and "ms p99" in out
    for pair in ("random #1 vs random #2", "random #1 vs random #3", "random #2 vs random #3"):
        assert out.count(pair) == 1


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--bots", "random"], "at least two"),
        (["--bots", "random,nosuchbot"], "unknown bot"),
        (["--bots", "random,random", "--deals", "0"], "not both be zero"),
        (["--bots", "random,random", "--deals", "1"], "0 or at least 2"),
        (["--bots", "random,random", "--variant", "modern-american", "--players", "2"], "modern"),
    ],
)
def test_cli_errors(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    code = main(["tournament", *argv])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and fragment in err.lower()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_ctrl_c_stops_a_tournament_at_once_and_reports_what_was_played(jobs: int) -> None:
    """Ctrl-C, as a terminal sends it to the whole process group: the workers stop with the
    parent, within a second, and the report of the deals played so far is printed."""
    command = [str(Path(sys.executable).parent / "canasta"), "tournament", "--bots", "hard,random",
               "--deals", "100000", "--jobs", str(jobs), "--json"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal starts it
    )
    time.sleep(3)  # the processes start and play some deals
    os.killpg(process.pid, signal.SIGINT)
    interrupted = time.monotonic()
    out, err = process.communicate(timeout=10)
    assert time.monotonic() - interrupted < 1.0
    assert process.returncode == 130
    report = json.loads(out)
    assert report["interrupted"] and 0 < report["tasks_played"] < report["tasks"] == 100000
    assert report["results"][0]["deals"] == report["tasks_played"]
    assert f"interrupted: {report['tasks_played']} of 100000 tasks played" in err
    alive = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _group(p) == process.pid]
    assert alive == []


def _group(proc: Path) -> int | None:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None
