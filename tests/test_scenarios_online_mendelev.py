"""Acceptance scenarios O01-O11 (`online`, RULES.md 5.7) and X01-X10 (`mendelev`, RULES.md 5.8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from canasta.rules import (
    Card,
    Discard,
    Pickup,
    Rank,
    RuleSet,
    State,
    make_deck,
    position_from_json,
    position_to_json,
)
from canasta.rules.melds import canasta_count
from support import act, illegal, legal, make_state

# -- helpers --------------------------------------------------------------------------------------


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def crafted_deck(
    rules: RuleSet,
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    upcards: Sequence[str],
    stock_top: Sequence[str] = (),
) -> list[Card]:
    """A full deck (index 0 = top) that deals `hands` (completed with plain fillers), then turns
    `upcards`, then leaves `stock_top` on top of the stock (FORMATS.md, the deal from a deck).

    Fillers are naturals of ranks no specified card has, so hands hold no threes or wild cards
    beyond those named.
    """
    remaining = make_deck(rules.decks, rules.jokers)
    named = [*upcards, *stock_top]
    for h in hands.values():
        named += h
    for code in named:
        remaining.remove(Card.parse(code))
    used_ranks = {Card.parse(code).rank for code in named}
    fillers = [c for c in remaining if c.is_natural and c.rank not in used_ranks]
    seats = [(dealer + 1 + i) % rules.players for i in range(rules.players)]
    full: dict[int, list[Card]] = {}
    for seat in seats:
        cards = [Card.parse(code) for code in hands.get(seat, ())]
        while len(cards) < rules.hand_size:
            card = fillers.pop(0)
            remaining.remove(card)
            cards.append(card)
        full[seat] = cards
    deck = [full[seat][k] for k in range(rules.hand_size) for seat in seats]
    deck += [Card.parse(code) for code in (*upcards, *stock_top)]
    deck += remaining
    assert len(deck) == rules.deck_size
    return deck


def team_score(state: State, team: int):
    assert state.is_over and state.result is not None
    return state.result.scores[team]


# a natural canasta of jacks, used as "the side has a canasta"
J_CANASTA = ["JS", "JH", "JD", "JC", "JS", "JH", "JD"]


# =================================================================================================
# online (RULES.md 5.7)
# =================================================================================================


@pytest.mark.parametrize(("players", "hand_size"), [(4, 11), (2, 15)])
def test_O01_deal_hand_sizes_and_single_upcard(players: int, hand_size: int) -> None:
    rules = RuleSet.preset("online", players, {})
    dealer = players - 1
    deck = crafted_deck(rules, dealer, {}, ["7C"])
    state = State.deal(rules, deck, dealer)
    assert [len(h) for h in state.hands] == [hand_size] * players
    # dealt one at a time starting with the dealer's left (seat 0 gets the top card)
    assert state.hands[0][0] == deck[0]
    assert state.hands[1][0] == deck[1]
    assert codes(state.pile) == ["7C"]
    assert len(state.stock) == 108 - players * hand_size - 1
    assert state.turn == 0 and state.phase == "draw"
    assert not state.pile_frozen


@pytest.mark.parametrize(
    ("upcard", "frozen"), [("JK", True), ("2D", True), ("3H", True), ("3S", False), ("KC", False)]
)
def test_O01_upcard_is_a_single_card_whatever_it_is(upcard: str, frozen: bool) -> None:
    rules = RuleSet.preset("online", 4, {})
    deck = crafted_deck(rules, 3, {}, [upcard], stock_top=["9C", "2H", "8S"])
    state = State.deal(rules, deck, 3)
    assert codes(state.pile) == [upcard]  # no further cards turned
    assert state.pile_frozen is frozen
    assert state.threes == [[], []]  # a red-three upcard stays on the pile
    assert len(state.stock) == 108 - 44 - 1
    assert state.stock[-1] == Card.parse("9C")  # the next card is the top of the stock


def test_O02_one_v_one_needs_two_canastas_to_go_out() -> None:
    k_canasta = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]
    one = [[k_canasta, ["QS", "QH", "QD"]], []]
    s = make_state("online", 2, hands=[["QC"], ["5S", "6S"]], melds=one)
    illegal(s, {"type": "meld", "melds": [["QC"]]}, "cannot_go_out")
    s = make_state("online", 2, hands=[["5D"], ["5S", "6S"]], melds=one)
    illegal(s, {"type": "discard", "card": "5D"}, "cannot_go_out")
    # a meld leaving one card that could never be discarded is refused too (A45)
    s = make_state("online", 2, hands=[["QC", "5D"], ["5S", "6S"]], melds=one)
    illegal(s, {"type": "meld", "melds": [["QC"]]}, "cannot_go_out")

    a_canasta = ["AS", "AH", "AD", "AC", "AS", "AH", "AD"]
    two = [[k_canasta, a_canasta, ["QS", "QH", "QD"]], []]
    s = make_state("online", 2, hands=[["QC"], ["5S", "6S"]], melds=two)
    act(s, {"type": "meld", "melds": [["QC"]]})
    assert s.is_over and s.result.reason == "went_out" and s.result.went_out == 0
    s = make_state("online", 2, hands=[["5D"], ["5S", "6S"]], melds=two)
    act(s, {"type": "discard", "card": "5D"})
    assert s.is_over and s.result.went_out == 0


def test_O02_two_v_two_one_canasta_is_enough() -> None:
    k_canasta = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]
    melds = [[k_canasta, ["QS", "QH", "QD"]], []]
    s = make_state("online", 4, hands=[["QC"], ["5S"], ["6S"], ["7S"]], melds=melds)
    act(s, {"type": "meld", "melds": [["QC"]]})
    assert s.is_over and s.result.went_out == 0
    s = make_state("online", 4, hands=[["5D"], ["5S"], ["6S"], ["7S"]], melds=melds)
    act(s, {"type": "discard", "card": "5D"})
    assert s.is_over and s.result.went_out == 0


def test_O03_wild_canasta_in_one_turn_scores_2260_and_counts_as_canasta() -> None:
    s = make_state(
        "online",
        4,
        hands=[["JK", "JK", "JK", "JK", "2C", "2D", "2H", "5S"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
        seat_melded=[True, False, False, False],
    )
    act(s, {"type": "meld", "melds": [["JK", "JK", "JK", "JK", "2C", "2D", "2H"]]})
    assert sorted(codes(s.melds[0][Rank.WILD])) == sorted(["JK"] * 4 + ["2C", "2D", "2H"])
    assert canasta_count(s.melds[0]) == 1
    # it is the team's only canasta, and it lets the player go out
    act(s, {"type": "discard", "card": "5S"})
    sc = team_score(s, 0)
    assert s.result.went_out == 0
    assert sc.canastas == 2000
    assert sc.cards == 30 + 260  # the K meld plus the wild canasta's cards
    assert sc.cards - 30 + sc.canastas == 2260
    assert sc.going_out == 100


def test_O04_wild_meld_below_seven_is_illegal() -> None:
    s = make_state(
        "online",
        4,
        hands=[["2C", "2D", "JK", "5S", "6S"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
    )
    illegal(s, {"type": "meld", "melds": [["2C", "2D", "JK"]]}, "bad_meld")


def test_O04_nothing_may_be_added_to_a_wild_canasta_later() -> None:
    wild = ["JK", "JK", "JK", "JK", "2C", "2D", "2H"]
    s = make_state(
        "online",
        4,
        hands=[["2S", "5S", "6S"], [], [], []],
        melds=[[wild, ["KS", "KH", "KD"]], []],
    )
    illegal(s, {"type": "meld", "melds": [{"rank": "wild", "cards": ["2S"]}]}, "bad_meld")
    illegal(s, {"type": "meld", "melds": [["2S"]]}, "bad_meld")


def test_O05_black_threes_left_in_hand_cost_100_each() -> None:
    team0 = [
        ["KS", "KH", "KD", "KC", "KS", "KH", "2C"],  # mixed canasta: 80 points
        ["AS", "AH", "AD"],  # 60
        ["QS", "QH", "QD", "QC"],  # 40
        ["5S", "5H", "5D", "5C"],  # 20
    ]
    s = make_state(
        "online",
        4,
        turn=1,
        hands=[["3S", "3C", "KD"], ["9S"], [], []],
        melds=[team0, [J_CANASTA]],
    )
    act(s, {"type": "discard", "card": "9S"})  # the opponents go out
    sc = team_score(s, 0)
    assert sc.cards == 200
    assert sc.canastas == 300
    assert sc.hand == -100 - 100 - 10
    assert sc.total == 290


def test_O06_going_out_at_the_first_meld_scores_200_in_total() -> None:
    s = make_state(
        "online",
        4,
        phase="draw",
        hands=[["KS", "KH", "KD", "KC", "KS", "KH", "KD", "5S", "5H", "5D"], [], ["AD"], []],
        stock=["9C", "4S", "4H", "6C"],
    )
    act(s, {"type": "draw"})
    act(
        s,
        {
            "type": "meld",
            "melds": [
                ["KS", "KH", "KD", "KC", "KS", "KH", "KD"],
                ["5S", "5H", "5D"],
            ],
        },
    )
    act(s, {"type": "discard", "card": "9C"})
    assert s.result.went_out == 0 and s.result.concealed
    sc = team_score(s, 0)
    assert (sc.cards, sc.canastas, sc.going_out, sc.hand) == (85, 500, 200, -20)
    assert sc.total == 765  # not 865


def test_O07_red_three_upcard_blocks_the_pile_until_covered() -> None:
    rules = RuleSet.preset("online", 4, {})
    deck = crafted_deck(
        rules,
        3,
        {0: ["KD", "KC"], 1: ["KS", "KH", "JK", "AS", "AH", "AD"]},
        ["3H"],
        stock_top=["9C"],
    )
    s = State.deal(rules, deck, 3)
    assert codes(s.pile) == ["3H"] and s.pile_frozen
    # the first player cannot take it, by any means
    illegal(s, {"type": "pickup", "with": []}, "pile_blocked")
    illegal(s, {"type": "pickup", "with": ["KD", "KC"]}, "pile_blocked")
    assert not any(isinstance(a, Pickup) for a in s.legal_actions())
    act(s, {"type": "draw"})
    act(s, {"type": "discard", "card": "KD"})
    assert codes(s.pile) == ["3H", "KD"] and s.pile_frozen
    assert s.turn == 1
    # covered: a natural and a wild is not enough, a natural pair is (subject to the minimum)
    illegal(s, {"type": "pickup", "with": ["KS", "JK"]}, "frozen_pile")
    illegal(s, {"type": "pickup", "with": ["KS", "KH"]}, "opening_minimum")  # 30 < 50
    act(s, {"type": "pickup", "with": ["KS", "KH"], "melds": [["AS", "AH", "AD"]]})
    assert codes(s.threes[1]) == ["3H"]  # found in the pile: laid out, not replaced
    assert s.pile == [] and not s.pile_frozen
    assert len(s.hands[1]) == 11 - 5


def test_O07_covered_red_three_keeps_pile_frozen_for_an_opened_side() -> None:
    s = make_state(
        "online",
        4,
        turn=1,
        phase="draw",
        pile=["3H", "KD"],
        hands=[[], ["KS", "KH", "JK", "9C", "8C"], [], []],
        melds=[[], [["QS", "QH", "QD"]]],
    )
    assert s.pile_frozen
    illegal(s, {"type": "pickup", "with": ["KS", "JK"]}, "frozen_pile")
    act(s, {"type": "pickup", "with": ["KS", "KH"]})
    assert sorted(codes(s.melds[1][Rank.KING])) == ["KD", "KH", "KS"]


def test_O08_black_three_pile_taken_to_go_out_at_once() -> None:
    melds = [[J_CANASTA, ["9S", "9H", "9D"]], []]
    s = make_state(
        "online", 4, phase="draw", pile=["9C", "3S"], hands=[["3C", "3S"], [], [], []], melds=melds
    )
    act(s, {"type": "pickup", "with": ["3C", "3S"]})
    assert sorted(codes(s.melds[0][Rank.THREE])) == ["3C", "3S", "3S"]
    assert codes(s.hands[0]) == ["9C"]
    # the next action must be a meld that empties the hand: no discard
    illegal(s, {"type": "discard", "card": "9C"}, "must_meld_out")
    act(s, {"type": "meld", "melds": [["9C"]]})
    assert s.is_over and s.result.reason == "went_out" and s.result.went_out == 0
    sc = team_score(s, 0)
    assert sc.cards == 70 + 40 + 15  # black threes melded on going out: 5 each


def test_O08_black_three_pile_not_taken_when_cannot_go_out() -> None:
    melds = [[J_CANASTA, ["9S", "9H", "9D"]], []]
    s = make_state(
        "online",
        4,
        phase="draw",
        pile=["9C", "3S"],
        hands=[["3C", "3S", "KD"], [], [], []],
        melds=melds,
    )
    illegal(s, {"type": "pickup", "with": ["3C", "3S"]}, "pile_blocked")


@pytest.mark.parametrize(("team_melds", "expected"), [([], -800), ([["KS", "KH", "KD"]], 800)])
def test_O09_four_red_threes_without_a_meld_cost_800(team_melds: list, expected: int) -> None:
    s = make_state(
        "online",
        4,
        turn=1,
        hands=[["4S"], ["9S"], [], []],
        melds=[team_melds, [J_CANASTA]],
        red_threes=[["3H", "3H", "3D", "3D"], []],
    )
    act(s, {"type": "discard", "card": "9S"})
    assert team_score(s, 0).threes == expected


def _o10_position(variant: str) -> State:
    return make_state(
        variant,
        4,
        turn=1,
        phase="draw",
        stock=["8D"],
        pile=["6C", "5H"],
        hands=[["4S", "4H"], ["9C", "7S", "7H"], ["9H", "9D", "KC"], ["4C", "4D"]],
        melds=[[["9S", "9S", "2C"]], [["QS", "QH", "QD"]]],
    )


def test_O10_empty_stock_ends_the_deal_without_going_out_bonus() -> None:
    s = _o10_position("online")
    act(s, {"type": "draw"})
    act(s, {"type": "discard", "card": "9C"})
    # P3 (seat 2) could take the pile with 9H 9D, but the deal has ended automatically
    assert s.is_over
    assert s.result.reason == "stock_exhausted" and s.result.went_out is None
    assert all(part.going_out == 0 for part in s.result.scores)
    assert all(canasta_count(m) == 0 for m in s.melds)
    illegal(s, {"type": "pickup", "with": ["9H", "9D"]}, "deal_over")
    assert s.legal_actions() == []
    # in classic the same position plays on with the discards
    c = _o10_position("classic")
    act(c, {"type": "draw"})
    act(c, {"type": "discard", "card": "9C"})
    assert not c.is_over and c.turn == 2


@pytest.mark.parametrize(
    ("group", "ok"),
    [
        (["KS", "KH", "KD", "KC", "2C", "2D", "JK"], True),
        (["KS", "KH", "2C", "2D", "JK"], False),
        (["KS", "KH", "2C", "2D"], True),
    ],
)
def test_O11_wilds_may_not_outnumber_naturals(group: list[str], ok: bool) -> None:
    hand = [*group, "9S", "9H"]
    s = make_state("online", 4, hands=[hand, [], [], []], melds=[[["QS", "QH", "QD"]], []])
    meld = {"type": "meld", "melds": [group]}
    if ok:
        act(s, meld)
        assert sorted(codes(s.melds[0][Rank.KING])) == sorted(group)
    else:
        illegal(s, meld, "bad_meld")
        # classic (R1: at least 2 naturals, at most 3 wilds) accepts the same meld
        c = make_state("classic", 4, hands=[hand, [], [], []], melds=[[["QS", "QH", "QD"]], []])
        assert legal(c, meld)


# =================================================================================================
# mendelev (RULES.md 5.8)
# =================================================================================================

# A natural K canasta plus a K pair in hand plus Kd on the pile needs ten kings, so X01 is played
# with three packs (an option of the rule set; nothing else changes).
THREE_PACKS = {"decks": 3, "jokers": 6}
K_CANASTA = ["KS", "KH", "KD", "KC", "KC", "KD", "KC"]


def test_X01_own_canasta_rank_blocks_the_pile_even_with_a_pair() -> None:
    s = make_state(
        "mendelev",
        4,
        THREE_PACKS,
        phase="draw",
        pile=["6C", "KD"],
        hands=[["KS", "KH", "9C", "4D"], ["9S", "4S", "8S"], [], []],
        melds=[[K_CANASTA], [["QS", "QH", "QD"]]],
    )
    illegal(s, {"type": "pickup", "with": ["KS", "KH"]}, "pile_blocked")
    illegal(s, {"type": "pickup", "with": []}, "pile_blocked")


def test_X01_other_side_may_take_the_pile_with_a_pair() -> None:
    s = make_state(
        "mendelev",
        4,
        THREE_PACKS,
        turn=1,
        phase="draw",
        pile=["6C", "KD"],
        hands=[["9C", "4D", "8D"], ["KS", "KH", "9S", "4S"], [], []],
        melds=[[K_CANASTA], [["QS", "QH", "QD"]]],
    )
    act(s, {"type": "pickup", "with": ["KS", "KH"]})
    assert sorted(codes(s.melds[1][Rank.KING])) == ["KD", "KH", "KS"]
    assert sorted(codes(s.hands[1])) == sorted(["9S", "4S", "6C"])


def test_X01_two_packs_own_canasta_rank_blocks_adding_the_top_card() -> None:
    s = make_state(
        "mendelev",
        4,
        phase="draw",
        pile=["6C", "KD"],
        hands=[["9C", "4D", "2C"], [], [], []],
        melds=[[["KS", "KH", "KC", "KS", "KH", "KC", "KD"]], [["QS", "QH", "QD"]]],
    )
    illegal(s, {"type": "pickup", "with": []}, "pile_blocked")
    # classic lets the same side add the top card to its canasta
    c = make_state(
        "classic",
        4,
        phase="draw",
        pile=["6C", "KD"],
        hands=[["9C", "4D", "2C"], [], [], []],
        melds=[[["KS", "KH", "KC", "KS", "KH", "KC", "KD"]], [["QS", "QH", "QD"]]],
    )
    assert legal(c, {"type": "pickup", "with": []})


def test_X02_black_three_on_top_blocks_even_with_two_black_threes() -> None:
    fields = dict(
        phase="draw",
        pile=["9D", "3S"],
        hands=[["3S", "3C"], [], [], []],
        melds=[[J_CANASTA, ["9S", "9H", "9C"]], []],
    )
    s = make_state("mendelev", 4, **fields)
    illegal(s, {"type": "pickup", "with": ["3S", "3C"]}, "pile_blocked")
    # the online exception (O08) would allow this very pickup to go out
    assert legal(make_state("online", 4, **fields), {"type": "pickup", "with": ["3S", "3C"]})


def _x03_position(hand: list[str], melds: list) -> State:
    return make_state(
        "mendelev",
        4,
        phase="draw",
        pile=["9D", "QH"],
        hands=[hand, [], [], []],
        melds=[melds, [["KS", "KH", "KD"]]],
    )


def test_X03_top_card_only_purchase_goes_out_without_discard() -> None:
    s = _x03_position(["5C"], [J_CANASTA, ["QS", "QC", "QD"], ["5S", "5H", "5D"]])
    act(s, {"type": "pickup", "with": [], "melds": [["5C"]], "top_only": True})
    assert s.is_over and s.result.reason == "went_out" and s.result.went_out == 0
    assert codes(s.pile) == ["9D"]  # the rest of the pile stays
    assert s.hands[0] == []
    assert "QH" in codes(s.melds[0][Rank.QUEEN]) and "5C" in codes(s.melds[0][Rank.FIVE])


def test_X03_top_card_only_purchase_must_meld_every_card() -> None:
    s = _x03_position(["5C", "KD"], [J_CANASTA, ["QS", "QC", "QD"], ["5S", "5H", "5D"]])
    illegal(s, {"type": "pickup", "with": [], "melds": [["5C"]], "top_only": True}, "top_only")
    illegal(s, {"type": "pickup", "with": [], "melds": [["5C"], ["KD"]], "top_only": True})
    # buying the whole pile instead is an ordinary pickup (no going out)
    act(s, {"type": "pickup", "with": []})
    assert not s.is_over and s.pile == [] and sorted(codes(s.hands[0])) == ["5C", "9D", "KD"]


def test_X04_one_card_hand_may_not_take_a_one_card_pile() -> None:
    melds = [[J_CANASTA, ["QS", "QC", "QD"]], []]
    s = make_state(
        "mendelev", 4, phase="draw", pile=["QH"], hands=[["5C"], [], [], []], melds=melds
    )
    illegal(s, {"type": "pickup", "with": []}, "pile_blocked")
    illegal(s, {"type": "pickup", "with": [], "top_only": True})
    # with two cards in hand the same pickup is fine
    s2 = make_state(
        "mendelev", 4, phase="draw", pile=["QH"], hands=[["5C", "9S"], [], [], []], melds=melds
    )
    act(s2, {"type": "pickup", "with": []})
    assert "QH" in codes(s2.melds[0][Rank.QUEEN])


def _x05_position() -> State:
    return make_state(
        "mendelev",
        4,
        hands=[["3S", "3C", "3S", "8H"], [], [], []],
        melds=[[J_CANASTA, ["8S", "8D", "8C"]], []],
        drew="stock",
    )


def test_X05_black_three_meld_going_out_without_discard_is_legal() -> None:
    s = _x05_position()
    act(s, {"type": "meld", "melds": [["3S", "3C", "3S"], ["8H"]]})
    assert s.is_over and s.result.went_out == 0
    assert sorted(codes(s.melds[0][Rank.THREE])) == ["3C", "3S", "3S"]


def test_X05_black_three_meld_followed_by_a_discard_is_illegal() -> None:
    s = _x05_position()
    illegal(s, {"type": "meld", "melds": [["3S", "3C", "3S"]]}, "black_threes")
    # (so the discard of 8h can never follow)


def test_X06_discarded_joker_closes_the_pile() -> None:
    s = make_state(
        "mendelev",
        4,
        pile=["6C", "9D"],
        drew="stock",
        hands=[["JK", "5S", "5H"], ["JK", "JK", "10S", "7C"], ["10H", "2C", "10D", "8S"], []],
        melds=[[["QS", "QH", "QD"]], [["KS", "KH", "KD"]]],
    )
    act(s, {"type": "discard", "card": "JK"})
    assert s.pile_frozen and s.turn == 1
    illegal(s, {"type": "pickup", "with": ["JK", "JK"]}, "pile_blocked")
    act(s, {"type": "draw"})
    act(s, {"type": "discard", "card": "10S"})
    assert s.turn == 2 and s.pile_frozen
    illegal(s, {"type": "pickup", "with": ["10H", "2C"]}, "frozen_pile")
    act(s, {"type": "pickup", "with": ["10H", "10D"]})
    assert sorted(codes(s.melds[0][Rank.TEN])) == ["10D", "10H", "10S"]
    assert "JK" in codes(s.hands[2])


def test_X06_without_the_joker_a_natural_and_a_fake_joker_take_the_pile() -> None:
    s = make_state(
        "mendelev",
        4,
        turn=2,
        phase="draw",
        pile=["6C", "9D", "10S"],
        hands=[[], [], ["10H", "2C", "10D", "8S"], []],
        melds=[[["QS", "QH", "QD"]], [["KS", "KH", "KD"]]],
    )
    assert not s.pile_frozen
    act(s, {"type": "pickup", "with": ["10H", "2C"]})


def _x07_deal(upcards: list[str]) -> State:
    rules = RuleSet.preset("mendelev", 4, {})
    deck = crafted_deck(rules, 3, {0: ["QS", "QH", "2C", "9S", "9H", "9D"]}, upcards)
    return State.deal(rules, deck, 3)


def _opened_team0(state: State) -> State:
    """The dealt position with seat 0's 9s moved into a team-0 meld (the side has opened)."""
    pos = position_to_json(state)
    for code in ("9S", "9H", "9D"):
        pos["hands"][0].remove(code)
    pos["melds"][0] = [["9S", "9H", "9D"]]
    pos["opened"] = [True, False]
    return position_from_json(pos)


def test_X07_upcards_turned_until_natural_and_pile_closed_by_the_two() -> None:
    s = _x07_deal(["3S", "2D", "QC"])
    assert codes(s.pile) == ["3S", "2D", "QC"]
    assert s.pile_frozen
    assert len(s.stock) == 108 - 44 - 3
    assert s.threes == [[], []]
    opened = _opened_team0(s)
    assert opened.pile_frozen
    illegal(opened, {"type": "pickup", "with": ["QS", "2C"]}, "frozen_pile")
    act(opened, {"type": "pickup", "with": ["QS", "QH"]})


def test_X07_black_three_upcard_alone_does_not_close_the_pile() -> None:
    s = _x07_deal(["3S", "QC"])
    assert codes(s.pile) == ["3S", "QC"]
    assert not s.pile_frozen
    opened = _opened_team0(s)
    act(opened, {"type": "pickup", "with": ["QS", "2C"]})


def test_X08_top_card_counts_toward_the_opening_minimum() -> None:
    fields = dict(
        phase="draw",
        pile=["7C", "QD"],
        # two further cards (not melded) so that the player keeps a card to discard
        hands=[["QS", "QH", "5S", "5H", "5D", "5C", "9C", "8D"], [], [], []],
    )
    opening = {"type": "pickup", "with": ["QS", "QH"], "melds": [["5S", "5H", "5D", "5C"]]}
    s = make_state("mendelev", 4, **fields)
    assert s.minimum(0) == 50
    act(s, opening)  # 30 (with Qd) + 20 = 50
    assert s.opened[0]
    assert sorted(codes(s.hands[0])) == sorted(["9C", "8D", "7C"])
    # less than 50 with the top card is refused
    s = make_state("mendelev", 4, **fields)
    illegal(
        s,
        {"type": "pickup", "with": ["QS", "QH"], "melds": [["5S", "5H", "5D"]]},
        "opening_minimum",
    )  # 45
    # modern-american counts hand cards only: 40 against a minimum of 125
    m = make_state("modern-american", 4, **fields)
    assert m.minimum(0) == 125
    illegal(m, opening, "opening_minimum")


def test_X09_natural_and_fake_joker_take_an_open_pile() -> None:
    s = make_state(
        "mendelev",
        4,
        phase="draw",
        pile=["6C", "9H"],
        hands=[["9S", "2C", "5D", "7H"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
    )
    act(s, {"type": "pickup", "with": ["9S", "2C"]})
    assert sorted(codes(s.melds[0][Rank.NINE])) == sorted(["9S", "2C", "9H"])
    assert sorted(codes(s.hands[0])) == sorted(["5D", "7H", "6C"])


def _x10_position() -> State:
    return make_state(
        "mendelev",
        4,
        drew="stock",
        hands=[["5H", "9C", "KC"], [], ["4S", "4H"], []],
        melds=[[J_CANASTA, ["5D", "5C", "5S"], ["9S", "9H", "9D"]], []],
    )


def test_X10_partner_says_no_forbids_going_out_this_turn() -> None:
    s = _x10_position()
    act(s, {"type": "ask"})
    assert s.to_move == 2
    act(s, {"type": "answer", "yes": False})
    assert s.to_move == 0
    # going out (meld leaving one card, then discard) is refused
    illegal(s, {"type": "meld", "melds": [["5H"], ["9C"]]}, "cannot_go_out")
    act(s, {"type": "meld", "melds": [["5H"]]})
    illegal(s, {"type": "meld", "melds": [["9C"]]}, "cannot_go_out")
    act(s, {"type": "discard", "card": "KC"})
    assert not s.is_over and s.turn == 1


def test_X10_partner_says_yes_permits_but_does_not_oblige() -> None:
    s = _x10_position()
    act(s, {"type": "ask"})
    act(s, {"type": "answer", "yes": True})
    t = s.clone()
    act(s, {"type": "meld", "melds": [["5H"], ["9C"]]})
    act(s, {"type": "discard", "card": "KC"})
    assert s.is_over and s.result.reason == "went_out" and s.result.went_out == 0
    # not obliged: the player may simply discard and play on
    act(t, {"type": "discard", "card": "KC"})
    assert not t.is_over and t.turn == 1


def test_X03_top_card_purchase_is_listed_for_an_unopened_team() -> None:
    """An unopened team may buy only the top card to go out concealed; legal_actions lists it."""
    s = make_state(
        "mendelev",
        phase="draw",
        hands=[["KS", "KH", "KD", "KS", "KH", "KD", "QS", "QH", "QD", "QC"], [], [], []],
        pile=["2H", "KC"],
    )
    buys = [a for a in s.legal_actions() if isinstance(a, Pickup) and a.top_only]
    assert buys
    for a in buys:
        assert s.check(a) is None
    s.apply(buys[0])  # the first melds every card at once
    assert s.result is not None and s.result.went_out == 0 and s.pile == [Card.parse("2H")]


def test_X03_top_card_purchase_may_be_melded_out_group_by_group() -> None:
    """A purchase that lays only the top card's group obliges the buyer to meld every card left,
    group by group, with no discard; then the deal ends with the buyer out."""
    s = make_state(
        "mendelev",
        4,
        phase="draw",
        pile=["9D", "QH"],
        hands=[["5C", "KD", "KC"], [], [], []],
        melds=[[J_CANASTA, ["QS", "QC", "QD"], ["5S", "5H", "5D"], ["KS", "KH", "KH"]], []],
    )
    act(s, {"type": "pickup", "with": [], "top_only": True})
    assert not s.is_over and s.must_meld_out and codes(s.pile) == ["9D"]
    assert not any(isinstance(a, Discard) for a in s.legal_actions())
    illegal(s, {"type": "discard", "card": "5C"}, "must_meld_out")
    act(s, {"type": "meld", "melds": [["KD", "KC"]]})
    act(s, {"type": "meld", "melds": [["5C"]]})
    assert s.result is not None and s.result.reason == "went_out" and s.result.went_out == 0
