"""Seat layouts by player count: 5 players (2 against 3, one sits out), 6 players, partners."""

import json

from canasta.rules import (
    Game,
    Record,
    RuleSet,
    State,
    make_deck,
    position_from_json,
    position_to_json,
    replay,
)
from canasta.rules.game import default_dealer
from support import act, make_state


def test_five_players_trio_rotates_out_and_turns_alternate_teams() -> None:
    rules = RuleSet.preset("classic", 5)
    assert (rules.teams, rules.hand_size, rules.deck_size) == (2, 11, 108)
    outs = [default_dealer(rules, i)[1] for i in range(6)]
    assert outs == [4, 0, 2, 4, 0, 2]
    for i in range(3):
        dealer, out = default_dealer(rules, i)
        state = State.deal(rules, make_deck(), dealer, None, out)
        assert state.hands[out] == []
        assert sorted(len(h) for h in state.hands) == [0, 11, 11, 11, 11]
        seat, seen = state.turn, []
        for _ in range(4):
            seen.append(seat)
            seat = state.next_seat(seat)
        assert [rules.team_of(s) for s in seen] in ([0, 1, 0, 1], [1, 0, 1, 0])
        assert out not in seen
        assert len(state.stock) + len(state.pile) + sum(len(t) for t in state.threes) == 108 - 44


def test_five_players_record_round_trip() -> None:
    game = Game.new("classic", 5, seed=11)
    state = game.current
    for _ in range(30):
        if state.is_over:
            break
        game.apply(state.legal_actions()[0])
    record = Record.of_game(game).to_json()
    assert record["deals"][0]["sitting_out"] == 4
    out, _ = replay(Record.from_json(json.loads(json.dumps(record))))
    assert out["ok"] and out["position"] == position_to_json(state)
    assert position_to_json(position_from_json(out["position"])) == out["position"]


def test_five_player_trio_scores_its_two_active_hands() -> None:
    s = make_state(
        "classic",
        5,
        sitting_out=4,
        dealer=3,
        hands=[["KS", "9C"], ["5C"], ["AS"], ["6C"], []],
        melds=[[["QS", "QH", "QD", "QC", "QS", "QH", "QD"], ["KH", "KD", "KC"]], []],
        seat_melded=[True, False, True, False, False],
        drew="stock",
    )
    act(s, {"type": "meld", "melds": [["KS"]]})
    act(s, {"type": "discard", "card": "9C"})
    assert s.result is not None
    trio, pair = s.result.scores
    assert trio.hand == -20 and trio.going_out == 100
    assert pair.hand == -10


def test_partner_who_answers_is_the_next_teammate() -> None:
    four = make_state("classic", 4)
    assert [four.partner(s) for s in range(4)] == [2, 3, 0, 1]
    six = make_state("classic", 6)
    assert [six.partner(s) for s in range(6)] == [2, 3, 4, 5, 0, 1]
    three_teams = make_state("classic", 6, options={"teams": 3})
    assert [three_teams.partner(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    act(four, {"type": "ask"})
    assert four.to_move == 2
