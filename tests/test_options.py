"""House options and rule-set validation (RULES.md section 2 and 3)."""

import dataclasses

import pytest

from canasta.rules import Card, InvalidActionError, RuleSet, State, make_deck
from support import act, illegal, legal, make_state


def test_unknown_option_is_a_clear_error() -> None:
    with pytest.raises(InvalidActionError, match="unknown option 'wild_cards'"):
        RuleSet.preset("classic", 4, {"wild_cards": 3})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"wild_ratio_rule": "sometimes"}, "wild_ratio_rule must be one of"),
        ({"target_score": "high"}, "target_score must be a whole number"),
        ({"pile_take_by_layoff": 1}, "must be true or false"),
        ({"block_rules": ["wild_top", "bogus"]}, "block_rules must be a list of"),
        ({"target_score": 0}, "option target_score: expected a whole number from 1 to 100000"),
        ({"hand_size": 40}, "option hand_size: expected a whole number from 1 to 20"),
        ({"decks": 1, "jokers": 2, "hand_size": 14}, "does not fit"),
        ({"teams": 1}, "option teams: expected a whole number from 2 to 3"),
        ({"teams": 3}, "every player is a team of one"),
        ({"decks": 5}, "option decks: expected a whole number from 1 to 4"),
        ({"decks": 4, "jokers": 9}, "option jokers: expected a whole number from 0 to 8"),
        ({"jokers": 5}, "at most 2 jokers per pack"),
        ({"red3_values": [100, 10**7]}, "option red3_values: expected a whole number from 0 to 5000"),
        ({"initial_meld_table": [[0, 50], [10**9, 90]]}, "option initial_meld_table: expected a whole"),
    ],
)
def test_bad_option_values(options: dict, message: str) -> None:
    players = 2 if "teams" in options else 4
    with pytest.raises(InvalidActionError, match=message):
        RuleSet.preset("classic", players, options)


def test_every_choice_option_refuses_a_value_outside_its_choices() -> None:
    """Each option whose value is a word is a choice, its values kept with its field (the compiled
    rule set keeps no annotations): a word outside them is refused as such."""
    fields = dataclasses.fields(RuleSet)
    words = [f.name for f in fields if isinstance(f.default, str) and f.name != "variant"]
    assert len(words) == 15
    for name in words:
        with pytest.raises(InvalidActionError, match=f"option {name} must be one of"):
            RuleSet.preset("classic", 4, {name: "sometimes"})


def test_impossible_combination() -> None:
    with pytest.raises(InvalidActionError, match="top_card_only_go_out"):
        RuleSet.preset("mendelev", 4, {"go_out_discard": "mandatory"})
    with pytest.raises(InvalidActionError, match="partnerships"):
        RuleSet.preset("classic", 2, {"permission_mode": "optional_binding"})


def test_the_same_arguments_give_the_same_rule_set() -> None:
    """A table's positions, loaded again and again, share one rule set (and what it remembers)."""
    options = {"go_out_min_canastas": 2, "block_rules": ["wild_top", "one_card"]}
    rules = RuleSet.preset("classic", 4, options)
    assert RuleSet.preset("classic", 4, dict(reversed(list(options.items())))) is rules
    assert RuleSet.preset("classic", 4, {**options, "go_out_min_canastas": 1}) is not rules
    assert RuleSet.preset("classic", 4) is RuleSet.preset("classic")
    assert RuleSet.preset("classic", 4) is not RuleSet.preset("classic", 2)
    assert rules.to_options() == RuleSet.preset("classic", 4, options).to_options()
    with pytest.raises(InvalidActionError):  # a refused option is refused every time
        RuleSet.preset("classic", 4, {"go_out_min_canastas": "two"})
    with pytest.raises(InvalidActionError):
        RuleSet.preset("classic", 4, {"go_out_min_canastas": "two"})


def test_unknown_variant_and_player_count() -> None:
    with pytest.raises(InvalidActionError, match="unknown variant"):
        RuleSet.preset("hand-and-foot", 4)
    with pytest.raises(InvalidActionError, match="modern-american is played by 4"):
        RuleSet.preset("modern-american", 2)


def test_six_players_minimum_table_and_targets() -> None:
    two = RuleSet.preset("classic", 6)
    assert (two.teams, two.target_score, two.deck_size, two.hand_size) == (2, 10000, 162, 13)
    assert [two.minimum_for(s) for s in (-5, 0, 3000, 7495, 7500)] == [15, 50, 120, 120, 150]
    three = RuleSet.preset("classic", 6, {"teams": 3})
    assert (three.teams, three.target_score, three.minimum_for(7500)) == (3, 7500, 120)
    assert [three.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


def test_A27_forbid_going_out_with_incomplete_special() -> None:
    fields = dict(
        hands=[["KS", "9C"], [], [], []],
        melds=[
            [
                ["QS", "QH", "QD", "QC", "QS", "QH", "QD"],
                ["JS", "JH", "JD", "JC", "JS", "JH", "JD"],
                ["7S", "7H", "7D"],
                ["KH", "KD", "KC"],
            ],
            [],
        ],
        drew="stock",
    )
    going_out = [{"type": "meld", "melds": [["KS"]]}, {"type": "discard", "card": "9C"}]
    allowed = make_state("modern-american", **fields)
    act(allowed, going_out[0])
    act(allowed, going_out[1])
    assert allowed.result is not None and allowed.result.reason == "went_out"
    assert allowed.result.scores[0].penalties == -2500
    strict = make_state("modern-american", options={"forbid_go_out_with_incomplete_special": True}, **fields)
    illegal(strict, going_out[0], "cannot_go_out")
    assert all(a.type != "meld" for a in strict.legal_actions())


def test_black3_freezes_house_rule() -> None:
    plain = make_state(hands=[["3S", "KS", "QH"], [], [], []], drew="stock")
    act(plain, {"type": "discard", "card": "3S"})
    assert not plain.pile_frozen
    house = make_state(options={"black3_freezes": True}, hands=[["3S", "KS", "QH"], [], [], []], drew="stock")
    act(house, {"type": "discard", "card": "3S"})
    assert house.pile_frozen


def test_upcard_skip_black3_false_leaves_a_black_three_up() -> None:
    rules = RuleSet.preset("classic", 4, {"upcard_skip_black3": False})
    deck = make_deck()
    deck.remove(Card.parse("3S"))
    deck.insert(44, Card.parse("3S"))
    state = State.deal(rules, deck, dealer=3)
    assert state.pile[-1].is_black_three
    assert state.pile_block(0) is not None


def test_global_freeze_scope_until_first_meld() -> None:
    fields = dict(
        phase="draw",
        hands=[["QS", "JK", "AS", "AH", "AD", "9C", "8C"], [], [], []],
        melds=[[], [["5S", "5H", "5D"]]],
        pile=["4C", "QD"],
    )
    per_side = make_state("mendelev", **fields)
    assert not legal(per_side, {"type": "pickup", "with": ["QS", "JK"], "melds": [["AS", "AH", "AD"]]})
    scope = make_state("mendelev", options={"freeze_scope": "global_until_first_meld"}, **fields)
    assert legal(scope, {"type": "pickup", "with": ["QS", "JK"], "melds": [["AS", "AH", "AD"]]})


def test_mandatory_permission_mode() -> None:
    fields = dict(
        hands=[["KS", "9C"], [], [], []],
        melds=[[["QS", "QH", "QD", "QC", "QS", "QH", "QD"], ["KH", "KD", "KC"]], []],
        drew="stock",
    )
    s = make_state(options={"permission_mode": "mandatory"}, **fields)
    illegal(s, {"type": "meld", "melds": [["KS"]]}, "cannot_go_out")
    s = make_state(options={"permission_mode": "mandatory"}, **fields)
    act(s, {"type": "ask"})
    act(s, {"type": "answer", "yes": True})
    act(s, {"type": "meld", "melds": [["KS"]]})
    act(s, {"type": "discard", "card": "9C"})
    assert s.result is not None and s.result.went_out == 0


def test_pile_review_controls_what_the_table_shows() -> None:
    fields = dict(phase="draw", hands=[["KS", "9C"], ["4D"], [], []], pile=["6C", "8D", "JH"])
    hidden = make_state(**fields).view(0).to_json()
    assert hidden["pile"] == ["JH"] and hidden["pile_size"] == 3
    shown = make_state(options={"pile_review": "own_turn"}, **fields)
    assert shown.view(0).to_json()["pile"] == ["6C", "8D", "JH"]
    assert shown.view(1).to_json()["pile"] == ["JH"]
