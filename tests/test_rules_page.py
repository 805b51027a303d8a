"""The rules page teaches every rule set in every language, and every number on it is the
engine's: read over HTTP (each number against the presets, no number typed by hand) and in
Chromium (the reader's language, card pictures, the section a table links to)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from canasta.rules import RuleSet
from canasta.rules.ruleset import PLAYER_COUNTS, VARIANTS
from canasta.server.rules_page import RulesPageError, rule_value
from server_support import LiveServer, running_server
from test_web_client import LAPTOP, PAGE_ERRORS, PHONE, browser, open_page, server, shot, store_table
from web_support import axe_violations

__all__ = ["browser", "server"]  # the fixtures, shared with the table's other browser tests

LANGUAGES = ("en", "es", "pt", "de", "ru")


def expected(token: str) -> Any:
    """What a number of the page must be: the engine's value of its token."""
    return rule_value(token)


#: Tokens and their values as the rules document gives them (RULES.md): what the engine's
#: presets must say, so that the page's numbers are the rules' and not only the engine's.
PINNED = {
    "points.JK": 50,
    "points.2C": 20,
    "points.AS": 20,
    "points.KH": 10,
    "points.7D": 5,
    "classic.4.canasta_bonus_natural": 500,
    "classic.4.canasta_bonus_mixed": 300,
    "classic.4.go_out_bonus": 100,
    "classic.4.decks": 2,
    "classic.4.jokers": 4,
    "classic.4.meld_max_wilds": 3,
    "bonus.modern-american.7S-7H-7D-7C-7S-7H-7D": 2500,
    "bonus.modern-american.2S-2H-2D-2C-2S-2H-2D": 3000,
}


def test_the_engines_numbers_are_the_rules() -> None:
    assert {token: rule_value(token) for token in PINNED} == PINNED


class Article(HTMLParser):
    """Each language's article: its numbers (`data-rule` → text) and the rest of its text."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.rule: str | None = None
        self.numbers: dict[str, list[tuple[str, str]]] = {}
        self.text: dict[str, list[str]] = {}
        self.ids: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "article":
            self.lang = found["data-lang"]
        if self.lang and found.get("id"):
            self.ids.setdefault(self.lang, []).append(str(found["id"]))
        self.rule = found.get("data-rule") or self.rule

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.lang = None
        if tag == "span":
            self.rule = None

    def handle_data(self, data: str) -> None:
        if self.lang is None:
            return
        if self.rule:
            self.numbers.setdefault(self.lang, []).append((self.rule, data))
        else:
            self.text.setdefault(self.lang, []).append(data)


def test_every_number_of_the_rules_page_is_the_engines(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        page = client.get("/rules")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    parsed = Article()
    parsed.feed(page.text)
    assert set(parsed.numbers) == set(LANGUAGES)
    for lang in LANGUAGES:
        numbers = parsed.numbers[lang]
        assert len(numbers) > 100, lang
        for token, shown in numbers:
            assert shown == str(expected(token)), (lang, token, shown)
        # the players' table: a row for every rule set and player count
        rows = {t.rsplit(".", 1)[0] for t, _ in numbers if t.endswith(".players")}
        assert rows == {f"{v}.{p}" for v in VARIANTS for p in PLAYER_COUNTS[v]}, lang
        # no number typed by hand
        typed = [t for t in parsed.text[lang] if re.search(r"\d", t)]
        assert typed == [], (lang, typed)
        # a section for each rule set, and for the pile, going out and the score
        sections = {f"{lang}-{name}" for name in (*VARIANTS, "pile", "out", "score", "opening", "melds")}
        assert sections <= set(parsed.ids[lang]), lang
    # the numbers the issue names are there, and the same in every language
    tokens = [{t for t, _ in parsed.numbers[lang]} for lang in LANGUAGES]
    assert all(t == tokens[0] for t in tokens)
    for token in ("classic.4.hand_size", "classic.4.canasta_bonus_natural", "online.4.black3_hand_value"):
        assert any(t.startswith(token) for t in tokens[0]), token


def test_a_token_the_engine_does_not_have_is_a_clear_error() -> None:
    with pytest.raises(RulesPageError, match=r"'classic\.4\.no_such_field', which the engine does not have"):
        rule_value("classic.4.no_such_field")
    assert rule_value("classic.6.hand_size") == RuleSet.preset("classic", 6).hand_size


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x800", "390x844"])
def test_the_rules_page_in_the_readers_language_and_the_tables_link_to_its_rule_set(
    server: LiveServer, browser: Browser, viewport: dict[str, int]
) -> None:
    context, page = open_page(browser, viewport, locale="ru-RU", bypass_csp=True)  # for axe-core
    page.goto(server.url + "/rules")
    page.wait_for_selector("article[data-lang='ru']:not([hidden]) .cards .card")
    assert page.inner_text("article:not([hidden]) h1") == "Как играть в канасту"
    # the numbers the reader sees are the presets'
    shown = page.eval_on_selector_all(
        "article:not([hidden]) [data-rule]", "els => els.map(e => [e.dataset.rule, e.textContent])"
    )
    assert len(shown) > 100 and all(text == str(expected(token)) for token, text in shown)
    assert page.inner_text("article:not([hidden]) .rules-table tbody tr:first-child th") == "Классика"
    cards = "article:not([hidden]) .cards .card"
    labels = page.eval_on_selector_all(cards, "els => els.map(e => e.ariaLabel)")
    assert "Джокер" in labels and "Король пик" in labels
    shot(page, f"rules-ru-{viewport['width']}x{viewport['height']}.png", full_page=True)
    assert axe_violations(page) == []
    page.select_option("#lang-menu", "de")
    assert page.inner_text("article:not([hidden]) h1") == "So wird Canasta gespielt"
    shot(page, f"rules-de-{viewport['width']}x{viewport['height']}.png")
    context.close()
    # a Modern American table links to its section, which opens in view
    settings = {"variant": "modern-american", "seats": ["human", "easy", "easy", "easy"], "grace": 600}
    table_id, token = store_table(server.db, settings, [])
    context, page = open_page(browser, viewport)
    page.goto(f"{server.url}/t/{table_id}#seat={token}")
    link = "() => document.getElementById('link-rules').href.endsWith('/rules#modern-american')"
    page.wait_for_function(link)
    page.goto(page.evaluate("document.getElementById('link-rules').href"))
    page.wait_for_selector("#en-modern-american")
    box = page.locator("#en-modern-american").bounding_box()
    assert box is not None and 0 <= box["y"] < viewport["height"]
    assert PAGE_ERRORS[id(page)] == []
    context.close()
