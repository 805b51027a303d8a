"""Arbitrary messages of every type, sent to a real `canasta serve` over real WebSockets: each
gets an answer (or the connection a close code), and the others at the table keep receiving."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from process_support import free_port, http, server

TYPES = ("hello", "action", "chat", "rematch")
ANSWERS = ("error", "ack", "chat")

# Text with lone UTF-16 surrogates (sent as JSON escapes, as a browser's JSON.stringify would).
surrogates = st.builds(
    lambda before, code, after: before + chr(code) + after,
    st.text(max_size=5),
    st.integers(0xD800, 0xDFFF),
    st.text(max_size=5),
)
texts = st.text(max_size=40) | surrogates | st.sampled_from(["hello", "draw", "KS", "en", "ru"])
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | texts
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw", "discard", "meld", "pickup", "ask", "answer", "pass"]) | texts},
    optional={"card": texts, "melds": values, "with": values, "yes": values, "seat": values},
)
fields = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES) | texts},
    optional={
        "id": values,
        "version": st.integers(-2, 3) | values,
        "action": actions | values,
        "text": texts | values,
        "phrase": st.sampled_from(["hello", "thanks"]) | texts | values,
        "token": texts | values,
        "lang": st.sampled_from(["en", "ru"]) | texts,
    },
)
# ... and fields of any name, surrogates in names included
messages = st.tuples(fields, st.dictionaries(texts, values, max_size=2)).map(lambda m: {**m[1], **m[0]})
chats = st.fixed_dictionaries({"type": st.just("chat"), "text": texts})  # text reaches everyone
frames = (
    messages.map(json.dumps)
    | chats.map(json.dumps)
    | values.map(json.dumps)
    | st.text(max_size=60).filter(lambda t: not t.startswith(("{", "[")))
    | st.binary(max_size=60)
)


@dataclass
class Table:
    port: int
    table: str
    tokens: list[str]
    stack: ExitStack

    def connect(self, token: str | None) -> ClientConnection:
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table}"
        ws = self.stack.enter_context(connect(url, proxy=None, max_queue=None))
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert read(ws)["type"] == "welcome"
        return ws


def read(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def answer(ws: ClientConnection) -> dict[str, Any] | int:
    """The first answer to a message (an error, an ack or a chat line), or the close code."""
    try:
        while (message := read(ws))["type"] not in ANSWERS:
            pass
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, "closed without a close code"
        return exc.rcvd.code
    return message


def hears(ws: ClientConnection, probe: int) -> None:
    """Read until the probe chat line of this round arrives."""
    while True:
        message = read(ws)
        if message["type"] == "chat" and message["name"] == f"probe-{probe}":
            return


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    port = free_port()
    unlimited = ("rate", "burst", "chat_rate", "chat_burst", "table_chat_rate", "table_chat_burst")
    limits = [arg for name in unlimited for arg in ("--limit", f"{name}=100000")]
    with server(port, tmp_path / "canasta.db", tmp_path / "server.log", *limits), ExitStack() as stack:
        body = {"players": 3, "bot_delay": 60, "free_chat": True}
        table = http(port, "POST", "/api/tables", body)["table"]
        tokens = [
            http(port, "POST", f"/api/tables/{table}/seats", {"name": f"probe-{i}"})["token"]
            for i in range(3)
        ]
        yield Table(port, table, tokens, stack)


def test_every_message_is_answered_and_the_table_keeps_talking(table: Table) -> None:
    sender = table.connect(table.tokens[0])
    others = [table.connect(table.tokens[1]), table.connect(None)]
    probe = table.connect(table.tokens[2])
    closes: list[int] = []

    @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
    @given(frames)
    def check(frame: str | bytes) -> None:
        nonlocal sender
        sender.send(frame)
        reply = answer(sender)
        if isinstance(reply, int):  # closed with a code: a client reconnects
            closes.append(reply)
            sender = table.connect(table.tokens[0])
        probe.send(json.dumps({"type": "chat", "phrase": "hello"}))
        for ws in (sender, *others, probe):
            hears(ws, 2)

    check()
    assert all(code >= 1000 for code in closes)
