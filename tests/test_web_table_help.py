"""The table's help in a real Chromium against a real server: asking partner as the rules say
(offered only where going out may be possible, with its cost; a yes permits and obliges
nothing; a computer's question to a person), hints that are moves the table can follow, the
guard against discarding a card that fits one's own meld, and the countdown while a friend is
away."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser

from canasta.rules.cards import Rank
from server_support import LiveServer
from test_web_client import (
    CORNER,
    LAPTOP,
    PAGE_ERRORS,
    act,
    action_events,
    answered,
    browser,
    choose,
    hand,
    open_page,
    seated_page,
    server,
    shot,
    stacked_deal,
    stacked_log,
    version,
    wait_turn,
)
from web_support import store_table, stored_table

__all__ = ["browser", "server"]  # the fixtures, shared with the table's other browser tests

# Ann's side lays a canasta of kings on her first turn; then everyone draws and discards.
CANASTA_HANDS = [
    "KS KH KD KC KS KH KD 5S 6H 9C 8D",
    "QS QH QD QC JS JH JD JC 10S 10H 10D",
    "9D 9C 8S 8H 7D 8C 7S 7H 6D 6C 6S",
    "AC 4H 5D 5H 4D AD 10C JS 7C 9S 9H",
]
CANASTA_TOP = ["4S", "4C", "JD", "6H", "AS", "5C", "QC", "8S"]


def canasta_log(seat_two_asks: bool = False, second_draw: str = "5C") -> list[dict[str, Any]]:
    """Ann melds seven kings and discards, the others draw and discard their card; Ann's next
    draw is `second_draw`. With `seat_two_asks`, Ann plays that turn, seat 1 plays, and Ann's
    partner (a computer) asks her before drawing."""
    top = [second_draw if i == 5 else card for i, card in enumerate(CANASTA_TOP)]
    events = stacked_log(
        CANASTA_HANDS, top, ["KS", "KH", "KD", "KC", "KS", "KH", "KD"], ["5S", "JD", "6H", "AS"]
    )
    if seat_two_asks:
        events += action_events(
            [(0, {"type": "draw"}), (0, {"type": "discard", "card": "6H"}), (1, {"type": "draw"}),
             (1, {"type": "discard", "card": "QC"}), (2, {"type": "ask"})]
        )  # fmt: skip
    return events


def test_asking_partner_is_offered_where_going_out_may_be_possible_and_a_yes_permits(
    server: LiveServer, browser: Browser
) -> None:
    # no canasta on the side and none within reach of this hand: no "Ask partner"
    hands = [
        "4S 4H 9D JH AS AH 9S 5C 6D 7C 8D",
        "QS QH QD QC JS 8H JD JC 10S 10H 10D",
        "9H 9C 8S JK 6S 8C 7S 7H 7D 6C 2S",
        "KC 6H 5S 5H 5D 4C 10C AD AC KS KH",
    ]
    context, page, _ = seated_page(
        server,
        browser,
        stacked_log(hands, ["KD", "8S", "JC", "QS", "KD", "AH"], None, ["8D", "JC", "QS", "KD"]),
    )
    assert wait_turn(page) == "draw"
    assert page.is_hidden("#btn-ask")
    context.close()
    # with a canasta of kings on the side: offered, saying what it costs in classic
    context, page, table_id = seated_page(server, browser, canasta_log())
    assert wait_turn(page) == "draw"
    assert page.is_visible("#btn-ask")
    assert page.inner_text("#btn-ask") == "Ask partner"
    assert page.get_attribute("#btn-ask", "aria-label") == "Ask partner: a “no” binds for this turn"
    assert page.get_attribute("#btn-ask", "title") == "Ask partner: a “no” binds for this turn"
    page.click("#btn-ask")
    # the computer partner (its side has the canasta it needs) says yes: one may go out
    page.wait_for_function("() => document.getElementById('status').textContent.includes('said yes')")
    assert page.inner_text("#status") == (
        "Your turn: draw from the stock or take the pile. Your partner said yes: you may go out this turn."
    )
    assert "Computer 3 answered yes." in page.inner_text("#log")
    shot(page, "ask-yes-desktop.png")
    # ... and is not obliged to: drawing and discarding without going out is accepted
    assert act(page, "#btn-draw")
    assert "you may go out this turn" in page.inner_text("#status")
    card = next(i for i, code in hand(page) if code == "9C")
    choose(page, [card])
    assert act(page, "#btn-discard")
    moves = [(m["seat"], m["action"]) for m in stored_table(server.db, table_id).moves]
    at = moves.index((0, {"type": "ask"}))
    assert moves[at + 1 : at + 4] == [
        (2, {"type": "answer", "yes": True}), (0, {"type": "draw"}), (0, {"type": "discard", "card": "9C"})
    ]  # fmt: skip
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def test_a_computer_partner_asking_gets_a_clear_prompt(server: LiveServer, browser: Browser) -> None:
    context, page, table_id = seated_page(server, browser, canasta_log(seat_two_asks=True))
    assert wait_turn(page) == "answer"
    assert page.inner_text("#prompt p:first-child") == "Computer 3, your partner, asks: may I go out?"
    assert page.inner_text("#prompt .prompt-note") == (
        "“Yes” lets them go out this turn (it does not oblige them);"
        " “No” forbids going out for the rest of their turn."
    )
    assert page.inner_text("#status") == "Computer 3 asks you: may I go out?"
    assert page.get_attribute("#answer-no", "aria-keyshortcuts") == "n"
    shot(page, "asked-by-computer-desktop.png")
    page.keyboard.press("n")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('Ann answered no.')")
    answered = [e for e in stored_table(server.db, table_id).moves if e["action"]["type"] == "answer"]
    assert answered[-1]["action"] == {"type": "answer", "yes": False} and answered[-1]["seat"] == 0
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def jacks_log(hand: str, melds: list[list[str]], second_draw: str) -> list[dict[str, Any]]:
    """Ann lays `melds` (six jacks among them) on her first turn and discards the card she drew;
    the others draw and discard; Ann's next draw is `second_draw`."""
    hands = [
        hand,
        "QS QH QD QC 10S 10H 10D 10C 9S 9H 9D",
        "8S 8H 8D 8C 7S 7H 7D 7C 6S 6D 6C",
        "AC AD AH AS KS KH KD KC 4H 4D 4S",
    ]
    moves = [
        (0, {"type": "draw"}),
        (0, {"type": "meld", "melds": melds}),
        (0, {"type": "discard", "card": "5S"}),
    ]
    for seat, card in ((1, "QS"), (2, "8S"), (3, "KD")):
        moves += [(seat, {"type": "draw"}), (seat, {"type": "discard", "card": card})]
    top = ["5C", "5S", "QS", "8S", "KD", second_draw]
    return [stacked_deal([h.split() for h in hands], top), *action_events(moves)]


JACKS = ["JS", "JH", "JD", "JC", "JS", "JH"]


def test_a_hint_names_the_move_lights_its_target_and_can_be_followed_literally(
    server: LiveServer, browser: Browser
) -> None:
    # the seventh jack comes with the second draw
    events = jacks_log("JS JH JD JC JS JH 5D 6H 9C 8D 4C", [JACKS], "JC")
    context, page, table_id = seated_page(server, browser, events)
    assert wait_turn(page) == "draw"
    assert act(page, "#btn-draw")
    page.click("#btn-hint")
    page.wait_for_selector("#hint:not([hidden])")
    assert page.inner_text("#hint") == "Hint: Add J♣ to your jacks: it completes a canasta of jacks."
    # its card, its meld and the button that lays it are lit
    assert page.eval_on_selector_all("#hand .hinted", "els => els.map(e => e.dataset.card)") == ["JC"]
    assert page.eval_on_selector_all("#our-melds .hint-target", "els => els.map(e => e.dataset.rank)") == [
        "J"
    ]
    assert "hint-target" in (page.get_attribute("#btn-meld", "class") or "")
    shot(page, "hint-move-desktop.png")
    # as it says: choose the J♣ and press the lit button
    choose(page, [i for i, code in hand(page) if code == "JC"])
    assert act(page, "#btn-meld"), page.inner_text("#error")
    state = stored_table(server.db, table_id).state
    assert state is not None and len(state.melds[0][Rank.JACK]) == 7
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def test_a_wild_card_goes_onto_the_meld_it_fits_by_lay_melds_or_by_the_melds_number_key(
    server: LiveServer, browser: Browser
) -> None:
    """Six jacks and four aces on the table, 2♥ and 9♣ in hand: the 2♥ may go onto the jacks
    (a canasta, so the 9♣ could go out), not onto the aces."""
    for by_number in (False, True):
        events = jacks_log("JS JH JD JC JS JH AS AH AD AC 2H", [JACKS, ["AS", "AH", "AD", "AC"]], "9C")
        context, page, table_id = seated_page(server, browser, events)
        assert wait_turn(page) == "draw"
        before = version(page)
        page.keyboard.press("d")
        assert answered(page, before) and wait_turn(page) == "play"
        # with the keyboard only: the 2♥ chosen ...
        page.focus("#hand .in-hand")
        while page.evaluate("document.activeElement.dataset.card") != "2H":
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
        if by_number:  # ... put on the jacks by their number (the aces come first) ...
            assert page.get_attribute('#our-melds .meld[data-rank="J"]', "aria-keyshortcuts") == "2"
            page.keyboard.press("2")
            page.wait_for_selector("#staging:not([hidden]) .staged-group")
            assert page.inner_text("#staging .to-meld") == "→ J"
        before = version(page)
        page.keyboard.press("m")  # ... and laid
        assert answered(page, before), page.inner_text("#error")
        state = stored_table(server.db, table_id).state
        assert state is not None and len(state.melds[0][Rank.JACK]) == 7
        page.keyboard.press("?")
        assert "Add the chosen cards to your first, second… ninth meld" in page.inner_text("#help-keys")
        assert PAGE_ERRORS[id(page)] == []
        context.close()


def test_discarding_a_card_that_fits_ones_meld_asks_once_unless_told_not_to(
    server: LiveServer, browser: Browser
) -> None:
    context, page, table_id = seated_page(server, browser, canasta_log(second_draw="KC"))
    assert wait_turn(page) == "draw"
    assert act(page, "#btn-draw")
    king = '#hand .in-hand[data-card="KC"]'
    before = version(page)
    # the king could go onto the side's kings (a legal move): discarding it asks first
    choose(page, [i for i, code in hand(page) if code == "KC"])
    page.click("#pile-button")
    page.wait_for_selector("#guard-dialog[open]")
    assert page.inner_text("#guard-question") == "K♣ fits your kings: discard it anyway?"
    shot(page, "discard-guard-desktop.png")
    page.click("text=Keep it")
    assert page.is_hidden("#guard-dialog") and version(page) == before
    # dragged onto the pile: asked again; "don't ask again" is kept by the browser
    page.drag_and_drop(king, "#pile-button", source_position=CORNER)
    page.wait_for_selector("#guard-dialog[open]")
    page.check("#guard-again")
    page.click("#guard-discard")
    assert answered(page, before), page.inner_text("#error")
    moves = [(m["seat"], m["action"]) for m in stored_table(server.db, table_id).moves]
    assert moves.count((0, {"type": "discard", "card": "KC"})) == 1  # once: "Keep it" sent nothing
    assert page.evaluate("localStorage.getItem('canasta.discardGuard')") == "off"
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def test_a_friend_who_is_away_shows_a_countdown_until_a_computer_plays(
    server: LiveServer, browser: Browser
) -> None:
    """Bea (seat 1, Ann's opponent) never connects: the table counts down her grace period on
    her seat and in the status while it is her turn."""
    settings = {"seats": ["human", "human", "easy", "easy"], "grace": 600}
    hands = [h.split() for h in CANASTA_HANDS]
    moves = [(0, {"type": "draw"}), (0, {"type": "discard", "card": "5S"})]
    events = [stacked_deal(hands, CANASTA_TOP), *action_events(moves)]
    table_id, token = store_table(server.db, settings, events, others={1: "Bea"})
    context, page = open_page(browser, LAPTOP)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    chip = '#seats .seat-chip[data-seat="1"] .seat-status'
    page.wait_for_selector(f"{chip}[data-grace-seat]")
    away = re.compile(r"away: a computer plays in (9:5\d|10:00)")
    assert away.fullmatch(page.inner_text(chip)), page.inner_text(chip)
    status = re.compile(r"Bea is away: a computer plays in (9:5\d|10:00)\.")
    assert status.fullmatch(page.inner_text("#status")), page.inner_text("#status")
    first = page.inner_text(chip)
    page.wait_for_function("t => document.querySelector(t[0]).textContent !== t[1]", arg=[chip, first])
    shot(page, "friend-away-1366x800.png")
    assert PAGE_ERRORS[id(page)] == []
    context.close()
