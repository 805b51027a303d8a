"""The review of a seat's decisions in a recorded deal (`canasta.review`, `canasta review`)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path

import pytest
from tests.test_going_out import SEVENS, position

from canasta.bots import make_bot
from canasta.bots.search import SearchBot
from canasta.cli.main import main
from canasta.protocol.review_texts import LANGUAGES, TEXTS, reason_text, summary_text
from canasta.review import ReviewError, review_deal, review_decision, seat_decisions
from canasta.rules import Action, Discard, Game, Meld, Record, RuleSet, State, position_to_json, replay
from canasta.rules.actions import action_to_json
from canasta.rules.game import default_dealer
from canasta.rules.view import SeatView
from canasta.tournament import TournamentSpec, deal_deck

#: Small budgets keep the tests fast; the margins are the review's own.
ITERATIONS = 24


def played_deal(index: int) -> Record:
    """Deal `index` of the tournament's classic decks (seed 2026), played to its end by `hard`."""
    rules = RuleSet.preset("classic", 4)
    game = Game(rules)
    game.next_deal(deal_deck(TournamentSpec("classic", 4, ("hard",), 1, seed=2026), rules, index),
                   *default_dealer(rules, index))
    bot, rng = make_bot("hard"), random.Random(index)
    while not game.current.is_over:
        state = game.current
        game.apply(bot.choose(state.view(state.to_move), rng))
    return Record.of_game(game)


def from_position(state: State, first: list[Action]) -> Record:
    """A record of one deal from `state`: the moves `first`, then `hard` to the end."""
    start = position_to_json(state)
    bot, rng = make_bot("hard"), random.Random(0)
    actions = []
    for move in first:
        actions.append(action_to_json(move, state.to_move))
        state.apply(move)
    while not state.is_over:
        move = bot.choose(state.view(state.to_move), rng)
        actions.append(action_to_json(move, state.to_move))
        state.apply(move)
    rules = state.rules
    return Record.from_json({
        "format": "canasta-record/1", "variant": rules.variant, "players": rules.players,
        "options": rules.to_options(), "deals": [{"position": start, "actions": actions}],
    })


def test_a_discard_instead_of_going_out_is_flagged_with_the_better_move_and_its_reason() -> None:
    state = position(SEVENS)
    record = from_position(state.clone(), [Discard(state.hands[0][0])])
    review = review_deal(record, 0, iterations=ITERATIONS)
    first = review.costly[0]
    assert first.index == 0 and isinstance(first.better, Meld) and first.reason == "go_out"
    assert first.points >= first.bound > 100
    assert reason_text(first.reason, first.params, "en") == "goes out for 100"
    assert review.summary("en").endswith(f"about {round(review.points)} points.")


def test_going_out_when_it_was_best_is_not_flagged() -> None:
    state = position(SEVENS)
    review = review_deal(from_position(state, []), 0, iterations=ITERATIONS)
    assert review.decisions == 1 and review.costly == ()
    assert review.summary("en") == "No costly decisions." and review.summary("ru") == "Дорогих решений нет."


def test_at_a_draw_every_option_is_played_to_the_end_of_the_budget() -> None:
    """The search drops an option that looks clearly worse after a dozen worlds; at a draw the
    review plays every option on all of its continuations."""
    search, review = SearchBot(iterations=200), SearchBot(iterations=200)
    view, played = next((view, played) for _, view, played in seat_decisions(played_deal(0), 0, 0)
                        if view.now.phase == "draw" and len(search.options(view)) > 1)
    search.values(view, search.options(view), random.Random(0))
    review_decision(view, played, review, random.Random(0))
    assert search.continuations < 100 and review.continuations >= 200


def test_the_review_reads_only_the_seats_views() -> None:
    """Two cards that seats 1 and 3 held unseen change hands: the deal replays, seat 0 sees the
    same at every decision, and its review is the same."""

    def views(record: Record) -> list[SeatView]:
        return [view for _, view, _ in seat_decisions(record, 0, 0)]

    record = played_deal(3)
    _, game = replay(record)
    hands = game.current.hands
    deck = list(record.deals[0].deck or ())
    swapped = None
    for i, j in itertools.product(range(len(deck)), repeat=2):
        x, y = deck[i], deck[j]
        if x.rank != y.rank and x in hands[1] and x not in hands[3] and y in hands[3] and y not in hands[1]:
            cards = list(deck)
            cards[i], cards[j] = y, x
            other = Record(record.rules, [dataclasses.replace(record.deals[0], deck=cards)])
            out, changed = replay(other)
            if out["ok"] and changed.current.hands[1] != hands[1] and views(other) == views(record):
                swapped = other
                break
    assert swapped is not None
    first = review_deal(record, 0, iterations=ITERATIONS, seed=5)
    assert review_deal(swapped, 0, iterations=ITERATIONS, seed=5) == first
    assert first.decisions == len(seat_decisions(record, 0, 0)) > 10


@pytest.mark.parametrize(
    ("seat", "deal", "message"),
    [(4, 0, "no seat 4: the seats are 0 to 3"), (0, 1, "no deal 1: the record holds deals 0 to 0")],
)
def test_a_review_that_cannot_be_made_says_why(seat: int, deal: int, message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        review_deal(played_deal(0), seat, deal, iterations=ITERATIONS)


def test_a_deal_is_reviewed_only_once_it_is_over() -> None:
    record = played_deal(0)
    del record.deals[0].actions[20:]
    with pytest.raises(ReviewError, match="deal 0 has not ended"):
        review_deal(record, 0, iterations=ITERATIONS)


def test_every_reason_and_summary_exists_in_every_language() -> None:
    for lang in LANGUAGES:
        assert set(TEXTS[lang]) == set(TEXTS["en"])
    assert reason_text("near_canasta", {"rank": "7"}, "ru") == "оставить карты для канасты из семёрок"
    assert reason_text("discard_other", {"card": "QH"}, "en") == "discards Q♥ instead"
    assert summary_text(3, 419.6, "en") == "3 costly decisions, about 420 points."
    assert summary_text(1, 80.0, "ru") == "Дорогих решений: 1, около 80 очков."


def test_the_command_prints_the_costly_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = position(SEVENS)
    record = from_position(state.clone(), [Discard(state.hands[0][0])])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    args = ["review", str(path), "--seat", "0", "--iterations", str(ITERATIONS)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "meld [7S 7D 7C]" in out and "goes out for 100" in out and "costly decision" in out
    assert main([*args, "--json", "--lang", "ru"]) == 0
    first = json.loads(capsys.readouterr().out)["costly"][0]
    assert first["reason"] == "go_out" and first["reason_text"] == "выход, 100 очков"
    assert main(["review", str(path), "--seat", "9"]) == 2
    assert capsys.readouterr().err == "canasta: no seat 9: the seats are 0 to 3\n"
    assert main(["review", str(tmp_path / "none.json"), "--seat", "0"]) == 2
    assert "cannot read" in capsys.readouterr().err
