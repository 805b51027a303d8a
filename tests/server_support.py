"""Helpers for the server tests: an in-process server on a temporary SQLite file, and clients."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient, WebSocketTestSession

from canasta.server import ServerConfig, create_app
from canasta.server.broker import Broker, LocalBroker, RemoteBroker
from canasta.server.clock import ManualClock
from canasta.server.serve import http_protocol
from canasta.server.table import LiveTable
from canasta.storage import SQLiteStorage

Message = dict[str, Any]
T = TypeVar("T")


@contextmanager
def running_server(
    tmp_path: Path, seed: int | None = 1, broker: Broker | None = None, **config: Any
) -> Iterator[TestClient]:
    """A TestClient on a fresh server; decks are shuffled from `seed` (None: the OS). Its clock
    is a `ManualClock` (pass `clock=` to move it with `advance`): no timer runs on real time,
    and one that is due at once (a delay of 0) runs at once. Tables may be created without a
    limit per minute unless `tables_per_minute` says otherwise (nor read without one unless
    `read_burst` does), and every change of who is connected is told at once unless
    `presence_delay` says otherwise. `broker`: this process's (default: one of its own)."""
    shuffle = random.SystemRandom() if seed is None else random.Random(seed)
    config.setdefault("clock", ManualClock())
    config.setdefault("tables_per_minute", 10**6)
    config.setdefault("read_burst", 10**6)
    config.setdefault("presence_delay", 0.0)
    config.setdefault("bot_processes", False)
    settings = ServerConfig(db=str(tmp_path / "canasta.db"), bot_delay=0.0, shuffle=shuffle, **config)
    with TestClient(create_app(settings, broker=broker)) as client:
        yield client


@dataclass
class LiveServer:
    url: str
    db: Path
    app: Starlette
    loop: asyncio.AbstractEventLoop
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        """Shut the server down (closing every connection) and wait until it has."""
        self.server.should_exit = True
        self.thread.join(10)

    def call(self, function: Callable[[], T]) -> T:
        """Run `function` on the server's event loop (where its state lives) and return its result."""

        async def run() -> T:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)


@contextmanager
def live_server(folder: Path, seed: int = 7, **config: Any) -> Iterator[LiveServer]:
    """`canasta serve`'s app under uvicorn in a thread, on a free port, with a fresh SQLite file;
    computer players move at once and decks are shuffled from `seed`. `config` goes to its
    `ServerConfig` (for example `clock=ManualClock()`)."""
    db = folder / "canasta.db"
    # one browser (one address) creates many tables in a test module
    config.setdefault("tables_per_minute", 1000)
    config.setdefault("read_burst", 10**6)
    config.setdefault("bot_processes", False)
    settings = ServerConfig(db=str(db), bot_delay=0.0, shuffle=random.Random(seed), **config)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(settings)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="warning",
            http=http_protocol(settings),
            ws="websockets-sansio",
            ws_per_message_deflate=False,
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    running = LiveServer(f"http://127.0.0.1:{port}", db, app, server.servers[0].get_loop(), server, thread)
    try:
        yield running
    finally:
        running.stop()
        sock.close()


@asynccontextmanager
async def _both(app: Starlette, apps: list[Starlette]) -> AsyncIterator[None]:
    async with AsyncExitStack() as stack:
        for sub in apps:
            await stack.enter_async_context(sub.router.lifespan_context(sub))
        yield


@contextmanager
def two_servers(tmp_path: Path, clock: ManualClock, **config: Any) -> Iterator[TestClient]:
    """Two hubs on one database and one broker, as two processes would be, under /a and /b."""
    broker = LocalBroker()
    db = str(tmp_path / "canasta.db")
    apps = [
        create_app(
            ServerConfig(
                db=db, bot_delay=0.0, clock=clock, presence_delay=0.0, bot_processes=False, **config
            ),
            broker=broker,
        )
        for _ in range(2)
    ]
    both = Starlette(
        routes=[Mount("/a", apps[0]), Mount("/b", apps[1])], lifespan=lambda app: _both(app, apps)
    )
    with TestClient(both) as client:
        yield client


def advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    """Move the server's clock on (on the event loop's thread, where its timers run)."""
    assert client.portal is not None
    client.portal.call(clock.advance, seconds)


def until(
    client: TestClient, condition: Callable[[], bool], rounds: int = 100_000, settled: bool = True
) -> None:
    """Let the server's event loop run until `condition` holds and (if `settled`) no table is
    in the middle of a change (storing it in storage's thread, say; a table of computer players
    that move at once is seldom between two). It is checked on the loop's thread between its
    steps; no real time is waited for."""
    hub = getattr(client.app.state, "hub", None) if settled else None  # type: ignore[attr-defined]

    def idle() -> bool:
        return hub is None or not any(room.lock.locked() for room in hub.rooms.values())

    async def spin() -> None:
        for _ in range(rounds):
            if condition() and idle():
                return
            await asyncio.sleep(0)
        raise AssertionError("the server never reached the expected condition")

    assert client.portal is not None
    client.portal.call(spin)


def new_table(client: TestClient, at: str = "", **settings: Any) -> str:
    """A new table, made through the server mounted at `at` (`two_servers`'s "/a", say)."""
    body = {"deal_pause": 0, "bot_delay": 0, **settings}
    response = client.post(f"{at}/api/tables", json=body)
    assert response.status_code == 201, response.text
    table: str = response.json()["table"]
    return table


def join(client: TestClient, table: str, name: str, seat: int | None = None, at: str = "") -> str:
    response = client.post(f"{at}/api/tables/{table}/seats", json={"name": name, "seat": seat})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def next_event(ws: WebSocketTestSession, timeout: float = 10.0) -> Message:
    """What the server does next to the socket (`websocket.send` or `websocket.close`), failing
    the test after `timeout` seconds instead of hanging."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    event: Message = ws.portal.call(get)
    return event


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> Message:
    """The next message, failing the test after `timeout` seconds instead of hanging."""
    message = next_event(ws, timeout)
    assert message["type"] == "websocket.send", message
    result: Message = json.loads(message["text"])
    return result


def close_code(ws: WebSocketTestSession, timeout: float = 10.0) -> int:
    """The code the server closes the socket with (the messages before it are skipped)."""
    while (event := next_event(ws, timeout))["type"] != "websocket.close":
        pass
    code: int = event["code"]
    return code


def receive_until(
    ws: WebSocketTestSession, wanted: Callable[[Message], bool], timeout: float = 10.0
) -> Message:
    while True:
        message = receive(ws, timeout)
        if wanted(message):
            return message


def greet(ws: WebSocketTestSession, token: str | None = None, lang: str = "en") -> Message:
    """Say hello; returns the first state message (after the welcome)."""
    ws.send_json({"type": "hello", "token": token, "lang": lang})
    welcome = receive(ws)
    assert welcome["type"] == "welcome", welcome
    state = receive(ws)
    assert state["type"] == "state", state
    return state


def is_state(message: Message) -> bool:
    return message["type"] == "state"


def my_turn(seat: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["status"] == "playing" and m["to_move"] == seat


def stored_table(tmp_path: Path, table: str) -> LiveTable:
    """The table as its stored events rebuild it (read through a storage of our own)."""

    async def load() -> LiveTable:
        from canasta.server.room import load_table

        storage = SQLiteStorage(tmp_path / "canasta.db")
        try:
            loaded = await load_table(storage, table)
        finally:
            await storage.close()
        assert loaded is not None
        return loaded

    return asyncio.run(load())


def stored_events(tmp_path: Path, table: str) -> list[Message]:
    async def load() -> list[Message]:
        storage = SQLiteStorage(tmp_path / "canasta.db")
        try:
            return [event for _, event in await storage.events(table)]
        finally:
            await storage.close()

    return asyncio.run(load())


def play_until(
    ws: WebSocketTestSession,
    seat: int | None,
    first: Message,
    stop: Callable[[Message], bool],
    rng: random.Random,
    log: list[Message] | None = None,
) -> Message:
    """Read messages from `first` on, making a random legal move whenever this seat is to move
    (and asking for the next deal after each), until a state message satisfies `stop`; returns
    it. Every message read goes to `log`. Each version is answered once and each deal's end is
    answered once: a second state of the same moment (a presence change, another person's
    readiness) arrives before the server has read the first answer."""
    message = first
    answered: set[tuple[str, int, int]] = set()
    while True:
        if log is not None:
            log.append(message)
        assert message["type"] != "error", message
        if message["type"] == "state":
            if stop(message):
                return message
            moving = seat is not None and message["status"] == "playing" and message["to_move"] == seat
            ready = seat is not None and message["status"] == "deal_over" and seat not in message["ready"]
            key = ("action", message["version"], 0) if moving else ("ready", message["game"], message["deal"])
            if (moving or ready) and key not in answered:
                answered.add(key)
                if moving:
                    move = rng.choice(message["view"]["legal"])
                    ws.send_json({"type": "action", "version": message["version"], "action": move})
                else:
                    ws.send_json({"type": "next_deal"})
        message = receive(ws, timeout=20)


def game_over(message: Message) -> bool:
    return bool(message["status"] == "game_over")


class FlakyBroker(RemoteBroker):
    """A networked broker whose server answers, refuses or hangs, as `mode` says."""

    def __init__(self, clock: ManualClock) -> None:
        super().__init__(clock)
        self.mode = "up"
        self.sent: list[str] = []

    async def _connect(self) -> None:
        pass

    async def _disconnect(self) -> None:
        pass

    async def _messages(self) -> AsyncIterator[str]:
        await asyncio.Event().wait()  # nothing is ever heard
        yield ""

    async def _send(self, message: str) -> None:
        if self.mode == "down":
            raise ConnectionError("connection refused")
        if self.mode == "hung":
            await asyncio.Event().wait()
        self.sent.append(message)
