"""No hidden card reaches anyone who may not see it: whole games at full speed with bots, every
message to every seat and spectator compared with the true position at its version. Once a
deal is over its hands are public (the replay shows them): `hands` is sent then, and only then."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from canasta.server.events import event_from_json
from canasta.server.table import LiveTable
from canasta.storage import SQLiteStorage
from server_support import Message, game_over, greet, join, new_table, play_until, running_server

CARD = re.compile(r"(10|[2-9AKQJ])[SHDC]|JK")
FORBIDDEN_KEYS = {"deck", "stock"}


def card_codes(obj: Any) -> list[str]:
    """Every string in a message that is a card code, wherever it is."""
    if isinstance(obj, str):
        return [obj] if CARD.fullmatch(obj) else []
    if isinstance(obj, dict):
        assert not FORBIDDEN_KEYS & obj.keys(), obj.keys()
        return [c for key, value in obj.items() if key != "hands" for c in card_codes(value)]
    if isinstance(obj, list):
        return [c for value in obj for c in card_codes(value)]
    return []


Truth = tuple[list[Counter[str]], set[str], bool]


def truth_by_version(tmp_path: Path, table_id: str) -> dict[int, Truth]:
    """Each version's hands and public cards (pile, melds, bonus threes, cards known to be in a
    hand because they were taken with the pile), from the stored events."""

    async def replay() -> dict[int, Truth]:
        storage = SQLiteStorage(tmp_path / "canasta.db")
        row = await storage.load_table(table_id)
        assert row is not None
        table = LiveTable(row)
        truth: dict[int, Truth] = {}
        for seq, event in await storage.events(table_id):
            table.apply(event_from_json(event))
            state = table.state
            assert state is not None and seq == table.version
            public = {c.code for c in state.pile}
            public |= {c.code for melds in state.melds for cards in melds.values() for c in cards}
            public |= {c.code for threes in state.threes for c in threes}
            public |= {c.code for known in state.known for c in known}  # taken with the pile: seen
            truth[seq] = ([Counter(c.code for c in hand) for hand in state.hands], public, state.is_over)
        await storage.close()
        return truth

    return asyncio.run(replay())


def play_all(ws: WebSocketTestSession, seat: int | None, first: Message, seed: int) -> list[Message]:
    log: list[Message] = []
    play_until(ws, seat, first, game_over, random.Random(seed), log)
    return log


def check(seat: int | None, message: Message, truth: dict[int, Truth]) -> None:
    codes = card_codes(message)
    if message["type"] == "log":  # the deal's moves so far: only cards seen face up
        assert not set(codes) - truth[message["version"]][1], message
        return
    if message["type"] != "state":
        assert codes == [], message
        return
    hands, public, over = truth[message["version"]]
    shown = message["hands"]
    assert (shown is not None) == over and (shown is None or [Counter(h) for h in shown] == hands)
    own = hands[seat] if seat is not None else Counter()
    view = message["view"]
    assert Counter(view["hand"]) == own
    assert view["hand_sizes"] == [sum(h.values()) for h in hands]
    unseen = set(codes) - public - set(own)
    assert not unseen, f"seat {seat} was sent {unseen} at version {message['version']}"


@pytest.mark.parametrize(
    ("variant", "seats", "target"),
    [
        ("classic", ["human", "random", "human", "random"], 600),
        ("online", ["human", "human"], 300),
        ("classic", ["random", "human", "random", "human", "random", "human"], 300),
    ],
)
def test_no_hidden_card_leaves_the_server(
    tmp_path: Path, variant: str, seats: list[str], target: int
) -> None:
    with running_server(tmp_path, seed=None, rate=1e6, burst=1000) as client:
        table = new_table(client, variant=variant, players=len(seats), seats=seats, target_score=target)
        humans = [i for i, spec in enumerate(seats) if spec == "human"]
        tokens = {seat: join(client, table, f"P{seat}", seat) for seat in humans}
        watchers: list[int | None] = [*humans, None]
        with ExitStack() as stack, ThreadPoolExecutor(len(watchers)) as pool:
            futures = []
            for i, seat in enumerate(watchers):
                ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
                first = greet(
                    ws, tokens.get(seat) if seat is not None else None, "ru" if seat is None else "en"
                )
                futures.append(pool.submit(play_all, ws, seat, first, i))
            logs = [f.result() for f in futures]
    truth = truth_by_version(tmp_path, table)
    assert len(truth) > 30  # a whole game went by (the decks are random: a short one has ~80 versions)
    for seat, log in zip(watchers, logs, strict=True):
        states = [m for m in log if m["type"] == "state"]
        assert len(states) > 20 and states[-1]["status"] == "game_over"
        for message in log:
            check(seat, message, truth)
