"""A hint is one of the moves of the state's `legal` list: a computer player's meld or pickup in
another form (other cards of a rank, several groups at once, a wild card meld with its rank
written out) is answered as the listed move that plays it, or that lays the most of it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta.bots.registry import make_bot
from canasta.protocol.hint_form import listed_form
from canasta.rules import Meld, Pickup, Rank, SeatView
from canasta.rules.actions import Action
from canasta.rules.game import Game
from canasta.rules.groups import group_rank, spec_of
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label
from support import action, make_state

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]


def laid(view: SeatView, move: Action) -> Counter[tuple[Rank, str]]:
    """How many naturals, jokers and twos a meld or pickup lays on each rank."""
    assert isinstance(move, Meld | Pickup)
    groups = [(group_rank(g), g.cards) for g in move.melds]
    if isinstance(move, Pickup):
        groups.append((view.board.pile[-1].rank, move.with_))
    out: Counter[tuple[Rank, str]] = Counter()
    for rank, cards in groups:
        _, naturals, jokers, twos = spec_of(rank, cards)
        out.update({(rank, "naturals"): naturals, (rank, "jokers"): jokers, (rank, "twos"): twos})
    return +out


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_every_hint_is_a_listed_move(variant: str, players: int, options: dict[str, int]) -> None:
    """Hundreds of computer players' moves per rule set, each checked against the seat's list:
    a listed move is answered as it is; any other is answered with a listed move of its kind
    that lays nothing it does not, and all of it when the list holds it whole."""
    hinters = [make_bot("hard"), make_bot("search:iterations=4")]
    rng = random.Random(players)
    hints = unlisted = 0
    for deal in range(8):
        state = Game.new(variant, players, options, seed=deal).state
        assert state is not None
        while not state.is_over:
            view = state.view(state.to_move)
            move = hinters[deal % 2].choose(view, rng)
            form = listed_form(view, move)
            assert form in view.legal, (move, form)
            hints += 1
            if form != move:
                unlisted += 1
                assert type(form) is type(move)
                wanted, got = laid(view, move), laid(view, form)
                assert got <= wanted, (move, form)  # nothing the hint does not lay
                if any(isinstance(a, Meld | Pickup) and laid(view, a) == wanted for a in view.legal):
                    assert got == wanted  # listed whole: the same move
            state.apply(move)
    assert hints >= 300 and unlisted  # hundreds of hints in every rule set, some in another form


def test_a_wild_card_meld_with_its_rank_written_out_is_the_listed_one() -> None:
    """Modern American: `{"rank": "wild", "cards": ["JK", "2H"]}` added to the side's wild card
    meld is listed as the joker and the first two in card order, with no rank written."""
    state = make_state(
        "modern-american",
        4,
        hands=[["JK", "2S", "2H", "5S", "6H", "7D", "9C"], [], [], []],
        melds=[[["2C", "2D", "JK"], ["KS", "KH", "KD"]], []],
    )
    view = state.view(0)
    hint = action({"type": "meld", "melds": [{"rank": "wild", "cards": ["JK", "2H"]}]})
    assert state.check(hint) is None and hint not in view.legal
    assert listed_form(view, hint) == action({"type": "meld", "melds": [["JK", "2S"]]})
