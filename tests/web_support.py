"""Helpers for the browser tests: a real server on a free port, Chromium, and hidden-card checks.

Chromium is Debian's (`/usr/bin/chromium`, installed by `scripts/test`); Playwright never
downloads a browser here.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
from collections import Counter
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Page, WebSocket

from canasta.protocol.settings import TableSettings
from canasta.rules.actions import action_to_json
from canasta.server.events import event_from_json, event_to_json
from canasta.server.table import LiveTable, token_hash
from canasta.storage import SQLiteStorage
from canasta.storage.base import TableRow

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
CARD = re.compile(r"(10|[2-9AKQJ])[SHDC]|JK")
T = TypeVar("T")


def card_codes(obj: Any) -> list[str]:
    """Every string in a JSON value that is a card code."""
    if isinstance(obj, str):
        return [obj] if CARD.fullmatch(obj) else []
    if isinstance(obj, dict):
        return [c for value in obj.values() for c in card_codes(value)]
    if isinstance(obj, list):
        return [c for value in obj for c in card_codes(value)]
    return []


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end in a thread of its own (Playwright owns this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def store_table(
    db: Path,
    settings: dict[str, Any],
    events: list[dict[str, Any]],
    name: str = "Ann",
    others: dict[int, str] | None = None,
) -> tuple[str, str]:
    """Store a table as the server would, with seat 0 taken by `name` (and the seats of `others`
    by those names) and the log `events`, behind the server's back (it loads the table when a
    page asks for it). Returns the table's id and seat 0's token."""

    async def store() -> tuple[str, str]:
        storage = SQLiteStorage(db)
        try:
            table_id, token = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
            valid = TableSettings.from_json(settings, 0.0)
            await storage.create_table(table_id, valid.to_json(), valid.players)
            assert await storage.take_seat(table_id, 0, name, token_hash(token))
            for seat, other in (others or {}).items():
                assert await storage.take_seat(table_id, seat, other, token_hash(secrets.token_urlsafe(24)))
            for seq, event in enumerate(events, 1):
                await storage.append(table_id, seq, event)
            return table_id, token
        finally:
            await storage.close()

    return run_async(store())


def stored_table(db: Path, table_id: str, version: int | None = None) -> LiveTable:
    """The table as its stored events rebuild it (up to `version`)."""

    async def load() -> LiveTable:
        storage = SQLiteStorage(db)
        try:
            row = await storage.load_table(table_id)
            assert row is not None
            table = LiveTable(row)
            for seq, event in await storage.events(table_id):
                if version is not None and seq > version:
                    break
                table.apply(event_from_json(event))
            return table
        finally:
            await storage.close()

    return run_async(load())


def stored_events(db: Path, table_id: str) -> list[dict[str, Any]]:
    """The table's stored events, in order."""

    async def load() -> list[dict[str, Any]]:
        storage = SQLiteStorage(db)
        try:
            return [event for _, event in await storage.events(table_id)]
        finally:
            await storage.close()

    return run_async(load())


Truth = dict[int, tuple[Counter[str], Counter[str]]]


def truth_by_version(db: Path, table_id: str, seat: int | None) -> Truth:
    """For each stored version, the cards `seat` may see (None: a spectator) and its own hand.

    Visible: its own hand, the pile (every card of it was face up), the melds, the bonus
    threes, the cards known to be in a hand because they were taken with the pile, and once a
    deal is over every hand (the replay shows them).
    """

    async def replay() -> Truth:
        storage = SQLiteStorage(db)
        try:
            row = await storage.load_table(table_id)
            assert row is not None
            table = LiveTable(row)
            truth: Truth = {0: (Counter(), Counter())}
            for seq, event in await storage.events(table_id):
                table.apply(event_from_json(event))
                state = table.state
                assert state is not None
                own = Counter(c.code for c in state.hands[seat]) if seat is not None else Counter()
                cards = list(state.pile)
                cards += [c for melds in state.melds for meld in melds.values() for c in meld]
                cards += [c for threes in state.threes for c in threes]
                cards += [c for s, known in enumerate(state.known) if s != seat for c in known]
                if state.is_over:  # every hand, one's own too: the summary shows them beside one's hand
                    cards += [c for hand in state.hands for c in hand]
                truth[seq] = (Counter(c.code for c in cards) + own, own)
            return truth
        finally:
            await storage.close()

    return run_async(replay())


@dataclass
class Watch:
    """Everything one page received from the server (WebSocket frames, API answers) and the
    face-up cards its DOM showed, each with the state version it belonged to."""

    seat: int | None
    frames: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    doms: list[tuple[int, Counter[str]]] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        def on_socket(ws: WebSocket) -> None:
            ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

        def on_response(response: Any) -> None:
            if "/api/" in response.url and "json" in response.headers.get("content-type", ""):
                self.answers.append(response.json())

        page.on("websocket", on_socket)
        page.on("response", on_response)

    def snapshot(self, page: Page) -> None:
        """Note the face-up cards in the page's DOM with the version it shows."""
        version, cards = page.evaluate(
            "() => [Number(document.body.dataset.version || 0),"
            " [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)]"
        )
        self.doms.append((version, Counter(cards)))

    def check(self, db: Path, table_id: str) -> int:
        """Assert that no hidden card reached the page; returns how many things were checked."""
        truth = truth_by_version(db, table_id, self.seat)
        states = [m for m in self.frames + self.answers if m.get("type") == "state"]
        dated = ("state", "log", "hint")  # messages that name the version their cards belong to
        assert all(card_codes(m) == [] for m in self.frames if m.get("type") not in dated)
        for message in self.frames:
            if message.get("type") in ("log", "hint"):
                leaked = set(card_codes(message)) - set(truth[message["version"]][0])
                assert not leaked, f"seat {self.seat} was sent {leaked} in a {message['type']}"
        for message in states:
            allowed, own = truth[message["version"]]
            leaked = set(card_codes(message)) - set(allowed)
            assert not leaked, f"seat {self.seat} was sent {leaked} at version {message['version']}"
            if message["view"] is not None:
                assert Counter(message["view"]["hand"]) == own
        for version, cards in self.doms:
            extra = cards - truth[version][0]
            assert not extra, f"seat {self.seat}'s page showed {extra} at version {version}"
        return len(states) + len(self.doms)


def played_deal(settings: dict[str, Any], seed: int, moves: int | None = None) -> list[dict[str, Any]]:
    """The events of a first deal played with random legal moves, as the server stores them:
    to its end, or its first `moves` moves (seat 0's moves are a person's)."""
    table = LiveTable(TableRow("t", TableSettings.from_json(settings, 0.0).to_json(), ()))
    rng = random.Random(seed)
    events = [event_to_json(table.next_deal(rng))]
    table.apply(event_from_json(events[0]))
    while table.state is not None and not table.state.is_over and (moves is None or len(events) <= moves):
        seat = table.state.to_move
        action = rng.choice(table.state.legal_actions())
        events.append(
            {
                "kind": "action",
                "seat": seat,
                "action": action_to_json(action),
                "by": "bot" if seat else "player",
            }
        )
        table.apply(event_from_json(events[-1]))
    return events


AXE = Path(__file__).resolve().parent.parent / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds in the page as it is
    (the page's context must bypass its CSP, which forbids injected scripts)."""
    assert AXE.is_file(), f"axe-core is missing at {AXE}: scripts/test installs it with npm"
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
        ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
        ".map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)"
    )
    return [str(v) for v in found]
