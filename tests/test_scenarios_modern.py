"""Acceptance scenarios M01-M31 of RULES.md section 5.6 (preset `modern-american`).

Score parts follow RULES.md A49: `cards` (melded cards, minus without a canasta), `canastas`,
`threes`, `going_out`, `hand`, `penalties` (incomplete special melds, sets of aces/sevens in hand).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.rules import Card, Draw, Game, Rank, RuleSet, State, make_deck, position_to_json
from canasta.rules.scoring import ScoreBreakdown, game_winner, score_deal
from support import act, action, illegal, legal, make_state

MA = "modern-american"

# Two complete natural canastas (kings, queens): enough to go out in modern-american (R19).
K_CANASTA = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]
Q_CANASTA = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]


def ma(options: dict[str, Any] | None = None, **fields: Any) -> State:
    """A modern-american position (4 players; seat 0 to play unless `turn` is given)."""
    return make_state(MA, 4, options, **fields)


def scored(
    reason: str = "stock_exhausted", went_out: int | None = None, **fields: Any
) -> tuple[ScoreBreakdown, ...]:
    """The deal scores of a constructed end-of-deal position."""
    return score_deal(ma(**fields), reason, went_out, False).scores


def parts(s: ScoreBreakdown) -> dict[str, int]:
    return {
        "cards": s.cards,
        "canastas": s.canastas,
        "threes": s.threes,
        "going_out": s.going_out,
        "hand": s.hand,
        "penalties": s.penalties,
        "total": s.total,
    }


def meld_of(state: State, rank: str, team: int = 0) -> list[Card]:
    """The team's meld of a rank ("wild" for the wild-card meld)."""
    return state.melds[team][Rank.parse_meld_rank(rank)]


def meld(*groups: Any) -> dict[str, Any]:
    return {"type": "meld", "melds": list(groups)}


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


def pickup(with_: list[str], *groups: Any) -> dict[str, Any]:
    return {"type": "pickup", "with": with_, "melds": list(groups)}


# -- M01 --------------------------------------------------------------------------------------


def test_M01_empty_pile_13_cards_first_player_must_draw() -> None:
    rules = RuleSet.preset(MA, 4)
    deck = make_deck(rules.decks, rules.jokers)
    random.Random(11).shuffle(deck)
    # Put a black and a red three where seat 0 and seat 1 receive them, to see them laid out.
    for pos, code in ((0, "3S"), (1, "3H")):
        j = deck.index(Card.parse(code), pos)
        deck[pos], deck[j] = deck[j], deck[pos]
    s = State.deal(rules, deck, dealer=3)
    assert rules.hand_size == 13
    assert s.pile == []
    assert s.turn == 0 and s.phase == "draw"
    assert all(len(h) == 13 for h in s.hands)
    assert not any(c.is_three for h in s.hands for c in h)
    assert Card.parse("3S") in s.threes[0] and Card.parse("3H") in s.threes[1]
    # Every card is somewhere: 52 in hands, the laid threes, the rest in the stock.
    laid = sum(len(t) for t in s.threes)
    assert len(s.stock) == 108 - 52 - laid
    hand = s.hands[0]
    pair = [c.code for c in hand[:2]]
    illegal(s, pickup(pair), "empty_pile")
    illegal(s, discard(hand[0].code), "wrong_phase")
    actions = s.legal_actions()
    assert actions and all(isinstance(a, Draw) for a in actions)
    act(s, {"type": "draw"})
    assert len(s.hands[0]) == 14 and s.phase == "play"


# -- M02-M06: the initial meld ------------------------------------------------------------------


def test_M02_opening_140_with_clean_triple_is_legal() -> None:
    s = ma(
        hands=[
            ["AS", "AH", "AD", "KS", "KH", "KD", "KC", "QS", "QH", "2C", "5S", "6H"],
            [],
            [],
            [],
        ],
        melds=[[], []],
    )
    assert s.minimum(0) == 125
    opening = meld(["AS", "AH", "AD"], ["KS", "KH", "KD", "KC"], ["QS", "QH", "2C"])
    assert legal(s, opening)
    # Without the queens the count is 100 < 125.
    illegal(s, meld(["AS", "AH", "AD"], ["KS", "KH", "KD", "KC"]), "opening_minimum")
    act(s, opening)
    assert s.opened[0]
    assert sorted(len(m) for m in s.melds[0].values()) == [3, 3, 4]
    assert sorted(c.code for c in s.hands[0]) == ["5S", "6H"]


def test_M03_opening_without_clean_triple_or_wild_meld_is_illegal() -> None:
    s = ma(
        hands=[["KS", "KH", "2C", "QS", "QH", "2D", "AS", "AH", "JK", "5S", "6H"], [], [], []],
        melds=[[], []],
    )
    illegal(
        s, meld(["KS", "KH", "2C"], ["QS", "QH", "2D"], ["AS", "AH", "JK"]), "opening_composition"
    )
    assert not s.opened[0]


def test_M04_wild_meld_opening_legal() -> None:
    s = ma(hands=[["2C", "2D", "2H", "JK", "JK", "5S", "6H"], [], [], []], melds=[[], []])
    act(s, meld(["2C", "2D", "2H", "JK", "JK"]))
    assert s.opened[0]
    assert len(s.melds[0]) == 1 and len(next(iter(s.melds[0].values()))) == 5


def test_M04_wild_in_other_meld_while_wild_meld_incomplete_is_illegal() -> None:
    s = ma(hands=[["2C", "2D", "JK", "KS", "KH", "2H", "5S", "6H"], [], [], []], melds=[[], []])
    # 90 + 40 = 130 >= 125 and the composition holds (a wild meld): only the wild rule fails.
    illegal(s, meld(["2C", "2D", "JK"], ["KS", "KH", "2H"]), "bad_meld")
    # The same mixed meld beside a clean meld instead of a wild meld is a valid opening.
    s = ma(
        hands=[["AS", "AH", "AD", "QS", "QH", "QD", "KS", "KH", "2H", "5S", "6H"], [], [], []],
        melds=[[], []],
    )
    assert legal(s, meld(["AS", "AH", "AD"], ["QS", "QH", "QD"], ["KS", "KH", "2H"]))


def test_M05_pile_opening_counts_hand_cards_only() -> None:
    base = ["JS", "JH", "AS", "AH", "AD", "KS", "KH", "KD", "KC", "5S", "6H"]
    s = ma(phase="draw", pile=["9C", "JD"], hands=[base, [], [], []], melds=[[], []])
    # 20 + 60 + 40 = 120 < 125 (130 if the top card Jd counted).
    illegal(
        s, pickup(["JS", "JH"], ["AS", "AH", "AD"], ["KS", "KH", "KD", "KC"]), "opening_minimum"
    )


def test_M05_pile_opening_with_queens_reaches_150() -> None:
    base = ["JS", "JH", "AS", "AH", "AD", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "5S", "6H"]
    s = ma(phase="draw", pile=["9C", "JD"], hands=[base, [], [], []], melds=[[], []])
    act(s, pickup(["JS", "JH"], ["AS", "AH", "AD"], ["KS", "KH", "KD", "KC"], ["QS", "QH", "QD"]))
    assert s.opened[0] and s.phase == "play" and s.pile == []
    j = meld_of(s, "J")
    assert sorted(c.code for c in j) == ["JD", "JH", "JS"]
    assert sorted(c.code for c in s.hands[0]) == ["5S", "6H", "9C"]


def test_M06_natural_canasta_from_hand_needs_no_minimum() -> None:
    s = ma(
        scores=[3000, 0],
        hands=[["6S", "6H", "6D", "6C", "6S", "6H", "6D", "8C", "9D"], [], [], []],
        melds=[[], []],
    )
    assert s.minimum(0) == 155
    # Six sixes (30) are no canasta: the minimum applies.
    illegal(s, meld(["6S", "6H", "6D", "6C", "6S", "6H"]), "opening_minimum")
    act(s, meld(["6S", "6H", "6D", "6C", "6S", "6H", "6D"]))
    assert s.opened[0]
    assert [len(m) for m in s.melds[0].values()] == [7]


def test_M06_canasta_from_hand_in_two_groups_needs_no_minimum() -> None:
    # Two groups of one rank in one action form one meld: a natural canasta laid from hand.
    s = ma(
        scores=[3000, 0],
        hands=[["6S", "6H", "6D", "6C", "6S", "6H", "6D", "8C", "9D"], [], [], []],
        melds=[[], []],
    )
    act(s, meld(["6S", "6H", "6D", "6C"], ["6S", "6H", "6D"]))
    assert [len(m) for m in s.melds[0].values()] == [7]


def test_M06_canasta_from_hand_beside_pile_meld_needs_no_minimum() -> None:
    hand = ["9S", "9H", "4S", "4S", "4H", "4H", "4D", "4D", "4C", "8C", "10D"]
    s = ma(
        scores=[3000, 0], phase="draw", pile=["5C", "9D"], hands=[hand, [], [], []], melds=[[], []]
    )
    # Hand count 20 + 35 = 55 < 155, but the fours are a natural canasta laid from hand.
    act(s, pickup(["9S", "9H"], ["4S", "4S", "4H", "4H", "4D", "4D", "4C"]))
    assert sorted(len(m) for m in s.melds[0].values()) == [3, 7]


def test_M06_canasta_completed_with_the_pile_top_is_not_from_hand() -> None:
    hand = ["6S", "6H", "6C", "6S", "6H", "6C", "8C", "10D"]
    s = ma(
        scores=[3000, 0], phase="draw", pile=["5C", "6D"], hands=[hand, [], [], []], melds=[[], []]
    )
    illegal(s, pickup(["6S", "6H", "6C", "6S", "6H", "6C"]), "opening_minimum")


def test_M06_mixed_canasta_alone_is_not_an_opening() -> None:
    s = ma(
        scores=[3000, 0],
        hands=[["6S", "6H", "6D", "6C", "6S", "2C", "JK", "8C", "9D"], [], [], []],
        melds=[[], []],
    )
    illegal(s, meld(["6S", "6H", "6D", "6C", "6S", "2C", "JK"]), "opening_composition")


# -- M07 ----------------------------------------------------------------------------------------


def test_M07_minimum_by_cumulative_score() -> None:
    rules = RuleSet.preset(MA, 4)
    table = {-400: 125, 0: 125, 2995: 125, 3000: 155, 4995: 155, 5000: 180, 8000: 180}
    for score, minimum in table.items():
        assert rules.minimum_for(score) == minimum, score
    s = ma(scores=[-400, 5000])
    assert (s.minimum(0), s.minimum(1)) == (125, 180)


# -- M08-M13: meld composition ------------------------------------------------------------------


def test_M08_three_wilds_illegal_in_opening() -> None:
    hand = ["KS", "KH", "KD", "2C", "2D", "JK", "AS", "AH", "AD", "QS", "QH", "QD", "QC", "5S"]
    s = ma(hands=[hand, [], [], []], melds=[[], []])
    illegal(
        s,
        meld(["KS", "KH", "KD", "2C", "2D", "JK"], ["AS", "AH", "AD"], ["QS", "QH", "QD", "QC"]),
        "bad_meld",
    )
    # Two wilds with the three kings are fine in the opening.
    assert legal(
        s, meld(["KS", "KH", "KD", "2C", "JK"], ["AS", "AH", "AD"], ["QS", "QH", "QD", "QC"])
    )


def test_M08_three_wilds_illegal_after_opening() -> None:
    s = ma(
        hands=[["KS", "KH", "KD", "2C", "2D", "JK", "5S"], [], [], []],
        melds=[[["8S", "8H", "8D"]], []],
    )
    illegal(s, meld(["KS", "KH", "KD", "2C", "2D", "JK"]), "bad_meld")


def _nines(n: int) -> State:
    nines = ["9S", "9H", "9D", "9C", "9S"][:n]
    return ma(
        hands=[["2C", "JK", "9H", "5S", "6S", "8D"], [], [], []],
        melds=[[nines, ["KS", "KH", "KD"]], []],
    )


def test_M09_wild_onto_four_naturals_is_illegal() -> None:
    s = _nines(4)
    illegal(s, meld({"rank": "9", "cards": ["2C"]}), "bad_meld")


def test_M09_wilds_onto_five_naturals_make_mixed_canasta_then_full() -> None:
    s = _nines(5)
    act(s, meld({"rank": "9", "cards": ["2C"]}))
    act(s, meld({"rank": "9", "cards": ["JK"]}))
    nines = meld_of(s, "9")
    assert len(nines) == 7
    assert score_deal(s, "stock_exhausted", None, False).scores[0].canastas == 300
    illegal(s, meld({"rank": "9", "cards": ["9H"]}), "bad_meld")


def test_M10_rule_of_five_for_new_melds() -> None:
    s = ma(
        hands=[["10S", "10H", "10D", "10C", "10S", "2C", "5S", "6S"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
    )
    illegal(s, meld(["10S", "10H", "2C"]), "bad_meld")
    act(s, meld(["10S", "10H", "10D", "10C", "10S", "2C"]))
    assert sorted(len(m) for m in s.melds[0].values()) == [3, 6]


def test_M11_sevens_never_take_wilds_in_opening() -> None:
    hand = [
        "7S",
        "7H",
        "7D",
        "2C",
        "AS",
        "AH",
        "AD",
        "KS",
        "KH",
        "KD",
        "KC",
        "QS",
        "QH",
        "QD",
        "5S",
    ]
    s = ma(hands=[hand, [], [], []], melds=[[], []])
    rest = (["AS", "AH", "AD"], ["KS", "KH", "KD", "KC"], ["QS", "QH", "QD"])
    illegal(s, meld(["7S", "7H", "7D", "2C"], *rest), "bad_meld")
    assert legal(s, meld(["7S", "7H", "7D"], *rest))


def test_M11_sevens_never_take_wilds_later() -> None:
    s = ma(
        hands=[["7S", "7H", "7D", "2C", "2D", "5S", "6S"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
    )
    illegal(s, meld(["7S", "7H", "7D", "2C"]), "bad_meld")
    s = ma(hands=[["2C", "5S", "6S"], [], [], []], melds=[[["7S", "7S", "7H", "7D", "7C"]], []])
    illegal(s, meld({"rank": "7", "cards": ["2C"]}), "bad_meld")


def test_M12_wild_in_aces_allowed_in_opening() -> None:
    hand = ["AS", "AH", "2C", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "5S", "6S"]
    s = ma(hands=[hand, [], [], []], melds=[[], []])
    act(s, meld(["AS", "AH", "2C"], ["KS", "KH", "KD"], ["QS", "QH", "QD", "QC"]))
    assert s.opened[0] and len(s.melds[0]) == 3


def test_M12_wild_onto_pure_aces_later_is_illegal() -> None:
    s = ma(
        hands=[["2D", "5S", "6S", "8S"], [], [], []],
        melds=[[["AS", "AH", "AD", "AC", "AS"], ["KS", "KH", "KD"]], []],
    )
    illegal(s, meld({"rank": "A", "cards": ["2D"]}), "bad_meld")


def test_M13_incomplete_wild_meld_takes_all_wilds() -> None:
    s = ma(
        hands=[["JK", "2H", "5S", "6S", "8S"], [], [], []],
        melds=[[["2C", "2D", "JK"], ["KS", "KH", "KD", "KC", "KS"]], []],
    )
    illegal(s, meld({"rank": "K", "cards": ["JK"]}), "bad_meld")
    act(s, meld({"rank": "wild", "cards": ["2H"]}))
    # Without the wild meld the joker could join the five kings.
    other = ma(
        hands=[["JK", "2H", "5S", "6S", "8S"], [], [], []],
        melds=[[["KS", "KH", "KD", "KC", "KS"]], []],
    )
    assert legal(other, meld({"rank": "K", "cards": ["JK"]}))
    wild = meld_of(s, "wild")
    assert sorted(c.code for c in wild) == ["2C", "2D", "2H", "JK"]


# -- M14: taking the pile -----------------------------------------------------------------------


def test_M14_pair_joins_four_card_meld_into_canasta() -> None:
    s = ma(
        phase="draw",
        pile=["5C", "9H"],
        hands=[["9S", "9D", "5S", "6S", "8S"], [], [], []],
        melds=[[["9C", "9C", "9S", "9H"], ["KS", "KH", "KD"]], []],
    )
    act(s, pickup(["9S", "9D"]))
    nines = meld_of(s, "9")
    assert len(nines) == 7 and not any(c.is_wild for c in nines)
    assert sorted(c.code for c in s.hands[0]) == ["5C", "5S", "6S", "8S"]
    assert s.pile == [] and s.phase == "play"


def test_M14_pair_onto_five_card_meld_is_illegal() -> None:
    s = ma(
        phase="draw",
        pile=["5C", "9H"],
        hands=[["9S", "9D", "5S", "6S", "8S"], [], [], []],
        melds=[[["9C", "9C", "9S", "9H", "9D"], ["KS", "KH", "KD"]], []],
    )
    illegal(s, pickup(["9S", "9D"]), "bad_meld")  # 5 + 3 cards would exceed 7


def test_M14_natural_and_wild_cannot_take_the_pile() -> None:
    s = ma(
        phase="draw",
        pile=["5C", "9H"],
        hands=[["9S", "2C", "5S", "6S", "8S"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
    )
    illegal(s, pickup(["9S", "2C"]), "frozen_pile")


# -- M15-M16: discard restrictions --------------------------------------------------------------


def test_M15_wild_discard_only_with_all_wild_hand() -> None:
    s = ma(pile=["5C"], hands=[["2C", "KS", "QH"], [], [], []], melds=[[["KS", "KH", "KD"]], []])
    illegal(s, discard("2C"), "discard_restricted")
    assert legal(s, discard("KS"))
    s = ma(pile=["5C"], hands=[["2C", "JK"], [], [], []], melds=[[["KS", "KH", "KD"]], []])
    act(s, discard("2C"))
    assert s.pile[-1] == Card.parse("2C") and not s.is_over and s.turn == 1


def test_M15_wild_as_final_discard_going_out() -> None:
    s = ma(pile=["5C"], hands=[["2C"], [], [], []], melds=[[K_CANASTA, Q_CANASTA], []])
    act(s, discard("2C"))
    assert s.is_over and s.result is not None
    assert s.result.reason == "went_out" and s.result.went_out == 0


def test_M16_ace_or_seven_on_empty_pile_only_without_other_naturals() -> None:
    s = ma(hands=[["AS", "7D", "KH"], [], [], []], melds=[[["KS", "KH", "KD"]], []])
    illegal(s, discard("AS"), "discard_restricted")
    illegal(s, discard("7D"), "discard_restricted")
    assert legal(s, discard("KH"))
    s = ma(hands=[["AS", "7D", "2C"], [], [], []], melds=[[["KS", "KH", "KD"]], []])
    assert legal(s, discard("AS"))
    assert legal(s, discard("7D"))
    illegal(s, discard("2C"), "discard_restricted")


# -- M17-M18: going out -------------------------------------------------------------------------


def test_M17_going_out_needs_final_discard() -> None:
    s = ma(hands=[["5S", "5H", "5D"], [], [], []], melds=[[K_CANASTA, Q_CANASTA], []])
    illegal(s, meld(["5S", "5H", "5D"]), "must_discard")


def test_M17_going_out_with_final_discard_scores_100() -> None:
    s = ma(
        pile=["4C"],
        hands=[["5S", "5H", "5D", "8C"], ["9S"], ["9D"], ["9H"]],
        melds=[[K_CANASTA, Q_CANASTA], []],
    )
    act(s, meld(["5S", "5H", "5D"]))
    act(s, discard("8C"))
    assert s.is_over and s.result is not None
    assert s.result.reason == "went_out" and s.result.went_out == 0
    a, b = s.result.scores
    assert a.going_out == 100 and b.going_out == 0
    assert parts(a) == {
        "cards": 155,
        "canastas": 1000,
        "threes": 0,
        "going_out": 100,
        "hand": -10,
        "penalties": 0,
        "total": 1245,
    }


def test_M17_one_canasta_cannot_go_out() -> None:
    s = ma(
        pile=["4C"],
        hands=[["5S", "5H", "5D", "8C"], [], [], []],
        melds=[[K_CANASTA, ["QS", "QH", "QD"]], []],
    )
    illegal(s, meld(["5S", "5H", "5D"]), "cannot_go_out")
    s = ma(pile=["4C"], hands=[["8C"], [], [], []], melds=[[K_CANASTA, ["QS", "QH", "QD"]], []])
    illegal(s, discard("8C"), "cannot_go_out")


def test_M18_meld_leaving_no_card_to_discard_is_illegal() -> None:
    s = ma(
        phase="draw",
        stock=["KD", "8C", "9C"],
        pile=["4C"],
        hands=[["KS", "KH"], [], [], []],
        melds=[
            [
                ["QS", "QS", "QH", "QH", "QD", "QD", "QC"],
                ["JS", "JS", "JH", "JH", "JD", "JD", "JC"],
            ],
            [],
        ],
    )
    act(s, {"type": "draw"})
    assert sorted(c.code for c in s.hands[0]) == ["KD", "KH", "KS"]
    illegal(s, meld(["KS", "KH", "KD"]), "must_discard")


# -- M19-M26: scoring ---------------------------------------------------------------------------


def test_M19_threes_by_canasta_count() -> None:
    threes = [["3H", "3D", "3S"], []]
    two = scored(melds=[[K_CANASTA, Q_CANASTA], []], red_threes=threes)
    one = scored(melds=[[K_CANASTA, ["QS", "QH", "QD"]], []], red_threes=threes)
    none = scored(melds=[[["QS", "QH", "QD"]], []], red_threes=threes)
    nothing = scored(melds=[[], []], red_threes=threes)
    assert two[0].threes == 400
    assert one[0].threes == 0
    assert none[0].threes == -400
    assert nothing[0].threes == -400


def test_M19_four_red_threes_with_two_canastas() -> None:
    s = scored(melds=[[K_CANASTA, Q_CANASTA], []], red_threes=[["3H", "3H", "3D", "3D"], []])
    assert s[0].threes == 1000


def test_M20_side_without_canasta_scores_melds_minus() -> None:
    s = scored(
        melds=[[["KS", "KH", "KD"], ["8S", "8H", "8C"]], []],
        hands=[["AS", "5D"], [], ["QS"], []],
        red_threes=[["3H"], []],
    )
    assert parts(s[0]) == {
        "cards": -60,
        "canastas": 0,
        "threes": -100,
        "going_out": 0,
        "hand": -35,
        "penalties": 0,
        "total": -195,
    }


def test_M21_side_with_one_canasta() -> None:
    s = scored(
        melds=[[["JS", "JS", "JH", "JH", "JD", "JD", "JC"], ["9S", "9H", "9D"]], []],
        hands=[["KD"], [], [], []],
        red_threes=[["3H", "3D", "3S"], []],
    )
    assert parts(s[0]) == {
        "cards": 100,
        "canastas": 500,
        "threes": 0,
        "going_out": 0,
        "hand": -10,
        "penalties": 0,
        "total": 590,
    }


def test_M22_side_went_out() -> None:
    mixed_q = ["QS", "QH", "QD", "QC", "QS", "2C", "JK"]
    sevens = ["7S", "7S", "7H", "7H", "7D", "7D", "7C"]
    s = ma(
        pile=["4C"],
        hands=[["5S"], ["8S"], ["9D", "4C"], ["8H"]],
        melds=[[K_CANASTA, mixed_q, sevens], []],
        red_threes=[["3H"], []],
    )
    act(s, discard("5S"))
    assert s.is_over and s.result is not None and s.result.went_out == 0
    assert parts(s.result.scores[0]) == {
        "cards": 225,
        "canastas": 3300,
        "threes": 100,
        "going_out": 100,
        "hand": -15,
        "penalties": 0,
        "total": 3710,
    }


def test_M23_incomplete_sevens_meld() -> None:
    base = [K_CANASTA, Q_CANASTA]
    without = scored(melds=[base, []])[0]
    with_sevens = scored(melds=[[*base, ["7S", "7H", "7D", "7C"]], []])[0]
    assert with_sevens.cards - without.cards == 20
    assert with_sevens.penalties - without.penalties == -2500
    assert with_sevens.total - without.total == 20 - 2500
    assert (with_sevens.cards, with_sevens.penalties) == (160, -2500)


def test_M24_incomplete_wild_meld_with_a_canasta() -> None:
    s = scored(melds=[[K_CANASTA, ["2C", "2D", "JK", "JK"]], []])[0]
    assert s.penalties == -2000
    assert s.cards == 70 + 140


def test_M24_incomplete_wild_meld_without_canasta() -> None:
    s = scored(melds=[[["2C", "2D", "JK", "JK"]], []])[0]
    assert s.penalties == -2000
    assert s.cards == -140


def test_M24_incomplete_wild_meld_with_four_jokers() -> None:
    s = scored(melds=[[K_CANASTA, ["JK", "JK", "JK", "JK", "2C"]], []])[0]
    assert s.penalties == -2500
    assert s.cards == 70 + 220


def test_M25_three_aces_in_one_hand() -> None:
    s = scored(hands=[["AS", "AH", "AD", "KC"], [], [], []])[0]
    assert (s.hand, s.penalties, s.total) == (-70, -1500, -1570)


def test_M25_three_aces_and_three_sevens_in_one_hand() -> None:
    s = scored(hands=[["AS", "AH", "AD", "7S", "7H", "7D"], [], [], []])[0]
    assert (s.hand, s.penalties, s.total) == (-75, -3000, -3075)


def test_M25_sets_count_per_player() -> None:
    # Three aces split between partners are no set in "a player's hand".
    s = scored(hands=[["AS", "AH"], [], ["AD", "KC"], []])[0]
    assert (s.hand, s.penalties) == (-70, 0)


def test_M26_wild_canastas() -> None:
    for meld_cards, bonus, points in (
        (["2C", "2C", "2D", "2D", "2H", "2H", "2S"], 3000, 140),
        (["JK", "JK", "JK", "JK", "2C", "2D", "2H"], 2500, 260),
        (["JK", "JK", "2C", "2D", "2H", "2S", "2C"], 2000, 200),
    ):
        s = scored(melds=[[meld_cards], []])[0]
        assert (s.canastas, s.cards, s.penalties) == (bonus, points, 0), meld_cards
        assert s.total == bonus + points


# -- M27: partner permission --------------------------------------------------------------------


def _permission_state() -> State:
    return ma(
        phase="draw",
        stock=["8C", "6C", "6S", "8S", "9S", "9H", "10C", "10D"],
        pile=["4C"],
        hands=[["5S", "5H", "5D"], ["4S", "4H", "6H"], ["9D", "4D", "6D"], ["10H", "JC", "JH"]],
        melds=[[K_CANASTA, Q_CANASTA], [["8H", "8D", "8S"]]],
    )


def test_M27_no_answer_forbids_going_out_this_turn() -> None:
    s = _permission_state()
    act(s, {"type": "draw"})
    act(s, {"type": "ask"})
    assert s.to_move == 2
    illegal(s, meld(["5S", "5H", "5D"]), "awaiting_answer")
    s.apply(action({"type": "answer", "yes": False}), seat=2)
    illegal(s, meld(["5S", "5H", "5D"]), "cannot_go_out")
    act(s, discard("8C"))
    assert not s.is_over and s.turn == 1


def test_M27_yes_answer_permits_going_out() -> None:
    s = _permission_state()
    act(s, {"type": "draw"})
    act(s, {"type": "ask"})
    s.apply(action({"type": "answer", "yes": True}), seat=2)
    act(s, meld(["5S", "5H", "5D"]))
    act(s, discard("8C"))
    assert s.is_over and s.result is not None and s.result.went_out == 0


def test_M27_second_ask_by_same_player_is_illegal() -> None:
    s = _permission_state()
    act(s, {"type": "draw"})  # seat 0 draws 8C
    act(s, {"type": "ask"})
    act(s, {"type": "answer", "yes": False})
    act(s, discard("8C"))
    act(s, {"type": "draw"})  # seat 1 draws 6C
    act(s, discard("6C"))
    act(s, {"type": "draw"})  # seat 2 draws 6S; the ask is per player (A25)
    act(s, {"type": "ask"})
    act(s, {"type": "answer", "yes": True})
    act(s, discard("6S"))
    act(s, {"type": "draw"})  # seat 3 draws 8S
    act(s, discard("8S"))
    assert s.turn == 0
    act(s, {"type": "draw"})  # seat 0 draws 9S
    illegal(s, {"type": "ask"}, "cannot_ask")


def test_M27_ask_after_melding_is_illegal() -> None:
    s = ma(
        phase="draw",
        stock=["8C", "6C", "6S"],
        pile=["4C"],
        hands=[["5S", "5H", "5D", "9C", "10C"], [], [], []],
        melds=[[K_CANASTA, Q_CANASTA], []],
    )
    illegal(s, {"type": "ask"}, "cannot_ask")  # modern: right after drawing, not before
    act(s, {"type": "draw"})
    act(s, meld(["5S", "5H", "5D"]))
    illegal(s, {"type": "ask"}, "cannot_ask")


# -- M28-M29: end of the stock ------------------------------------------------------------------


@pytest.mark.parametrize("three", ["3S", "3C", "3H", "3D"])
def test_M28_last_stock_card_three_stays_in_hand(three: str) -> None:
    s = ma(
        phase="draw",
        stock=[three],
        pile=["4C"],
        hands=[["8C"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
    )
    act(s, {"type": "draw"})
    assert s.is_over and s.result is not None
    assert s.result.reason == "stock_exhausted" and s.result.went_out is None
    assert Card.parse(three) in s.hands[0]
    assert s.threes[0] == []
    a = s.result.scores[0]
    assert a.hand == -15 and a.threes == 0
    illegal(s, discard("8C"), "deal_over")


def test_M29_stock_exhausted_after_turn_ends_deal() -> None:
    s = ma(
        phase="draw",
        stock=["8D"],
        pile=["5C", "6D"],
        hands=[["KS", "KH", "KD", "9C", "5S"], ["9S", "9D", "6H", "6C"], ["4S"], ["4H"]],
        melds=[[["QS", "QH", "QD"]], [["JS", "JH", "JD"]]],
    )
    act(s, {"type": "draw"})
    assert not s.is_over and s.stock == []
    act(s, meld(["KS", "KH", "KD"]))
    act(s, discard("9C"))
    assert s.is_over and s.result is not None
    assert s.result.reason == "stock_exhausted" and s.result.went_out is None
    assert s.pile[-1] == Card.parse("9C")
    illegal(s, pickup(["9S", "9D"]), "deal_over")


# -- M30: dead rank trigger ---------------------------------------------------------------------


def _dead_rank_state(trigger: str | None) -> State:
    options = {} if trigger is None else {"dead_rank_trigger": trigger}
    return ma(
        options,
        turn=1,
        hands=[[], ["QH", "QD", "QC", "5S", "6S"], [], []],
        melds=[
            [["QS", "QH", "QD", "QC", "QS", "2C", "JK"], ["KS", "KH", "KD"]],
            [["8S", "8H", "8D"]],
        ],
    )


def test_M30_mixed_canasta_does_not_kill_rank_by_default() -> None:
    assert RuleSet.preset(MA, 4).dead_rank_trigger == "natural_canasta"
    for trigger in (None, "natural_canasta"):
        s = _dead_rank_state(trigger)
        act(s, meld(["QH", "QD", "QC"]))
        assert len(s.melds[1]) == 2


def test_M30_any_canasta_trigger_kills_rank() -> None:
    s = _dead_rank_state("any_canasta")
    illegal(s, meld(["QH", "QD", "QC"]), "dead_rank")


# -- M31: end of the game -----------------------------------------------------------------------


def test_M31_game_winner_rule() -> None:
    rules = RuleSet.preset(MA, 4)
    assert rules.target_score == 8500
    assert game_winner(rules, [8400 + 200, 8000 + 700]) == 1
    assert game_winner(rules, [8400 + 50, 8300]) is None


def _last_deal(scores: list[int]) -> State:
    """Seat 0 discards onto an exhausted stock: team 0 scores +200, team 1 +700."""
    return ma(
        scores=scores,
        stock=[],
        pile=["5C"],
        hands=[["9C", "JK"], [], ["JK", "JK", "2H", "2H"], []],
        melds=[
            [["KS", "KS", "KH", "KH", "KD", "2C", "2D"]],
            [
                Q_CANASTA,
                ["8S", "8H", "8D", "8C"],
                ["9S", "9H", "9D", "9C"],
                ["10S", "10H", "10D", "10C", "10S"],
            ],
        ],
    )


def test_M31_game_api_higher_total_wins() -> None:
    state = _last_deal([8400, 8000])
    game = Game(state.rules)
    game.start_from(state, position_to_json(state))
    assert not game.is_over
    game.apply(action(discard("9C")))
    assert state.is_over and state.result is not None
    assert [p.total for p in state.result.scores] == [200, 700]
    assert game.totals == [8600, 8700]
    assert game.winner == 1 and game.is_over


def test_M31_game_api_continues_below_target() -> None:
    state = _last_deal([8250, 7700])
    game = Game(state.rules)
    game.start_from(state, position_to_json(state))
    game.apply(action(discard("9C")))
    assert game.totals == [8450, 8400]
    assert game.winner is None and not game.is_over
    nxt = game.next_deal()
    assert nxt.scores == [8450, 8400] and not nxt.is_over
