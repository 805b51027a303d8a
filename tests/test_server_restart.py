"""A real `canasta serve` process killed with SIGKILL mid-deal and restarted continues every
table: the same position, the same seats, nothing a client saw is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

CANASTA = Path(sys.executable).parent / "canasta"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, no proxy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
def server(port: int, db: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    command = [str(CANASTA), "serve", "--port", str(port), "--db", str(db)]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, log.read_text()
            try:
                http(port, "GET", "/api/tables/AAAAAAAAAAAAAAAAAAAAAA")
            except urllib.error.HTTPError as exc:
                assert exc.code == 404
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)


class Player:
    """A person at the table over a real WebSocket, keeping the latest state it was sent."""

    def __init__(self, port: int, table: str, token: str, stack: ExitStack) -> None:
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        self.ws: ClientConnection = stack.enter_context(connect(url, proxy=None, max_queue=None))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.seat = json.loads(self.ws.recv(timeout=10))["seat"]
        self.state: dict[str, Any] = {}
        self.drain(wait=10)

    def drain(self, wait: float = 0.0) -> None:
        """Read every message that has arrived (waiting up to `wait` for the first)."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=wait))
            except TimeoutError:
                return
            wait = 0.0
            assert message["type"] != "error", message
            if message["type"] == "state":
                self.state = message

    def move(self, rng: random.Random) -> bool:
        """Make a random legal move if it is this seat's turn; whether it moved."""
        state = self.state
        if state["status"] != "playing" or state["to_move"] != self.seat:
            return False
        move = rng.choice(state["view"]["legal"])
        self.ws.send(json.dumps({"type": "action", "version": state["version"], "action": move}))
        while self.state["version"] == state["version"]:
            self.drain(wait=10)
        return True


def players(port: int, table: str, tokens: list[str], stack: ExitStack) -> list[Player]:
    return [Player(port, table, token, stack) for token in tokens]


def stable(people: list[Player]) -> bool:
    """Both people have the same latest state, and it waits for seat 0 to draw."""
    states = [p.state for p in people]
    return (
        states[0]["version"] == states[1]["version"]
        and states[0]["to_move"] == 0
        and (states[0]["view"]["phase"] == "draw")
    )


def test_sigkill_mid_deal_and_restart(tmp_path: Path) -> None:
    port, db, log = free_port(), tmp_path / "canasta.db", tmp_path / "server.log"
    rng = random.Random(7)
    with server(port, db, log) as process, ExitStack() as stack:
        settings = {
            "players": 4,
            "seats": ["human", "random", "human", "random"],
            "bot_delay": 0,
            "deal_pause": 0,
        }
        table = http(port, "POST", "/api/tables", settings)["table"]
        tokens = [
            http(port, "POST", f"/api/tables/{table}/seats", {"name": name})["token"]
            for name in ("Ann", "Cleo")
        ]
        busy = {"players": 4, "seats": ["random"] * 4, "bot_delay": 0.005, "target_score": 100000}
        bots_only = http(port, "POST", "/api/tables", busy)["table"]
        people = players(port, table, tokens, stack)
        while not (people[0].state["version"] > 40 and stable(people)):
            for person in people:
                person.move(rng)
                person.drain(wait=0.02)
        before = [p.state for p in people]
        bots_seen = http(port, "GET", f"/api/tables/{bots_only}")["version"]
        process.send_signal(signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL
    assert bots_seen > 10

    with server(port, db, log), ExitStack() as stack:
        people = players(port, table, tokens, stack)
        for person, old in zip(people, before, strict=True):
            new = person.state
            assert new["version"] == old["version"] and new["view"] == old["view"]
            assert new["score_sheet"] == old["score_sheet"] and new["deal"] == old["deal"]
            assert [(s["name"], s["bot"]) for s in new["seats"]] == [
                ("Ann", None),
                (None, "random"),
                ("Cleo", None),
                (None, "random"),
            ]
        assert people[0].move(rng)
        assert people[0].state["version"] == before[0]["version"] + 1
        bots_after = http(port, "GET", f"/api/tables/{bots_only}")["version"]
        assert bots_after >= bots_seen  # stored before anyone was told
        time.sleep(0.3)
        assert http(port, "GET", f"/api/tables/{bots_only}")["version"] > bots_after  # and it plays on
    assert "Traceback" not in log.read_text(), log.read_text()
    assert os.path.getsize(db) > 0
