"""The browser client in a real Chromium (Playwright) against a real server: a whole deal
played by clicks, two people at one table, refresh and second device, refused moves, the phone
layout, and no hidden card in any page's DOM or network traffic. Screenshots go to
`artifacts/screenshots/`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from canasta.rules.cards import make_deck
from web_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    LiveServer,
    Watch,
    live_server,
    store_table,
    stored_table,
)

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
WILD = ("JK", "2")
CORNER = {"x": 6, "y": 24}  # where a card of the hand is clicked: overlapping leaves it free
PAGE_ERRORS: dict[int, list[str]] = {}  # script errors and console errors, by id(page)

# What the player is asked to do now (or that the deal is over), read from the page.
TURN_JS = """() => {
  if (document.getElementById('result-dialog').open) return 'result';
  if (document.getElementById('answer-yes')) return 'answer';
  const draw = document.getElementById('btn-draw');
  if (!draw.hidden && !draw.disabled) return 'draw';
  if (!document.getElementById('btn-discard').hidden) return 'play';
  return false;
}"""

MOVED_JS = "v => Number(document.body.dataset.version) !== v || !document.getElementById('error').hidden"

# Controls that stick out of the viewport, or that something else covers once scrolled to.
UNREACHABLE_JS = """() => {
  const width = document.documentElement.clientWidth;
  const bad = [];
  if (document.documentElement.scrollWidth > width) bad.push('page ' + document.documentElement.scrollWidth);
  const root = document.querySelector('dialog[open]') || document;  // a modal dialog: only its controls
  const controls = root.querySelectorAll('button, a[href], input, select, [tabindex]:not([tabindex="-1"])');
  for (const el of controls) {
    if (el.closest('dialog:not([open])') || el.classList.contains('skip')) continue;  // shown on focus
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const name = el.id || el.dataset.card || el.textContent.trim().slice(0, 20);
    if (box.left < -0.5 || box.right > width + 0.5) {
      bad.push(`${name} ${box.left}..${box.right}`);
      continue;
    }
    el.scrollIntoView({ block: 'start' });
    const at = el.getBoundingClientRect();
    const hit = document.elementFromPoint(at.left + Math.min(4, at.width / 2), at.top + at.height / 2);
    const label = el.labels && [...el.labels].some((l) => l.contains(hit));
    if (!hit || !(el === hit || el.contains(hit) || label))
      bad.push(`${name} covered by ${hit && (hit.id || hit.className)}`);
  }
  window.scrollTo(0, 0);
  return bad;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def open_page(
    browser: Browser, viewport: dict[str, int] = DESKTOP, **options: Any
) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=viewport, locale="en-GB", **options)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = PAGE_ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return context, page


def shot(page: Page, name: str, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


def version(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.version || -1)"))


def act(page: Page, selector: str) -> bool:
    """Click a control that sends a move; True when the table moved on, False when refused."""
    before = version(page)
    page.click(selector)
    return answered(page, before)


def answered(page: Page, before: int) -> bool:
    """Wait for the server's answer to a move: True when the table moved on from version
    `before`, False when the move was refused (its explanation is shown)."""
    page.wait_for_function(MOVED_JS, arg=before)
    return page.is_hidden("#error")


def wait_turn(page: Page) -> str:
    return str(page.wait_for_function(TURN_JS, timeout=60_000).json_value())


def hand(page: Page) -> list[tuple[int, str]]:
    """The hand as shown: (index, card) in display order."""
    pairs = page.eval_on_selector_all(
        "#hand .in-hand", "els => els.map(e => [Number(e.dataset.index), e.dataset.card])"
    )
    return [(int(i), str(c)) for i, c in pairs]


def rank(code: str) -> str:
    return code[:-1] if code != "JK" else code


def natural_groups(cards: list[tuple[int, str]]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for index, code in cards:
        if rank(code) not in (*WILD, "3"):
            groups.setdefault(rank(code), []).append(index)
    return groups


def choose(page: Page, indexes: list[int]) -> None:
    """Click cards of the hand, on the corner a player sees."""
    for index in indexes:
        page.click(f'#hand .in-hand[data-index="{index}"]', position=CORNER)


def create_table(
    page: Page, server: LiveServer, seats: dict[int, str], name: str = "Ann", free_chat: bool = True
) -> str:
    """Create a table on the home page (seat 0 is the creator's); returns its link."""
    page.goto(server.url + "/")
    page.wait_for_selector("#variants input")
    for seat, kind in seats.items():
        if kind == "friend":
            page.select_option(f"#seat-{seat}", "friend")
        else:
            page.select_option(f"#level-{seat}", kind)
    page.set_checked("#free-chat", free_chat)
    page.fill("#name", name)
    page.click("#btn-create")
    page.wait_for_selector("#created:not([hidden])")
    link = page.input_value("#table-link")
    assert link.startswith(server.url + "/t/")
    page.click("#go-table")
    return link


def try_pickup(page: Page) -> bool:
    """Take the pile with a natural pair matching its top card, if the hand has one."""
    top = page.get_attribute("#pile-button .face", "data-card")
    pair = natural_groups(hand(page)).get(rank(top)) if top else None
    if not pair or len(pair) < 2:
        return False
    choose(page, pair[:2])
    if act(page, "#btn-pickup"):
        return True
    page.click("#btn-clear")
    return False


def try_meld(page: Page) -> bool:
    """Stage and lay three or more natural cards of a rank, keeping two cards in hand."""
    cards = hand(page)
    for indexes in natural_groups(cards).values():
        if len(indexes) >= 3 and len(cards) - len(indexes) >= 2:
            choose(page, indexes)
            page.click("#btn-group")
            assert page.is_visible("#opening-count")
            if act(page, "#btn-meld"):
                return True
            page.click("#btn-clear")
    return False


def discard(page: Page, drag: bool) -> None:
    """Discard a card (a black three or a lone card first; never a wild card) by clicking the
    pile, or by dragging the card onto it."""
    cards = hand(page)
    counts = Counter(rank(c) for _, c in cards)
    order = (
        sorted(
            (c for c in cards if rank(c[1]) not in WILD),
            key=lambda c: (c[1] not in ("3S", "3C"), counts[rank(c[1])]),
        )
        or cards
    )
    for index, _ in order:
        selector = f'#hand .in-hand[data-index="{index}"]'
        before = version(page)
        if drag:
            page.drag_and_drop(selector, "#pile-button", source_position=CORNER)
            if answered(page, before):
                return
        else:
            choose(page, [index])
            if act(page, "#pile-button"):
                return
            page.click("#btn-clear")
    raise AssertionError(f"no card of {cards} could be discarded: {page.inner_text('#error')}")


def play_turns(page: Page, watch: Watch, until: str = "result", screenshot_at: int = 0) -> dict[str, int]:
    """Play this seat through clicks until the deal is over; counts what was done."""
    done = Counter(turns=0, melds=0, pickups=0, answers=0)
    while True:
        kind = wait_turn(page)
        watch.snapshot(page)
        if kind == until:
            return dict(done)
        if kind == "answer":
            done["answers"] += 1
            assert page.is_visible("#prompt")
            act(page, "#answer-yes")
        elif kind == "draw":
            done["turns"] += 1
            if try_pickup(page):
                done["pickups"] += 1
            else:
                assert act(page, "#stock-button" if done["turns"] % 2 else "#btn-draw"), page.inner_text(
                    "#error"
                )
        else:
            done["melds"] += try_meld(page)
            if done["turns"] == screenshot_at:
                shot(page, "table-desktop.png")
            discard(page, drag=done["turns"] % 5 == 3)


def test_a_full_deal_against_three_computer_players_by_clicks(server: LiveServer, browser: Browser) -> None:
    context, page = open_page(browser)
    watch = Watch(seat=0)
    watch.attach(page)
    link = create_table(page, server, {1: "easy", 2: "easy", 3: "easy"}, free_chat=False)
    table_id = link.rsplit("/", 1)[1]
    page.wait_for_selector("#hand .in-hand")
    # the creator turned free text off: preset phrases only
    assert stored_table(server.db, table_id).settings.free_chat is False
    assert page.is_visible("#chat-phrase") and page.is_hidden("#chat-text")
    done = play_turns(page, watch, screenshot_at=6)
    assert done["turns"] >= 3
    # the end of the deal: the breakdown per team, part by part
    assert page.inner_text("#result-title") == "Deal 1 is over"
    rows = page.eval_on_selector_all("#result-body table.breakdown tbody tr", "rs => rs.length")
    assert rows == 7
    assert page.inner_text("#result-body thead").split() == ["We", "They"]
    truth = stored_table(server.db, table_id)
    result = truth.games[0].results[0]
    totals = page.eval_on_selector_all(
        "#result-body tr.total td", "tds => tds.map(td => Number(td.textContent))"
    )
    assert totals == [s.total for s in result.scores]
    shot(page, "deal-over-desktop.png")
    page.click("#result-close")
    page.click("#btn-sheet")
    assert page.locator("#sheet-body svg.chart polyline").count() == 2
    assert page.locator("#sheet-body table.sheet tbody tr").count() == 1
    page.keyboard.press("Escape")
    assert watch.check(server.db, table_id) > 20
    assert PAGE_ERRORS[id(page)] == []

    # the hand history: every hand shown, move by move, and the record to download
    page.goto(f"{server.url}/t/{table_id}/replay")
    page.wait_for_selector("#hands .hand-row")
    assert page.locator("#hands .hand-row").count() == 4
    assert page.locator("#hands [data-card]").count() == 44
    for step in (1, 2, 3):
        page.click("#next")
        assert page.get_attribute("body", "data-step") == str(step)
    assert "Ann" in page.inner_text("#move-text") or "Computer" in page.inner_text("#move-text")
    page.keyboard.press("End")
    assert page.is_visible("#result table.breakdown")
    steps = int(page.get_attribute("body", "data-step") or 0)
    assert steps == len(truth.games[0].deals[0].actions)
    shot(page, "replay-desktop.png")
    record = page.request.get(server.url + (page.get_attribute("#download", "href") or "")).json()
    assert record["format"] == "canasta-record/1" and len(record["deals"][0]["actions"]) == steps
    context.close()


def test_two_people_at_one_table_refresh_another_device_and_refused_moves(
    server: LiveServer, browser: Browser
) -> None:
    ann_context, ann = open_page(browser)
    bob_context, bob = open_page(browser)
    watches = {0: Watch(seat=0), 1: Watch(seat=1)}
    watches[0].attach(ann)
    watches[1].attach(bob)
    link = create_table(ann, server, {1: "friend", 2: "easy", 3: "easy"})
    table_id = link.rsplit("/", 1)[1]
    ann.wait_for_selector("#status")
    assert "Waiting for 1 more player" in ann.inner_text("#status")

    # Bob opens the link, types his name and picks the free seat
    bob.goto(link)
    bob.wait_for_selector("#join-dialog[open]")
    assert bob.is_disabled('.seat-option[data-seat="0"]') and bob.is_enabled('.seat-option[data-seat="1"]')
    bob.fill("#join-name", "Bob")
    shot(bob, "join-desktop.png")
    bob.click('.seat-option[data-seat="1"]')
    for page in (ann, bob):
        page.wait_for_selector("#hand .in-hand")

    def check_hands() -> None:
        for seat, page in ((0, ann), (1, bob)):
            watches[seat].snapshot(page)
            table = stored_table(server.db, table_id, version(page))
            assert table.state is not None
            assert Counter(c for _, c in hand(page)) == Counter(c.code for c in table.state.hands[seat])
            assert page.locator("#seats [data-card]").count() == 0

    check_hands()
    assert wait_turn(ann) == "draw"
    ann.select_option("#chat-phrase", "good_luck")
    ann.click("#chat-form button")
    assert bob.wait_for_selector("#log li.chat").inner_text() == "Ann: Good luck!"

    # free text is shown as written, never as markup; typing it plays no move
    before = version(ann)
    text = 'draw <img src=x onerror="document.title=1"> & <b>pass</b>'
    ann.fill("#chat-text", "")
    ann.type("#chat-text", text)
    ann.press("#chat-text", "Enter")
    bob.wait_for_function("() => document.querySelectorAll('#log li.chat').length === 2")
    assert bob.inner_text("#log li.chat >> nth=0") == f"Ann: {text}"
    assert bob.locator("#log img, #log b").count() == 0 and bob.title() == "Canasta"
    assert ann.input_value("#chat-text") == "" and version(ann) == before
    assert act(ann, "#btn-draw")

    # a refused move explains itself, in English and then in Russian; nothing changes
    cards = hand(ann)
    mixed = list({rank(c): i for i, c in reversed(cards) if rank(c) not in WILD}.values())[:3]
    choose(ann, mixed)
    ann.click("#btn-group")
    before = version(ann)
    assert not act(ann, "#btn-meld")
    assert ann.inner_text("#error").startswith("Illegal move:")
    assert version(ann) == before and len(hand(ann)) == len(cards) - 3
    ann.click("#lang-switch")
    ann.wait_for_function("() => document.documentElement.lang === 'ru'")
    ann.wait_for_selector("#btn-meld:not([hidden])")
    assert ann.inner_text("#btn-meld") == "Выложить"
    ann.wait_for_function("() => document.getElementById('connection').hidden")
    assert not act(ann, "#btn-meld")
    assert ann.inner_text("#error").startswith("Недопустимый ход:")
    shot(ann, "refused-move-ru-desktop.png")
    ann.click("#btn-clear")
    assert len(hand(ann)) == len(cards)
    discard(ann, drag=False)
    check_hands()

    # Bob plays his turn with the keyboard only
    assert wait_turn(bob) == "draw"
    before = version(bob)
    bob.keyboard.press("d")
    bob.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert len(hand(bob)) == 12
    bob.focus("#hand .in-hand")
    bob.keyboard.press("ArrowRight")
    bob.keyboard.press("Space")
    assert bob.locator("#hand .in-hand.selected").count() == 1
    before = version(bob)
    bob.keyboard.press("x")
    bob.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert len(hand(bob)) == 11
    check_hands()

    # a refresh keeps the seat; the rejoin link opens it on another device
    token = bob.evaluate(f"localStorage.getItem('canasta.seat.{table_id}')")
    bob.reload()
    bob.wait_for_selector("#hand .in-hand")
    assert not bob.is_visible("#join-dialog")
    assert bob.evaluate(f"localStorage.getItem('canasta.seat.{table_id}')") == token
    check_hands()
    bob.click("#btn-invite")
    rejoin = bob.input_value("#rejoin-link")
    assert rejoin == f"{link}#seat={token}"
    bob.keyboard.press("Escape")
    phone_context, phone = open_page(browser, PHONE)
    phone_watch = Watch(seat=1)
    phone_watch.attach(phone)
    phone.goto(rejoin)
    phone.wait_for_selector("#hand .in-hand")
    assert "#seat=" not in phone.url
    assert Counter(c for _, c in hand(phone)) == Counter(c for _, c in hand(bob))
    phone_watch.snapshot(phone)

    # a spectator sees no hand at all
    spectator_context, spectator = open_page(browser)
    spectator_watch = Watch(seat=None)
    spectator_watch.attach(spectator)
    spectator.goto(link)
    spectator.wait_for_selector("#seats .seat-chip")
    spectator.wait_for_function("() => Number(document.body.dataset.version) > 0")
    assert spectator.inner_text("#hand-title") == "You are watching this table."
    assert spectator.locator("#hand [data-card]").count() == 0
    spectator_watch.snapshot(spectator)

    # play on a few turns by clicks, then check everything every page received and showed
    for page, seat in ((ann, 0), (bob, 1), (ann, 0)):
        kind = wait_turn(page)
        if kind == "answer":
            act(page, "#answer-yes")
        elif kind == "draw":
            assert act(page, "#btn-draw")
            try_meld(page)
            discard(page, drag=seat == 1)
        check_hands()
        spectator_watch.snapshot(spectator)
    for watch in (*watches.values(), phone_watch, spectator_watch):
        assert watch.check(server.db, table_id) > 3
    for page in (ann, bob, phone, spectator):
        assert PAGE_ERRORS[id(page)] == []
    for context in (ann_context, bob_context, phone_context, spectator_context):
        context.close()


def test_phone_layout_has_every_control_in_reach(server: LiveServer, browser: Browser) -> None:
    context, page = open_page(browser, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    created = page.request.post(
        server.url + "/api/tables", data={"seats": ["human", "easy", "easy", "easy"], "bot_delay": 0}
    ).json()
    seat = page.request.post(
        server.url + f"/api/tables/{created['table']}/seats", data={"name": "Zoë"}
    ).json()
    page.goto(seat["rejoin_link"])
    assert wait_turn(page) == "draw"
    assert page.is_hidden("#btn-top-only")  # Mendelev rules only
    assert page.locator(".turn-clock").count() == 0  # no turn timer at this table
    assert page.evaluate(UNREACHABLE_JS) == []
    shot(page, "table-phone.png")
    assert act(page, "#btn-draw")
    cards = hand(page)
    choose(page, [i for i, _ in cards[:3]])
    page.click("#btn-group")
    choose(page, [cards[3][0]])
    assert page.evaluate(UNREACHABLE_JS) == []
    shot(page, "table-phone-playing.png")
    shot(page, "table-phone-full.png", full_page=True)
    page.click("#btn-clear")
    page.click("#btn-sheet")
    assert page.evaluate(UNREACHABLE_JS) == []
    shot(page, "score-sheet-phone.png")
    page.keyboard.press("Escape")
    page.goto(server.url + "/")
    page.wait_for_selector("#variants input")
    assert page.evaluate(UNREACHABLE_JS) == []
    shot(page, "home-phone.png", full_page=True)
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def test_languages_and_four_colour_suits(server: LiveServer, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#variants input")
    assert page.inner_text("h1") == "Канаста с друзьями"
    assert "Классическая парная канаста" in page.inner_text("#variants")
    keys = page.evaluate(
        "async () => { const m = await import('/static/js/i18n.js'); return [m.keys('en'), m.keys('ru')]; }"
    )
    assert set(keys[0]) == set(keys[1]) and len(keys[0]) > 150
    page.click("#lang-switch")
    assert page.inner_text("h1") == "Canasta with friends"
    page.reload()
    page.wait_for_selector("#variants input")
    assert page.inner_text("h1") == "Canasta with friends"  # the choice is remembered
    colour = "() => getComputedStyle(document.querySelector('.deco .suit-h')).color"
    diamonds = "() => getComputedStyle(document.documentElement).getPropertyValue('--diamond').trim()"
    red = page.evaluate(diamonds)
    page.check("#four-colour")
    assert page.evaluate(diamonds) != red and page.evaluate(colour) == "rgb(198, 40, 40)"
    context.close()


def test_home_page_offers_a_turn_timer(server: LiveServer, browser: Browser) -> None:
    context, page = open_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#variants input")
    labels = "() => [...document.querySelectorAll('#turn-timer option')].map(o => o.textContent)"
    assert page.evaluate(labels) == ["no limit", "30 s", "1 min", "2 min", "5 min"]
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "friend")
    page.select_option("#turn-timer", "60")
    page.fill("#name", "Ann")
    page.click("#btn-create")
    page.wait_for_selector("#created:not([hidden])")
    link = page.input_value("#table-link")
    assert stored_table(server.db, link.rsplit("/", 1)[1]).settings.turn_timer == 60
    page.click("#lang-switch")
    assert page.evaluate(labels) == ["без ограничения", "30 с", "1 мин", "2 мин", "5 мин"]
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def test_pages_of_an_unknown_table_say_so(server: LiveServer, browser: Browser) -> None:
    context, page = open_page(browser)
    page.goto(server.url + "/t/AAAAAAAAAAAAAAAAAAAAAA")
    page.wait_for_selector('#table[data-status="missing"]')
    assert page.inner_text("#status") == "There is no such table."
    context.close()


def test_game_over_shows_the_winner_and_a_rematch_starts_the_next_game(
    server: LiveServer, browser: Browser
) -> None:
    context, page = open_page(browser)
    body = {"seats": ["human", "easy", "easy", "easy"], "target_score": 100, "grace": 0, "deal_pause": 0}
    table = page.request.post(server.url + "/api/tables", data={**body, "stand_in": "easy"}).json()["table"]
    seat = page.request.post(server.url + f"/api/tables/{table}/seats", data={"name": "Ann"}).json()
    for _ in range(600):  # a computer stands in for Ann until the game is over
        state = page.request.get(server.url + f"/api/tables/{table}").json()
        if state["status"] == "game_over":
            break
        page.wait_for_timeout(50)
    assert state["status"] == "game_over"
    page.goto(seat["rejoin_link"])
    page.wait_for_selector("#result-dialog[open]")
    we_won = state["winner"] == 0
    assert page.inner_text("#result-title") == ("We won the game!" if we_won else "They won the game.")
    assert page.locator("#result-body svg.chart").count() == 1
    shot(page, "game-over-desktop.png")
    page.click("#btn-rematch")
    page.wait_for_function("() => document.getElementById('table').dataset.status === 'playing'")
    assert not page.is_visible("#result-dialog")
    assert page.inner_text("#scoreline").startswith("We 0")
    assert page.get_attribute("#link-history", "href") == f"/t/{table}/replay?game=0"
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def stacked_log(
    hands: list[str], top: list[str], meld: list[str], discards: list[str]
) -> list[dict[str, Any]]:
    """A stored deal of two decks dealt by seat 3 (so seat 0 plays first): the `hands`, then the
    upcard and the stock's top cards (`top`), the rest shuffled in no particular order; then a
    first round in which seat 0 draws, melds `meld` and discards, and each computer player
    draws and discards (`discards`, seat by seat)."""
    dealt = [h.split() for h in hands]
    stacked = [h[i] for i in range(11) for h in dealt] + top
    deck = [c.code for c in make_deck(2, 4)]
    for code in stacked:
        deck.remove(code)
    moves = [(0, {"type": "draw"}), (0, {"type": "meld", "melds": [meld]})]
    for seat, card in enumerate(discards):
        moves += [] if seat == 0 else [(seat, {"type": "draw"})]
        moves.append((seat, {"type": "discard", "card": card}))
    deal = {"kind": "deal", "dealer": 3, "sitting_out": None, "deck": stacked + deck}
    return [deal] + [
        {"kind": "action", "seat": seat, "action": action, "by": "bot" if seat else "player"}
        for seat, action in moves
    ]


def top_card_purchase_log() -> list[dict[str, Any]]:
    """A Mendelev deal stored up to Ann's second turn: her team opened with five aces, the pile
    is 4S 7C 10C QS KD, and her six kings may buy the top king alone and go out."""
    hands = [
        "AS AH AD AC AS KS KH KD KC KS KH",
        "QS QH QD QC JS JH JD JC 10S 10H 10D",
        "9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7D",
        "KD 6S 6H 6D 6C 5S 5H 5D 5C 4H 4D",
    ]
    top = ["4S", "7C", "10C", "QS", "JS"]
    return stacked_log(hands, top, ["AS", "AH", "AD", "AC", "AS"], ["7C", "10C", "QS", "KD"])


def test_mendelev_top_card_purchase_by_key_and_by_chosen_cards(server: LiveServer, browser: Browser) -> None:
    seats = ["human", "easy", "easy", "easy"]
    settings = {"variant": "mendelev", "seats": seats, "grace": 600, "deal_pause": 600}
    for viewport, by_key in ((DESKTOP, True), (PHONE, False)):
        table_id, token = store_table(server.db, settings, top_card_purchase_log())
        context, page = open_page(browser, viewport)
        page.goto(f"{server.url}/t/{table_id}#seat={token}")
        assert wait_turn(page) == "draw"
        button = page.locator("#btn-top-only")
        assert button.is_enabled() and button.inner_text() == "Buy the top card and go out"
        assert (button.get_attribute("aria-label") or "").startswith("Buy the top card and go out: take only")
        assert button.get_attribute("aria-keyshortcuts") == "b"
        assert page.evaluate(UNREACHABLE_JS) == []
        shot(page, f"top-card-{'desktop' if by_key else 'phone'}.png")
        before = version(page)
        if by_key:  # nothing chosen: the legal purchase the server offers
            page.keyboard.press("b")
        else:
            choose(page, [i for i, code in hand(page) if rank(code) == "K"])
            page.click("#btn-top-only")
        assert answered(page, before), page.inner_text("#error")
        page.wait_for_selector("#result-dialog[open]")
        assert page.inner_text("#result-reason") == "Ann went out."
        assert "Ann bought only the top card with" in page.inner_text("#log")
        table = stored_table(server.db, table_id)
        assert table.last is not None and table.last["action"]["top_only"] is True
        assert len(table.last["action"]["with"]) == (2 if by_key else 6)
        assert table.state is not None and [c.code for c in table.state.pile] == ["4S", "7C", "10C", "QS"]
        assert table.state.result is not None and table.state.result.went_out == 0
        assert PAGE_ERRORS[id(page)] == []
        context.close()


# The reader's own countdown, or null when it is not shown.
MY_CLOCK_JS = """() => {
  const node = document.querySelector('#my-clock-box .turn-clock');
  if (!node || !node.textContent) return null;
  const [minutes, seconds] = node.textContent.split(':').map(Number);
  return { version: Number(document.body.dataset.version), seconds: minutes * 60 + seconds,
    text: node.textContent, label: node.getAttribute('aria-label'), classes: node.className.split(' '),
    role: node.getAttribute('role') };
}"""
MY_CLOCK_EN = r"Your time to move: (\d) seconds? left"
MY_CLOCK_RU = r"Ваше время на ход: (?:осталась|осталось) (\d) секунд[аы]?"


def my_clock(
    page: Page, condition: str = "true", arg: Any = None, label: str = MY_CLOCK_EN
) -> dict[str, Any]:
    """Wait until the reader's own countdown is shown and `condition` (JavaScript of `c`, the
    countdown, and `arg`) holds; check how it is shown and labelled, and return it."""
    clock: dict[str, Any] = page.wait_for_function(
        f"arg => {{ const c = ({MY_CLOCK_JS})(); return c && ({condition}) && c; }}", arg=arg
    ).json_value()
    named = re.fullmatch(label, clock["label"])
    assert named and int(named[1]) == clock["seconds"] and clock["role"] == "timer", clock
    assert clock["text"] == f"0:0{clock['seconds']}" and "warn" in clock["classes"]  # amber: the last 10 s
    return clock


def test_turn_timer_counts_down_for_everyone_and_the_computer_moves_when_it_runs_out(
    server: LiveServer, browser: Browser
) -> None:
    context, page = open_page(browser)
    watch = Watch(seat=0)
    watch.attach(page)
    body = {"seats": ["human", "easy", "easy", "easy"], "turn_timer": 5, "grace": 600, "deal_pause": 600}
    table = page.request.post(server.url + "/api/tables", data=body).json()["table"]
    seat = page.request.post(server.url + f"/api/tables/{table}/seats", data={"name": "Ann"}).json()
    page.goto(seat["rejoin_link"])
    clock = my_clock(page, "c.seconds >= 4")  # a decision of Ann's begins: 5 seconds
    my_clock(page, "c.version === arg[0] && c.seconds < arg[1]", [clock["version"], clock["seconds"]])
    shot(page, "turn-timer-desktop.png")

    # a spectator (whose browser speaks Russian) sees the countdown on Ann's seat, and no own one
    watcher = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    spectator = watcher.new_page()
    spectator.goto(f"{server.url}/t/{table}")
    on_seat = spectator.wait_for_selector('#seats .seat-chip[data-seat="0"] .turn-clock[role="timer"]')
    assert on_seat is not None
    label = on_seat.get_attribute("aria-label") or ""
    assert re.fullmatch(r"На ход (?:осталась|осталось) \d секунд[аы]?", label), label
    assert re.fullmatch(r"0:0\d", on_seat.inner_text())
    assert spectator.locator("#my-clock-box *").count() == 0
    shot(spectator, "turn-timer-spectator-ru-desktop.png")
    watcher.close()

    # the time runs out: a computer moves for Ann, and her page says so
    page.wait_for_selector("#timer-note:not([hidden])", timeout=15_000)
    assert page.inner_text("#timer-note") == "Time ran out: the computer moved for you."
    assert "(time ran out)" in page.inner_text("#log li.move >> nth=0")
    timed = stored_table(server.db, table, version(page))
    assert timed.last is not None and timed.last["seat"] == 0 and timed.last["by"] == "timer"

    # in Russian; the reconnection that the switch makes gives no more time
    clock = my_clock(page, "c.seconds <= 3")
    page.click("#lang-switch")
    my_clock(page, "c.label.startsWith('Ваше')", label=MY_CLOCK_RU)
    while sum(frame["type"] == "welcome" for frame in watch.frames) < 2:
        page.wait_for_timeout(50)
    welcome = max(i for i, frame in enumerate(watch.frames) if frame["type"] == "welcome")
    state = watch.frames[welcome + 1]
    if state["version"] == clock["version"]:
        assert state["time_left"] <= clock["seconds"] + 0.1
    page.wait_for_function("() => document.getElementById('timer-note').textContent.startsWith('Время')")
    assert page.inner_text("#timer-note") == "Время вышло: компьютер сходил за вас."
    assert "(время вышло)" in page.inner_text("#log li.move >> nth=0")
    watch.snapshot(page)
    assert watch.check(server.db, table) > 3
    assert PAGE_ERRORS[id(page)] == []
    context.close()


def touch_drag_log() -> list[dict[str, Any]]:
    """A classic deal stored up to Ann's second turn: her team opened with four aces, and
    another ace waits for her on the stock."""
    hands = [
        "AS AH AD AC KS KH KD 9S 9H 5C 6D",
        "QS QH QD QC JS JH JD JC 10S 10H 10D",
        "9D 9C 8S 8H 8D 8C 7S 7H 7D 7C 6S",
        "KC 6H 6C 5S 5H 5D 4H 4D 4C 4S 10C",
    ]
    top = ["6S", "8S", "JC", "QS", "KC", "AH"]
    return stacked_log(hands, top, ["AS", "AH", "AD", "AC"], ["8S", "JC", "QS", "KC"])


def touch_drag(page: Page, source: str, target: str) -> None:
    """Drag with a finger (touch events, as a phone's screen sends them) from the visible corner
    of `source` to the middle of `target`."""
    page.locator(target).scroll_into_view_if_needed()
    start, end = page.locator(source).bounding_box(), page.locator(target).bounding_box()
    assert start is not None and end is not None
    x0, y0 = start["x"] + CORNER["x"], start["y"] + CORNER["y"]
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 11):
        x, y = x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_cards_are_dragged_to_a_meld_and_to_the_pile_by_touch(server: LiveServer, browser: Browser) -> None:
    settings = {"seats": ["human", "easy", "easy", "easy"], "grace": 600, "deal_pause": 600}
    table_id, token = store_table(server.db, settings, touch_drag_log())
    context, page = open_page(browser, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    assert wait_turn(page) == "draw"
    before = version(page)
    page.tap("#btn-draw")
    assert answered(page, before) and wait_turn(page) == "play"
    cards = dict((code, i) for i, code in hand(page))
    ace, six = (f'#hand .in-hand[data-index="{cards[code]}"]' for code in ("AH", "6D"))
    # only the cards stop the page scrolling under a finger; a tap still chooses a card
    touch_action = "s => getComputedStyle(document.querySelector(s)).touchAction"
    assert page.evaluate(touch_action, ace) == "none"
    assert {page.evaluate(touch_action, s) for s in ("body", "#our-melds", "#log", "#btn-meld")} == {"auto"}
    page.tap(six, position=CORNER)
    assert page.get_attribute(six, "aria-pressed") == "true"
    page.tap(six, position=CORNER)
    assert page.get_attribute(six, "aria-pressed") == "false"

    # the ace onto the aces: staged for that meld, then laid
    touch_drag(page, ace, '#our-melds button.meld[data-rank="A"]')
    page.wait_for_selector("#staging:not([hidden]) .staged-group")
    assert page.inner_text("#staging .to-meld") == "→ A" and page.locator(".card.ghost").count() == 0
    assert page.get_attribute(six, "aria-pressed") == "false"  # the drag chose nothing else
    assert act(page, "#btn-meld"), page.inner_text("#error")
    assert page.locator('#our-melds .meld[data-rank="A"] [data-card]').count() == 5
    # the six onto the pile: discarded
    before = version(page)
    touch_drag(page, '#hand .in-hand[data-card="6D"]', "#pile-button")
    assert answered(page, before), page.inner_text("#error")
    moves = [stored_table(server.db, table_id, before + n).last for n in (0, 1)]
    assert [m["action"] if m else None for m in moves] == [
        {"type": "meld", "melds": [{"rank": "A", "cards": ["AH"]}]},
        {"type": "discard", "card": "6D"},
    ]
    assert all(m is not None and m["by"] == "player" and m["seat"] == 0 for m in moves)
    shot(page, "touch-drag-phone.png")
    assert PAGE_ERRORS[id(page)] == []
    context.close()
