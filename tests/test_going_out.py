"""Going out: `hard` follows each rule set's own going-out rules, and the search weighs going out
(and asking partner for it) against the discard, whatever the heuristic chose."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support import make_state

from canasta.bots import make_bot
from canasta.bots.heuristic import decide
from canasta.bots.melding import go_out
from canasta.bots.search import MIN_ROUNDS, SearchBot, advantage, candidates
from canasta.bots.skill import HARD
from canasta.bots.table import Table
from canasta.rules import Ask, Discard, Meld, State

#: Partner and opponents hold many cards: the deal is not about to end.
FULL = [
    ["4S", "4H", "5C", "6S", "6H", "8D", "8C", "9S", "10D"],
    ["4D", "4C", "5S", "5H"],
    ["4S", "4H", "5C", "6S", "6H", "8D", "8C", "9D", "10S"],
]
CANASTA = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]
#: Like seed 718 of the tournament's decks: three sevens in hand, an incomplete meld of clean
#: aces on the table.
SEVENS: dict[str, Any] = {
    "hands": [["7S", "7D", "7C"], *FULL],
    "melds": [[CANASTA, ["AS", "AH", "AD"]], [["9H", "9D", "9C"]]],
}
#: Like seed 730: JK 5H 5D against a frozen pile, an incomplete meld of sevens on the table.
FROZEN: dict[str, Any] = {
    "hands": [["JK", "5H", "5D"], *FULL],
    "melds": [[CANASTA, ["7H", "7D", "7S"]], [["9H", "9D", "9C"]]],
    "pile": ["2C", "10H", "JD", "KD", "9S", "JH", "KC", "10C", "KH", "8S", "8H", "JC"],
}
#: What Modern American penalises at the end, on classic's other rules.
PENALTIES = {"end_penalties": "modern"}


def position(shape: dict[str, Any], options: dict[str, Any] | None = None) -> State:
    return make_state(options=options, seat_melded=[True, False, False, False], **shape)


def play_seat(state: State, seat: int) -> None:
    """`hard` plays every seat until `seat`'s turn is over (its partner answering an ask)."""
    bot = make_bot("hard")
    while not state.is_over and (state.to_move == seat or state.now.permission == "pending"):
        state.apply(bot.choose(state.view(state.to_move), random.Random(0)))


@pytest.mark.parametrize("shape", [SEVENS, FROZEN], ids=["sevens", "frozen"])
def test_hard_goes_out_in_classic_whatever_its_incomplete_special_melds(shape: dict[str, Any]) -> None:
    """Classic has no penalty for an incomplete meld of sevens, aces or wild cards."""
    state = position(shape)
    play_seat(state, 0)
    assert state.result is not None and state.result.went_out == 0


@pytest.mark.parametrize("shape", [SEVENS, FROZEN], ids=["sevens", "frozen"])
def test_hard_holds_back_where_the_rule_set_penalises_the_melds_it_would_leave(shape: dict[str, Any]) -> None:
    state = position(shape, PENALTIES)
    assert go_out(Table(state.mover())) is not None
    play_seat(state, 0)
    assert state.result is None and Table(state.mover()).rules.end_penalties == "modern"


def test_hard_goes_out_when_going_out_completes_the_penalised_meld() -> None:
    state = position(
        {"hands": [["AH", "AD", "KS"], *FULL], "melds": [[CANASTA, ["AS", "AH", "AD", "AC", "AS"]], []]},
        PENALTIES,
    )
    play_seat(state, 0)
    assert state.result is not None and state.result.went_out == 0


def test_hard_never_tries_a_way_out_the_rule_set_forbids() -> None:
    state = position(SEVENS, {"forbid_go_out_with_incomplete_special": True})
    assert go_out(Table(state.mover())) is None
    action = decide(state.mover(), HARD, random.Random(0))
    assert state.mover().check(action) is None and isinstance(action, (Meld, Discard))


@pytest.mark.parametrize("shape", [SEVENS, FROZEN], ids=["sevens", "frozen"])
def test_the_search_weighs_going_out_and_asking_for_it_against_the_discard(shape: dict[str, Any]) -> None:
    state = position(shape, PENALTIES)
    mover = state.mover()
    discard = Discard(mover.hand[0])
    options = candidates(mover, discard, 3, True)
    out = go_out(Table(mover))
    assert out is not None and options[0] == discard and out in options and Ask() in options
    held = decide(mover, HARD, random.Random(0))
    assert out in candidates(mover, held, 3, True) and out != held


@pytest.mark.parametrize("shape", [SEVENS, FROZEN], ids=["sevens", "frozen"])
def test_the_search_values_going_out_above_the_discard_on_shared_worlds(shape: dict[str, Any]) -> None:
    """In classic the deal ends with the seat's side 100 up and holding nothing: clearly better."""
    state = position(shape)
    mover = state.mover()
    out = go_out(Table(mover))
    assert out is not None
    values = SearchBot(iterations=60).values(state.view(0), [Discard(mover.hand[0]), out], random.Random(3))
    assert len(values[1]) >= MIN_ROUNDS and advantage(values[1], values[0], 3.0) > 100
