"""Server load: many concurrent tables of computer players and WebSocket clients on 127.0.0.1.

Usage: .venv/bin/python benchmarks/server_load.py [--tables 200] [--seconds 20] [--json]
Starts one `canasta serve` process on a free loopback port with a temporary database, creates
the tables (classic, 4 players: one person played by a client of this script, three bots), and
connects one player and one spectator per table. Each player makes a random legal move after a
short think; the latency of a move is the time from sending it to receiving its `ack` (the
move checked, stored and announced). After a warm-up (all clients connecting at once), reports
moves per second (every stored event, bots' included), the p50/p99/max of that latency, and how
much of one core the server used (Linux).
Bounded: at most 1000 tables and 300 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

CANASTA = Path(sys.executable).parent / "canasta"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only
MAX_TABLES, MAX_SECONDS = 1000, 300.0


@dataclass
class Totals:
    """What the clients saw after `since` (a monotonic time): latencies, and per table the first
    and the last version."""

    since: float
    latencies: list[float] = field(default_factory=list)
    first: dict[str, int] = field(default_factory=dict)
    last: dict[str, int] = field(default_factory=dict)
    errors: int = 0


def http(port: int, path: str, body: Any) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    with DIRECT.open(request, timeout=30) as response:
        return json.load(response)


def start_server(port: int, db: Path, log: Path, bot_delay: float) -> subprocess.Popen[bytes]:
    command = [str(CANASTA), "serve", "--port", str(port), "--db", str(db), "--bot-delay", str(bot_delay)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            DIRECT.open(f"http://127.0.0.1:{port}/api/tables/AAAAAAAAAAAAAAAAAAAAAA", timeout=1)
        except urllib.error.HTTPError:
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start:\n{log.read_text()}") from None
            time.sleep(0.1)


async def player(url: str, token: str, table: str, think: float, stop: float, totals: Totals) -> None:
    """Play one seat until `stop` (a monotonic time): random legal moves, rematch at the end."""
    rng = random.Random()
    async with connect(url, proxy=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[int, float] = {}
        ids = itertools.count()
        pending: asyncio.Task[None] | None = None
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=stop - time.monotonic()))
            except TimeoutError:
                break
            kind = message["type"]
            now = time.monotonic()
            if kind == "ack" and message["id"] in sent:
                at = sent.pop(message["id"])
                if at >= totals.since:
                    totals.latencies.append(now - at)
            elif kind == "error":
                totals.errors += 1
            elif kind == "state":
                if now >= totals.since:
                    totals.first.setdefault(table, message["version"])
                    totals.last[table] = message["version"]
                mine = message["status"] == "playing" and message["to_move"] == message["seat"]
                if mine or message["status"] == "game_over":
                    pending = asyncio.create_task(_move(ws, message, rng, think, sent, next(ids)))
        if pending is not None:
            pending.cancel()


async def _move(
    ws: ClientConnection,
    state: dict[str, Any],
    rng: random.Random,
    think: float,
    sent: dict[int, float],
    request_id: int,
) -> None:
    """After a random think, send a random legal move (or a rematch), noting when it was sent."""
    await asyncio.sleep(rng.uniform(0, 2 * think))
    if state["status"] == "game_over":
        message = {"type": "rematch", "id": request_id}
    else:
        move = rng.choice(state["view"]["legal"])
        message = {"type": "action", "id": request_id, "version": state["version"], "action": move}
    sent[request_id] = time.monotonic()
    await ws.send(json.dumps(message))


async def spectator(url: str, stop: float) -> None:
    async with connect(url, proxy=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=stop - time.monotonic())
            except TimeoutError:
                break


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    port: int, seats: list[tuple[str, str]], seconds: float, warmup: float, think: float, server: int
) -> tuple[Totals, float, float]:
    """Play until the end; returns what the clients saw, the seconds measured, and the server's
    CPU seconds in that time."""
    start = time.monotonic()
    totals = Totals(since=start + warmup)
    stop = totals.since + seconds
    tasks = []
    for table, token in seats:
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        tasks.append(player(url, token, table, think, stop, totals))
        tasks.append(spectator(url, stop))
    clients = asyncio.gather(*tasks)
    await asyncio.sleep(warmup)
    cpu = cpu_seconds(server)
    await clients
    return totals, time.monotonic() - totals.since, cpu_seconds(server) - cpu


def percentile(values: list[float], p: float) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=1000, method="inclusive")[int(p * 10) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds, after the warm-up")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured at the start")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds before a bot moves")
    parser.add_argument("--think", type=float, default=0.3, help="a player's mean think time, seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    tables, seconds = min(args.tables, MAX_TABLES), min(args.seconds, MAX_SECONDS)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(port, Path(tmp) / "bench.db", Path(tmp) / "server.log", args.bot_delay)
        try:
            settings = {"players": 4, "seats": ["human", "random", "random", "random"], "deal_pause": 1}
            seats = []
            for _ in range(tables):
                table = http(port, "/api/tables", settings)["table"]
                seats.append((table, http(port, f"/api/tables/{table}/seats", {"name": "bench"})["token"]))
            warmup = min(args.warmup, 60.0)
            totals, elapsed, cpu = asyncio.run(run(port, seats, seconds, warmup, args.think, server.pid))
        finally:
            server.terminate()
            server.wait(10)
    moves = sum(totals.last[t] - totals.first[t] for t in totals.last)
    result = {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "acks": len(totals.latencies),
        "p50_ms": round(percentile(totals.latencies, 50) * 1000, 2),
        "p99_ms": round(percentile(totals.latencies, 99) * 1000, 2),
        "max_ms": round(max(totals.latencies, default=float("nan")) * 1000, 2),
        "errors": totals.errors,
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>16}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
