"""Helpers for tests of real `canasta serve` processes: start one, call its HTTP API, and play
at its tables over real WebSockets."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from database_servers import free_port

CANASTA = Path(sys.executable).parent / "canasta"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, no proxy

__all__ = ["Player", "answering", "free_port", "http", "play", "players", "server"]


def http(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("content-type", "application/json")
    if token is not None:
        request.add_header("x-seat-token", token)
    with DIRECT.open(request, timeout=10) as response:
        return json.load(response)


@contextmanager
def server(port: int, db: str | Path, log: Path, *options: str,
           program: Path = CANASTA) -> Iterator[subprocess.Popen[bytes]]:
    """`canasta serve` (`program`) on `port` with the database `db` (and more `options`), once it
    answers."""
    command = [str(program), "serve", "--port", str(port), "--db", str(db), *options]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        answering(port, process, log)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)


def answering(port: int, process: subprocess.Popen[bytes], log: Path, seconds: float = 20) -> None:
    """Wait until a canasta server answers on `port` (directly or through a proxy), while
    `process` runs (its output in `log`)."""
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, log.read_text()
        try:
            http(port, "GET", "/api/tables/AAAAAAAAAAAAAAAAAAAAAA")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404  # no such table: the server answered
            return
        except OSError:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)


#: Errors that answer a move raced by another process's (see `Player.drain`).
RACES = frozenset({"stale_state", "deal_in_progress"})


class Player:
    """A person (or, without a token, a spectator) at the table over a real WebSocket, keeping
    the latest state it was sent (with the latest score sheet) and every state in `seen`."""

    def __init__(self, port: int, table: str, token: str | None, stack: ExitStack) -> None:
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        self.ws: ClientConnection = stack.enter_context(connect(url, proxy=None, max_queue=None))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.seat = json.loads(self.ws.recv(timeout=10))["seat"]
        self.state: dict[str, Any] = {}
        self.seen: list[dict[str, Any]] = []
        self.drain(wait=10)

    def drain(self, wait: float = 0.0) -> None:
        """Read every message that has arrived (waiting up to `wait` for the first). The errors
        allowed are the answers to acting on a state that a move through another process has
        just moved past (as a remote seat player takes them): `stale_state`, `deal_in_progress`."""
        while True:
            try:
                message = self._receive(wait)
            except TimeoutError:
                return
            wait = 0.0
            assert message["type"] != "error" or message["code"] in RACES, message

    def expect(self, wanted: Callable[[dict[str, Any]], bool], wait: float = 10) -> dict[str, Any]:
        """Read messages until a `wanted` one (each within `wait` seconds), and return it."""
        while True:
            message = self._receive(wait)
            if wanted(message):
                return message
            assert message["type"] != "error", message

    def _receive(self, wait: float) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=wait))
        if message["type"] == "state":
            if message["score_sheet"] is None:  # unchanged since the previous state
                message["score_sheet"] = self.state["score_sheet"]
            self.state = message
            self.seen.append(message)
        return message

    def move(self, rng: random.Random) -> bool:
        """Make a random legal move if it is this seat's turn (between deals: ask for the next
        one); whether it moved."""
        state = self.state
        if self.seat is not None and state["status"] == "deal_over" and self.seat not in state["ready"]:
            self.ws.send(json.dumps({"type": "next_deal"}))
        elif self.seat is None or state["status"] != "playing" or state["to_move"] != self.seat:
            return False
        else:
            move = rng.choice(state["view"]["legal"])
            self.ws.send(json.dumps({"type": "action", "version": state["version"], "action": move}))
        while self.state["version"] == state["version"]:
            self.drain(wait=10)
        return True


def players(port: int, table: str, tokens: list[str], stack: ExitStack) -> list[Player]:
    return [Player(port, table, token, stack) for token in tokens]


def play(people: list[Player], watchers: list[Player], rng: random.Random, until: int) -> None:
    """The people move when it is their turn, until the table is past version `until` and every
    client has the same latest state, waiting for a person."""
    clients = people + watchers
    deadline = time.monotonic() + 60
    while True:
        for person in people:
            person.move(rng)
        for client in clients:
            client.drain(wait=0.02)
        versions = {c.state["version"] for c in clients}
        state = clients[0].state
        if len(versions) == 1 and state["version"] > until and state["to_move"] in (0, 2):
            return
        assert time.monotonic() < deadline, [c.state["version"] for c in clients]
