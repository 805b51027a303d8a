"""A seat's view answers the rule questions about public facts exactly as the state does."""

from __future__ import annotations

import pytest

from canasta.rules.ruleset import CONFIGURATIONS
from test_legal_moves import CONFIG_IDS, random_positions


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_view_and_state_answer_alike(config: tuple[str, int, dict[str, object]]) -> None:
    answers = set()
    for state in random_positions(config, 200, 7):
        view = state.view(state.turn)
        for team in range(state.rules.teams):
            assert view.minimum(team) == state.minimum(team)
            assert view.frozen_for(team) == state.frozen_for(team)
            assert view.may_go_out(team) == state.may_go_out(team)
            answers.add((state.frozen_for(team), state.may_go_out(team) is None))
        for seat in state.order:
            assert view.pile_blocked(seat) == state.pile_blocked(seat)
        assert view.must_take_pile() == state.must_take_pile()
        if state.rules.discard_rules == "modern":
            hand = state.hands[state.turn]
            assert view.discard_errors() == state.modern_discard_errors(hand, len(hand) == 1)
            answers.add(("discard", bool(view.discard_errors())))
    assert len(answers) > 1
