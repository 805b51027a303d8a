"""The hand history's "Review my decisions" in Chromium: asked for after a deal, its progress
shown, then the summary and the costly decisions as marks on the timeline; a reload shows the
stored review at once."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, sync_playwright
from websockets.sync.client import connect

from process_support import http
from server_support import LiveServer, live_server
from web_support import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Ann's client plays a whole deal at once: no rate limit for it
    config = {"review_iterations": 6, "rate": 1e6, "burst": 10**6}
    with live_server(tmp_path_factory.mktemp("review"), **config) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def play_a_deal(server: LiveServer) -> tuple[str, str]:
    """A table of Ann and a computer player whose first deal Ann played to its end by random
    moves; its id and Ann's token."""
    port = urlparse(server.url).port or 80
    body = {"players": 2, "seats": ["human", "random"], "bot_delay": 0, "target_score": 100_000}
    table = http(port, "POST", "/api/tables", body)["table"]
    token = http(port, "POST", f"/api/tables/{table}/seats", {"name": "Ann"})["token"]
    rng = random.Random(6)
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        answered = -1
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=20))
            if message["type"] != "state":
                continue
            if message["status"] == "deal_over":
                return table, token
            if message["status"] == "playing" and message["to_move"] == 0 and message["version"] > answered:
                answered = message["version"]
                move = rng.choice(message["view"]["legal"])
                ws.send(json.dumps({"type": "action", "version": answered, "action": move}))


def test_review_my_decisions_on_the_hand_history(server: LiveServer, browser: Browser) -> None:
    table, token = play_a_deal(server)
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/t/{table}#seat={token}")  # the page keeps Ann's token
    page.wait_for_selector("#hand")
    page.goto(f"{server.url}/t/{table}/replay")
    page.wait_for_selector("#review-ask:visible")
    assert page.inner_text("#review-ask") == "Разобрать мои решения"
    page.click("#review-ask")
    page.wait_for_function("() => document.getElementById('review-summary').textContent !== ''")
    summary = page.inner_text("#review-summary")
    port = urlparse(server.url).port or 80
    stored = http(port, "GET", f"/api/tables/{table}/reviews?lang=ru", token=token)
    assert stored["status"] == "done" and summary == stored["review"]["summary"]
    costly = stored["review"]["costly"]
    assert page.locator("#review-marks .review-mark").count() == len(costly)
    assert page.locator("#review-timeline .review-tick").count() == len(costly)
    assert page.is_hidden("#review-ask")
    if costly:  # a mark shows its decision: the move played, and the better one
        page.click("#review-marks .review-mark >> nth=0")
        assert page.get_attribute("body", "data-step") == str(costly[0]["index"] + 1)
        assert "лучше" in page.inner_text("#move-text")
    # a reload shows the stored review at once, without asking for it again
    page.reload()
    page.wait_for_function("() => document.getElementById('review-summary').textContent !== ''")
    assert page.inner_text("#review-summary") == summary and page.is_hidden("#review-ask")
    assert errors == []
    context.close()
