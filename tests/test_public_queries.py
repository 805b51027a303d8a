"""A seat's view answers the rule questions, and validates the seat's own actions, exactly as
the state does; bots decide on their view."""

from __future__ import annotations

import random

import pytest

from canasta.bots import make_bot
from canasta.rules import State
from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Group, Meld, Pass, Pickup
from canasta.rules.legal import legal_actions
from canasta.rules.position import position_to_json
from canasta.rules.ruleset import CONFIGURATIONS
from canasta.rules.state import mover_after
from test_legal_moves import CONFIG_IDS, random_positions


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_view_and_state_answer_alike(config: tuple[str, int, dict[str, object]]) -> None:
    answers = set()
    for state in random_positions(config, 200, 7):
        view = state.view(state.turn)
        for team in range(state.rules.teams):
            assert view.minimum(team) == state.minimum(team)
            assert view.frozen_for(team) == state.frozen_for(team)
            assert view.go_out_refusal(team) == state.go_out_refusal(team)
            answers.add((state.frozen_for(team), state.go_out_refusal(team) is None))
        for seat in state.order:
            assert view.pile_block(seat) == state.pile_block(seat)
        assert view.must_take_pile() == state.must_take_pile()
        if state.rules.discard_rules == "modern":
            hand = state.hands[state.turn]
            errors = view.discard_errors(view.hand, len(hand) == 1)
            assert errors == state.discard_errors(hand, len(hand) == 1)
            answers.add(("discard", bool(errors)))
    assert len(answers) > 1


def _probes(state: State) -> list[Action]:
    """Legal and illegal actions of the seat to move: its list, every discard, a draw, an ask."""
    hand = state.hands[state.to_move]
    probes: list[Action] = [*state.legal_actions(), Draw(), Ask(), Pass(), Answer(True)]
    probes += [Discard(c) for c in dict.fromkeys(hand)]
    probes += [Meld((Group(tuple(hand[:3])),)), Pickup(tuple(hand[:2]))]
    return probes


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_view_validates_the_seats_own_actions_as_the_state_does(
    config: tuple[str, int, dict[str, object]],
) -> None:
    """`SeatView.check` (through the seat's `Mover`) gives `State.check`'s answer, and the
    view's own legal list is the state's."""
    outcomes = set()
    for state in random_positions(config, 60, 3):
        view = state.view(state.to_move)
        mover = view.mover()
        assert legal_actions(mover) == list(view.legal)
        for action in _probes(state):
            assert view.check(action) == state.check(action), action
            outcomes.add(state.check(action) is None)
    assert outcomes == {True, False}


def test_a_mover_after_a_meld_is_the_state_after_it() -> None:
    """`mover_after` lays a meld on copies, as `apply` lays it on the state."""
    seen = 0
    for state in random_positions(CONFIGURATIONS[2], 300, 5):
        melds = [a for a in state.legal_actions() if isinstance(a, Meld)]
        if not melds:
            continue
        mover = state.view(state.to_move).mover()
        before = position_to_json(state)
        after = mover_after(mover, melds[0])
        assert position_to_json(state) == before  # the view's mover shares nothing with the state
        state.apply(melds[0])
        if state.is_over:
            continue
        assert sorted(after.hand) == sorted(state.hands[state.turn])
        assert after.board.melds == state.melds and after.now.started == state.turn_started
        assert legal_actions(after) == state.legal_actions()
        seen += 1
    assert seen >= 10


def test_bots_decide_on_their_view_without_building_a_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic levels decide from the view alone: no `State` is built or resampled."""
    states = list(random_positions(CONFIGURATIONS[2], 40, 9))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a bot built a State")

    monkeypatch.setattr(State, "blank", refuse)
    monkeypatch.setattr(State, "clone", refuse)
    for state in states:
        view = state.view(state.to_move)
        for level in ("easy", "normal", "hard"):
            action = make_bot(level).choose(view, random.Random(1))
            assert view.check(action) is None, (level, action)
