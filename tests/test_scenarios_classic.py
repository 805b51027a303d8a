"""Acceptance scenarios C01-C43 of RULES.md section 5 (5.1-5.5): the `classic` preset.

Each test is named after its scenario id. Positions are built with `support.make_state`; deals
that depend on the deal procedure use `State.deal` with a crafted deck (index 0 = top card).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from canasta.rules import (
    Ask,
    Card,
    Discard,
    Draw,
    Game,
    Pass,
    Pickup,
    Rank,
    RuleSet,
    State,
    make_deck,
    position_from_json,
    position_to_json,
)
from canasta.rules.melds import canasta_bonus
from canasta.rules.scoring import game_winner
from support import act, illegal, legal, make_state

# -- helpers ----------------------------------------------------------------------------------


def meld(*groups: Any) -> dict[str, Any]:
    """A `meld` action from groups (lists of card codes, or {"rank", "cards"} objects)."""
    return {"type": "meld", "melds": list(groups)}


def pickup(with_: Sequence[str], *groups: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"type": "pickup", "with": list(with_)}
    if groups:
        obj["melds"] = list(groups)
    return obj


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def codes(cards: Sequence[Card]) -> list[str]:
    return sorted(c.code for c in cards)


def team_meld(state: State, team: int, rank: str) -> list[str]:
    return codes(state.melds[team][Rank(rank)])


def crafted_deck(
    rules: RuleSet,
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    upcards: Sequence[str],
    stock_top: Sequence[str] = (),
) -> list[Card]:
    """A full deck dealing `hands` (completed with natural cards), then `upcards`, then a stock
    starting with `stock_top`; the rest of the deck follows in its usual order."""
    remaining = make_deck(rules.decks, rules.jokers)
    named = [c for h in hands.values() for c in h] + list(upcards) + list(stock_top)
    for code in named:
        remaining.remove(Card.parse(code))
    full: dict[int, list[Card]] = {}
    for seat in range(rules.players):
        cards = [Card.parse(c) for c in hands.get(seat, ())]
        while len(cards) < rules.hand_size:
            filler = next(c for c in remaining if c.is_natural)
            remaining.remove(filler)
            cards.append(filler)
        full[seat] = cards
    order = [(dealer + 1 + i) % rules.players for i in range(rules.players)]
    deck = [full[seat][r] for r in range(rules.hand_size) for seat in order]
    deck += [Card.parse(c) for c in (*upcards, *stock_top)]
    deck += remaining
    return deck


def ended_position(variant: str, players: int, **fields: Any) -> State:
    """A position whose deal has ended (scored on reading, FORMATS.md `phase: "ended"`)."""
    rules = RuleSet.preset(variant, players)
    pos: dict[str, Any] = {
        "format": "canasta-position/1",
        "variant": variant,
        "players": players,
        "scores": [0] * rules.teams,
        "dealer": players - 1,
        "turn": 0,
        "phase": "ended",
        "hands": [[] for _ in range(players)],
        "stock": [],
        "pile": [],
        "melds": [[] for _ in range(rules.teams)],
        "red_threes": [[] for _ in range(rules.teams)],
        "reason": "stock_exhausted",
        "went_out": None,
    }
    pos.update(fields)
    return position_from_json(pos)


OPENED = [[["AS", "AH", "AD"]], []]  # team 0 has opened (an ace meld), team 1 has not
K_CANASTA = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]


# -- 5.1 Classic: meld validity ---------------------------------------------------------------


def test_C01_meld_two_naturals_and_a_wild() -> None:
    s = make_state(hands=[["KS", "KH", "2C", "9D", "5S"], [], [], []], melds=OPENED)
    act(s, meld(["KS", "KH", "2C"]))
    assert team_meld(s, 0, "K") == ["2C", "KH", "KS"]
    assert codes(s.hands[0]) == ["5S", "9D"]


def test_C02_meld_with_one_natural_is_illegal() -> None:
    s = make_state(hands=[["KS", "2C", "2D", "9D", "5S"], [], [], []], melds=OPENED)
    illegal(s, meld(["KS", "2C", "2D"]), "bad_meld")


def test_C03_wild_only_meld_is_illegal() -> None:
    s = make_state(hands=[["2C", "2D", "JK", "9D", "5S"], [], [], []], melds=OPENED)
    illegal(s, meld(["2C", "2D", "JK"]), "bad_meld")
    illegal(s, meld({"rank": "wild", "cards": ["2C", "2D", "JK"]}), "bad_meld")


@pytest.mark.parametrize(
    ("ratio", "ok"), [(None, True), ("none", True), ("le", True), ("lt", False)]
)
def test_C04_two_naturals_two_wilds(ratio: str | None, ok: bool) -> None:
    options = {} if ratio is None else {"wild_ratio_rule": ratio}
    s = make_state(
        options=options, hands=[["KS", "KH", "2C", "2D", "9D", "5S"], [], [], []], melds=OPENED
    )
    action = meld(["KS", "KH", "2C", "2D"])
    if ok:
        act(s, action)
        assert team_meld(s, 0, "K") == ["2C", "2D", "KH", "KS"]
    else:
        illegal(s, action, "bad_meld")


@pytest.mark.parametrize(
    ("variant", "ratio", "ok"),
    [
        ("classic", None, True),
        ("classic", "le", False),
        ("classic", "lt", False),
        ("online", None, False),
    ],
)
def test_C05_two_naturals_three_wilds(variant: str, ratio: str | None, ok: bool) -> None:
    options = {} if ratio is None else {"wild_ratio_rule": ratio}
    s = make_state(
        variant,
        options=options,
        hands=[["KS", "KH", "2C", "2D", "JK", "9D", "5S"], [], [], []],
        melds=OPENED,
    )
    action = meld(["KS", "KH", "2C", "2D", "JK"])
    if ok:
        act(s, action)
        assert team_meld(s, 0, "K") == ["2C", "2D", "JK", "KH", "KS"]
    else:
        illegal(s, action, "bad_meld")


def test_C06_fourth_wild_cannot_be_added() -> None:
    s = make_state(
        hands=[["2H", "5S", "6D"], [], [], []],
        melds=[[["9S", "9H", "9D", "9C", "2C", "2D", "JK"]], []],
    )
    illegal(s, meld({"rank": "9", "cards": ["2H"]}), "bad_meld")


def test_C07_black_threes_only_when_going_out() -> None:
    s = make_state(
        hands=[["3S", "3C", "3S", "QD", "5H", "6C"], [], [], []],
        melds=[[K_CANASTA], []],
        seat_melded=[True, False, False, False],
    )
    illegal(s, meld(["3S", "3C", "3S"]), "black_threes")
    assert not s.is_over


def test_C08_black_threes_melded_when_going_out() -> None:
    s = make_state(
        hands=[["3S", "3C", "3S", "7C"], [], [], []],
        melds=[[K_CANASTA, ["7S", "7H", "7D"]], []],
        seat_melded=[True, False, False, False],
    )
    act(s, meld(["3S", "3C", "3S"], ["7C"]))
    assert s.is_over and s.result is not None
    assert s.result.reason == "went_out" and s.result.went_out == 0
    assert team_meld(s, 0, "3") == ["3C", "3S", "3S"]
    score = s.result.scores[0]
    assert score.cards == 70 + 20 + 15  # kings, four sevens, black threes +15
    assert score.going_out == 100


@pytest.mark.parametrize(("variant", "ok"), [("classic", True), ("mendelev", False)])
def test_C08_black_threes_then_final_discard(variant: str, ok: bool) -> None:
    s = make_state(
        variant,
        hands=[["3S", "3C", "3S", "9H"], [], [], []],
        melds=[[K_CANASTA, ["7S", "7H", "7D"]], []],
        seat_melded=[True, False, False, False],
    )
    if ok:
        act(s, meld(["3S", "3C", "3S"]))
        act(s, discard("9H"))
        assert s.is_over and s.result is not None and s.result.went_out == 0
        assert s.result.scores[0].cards == 70 + 15 + 15
    else:
        illegal(s, meld(["3S", "3C", "3S"]))


def test_C09_no_wilds_with_black_threes() -> None:
    s = make_state(
        hands=[["3S", "3C", "2D"], [], [], []],
        melds=[[K_CANASTA], []],
        seat_melded=[True, False, False, False],
    )
    illegal(s, meld(["3S", "3C", "2D"]), "bad_meld")
    illegal(s, meld({"rank": "3", "cards": ["3S", "3C", "2D"]}), "bad_meld")


def test_C10_cannot_add_to_opponents_meld() -> None:
    s = make_state(
        hands=[["QC", "5S", "6D"], [], [], []], melds=[[["AS", "AH", "AD"]], [["QS", "QH", "QD"]]]
    )
    illegal(s, meld(["QC"]))
    illegal(s, meld({"rank": "Q", "cards": ["QC"]}))
    assert team_meld(s, 1, "Q") == ["QD", "QH", "QS"]
    assert Rank.QUEEN not in s.melds[0]


def test_C11_same_rank_joins_the_existing_meld() -> None:
    s = make_state(
        hands=[["JC", "JS", "2C", "5S", "6D"], [], [], []], melds=[[["JS", "JH", "JD"]], []]
    )
    act(s, meld(["JC", "JS", "2C"]))
    assert list(s.melds[0]) == [Rank.JACK]
    assert team_meld(s, 0, "J") == sorted(["JS", "JH", "JD", "JC", "JS", "2C"])
    assert position_to_json(s)["melds"][0] == [["JS", "JS", "JH", "JD", "JC", "2C"]]


# -- 5.2 Classic: initial meld ----------------------------------------------------------------


def _unopened(hand: list[str], score: int = 0, **fields: Any) -> State:
    return make_state(hands=[hand, [], [], []], scores=[score, 0], drew="stock", **fields)


def test_C12_opening_minimum_50() -> None:
    hand = ["KS", "KH", "KD", "8S", "8H", "8C", "7S", "7H", "7D", "5C", "6C"]
    s = _unopened(hand)
    assert s.minimum(0) == 50
    illegal(s, meld(["KS", "KH", "KD"], ["7S", "7H", "7D"]), "opening_minimum")
    act(s, meld(["KS", "KH", "KD"], ["8S", "8H", "8C"]))
    assert s.opened[0]
    assert team_meld(s, 0, "8") == ["8C", "8H", "8S"]


# (score, minimum, a meld worth exactly the minimum, a meld worth 5 less or None)
C13_TABLE = [
    (-5, 15, [["4S", "4H", "4D"]], None),
    (
        0,
        50,
        [["KS", "KH", "KD"], ["4S", "4H", "4D", "4C"]],
        [["KS", "KH", "KD"], ["4S", "4H", "4D"]],
    ),
    (
        1495,
        50,
        [["KS", "KH", "KD"], ["4S", "4H", "4D", "4C"]],
        [["KS", "KH", "KD"], ["4S", "4H", "4D"]],
    ),
    (
        1500,
        90,
        [["AS", "AH", "AD"], ["QS", "QH", "QD"]],
        [["AS", "AH", "AD"], ["4S", "4H", "4D", "4C", "4S"]],
    ),
    (
        2995,
        90,
        [["AS", "AH", "AD"], ["QS", "QH", "QD"]],
        [["AS", "AH", "AD"], ["4S", "4H", "4D", "4C", "4S"]],
    ),
    (
        3000,
        120,
        [["AS", "AH", "AD", "AC", "AS", "AH"]],
        [["AS", "AH", "AD", "AC", "AS"], ["4S", "4H", "4D"]],
    ),
    (
        7000,
        120,
        [["AS", "AH", "AD", "AC", "AS", "AH"]],
        [["AS", "AH", "AD", "AC", "AS"], ["4S", "4H", "4D"]],
    ),
]


@pytest.mark.parametrize(("score", "minimum", "exact", "short"), C13_TABLE)
def test_C13_minimum_by_cumulative_score(
    score: int, minimum: int, exact: list[list[str]], short: list[list[str]] | None
) -> None:
    assert RuleSet.preset("classic", 4).minimum_for(score) == minimum
    extra = ["9D", "6C", "JH"]
    s = _unopened([c for g in exact for c in g] + extra, score)
    assert s.minimum(0) == minimum
    assert sum(Card.parse(c).points for g in exact for c in g) == minimum
    act(s, meld(*exact))
    if short is not None:
        assert sum(Card.parse(c).points for g in short for c in g) == minimum - 5
        s = _unopened([c for g in short for c in g] + extra, score)
        illegal(s, meld(*short), "opening_minimum")


def test_C14_minimum_90() -> None:
    hand = ["AS", "AH", "AD", "KS", "KH", "2C", "QS", "QH", "QD", "7S", "7H", "7D", "9C"]
    s = _unopened(hand, 1600)
    assert s.minimum(0) == 90
    assert legal(s, meld(["AS", "AH", "AD"], ["KS", "KH", "2C"]))
    assert legal(s, meld(["AS", "AH", "AD"], ["QS", "QH", "QD"]))
    illegal(s, meld(["AS", "AH", "AD"], ["7S", "7H", "7D"]), "opening_minimum")
    act(s, meld(["AS", "AH", "AD"], ["QS", "QH", "QD"]))
    assert s.opened[0]


def test_C15_buried_pile_cards_do_not_count() -> None:
    pile = ["KC", "KS", "KD"]
    s = make_state(phase="draw", pile=pile, hands=[["KS", "KH", "9D", "6C", "4H"], [], [], []])
    illegal(s, pickup(["KS", "KH"]), "opening_minimum")

    s = make_state(
        phase="draw",
        pile=pile,
        hands=[["KS", "KH", "9D", "6C", "4H", "QS", "QH", "QD"], [], [], []],
    )
    act(s, pickup(["KS", "KH"], ["QS", "QH", "QD"]))
    assert team_meld(s, 0, "K") == ["KD", "KH", "KS"]
    assert team_meld(s, 0, "Q") == ["QD", "QH", "QS"]
    assert codes(s.hands[0]) == sorted(["9D", "6C", "4H", "KC", "KS"])
    assert s.pile == [] and s.phase == "play"


def test_C15_top_card_counts() -> None:
    # The top card (10) does count: 20 (pair) + 10 (top) + 25 (five fours) = 55 >= 50.
    hand = ["KS", "KH", "4S", "4H", "4D", "4C", "4S", "9D", "6C"]
    s = make_state(phase="draw", pile=["KC", "KS", "KD"], hands=[hand, [], [], []])
    act(s, pickup(["KS", "KH"], ["4S", "4H", "4D", "4C", "4S"]))
    assert s.opened[0]


def test_C16_canasta_bonus_does_not_count_toward_minimum() -> None:
    fives = ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]
    s = _unopened([*fives, "KC", "9H", "6D"])
    illegal(s, meld(fives), "opening_minimum")


def test_C17_red_three_bonus_does_not_count() -> None:
    s = _unopened(["4S", "4H", "4D", "KC", "9H"], red_threes=[["3H", "3D"], []])
    illegal(s, meld(["4S", "4H", "4D"]), "opening_minimum")


def test_C18_no_minimum_after_partner_opened() -> None:
    s = make_state(
        hands=[["4S", "4H", "4D", "9C", "6H"], [], [], []],
        scores=[3000, 0],
        melds=[[["KS", "KH", "KD"]], []],
        seat_melded=[False, False, True, False],
    )
    assert s.minimum(0) == 120
    act(s, meld(["4S", "4H", "4D"]))
    assert team_meld(s, 0, "4") == ["4D", "4H", "4S"]


# -- 5.3 Classic: discard pile ----------------------------------------------------------------


def test_C19_frozen_pile_needs_natural_pair() -> None:
    pile = ["6C", "2C", "8D", "JH"]
    s = make_state(
        phase="draw", pile=pile, melds=OPENED, hands=[["JS", "JK", "5C", "6H"], [], [], []]
    )
    assert s.pile_frozen
    illegal(s, pickup(["JS", "JK"]), "frozen_pile")

    s = make_state(phase="draw", pile=pile, melds=OPENED, hands=[["JS", "JD", "5C"], [], [], []])
    act(s, pickup(["JS", "JD"]))
    assert team_meld(s, 0, "J") == ["JD", "JH", "JS"]
    assert codes(s.hands[0]) == sorted(["5C", "6C", "2C", "8D"])
    assert s.pile == [] and not s.pile_frozen


@pytest.mark.parametrize(
    ("options", "ok"),
    [({}, True), ({"pile_take_by_layoff": True}, True), ({"pile_take_by_layoff": False}, False)],
)
def test_C20_take_pile_by_adding_top_card(options: dict[str, Any], ok: bool) -> None:
    s = make_state(
        options=options,
        phase="draw",
        pile=["6C", "10C"],
        melds=[[["10S", "10H", "10D"]], []],
        hands=[["5C", "6H", "9D"], [], [], []],
    )
    if ok:
        act(s, pickup([]))
        assert team_meld(s, 0, "10") == ["10C", "10D", "10H", "10S"]
        assert codes(s.hands[0]) == sorted(["5C", "6H", "9D", "6C"])
    else:
        illegal(s, pickup([]), "bad_pickup")


def test_C21_take_with_natural_and_wild() -> None:
    s = make_state(
        phase="draw", pile=["6C", "9H"], melds=OPENED, hands=[["9S", "2C", "KD"], [], [], []]
    )
    act(s, pickup(["9S", "2C"]))
    assert team_meld(s, 0, "9") == ["2C", "9H", "9S"]
    assert codes(s.hands[0]) == ["6C", "KD"]


def test_C22_merged_meld_must_stay_valid() -> None:
    eights = [["8S", "8H", "8D", "8C", "2C", "2D", "JK"]]
    s = make_state(
        phase="draw",
        pile=["5C", "8H"],
        melds=[eights, []],
        hands=[["8S", "2H", "9C", "6D"], [], [], []],
    )
    illegal(s, pickup(["8S", "2H"]), "bad_meld")

    s = make_state(
        phase="draw", pile=["5C", "8H"], melds=[eights, []], hands=[["8S", "8D", "9C"], [], [], []]
    )
    act(s, pickup(["8S", "8D"]))
    merged = s.melds[0][Rank.EIGHT]
    assert len(merged) == 10
    assert sum(1 for c in merged if c.is_wild) == 3
    assert sum(1 for c in merged if c.is_natural) == 7


@pytest.mark.parametrize("turn", [0, 1])
def test_C23_wild_on_top_blocks_everyone(turn: int) -> None:
    hands: list[list[str]] = [[], [], [], []]
    hands[turn] = ["KS", "KH", "JK", "2C", "9D"]
    s = make_state(phase="draw", turn=turn, pile=["KC", "2D"], melds=OPENED, hands=hands)
    for with_ in (["KS", "KH"], ["KS", "JK"], ["JK", "2C"], []):
        illegal(s, pickup(with_))
    assert not any(isinstance(a, Pickup) for a in s.legal_actions())


def test_C23_black_three_on_top_blocks() -> None:
    s = make_state(
        phase="draw", pile=["KC", "3C"], melds=OPENED, hands=[["3S", "3C", "9D"], [], [], []]
    )
    illegal(s, pickup(["3S", "3C"]), "pile_blocked")
    assert not any(isinstance(a, Pickup) for a in s.legal_actions())


def test_C24_unopened_side_needs_natural_pair() -> None:
    s = make_state(
        phase="draw", pile=["QC", "7D"], hands=[["7S", "JK", "AS", "AH", "AD", "9D"], [], [], []]
    )
    illegal(s, pickup(["7S", "JK"], ["AS", "AH", "AD"]), "frozen_pile")

    # The scenario's hand plus two cards, so that the player keeps cards after the pickup.
    s = make_state(
        phase="draw",
        pile=["QC", "7D"],
        hands=[["7S", "7H", "AS", "AH", "2C", "9D", "6H"], [], [], []],
    )
    act(s, pickup(["7S", "7H"], ["AS", "AH", "2C"]))
    assert team_meld(s, 0, "7") == ["7D", "7H", "7S"]
    assert team_meld(s, 0, "A") == ["2C", "AH", "AS"]
    assert codes(s.hands[0]) == sorted(["9D", "6H", "QC"])


def test_C25_red_three_upcard_freezes_and_is_taken_without_replacement() -> None:
    rules = RuleSet.preset("classic", 4)
    deck = crafted_deck(
        rules, 3, {0: ["KS", "KH", "JK", "QS", "QH", "QD"]}, ["3H", "KD"], ["5C", "6C"]
    )
    s = State.deal(rules, deck, 3)
    assert s.turn == 0 and s.phase == "draw"
    assert [c.code for c in s.pile] == ["3H", "KD"]
    assert s.pile_frozen and s.frozen_for(0) and s.frozen_for(1)
    assert s.threes == [[], []]
    stock_before = len(s.stock)

    illegal(s, pickup(["KS", "JK"], ["QS", "QH", "QD"]), "frozen_pile")
    act(s, pickup(["KS", "KH"], ["QS", "QH", "QD"]))
    assert team_meld(s, 0, "K") == ["KD", "KH", "KS"]
    assert team_meld(s, 0, "Q") == ["QD", "QH", "QS"]
    assert [c.code for c in s.threes[0]] == ["3H"]
    assert len(s.stock) == stock_before  # no replacement card
    assert len(s.hands[0]) == 11 - 5
    assert all(not c.is_red_three for c in s.hands[0])
    assert s.pile == [] and not s.pile_frozen


def test_C26_one_card_hand_cannot_take_one_card_pile() -> None:
    melds = [[["AS", "AH", "AD", "AC", "AS", "AH", "AD"], ["KS", "KH", "KC"]], []]
    s = make_state(phase="draw", pile=["KD"], melds=melds, hands=[["QH"], [], [], []])
    illegal(s, pickup([]), "pile_blocked")
    # A two-card pile is not blocked for the same hand.
    s = make_state(phase="draw", pile=["5C", "KD"], melds=melds, hands=[["QH"], [], [], []])
    act(s, pickup([]))
    assert codes(s.hands[0]) == ["5C", "QH"]


@pytest.mark.parametrize(("upcards", "frozen"), [(["JK", "3S", "9C"], True), (["3S", "9C"], False)])
def test_C27_upcard_turning(upcards: list[str], frozen: bool) -> None:
    rules = RuleSet.preset("classic", 4)
    s = State.deal(rules, crafted_deck(rules, 3, {}, upcards), 3)
    assert [c.code for c in s.pile] == upcards
    assert s.pile[-1].code == "9C"
    assert s.pile_frozen is frozen
    assert position_to_json(s)["pile_frozen"] is frozen
    assert len(s.stock) == 108 - 44 - len(upcards)
    # Once both sides have opened, the pile stays frozen only if it was frozen at the deal.
    s.board.opened = [True, True]
    assert s.frozen_for(0) is frozen and s.frozen_for(1) is frozen


# -- 5.4 Classic: going out, concealed, stock, scoring ---------------------------------------


def test_C28_cannot_empty_hand_without_canasta() -> None:
    s = make_state(
        hands=[["QS", "QH", "QD", "5C"], [], [], []],
        melds=OPENED,
        seat_melded=[True, False, False, False],
    )
    illegal(s, meld(["QS", "QH", "QD"]), "cannot_go_out")
    assert legal(s, discard("5C"))
    act(s, discard("5C"))
    assert not s.is_over and s.turn == 1


def test_C29_canasta_completed_in_going_out_turn() -> None:
    s = make_state(
        hands=[["JS", "8C"], [], [], []],
        melds=[[["JS", "JH", "JD", "JC", "2C", "2D"]], []],
        seat_melded=[True, False, False, False],
    )
    act(s, meld(["JS"]))
    act(s, discard("8C"))
    assert s.is_over and s.result is not None
    assert s.result.reason == "went_out" and s.result.went_out == 0
    score = s.result.scores[0]
    assert score.canastas == 300
    assert score.going_out == 100
    assert score.cards == 5 * 10 + 2 * 20


def test_C29_completing_partners_meld_is_not_concealed() -> None:
    """A player who never melded, completing the partner's meld into the canasta, gets 100."""
    s = make_state(
        hands=[["JS", "8C"], [], [], []],
        melds=[[["JS", "JH", "JD", "JC", "2C", "2D"]], []],
        seat_melded=[False, False, True, False],
    )
    act(s, meld(["JS"]))
    act(s, discard("8C"))
    assert s.result is not None and not s.result.concealed
    assert s.result.scores[0].going_out == 100


C30_MELDS = [
    ["KS", "KH", "KD", "KC", "KS", "KH", "KD"],
    ["QS", "QH", "QD", "QC", "QS", "2C", "JK"],
    ["7S", "7H", "7D"],
]


def test_C30_going_out_hand_score() -> None:
    s = make_state(
        hands=[["4C"], ["5C"], ["AS", "9D"], ["6C"]],
        melds=[C30_MELDS, []],
        red_threes=[["3H", "3D"], []],
        seat_melded=[True, False, True, False],
    )
    act(s, discard("4C"))
    assert s.result is not None and s.result.went_out == 0 and not s.result.concealed
    a = s.result.scores[0]
    assert (a.cards, a.canastas, a.threes, a.going_out, a.hand, a.penalties) == (
        70 + 120 + 15,
        800,
        200,
        100,
        -30,
        0,
    )
    assert a.total == 1275


def test_C31_side_without_melds() -> None:
    # Side A's melds are those of C30 without the king canasta (two packs hold only 8 kings).
    pos = {
        "format": "canasta-position/1",
        "variant": "classic",
        "players": 4,
        "scores": [0, 0],
        "dealer": 3,
        "turn": 0,
        "phase": "play",
        "hands": [["4C"], ["JK", "2C", "AS", "5S"], ["AS", "9D"], ["KD", "KH", "3S"]],
        "stock": ["5C", "6C", "8C"],
        "pile": ["9C"],
        "melds": [C30_MELDS[1:], []],
        "red_threes": [["3D"], ["3H"]],
        "seat_melded": [True, False, True, False],
    }
    state = position_from_json(pos)
    game = Game(state.rules, seed=1)
    game.start_from(state, pos)
    game.apply(Discard(Card.parse("4C")), 0)
    assert state.result is not None
    b = state.result.scores[1]
    assert (b.cards, b.canastas, b.threes, b.going_out, b.hand) == (0, 0, -100, 0, -120)
    assert b.total == -220
    assert game.totals[1] == -220 and not game.is_over
    nxt = game.next_deal()
    assert nxt.minimum(1) == 15
    assert nxt.minimum(0) == 50


@pytest.mark.parametrize(
    ("threes", "melded", "score"),
    [
        (["3H", "3H", "3D", "3D"], True, 800),
        (["3H", "3H", "3D", "3D"], False, -800),
        (["3H", "3D", "3H"], True, 300),
    ],
)
def test_C32_red_three_scores(threes: list[str], melded: bool, score: int) -> None:
    melds = [[["KS", "KH", "KD"]] if melded else [], []]
    s = ended_position("classic", 4, red_threes=[threes, []], melds=melds)
    assert s.result is not None
    assert s.result.scores[0].threes == score


def test_C33_wild_added_to_natural_canasta() -> None:
    nines = ["9S", "9H", "9D", "9C", "9S", "9H", "9D"]
    s = make_state(
        hands=[["JK", "5C"], [], [], []],
        melds=[[nines], []],
        seat_melded=[True, False, False, False],
    )
    assert canasta_bonus(s.rules, Rank.NINE, s.melds[0][Rank.NINE]) == 500
    act(s, meld({"rank": "9", "cards": ["JK"]}))
    assert canasta_bonus(s.rules, Rank.NINE, s.melds[0][Rank.NINE]) == 300
    act(s, discard("5C"))
    assert s.result is not None
    a = s.result.scores[0]
    assert a.cards == 70 + 50
    assert a.canastas == 300


def test_C34_concealed_going_out_after_stock_draw() -> None:
    fives = ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]
    s = make_state(hands=[[*fives, "9C"], [], ["KS", "QH"], []], drew="stock")
    assert not s.opened[0] and s.minimum(0) == 50
    act(s, meld(fives))
    act(s, discard("9C"))
    assert s.result is not None and s.result.concealed and s.result.went_out == 0
    a = s.result.scores[0]
    assert (a.cards, a.canastas, a.going_out, a.hand) == (35, 500, 200, -20)
    assert a.total == 715


def test_C34_concealed_going_out_in_one_meld_action() -> None:
    fives = ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]
    s = make_state(hands=[fives, [], ["KS", "QH"], []], drew="stock")
    act(s, meld(fives))
    assert s.result is not None and s.result.concealed
    assert s.result.scores[0].total == 715


def test_C35_concealed_after_taking_pile_needs_minimum() -> None:
    s = make_state(
        phase="draw",
        pile=["8H", "5D"],
        hands=[["5S", "5H", "5C", "5S", "5H", "5D", "9C"], [], ["KS", "QH"], []],
    )
    illegal(s, pickup(["5S", "5H", "5C", "5S", "5H", "5D"]), "opening_minimum")
    illegal(s, pickup(["5S", "5H"], ["5C", "5S", "5H", "5D"]))


QUEENS = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]


def test_C36_concealed_with_layoff_on_partner_meld_in_final_turn() -> None:
    s = make_state(
        hands=[[*QUEENS, "KC", "4D"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
        seat_melded=[False, False, True, False],
    )
    act(s, meld(QUEENS, ["KC"]))
    act(s, discard("4D"))
    assert s.result is not None and s.result.concealed
    assert s.result.scores[0].going_out == 200


def test_C36_final_turn_layoff_option() -> None:
    s = make_state(
        options={"concealed_forbids_final_turn_layoff": True},
        hands=[[*QUEENS, "KC", "4D"], [], [], []],
        melds=[[["KS", "KH", "KD"]], []],
        seat_melded=[False, False, True, False],
    )
    act(s, meld(QUEENS, ["KC"]))
    act(s, discard("4D"))
    assert s.result is not None and not s.result.concealed
    assert s.result.scores[0].going_out == 100


def test_C36_earlier_layoff_on_partner_meld_spoils_concealed() -> None:
    s = make_state(
        hands=[[*QUEENS, "KC", "9C", "6H"], ["4S", "5S"], ["4H", "5H"], ["6S", "7S"]],
        melds=[[["KS", "KH", "KD"], ["9S", "9H", "9D"]], []],
        seat_melded=[False, False, True, False],
        stock=["8S", "8H", "8D", "10S", "4D", "10H"],
    )
    act(s, meld(["9C"]))  # an earlier turn: adds to partner's meld
    act(s, discard("6H"))
    for drawn in ("8S", "8H", "8D"):
        act(s, DRAW)
        act(s, discard(drawn))
    act(s, DRAW)  # seat 0 draws 10S
    act(s, meld(QUEENS, ["KC"]))
    act(s, discard("10S"))
    assert s.result is not None and s.result.went_out == 0 and not s.result.concealed
    assert s.result.scores[0].going_out == 100


def test_C37_last_stock_card_red_three() -> None:
    s = make_state(phase="draw", stock=["3D"], melds=OPENED, hands=[["5C", "6D", "7H"], [], [], []])
    act(s, DRAW)
    assert s.is_over and s.result is not None
    assert s.result.reason == "stock_exhausted" and s.result.went_out is None
    assert [c.code for c in s.threes[0]] == ["3D"]
    assert codes(s.hands[0]) == ["5C", "6D", "7H"]
    illegal(s, discard("5C"))
    a = s.result.scores[0]
    assert a.threes == 100 and a.going_out == 0
    assert all(sc.going_out == 0 for sc in s.result.scores)


def _stock_empty(pile: list[str]) -> State:
    return make_state(
        stock=[],
        pile=pile,
        hands=[["8H", "5C"], ["QS", "JD"], ["6C"], ["7C"]],
        melds=[[["AS", "AH", "AD"]], [["8S", "8D", "8C"]]],
    )


def test_C38_must_take_pile_when_stock_is_empty() -> None:
    s = _stock_empty(["QC"])
    act(s, discard("8H"))  # pile [QC, 8H], not frozen; P2 (seat 1) to play
    assert not s.is_over and s.turn == 1 and s.phase == "draw"
    illegal(s, DRAW, "stock_empty")
    illegal(s, PASS, "must_take_pile")
    actions = [a for a in s.legal_actions() if not isinstance(a, Ask)]  # asking partner is allowed
    assert actions and all(isinstance(a, Pickup) for a in actions)
    assert not any(isinstance(a, Draw | Pass) for a in actions)
    act(s, pickup([]))
    assert team_meld(s, 1, "8") == ["8C", "8D", "8H", "8S"]
    assert codes(s.hands[1]) == ["JD", "QC", "QS"]


def test_C38_frozen_pile_and_no_pair_ends_the_hand() -> None:
    s = _stock_empty(["2C", "QC"])
    act(s, discard("8H"))  # pile [2C, QC, 8H], frozen
    assert s.is_over and s.result is not None
    assert s.result.reason == "stock_exhausted" and s.result.went_out is None


def _ended(
    scores: list[int], a_fields: dict[str, Any], b_fields: dict[str, Any]
) -> tuple[State, dict[str, Any]]:
    """An ended 4-player deal: team A (seat 0) and team B (seat 1) melds, threes and hands."""
    pos = {
        "format": "canasta-position/1",
        "variant": "classic",
        "players": 4,
        "scores": scores,
        "dealer": 3,
        "turn": 0,
        "phase": "ended",
        "hands": [a_fields.get("hand", []), b_fields.get("hand", []), [], []],
        "stock": [],
        "pile": [],
        "melds": [a_fields.get("melds", []), b_fields.get("melds", [])],
        "red_threes": [a_fields.get("threes", []), b_fields.get("threes", [])],
        "reason": "stock_exhausted",
        "went_out": None,
    }
    return position_from_json(pos), pos


A_PLUS_300 = {
    "melds": [["4S", "4H", "4D", "4C", "4S", "4H", "JK"]],
    "hand": ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"],
}
B_PLUS_400 = {"melds": [["AS", "AH", "AD", "AC", "AS"]], "threes": ["3H", "3D", "3H"]}
B_PLUS_40 = {"melds": [["JS", "JH", "JD", "JC"]]}
A_PLUS_500 = {
    "melds": [["7S", "7H", "7D", "7C", "7S", "7H", "7D"]],
    "hand": ["7C", "6C", "6D", "6H", "6S", "5C", "5D"],
}


@pytest.mark.parametrize(
    ("before", "a", "b", "deal", "after", "winner"),
    [
        ([4800, 4950], A_PLUS_300, B_PLUS_400, [300, 400], [5100, 5350], 1),
        ([4800, 4950], A_PLUS_300, B_PLUS_40, [300, 40], [5100, 4990], 0),
        ([100, 0], A_PLUS_500, {}, [500, 0], [600, 0], None),
    ],
)
def test_C39_game_end(
    before: list[int],
    a: dict[str, Any],
    b: dict[str, Any],
    deal: list[int],
    after: list[int],
    winner: int | None,
) -> None:
    rules = RuleSet.preset("classic", 4)
    assert rules.target_score == 5000
    assert game_winner(rules, after) == winner
    state, pos = _ended(before, a, b)
    assert state.result is not None
    assert [sc.total for sc in state.result.scores] == deal
    game = Game(rules, seed=1)
    game.start_from(state, pos)
    assert game.totals == after
    assert game.winner == winner
    assert game.is_over is (winner is not None)
    if winner is None:
        nxt = game.next_deal()  # the game continues
        assert nxt.scores == after and not nxt.is_over


# -- 5.5 Classic: other player counts ---------------------------------------------------------


def test_C40_two_player_deal_and_turn() -> None:
    rules = RuleSet.preset("classic", 2)
    assert (rules.hand_size, rules.draw_count, rules.teams) == (15, 2, 2)
    s = State.deal(rules, crafted_deck(rules, 1, {}, ["KC"], ["5C", "6C"]), 1)
    assert [len(h) for h in s.hands] == [15, 15]
    assert [c.code for c in s.pile] == ["KC"]
    assert len(s.stock) == 77
    assert s.turn == 0
    act(s, DRAW)
    assert len(s.hands[0]) == 17 and len(s.stock) == 75
    act(s, discard(s.hands[0][0].code))
    assert len(s.hands[0]) == 16 and s.turn == 1


def test_C40_draw_from_one_card_stock() -> None:
    s = make_state(
        "classic",
        2,
        phase="draw",
        stock=["5C"],
        pile=["9D"],
        hands=[["KS", "QH", "8D"], ["4S", "6H"]],
    )
    act(s, DRAW)
    assert codes(s.hands[0]) == ["5C", "8D", "KS", "QH"]
    assert s.stock == [] and s.phase == "play" and not s.is_over
    act(s, discard("8D"))
    assert s.turn == 1


@pytest.mark.parametrize(("canastas", "ok"), [(1, False), (2, True)])
def test_C41_two_player_needs_two_canastas(canastas: int, ok: bool) -> None:
    melds = [K_CANASTA, ["QS", "QH", "QD"]]
    if canastas == 2:
        melds.append(["AS", "AH", "AD", "AC", "AS", "AH", "AD"])
    s = make_state(
        "classic",
        2,
        hands=[["QC", "5D"], ["4S", "6H"]],
        melds=[melds, []],
        seat_melded=[True, False],
    )
    assert s.rules.go_out_min_canastas == 2
    if ok:
        act(s, meld(["QC"]))
        act(s, discard("5D"))
        assert s.result is not None and s.result.went_out == 0
    else:
        illegal(s, meld(["QC"]), "cannot_go_out")
        illegal(s, meld(["QC", "5D"]))
        s1 = make_state(
            "classic", 2, hands=[["5D"], ["4S", "6H"]], melds=[melds, []], seat_melded=[True, False]
        )
        illegal(s1, discard("5D"), "cannot_go_out")


def test_C42_three_player_deal_and_turn() -> None:
    rules = RuleSet.preset("classic", 3)
    assert (rules.hand_size, rules.draw_count, rules.teams, rules.target_score) == (13, 2, 3, 7500)
    s = State.deal(rules, crafted_deck(rules, 2, {}, ["KC"], ["5C", "6C"]), 2)
    assert [len(h) for h in s.hands] == [13, 13, 13]
    assert len(s.stock) == 68
    assert s.turn == 0
    act(s, DRAW)
    assert len(s.hands[0]) == 15
    act(s, discard(s.hands[0][0].code))
    assert len(s.hands[0]) == 14 and s.turn == 1


@pytest.mark.parametrize(
    ("totals", "winner"),
    [([7600, 7000, 6500], 0), ([7000, 7600, 6500], 1), ([7400, 7000, 6500], None)],
)
def test_C42_three_player_game_end(totals: list[int], winner: int | None) -> None:
    assert game_winner(RuleSet.preset("classic", 3), totals) == winner


@pytest.mark.parametrize(("count", "score"), [(5, 1000), (6, 1200)])
def test_C43_six_players_red_threes(count: int, score: int) -> None:
    rules = RuleSet.preset("classic", 6)
    assert (rules.decks, rules.jokers, rules.teams, rules.deck_size) == (3, 6, 2, 162)
    assert [rules.team_of(seat) for seat in range(6)] == [0, 1, 0, 1, 0, 1]
    threes = ["3H", "3H", "3H", "3D", "3D", "3D"][:count]
    s = ended_position("classic", 6, red_threes=[threes, []], melds=[[["KS", "KH", "KD"]], []])
    assert s.result is not None
    assert s.result.scores[0].threes == score
    bare = ended_position("classic", 6, red_threes=[threes, []])
    assert bare.result is not None and bare.result.scores[0].threes == -score
