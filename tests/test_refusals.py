"""Refused moves explained in a player's words: the engine's refusal (its code, case and facts)
rendered in English and Russian, with no engine notation; checked on chosen positions and on
thousands of refusals met in random play."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from canasta.protocol import ProtocolError
from canasta.protocol.pile_reasons import pile_refusal
from canasta.protocol.refusal_texts import EN, RU
from canasta.protocol.rule_reasons import reason_text
from canasta.rules import Game, IllegalActionError, State
from canasta.rules.actions import Answer, Ask, Discard, Draw, Group, Meld, Pickup
from canasta.rules.cards import Card, parse_cards
from canasta.rules.refusal import Code
from canasta.server.table_facts import table_facts
from support import action, illegal, make_state

OPENED = [[["AS", "AH", "AD"]], []]
# Engine notation that must never reach a player: card codes, bracketed groups, move names.
NOTATION = re.compile(r"\b(10|[2-9AKQJ])[SHDC]\b|\bJK\b|\[|\]|\bpickup\b|\bseat \d|\bminimum is\b")
CYRILLIC = re.compile("[а-яё]", re.I)


def said(state: State, obj: dict[str, Any]) -> dict[str, str]:
    """What a player is told, in each language, when trying `obj` in `state` (it must fail)."""
    move = action(obj)
    with pytest.raises(IllegalActionError) as caught:
        state.clone().apply(move)
    error = ProtocolError.illegal(caught.value)
    return {lang: error.message(lang) for lang in ("en", "ru")}


def test_every_rule_the_engine_enforces_has_a_sentence_in_both_languages() -> None:
    codes = {code.value for code in Code}
    assert len(codes) > 20
    for texts in (EN, RU):
        known = {key.split(".")[0] for key in texts}
        assert codes <= known, codes - known
        assert {key for key in texts if key.split(".")[0] not in codes} == set(), "a text for no rule"
    assert set(EN) == set(RU)
    for key in EN:
        assert CYRILLIC.search(RU[key]) and not CYRILLIC.search(EN[key]), key


def test_a_frozen_pile_names_the_pair_it_needs() -> None:
    s = make_state(
        phase="draw", pile=["6C", "2C", "8D", "QH"], melds=OPENED, hands=[["QS", "JK", "5C"], [], [], []]
    )
    assert said(s, {"type": "pickup", "with": ["QS", "JK"]}) == {
        "en": "The pile is frozen: you need two natural queens from your hand to take it.",
        "ru": "Сброс заморожен: чтобы его взять, нужна пара натуральных дам с руки.",
    }
    unopened = make_state(phase="draw", pile=["8D", "KH"], hands=[["KS", "JK", "5C"], [], [], []])
    assert said(unopened, {"type": "pickup", "with": ["KS", "JK"]})["en"] == (
        "Your side has not melded yet: to take the pile you need two natural kings from your hand."
    )


def test_an_opening_short_of_the_minimum_counts_its_points() -> None:
    s = make_state(hands=[["KS", "KH", "KD", "7S", "7H", "7D", "9C", "4D"], [], [], []])
    texts = said(s, {"type": "meld", "melds": [["KS", "KH", "KD"], ["7S", "7H", "7D"]]})
    assert texts == {
        "en": "Your first meld counts 45 points; you need at least 50.",
        "ru": "Для первой выкладки не хватает очков: 45 из 50.",
    }


def test_meld_make_up_going_out_and_discards_are_explained() -> None:
    s = make_state(hands=[["KS", "2C", "2D", "9D", "5S"], [], [], []], melds=OPENED)
    assert said(s, {"type": "meld", "melds": [["KS", "2C", "2D"]]})["en"] == (
        "A meld of kings needs at least 2 natural cards."
    )
    assert said(s, {"type": "meld", "melds": [["9D", "5S"]]})["ru"] == (
        "В комбинации карты одного достоинства (и джокеры или двойки)."
    )
    short = make_state(hands=[["9D", "9S", "9H", "5S"], [], [], []], melds=OPENED)
    assert (
        said(short, {"type": "meld", "melds": [["9D", "9S"]]})["en"]
        == "A new meld of nines needs at least three cards."
    )
    going = make_state(hands=[["QC", "QD", "QH", "5D"], [], [], []], melds=OPENED)
    assert said(going, {"type": "meld", "melds": [["QC", "QD", "QH"]]})["en"] == (
        "You cannot go out yet: your side needs 1 canasta and has 0."
    )
    last = make_state(hands=[["5D"], [], [], []], melds=OPENED)
    assert said(last, {"type": "discard", "card": "5D"}) == {
        "en": "You cannot go out yet: your side needs 1 canasta and has 0.",
        "ru": "Выйти пока нельзя: нужно канаст — 1, у вашей команды — 0.",
    }
    assert said(s, {"type": "discard", "card": "QD"})["en"] == "You do not hold Q♦."
    assert said(s, {"type": "discard", "card": "JK"}) == {
        "en": "You do not hold a joker.",
        "ru": "У вас на руке нет джокера.",
    }


def refusals_in_random_play(variant: str, players: int, seed: int) -> list[IllegalActionError]:
    """Moves a careless player might try in random deals (cards of the hand in random groups,
    pickups with random cards, discards), and the engine's refusals of them."""
    rng = random.Random(seed)
    game = Game.new(variant, players=players, seed=seed)
    found = []
    state = game.current
    for _ in range(400):
        if state.is_over:
            break
        hand = list(state.hands[state.to_move])
        tries: list[Any] = []
        for _ in range(3):
            pick = rng.sample(hand, min(len(hand), rng.randint(1, 4)))
            tries += [Meld((Group(tuple(pick)),)), Pickup(tuple(pick[:2])), Discard(rng.choice(hand))]
        tries.append(Discard(Card.parse("QD")))
        for move in tries:
            try:
                state.clone().apply(move)
            except IllegalActionError as exc:
                found.append(exc)
        game.apply(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 4), ("modern-american", 4), ("online", 2), ("mendelev", 4)]
)
def test_refusals_met_in_play_speak_plainly(variant: str, players: int) -> None:
    seen: set[str] = set()
    for seed in (1, 2):
        for exc in refusals_in_random_play(variant, players, seed):
            found = exc.refusal
            assert found is not None and found.code == exc.code
            assert found.case is None or (found.key in EN and found.key in RU), found.key
            seen.add(found.key)
            for lang in ("en", "ru"):
                text = reason_text(lang, found)
                assert not NOTATION.search(text), (lang, text, exc.message)
                assert "{" not in text and text.endswith("."), text
                assert text not in ("The rules do not allow this move.", "Правила не разрешают этот ход."), (
                    exc.code
                )
    assert len(seen) >= 6, seen


def test_why_the_pile_cannot_be_taken_is_said_to_the_player_about_to_draw() -> None:
    def why(state: State, seat: int | None = 0) -> dict[str, str] | None:
        found = pile_refusal(state, seat)
        return None if found is None else {lang: reason_text(lang, found) for lang in ("en", "ru")}

    hands = [["QS", "JK", "5C"], [], [], []]
    frozen = make_state(phase="draw", pile=["6C", "2C", "8D", "QH"], melds=OPENED, hands=hands)
    assert why(frozen) == {
        "en": "The pile is frozen: you need two natural queens from your hand to take it.",
        "ru": "Сброс заморожен: чтобы его взять, нужна пара натуральных дам с руки.",
    }
    assert why(frozen, 1) is None and why(frozen, None) is None  # not their decision
    blocked = make_state(phase="draw", pile=["8D", "3C"], melds=OPENED, hands=hands)
    assert why(blocked) == {
        "en": "A black three on top blocks the pile: draw from the stock.",
        "ru": "Чёрная тройка сверху закрывает сброс: возьмите карту из прикупа.",
    }
    # a pair of fives, but an opening of 15 points is short of 50
    short = make_state(phase="draw", pile=["8D", "5H"], hands=[["5S", "5D", "9C"], [], [], []])
    assert why(short) == {
        "en": "Your first meld counts 15 points; you need at least 50.",
        "ru": "Для первой выкладки не хватает очков: 15 из 50.",
    }
    takeable = make_state(
        phase="draw", pile=["8D", "QH"], melds=OPENED, hands=[["QS", "QD", "5C"], [], [], []]
    )
    assert why(takeable) is None  # the pair of queens takes it


def test_a_one_card_hand_reads_the_one_card_rule_on_a_pile_of_a_black_three() -> None:
    s = make_state(
        options={"block_rules": ["wild_top", "one_card"]},
        phase="draw",
        pile=["3S"],
        melds=OPENED,
        hands=[["9D"], [], [], []],
    )
    error = illegal(s, {"type": "pickup", "with": []}, "pile_blocked")
    assert error.refusal is not None and error.refusal.case == "one_card"
    one_card = {
        "en": "Holding one card, you may not take a pile of one card.",
        "ru": "С одной картой на руке нельзя взять сброс из одной карты.",
    }
    assert said(s, {"type": "pickup", "with": []}) == one_card
    found = pile_refusal(s, 0)
    assert found is not None and {lang: reason_text(lang, found) for lang in ("en", "ru")} == one_card
    assert table_facts(s)["pile_block"] == "one_card"


def test_acting_around_an_ask_names_the_ask() -> None:
    s = make_state(phase="draw", melds=OPENED, hands=[["9D", "9S", "9H", "5C"], ["4D"], ["6D"], ["7D"]])
    with pytest.raises(IllegalActionError) as caught:
        s.apply(Answer(True), seat=2)
    assert caught.value.code == "no_question"
    s.apply(Ask(), seat=0)
    for move in (Draw(), Meld((Group(tuple(parse_cards("9D 9S 9H"))),)), Discard(Card.parse("5C"))):
        with pytest.raises(IllegalActionError) as caught:
            s.clone().apply(move, seat=0)
        assert caught.value.code == "awaiting_answer", move
    with pytest.raises(IllegalActionError) as caught:
        s.clone().apply(Draw(), seat=1)
    assert caught.value.code == "not_your_turn"
    s.apply(Answer(False), seat=2)
    with pytest.raises(IllegalActionError) as caught:
        s.apply(Answer(True), seat=2)
    assert caught.value.code == "no_question"


def test_a_black_three_pile_taken_with_a_short_opening_is_refused_by_the_block() -> None:
    s = make_state("online", 4, phase="draw", pile=["9C", "3S"], hands=[["3C", "3S", "KD"], [], [], []])
    error = illegal(s, {"type": "pickup", "with": ["3C", "3S"]}, "pile_blocked")
    assert error.refusal is not None and error.refusal.case == "black3_go_out"
    assert said(s, {"type": "pickup", "with": ["3C", "3S"]})["en"] == (
        "A pile topped by a black three may be taken only to go out at once."
    )
