"""A real `canasta serve` process killed with SIGKILL mid-deal and restarted continues every
table: the same position, the same seats, nothing a client saw is lost. Its computer players
play on once the leases of the process killed have lapsed (2 s here)."""

from __future__ import annotations

import os
import random
import signal
import time
from contextlib import ExitStack
from pathlib import Path

from process_support import Player, free_port, http, players, server

LEASE = ("--limit", "lease=2")


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
    with server(port, db, log, *LEASE) as process, ExitStack() as stack:
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
        busy = {
            "players": 4,
            "seats": ["random"] * 4,
            "bot_delay": 0.005,
            "deal_pause": 0,
            "target_score": 100000,
        }
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

    with server(port, db, log, *LEASE), ExitStack() as stack:
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
        deadline = time.monotonic() + 10  # and it plays on
        while http(port, "GET", f"/api/tables/{bots_only}")["version"] <= bots_after:
            assert time.monotonic() < deadline, "the bots' table did not play on after the restart"
            time.sleep(0.05)
    assert "Traceback" not in log.read_text(), log.read_text()
    assert os.path.getsize(db) > 0
