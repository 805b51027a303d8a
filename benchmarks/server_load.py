"""Server load: many concurrent tables of computer players and WebSocket clients on 127.0.0.1.

Usage: .venv/bin/python benchmarks/server_load.py [--tables 200[,500,1000]] [--seconds 20] [--json]
       .venv/bin/python benchmarks/server_load.py --slow-clients 40 --seconds 60
       .venv/bin/python benchmarks/server_load.py --memory 1000
       .venv/bin/python benchmarks/server_load.py --bots search --tables 100 --seconds 60

Starts one `canasta serve` process on a free loopback port with a temporary database, pinned to
the first core, and runs the clients in processes of their own pinned to the other cores (on a
one-core machine they share it). The default run creates the tables (classic, 4 players: one
person played by a client, three bots) and connects one player and one spectator per table,
the connections spread over the warm-up. Each player makes a random legal move after a short
think; the latency of a move is the time from sending it to receiving its `ack` (the move
checked, stored and announced). After the warm-up it reports moves per second (every stored
event, bots' included), the p50/p99/max of that latency, the server's CPU milliseconds per
move and its memory (RSS), and the clients' CPU. `--slow-clients N` instead connects N clients
that never read to busy tables and reports whether the server closed them and its RSS before,
during and after; `--memory N` reports the server's memory per live table (N tables in play,
nobody connected). Bounded: at most 1000 tables, 300 seconds, 500 slow clients.

`--bots LEVEL` (`hard`, `search`, `search:time=2`...) seats three computer players of that
level at each table instead of `random` ones, and leaves the server free to use every core (its
worker processes think there; the clients keep to the last core). It reports, besides, the
computer players' own moves per table per second, how many of their moves were made past their
deadline (`late`) and how many were played quickly by `hard` (`quick`; from the server's
`/api/metrics`, or its log for a server without it).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import json
import multiprocessing
import os
import random
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

CANASTA = Path(sys.executable).parent / "canasta"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only
MAX_TABLES, MAX_SECONDS, MAX_SLOW = 1000, 300.0, 500
BOT_TABLE = {
    "players": 4,
    "seats": ["random"] * 4,
    "bot_delay": 0.05,
    "deal_pause": 0.5,
    "target_score": 100000,
}
# the benchmark's own clients, all from 127.0.0.1, are many
LIMITS = ("connections_per_address=100000", "tables_per_minute=100000", "connections_per_table=1000")


def server_cores() -> tuple[set[int], set[int]]:
    """The cores for the server (the first) and for the clients (the others)."""
    cores = sorted(os.sched_getaffinity(0))
    return {cores[0]}, set(cores[1:]) or {cores[0]}


@dataclass
class Totals:
    """What one client process saw in the measured time: latencies, and per table the first
    and the last version."""

    latencies: list[float] = field(default_factory=list)
    first: dict[str, int] = field(default_factory=dict)
    last: dict[str, int] = field(default_factory=dict)
    errors: int = 0
    failed: int = 0  # connections that failed (refused, timed out, closed by the server)
    bot_moves: int = 0  # computer players' moves seen by the players in the measured time


def http(port: int, path: str, body: Any) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    with DIRECT.open(request, timeout=30) as response:
        return json.load(response)


PROFILE: list[str] = []  # `--profile FILE`: the server runs under cProfile, writing FILE at its end


@contextmanager
def running_server(
    bot_delay: float, *limits: str, pinned: bool = True
) -> Iterator[tuple[int, int, Path]]:
    """`canasta serve` on a free port, pinned to the server's core (unless not `pinned`), with
    `LIMITS` and `limits` (`NAME=VALUE`): (port, pid, its log file)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        profiled = [sys.executable, "-m", "cProfile", "-o", *PROFILE, "-m", "canasta.cli.main"]
        command = [
            *(profiled if PROFILE else [str(CANASTA)]),
            "serve",
            "--port",
            str(port),
            "--db",
            str(Path(tmp) / "bench.db"),
            "--bot-delay",
            str(bot_delay),
            *(a for limit in (*LIMITS, *limits) for a in ("--limit", limit)),
        ]
        cores = server_cores()[0] if pinned else set(os.sched_getaffinity(0))
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=lambda: os.sched_setaffinity(0, cores),
            )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    DIRECT.open(f"http://127.0.0.1:{port}/api/rulesets", timeout=1)
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"the server did not start:\n{log.read_text()}") from None
                    time.sleep(0.1)
            yield port, process.pid, log
        finally:
            process.send_signal(signal.SIGINT)  # a clean stop (and the profile written)
            process.wait(30)


def cpu_seconds(pid: int | str = "self") -> float:
    """CPU time a process has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- the clients: players and spectators ------------------------------------------------------


async def player(
    url: str, token: str, table: str, think: float, since: float, stop: float, totals: Totals
) -> None:
    """Play one seat until `stop` (a monotonic time): random legal moves, rematch at the end."""
    rng = random.Random()
    async with connect(url, proxy=None, max_queue=None, open_timeout=60) as ws:
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
                if at >= since:
                    totals.latencies.append(now - at)
            elif kind == "error":
                totals.errors += 1
            elif kind == "state":
                if now >= since:
                    totals.first.setdefault(table, message["version"])
                    totals.last[table] = message["version"]
                    last = message.get("last")
                    totals.bot_moves += bool(last and last["by"] == "bot")
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
    async with connect(url, proxy=None, max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=stop - time.monotonic())
            except TimeoutError:
                break


async def _staggered(delay: float, client: Any, totals: Totals) -> None:
    await asyncio.sleep(delay)
    try:
        await client
    except (OSError, TimeoutError, ConnectionError, WebSocketException):
        totals.failed += 1


async def clients(
    port: int, seats: list[tuple[str, str]], start: float, warmup: float, stop: float, think: float
) -> Totals:
    """One process's players and spectators, their connections spread over the first half of
    the warm-up."""
    totals = Totals()
    tasks = []
    since = start + warmup
    for n, (table, token) in enumerate(seats):
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
        at = start + warmup / 2 * n / max(1, len(seats)) - time.monotonic()
        tasks.append(_staggered(at, player(url, token, table, think, since, stop, totals), totals))
        tasks.append(_staggered(at, spectator(url, stop), totals))
    await asyncio.gather(*tasks)
    return totals


def client_process(
    port: int,
    seats: list[tuple[str, str]],
    start: float,
    warmup: float,
    stop: float,
    think: float,
    results: Any,
) -> None:
    os.sched_setaffinity(0, server_cores()[1])
    totals = asyncio.run(clients(port, seats, start, warmup, stop, think))
    errors = totals.errors + totals.failed
    results.put((totals.latencies, totals.first, totals.last, errors, cpu_seconds(), totals.bot_moves))


def percentile(values: list[float], p: float) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=1000, method="inclusive")[int(p * 10) - 1]


def bot_counts(port: int, log: Path) -> dict[str, int]:
    """The server's counts of its computer players' moves: `/api/metrics`, or (a server without
    it) the lines of its log about moves out of time."""
    try:
        with DIRECT.open(f"http://127.0.0.1:{port}/api/metrics", timeout=30) as response:
            bots = json.load(response)["bots"]
        return {"late": bots["late"] + bots["failed"], "quick": bots["quick"]}
    except urllib.error.HTTPError:
        late = log.read_text().count("out of time")
        return {"late": late, "quick": late}


def load(
    tables: int, seconds: float, warmup: float, bot_delay: float, think: float, procs: int, bots: str | None
) -> dict[str, Any]:
    """The default run at one number of tables."""
    with running_server(bot_delay, pinned=bots is None) as (port, pid, log):
        settings = {"players": 4, "seats": ["human", *[bots or "random"] * 3], "deal_pause": 1}
        seats = []
        for _ in range(tables):
            table = http(port, "/api/tables", settings)["table"]
            seats.append((table, http(port, f"/api/tables/{table}/seats", {"name": "bench"})["token"]))
        idle_rss = rss_mb(pid)
        start = time.monotonic() + 1.0
        stop = start + warmup + seconds
        results: Any = multiprocessing.Queue()
        workers = [
            multiprocessing.Process(
                target=client_process, args=(port, seats[i::procs], start, warmup, stop, think, results)
            )
            for i in range(procs)
        ]
        for w in workers:
            w.start()
        time.sleep(start + warmup - time.monotonic())
        cpu, measured, counted = cpu_seconds(pid), time.monotonic(), bot_counts(port, log)
        outcomes = [results.get(timeout=seconds + warmup + 120) for _ in workers]
        elapsed, server_cpu = time.monotonic() - measured, cpu_seconds(pid) - cpu
        counts = {key: value - counted[key] for key, value in bot_counts(port, log).items()}
        busy_rss = rss_mb(pid)
        for w in workers:
            w.join(30)
    latencies = [x for o in outcomes for x in o[0]]
    first = {t: v for o in outcomes for t, v in o[1].items()}
    last = {t: v for o in outcomes for t, v in o[2].items()}
    moves = sum(last[t] - first[t] for t in last)
    bot_moves = sum(o[5] for o in outcomes)
    computers = {
        "bots": bots,
        "bot_moves_per_table_second": round(bot_moves / tables / elapsed, 3),
        "bot_moves_late": counts["late"],
        "bot_moves_quick": counts["quick"],
    }
    return {
        "tables": tables,
        **(computers if bots else {}),
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "acks": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 2),
        "p99_ms": round(percentile(latencies, 99) * 1000, 2),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 2),
        "errors": sum(o[3] for o in outcomes),
        "server_cpu_percent": round(100 * server_cpu / elapsed, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, moves), 3),
        "server_rss_mb_idle": round(idle_rss, 1),
        "server_rss_mb": round(busy_rss, 1),
        "client_cpu_percent": round(100 * sum(o[4] for o in outcomes) / elapsed, 1),
    }


# -- slow clients and memory ------------------------------------------------------------------


def slow_clients(count: int, seconds: float) -> dict[str, Any]:
    """`count` clients that say hello and never read again, spread over busy tables of computer
    players watched by one reading client each: does the server close them, and give back the
    memory? The memory the same tables take meanwhile without slow clients is measured first
    (`rss_mb_drift_without_slow_clients`, over as many seconds)."""
    with running_server(0.05) as (port, pid, _):
        # tables that move twice a second: traffic for the slow clients, little history of their own
        table = {**BOT_TABLE, "bot_delay": 0.5}
        tables = [http(port, "/api/tables", table)["table"] for _ in range(max(1, count // 4))]
        watchers = []
        for table in tables:  # reading spectators keep the tables playing
            watchers.append(
                subprocess.Popen(
                    [sys.executable, __file__, "--watch", f"{port}/{table}", "--seconds", str(seconds + 40)],
                    preexec_fn=lambda: os.sched_setaffinity(0, server_cores()[1]),
                )
            )
        time.sleep(20)
        control = rss_mb(pid)
        time.sleep(seconds / 2)  # the same tables without slow clients: how memory drifts anyway
        before = rss_mb(pid)
        silent = []
        for n in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            key = "dGhlIHNhbXBsZSBub25jZQ=="
            request = (
                f"GET /ws/tables/{tables[n % len(tables)]} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            sock.sendall(request.encode())
            sock.sendall(_masked_text(json.dumps({"type": "hello"})))
            silent.append(sock)
        peak = before
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            time.sleep(1)
            peak = max(peak, rss_mb(pid))
        after = rss_mb(pid)
        closed = _closed(silent)
        for sock in silent:
            sock.close()
        for w in watchers:
            w.terminate()
    return {
        "slow_clients": count,
        "seconds": seconds,
        "closed": closed,
        "rss_mb_before": round(before, 1),
        "rss_mb_peak": round(peak, 1),
        "rss_mb_after": round(after, 1),
        "rss_mb_after_minus_before": round(after - before, 1),
        "rss_mb_drift_without_slow_clients": round(2 * (before - control), 1),
    }


def _masked_text(text: str) -> bytes:
    """One masked WebSocket text frame (a client's)."""
    data = text.encode()
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _closed(sockets: list[socket.socket], seconds: float = 5.0) -> int:
    """How many of the connections the server has closed or aborted: each is read (what the
    kernel holds for it, then whatever comes) for up to `seconds`, until its end or a reset."""
    open_ = set(sockets)
    for sock in sockets:
        sock.setblocking(False)
    deadline = time.monotonic() + seconds
    while open_ and time.monotonic() < deadline:
        ready, _, _ = select.select(list(open_), [], [], 0.1)
        for sock in ready:
            try:
                if not sock.recv(1 << 20):
                    open_.discard(sock)
            except BlockingIOError:
                pass
            except OSError:
                open_.discard(sock)  # reset by the server
    return len(sockets) - len(open_)


def watch(where: str, seconds: float) -> None:
    port, table = where.split("/")

    async def run() -> None:
        await spectator(f"ws://127.0.0.1:{port}/ws/tables/{table}", time.monotonic() + seconds)

    asyncio.run(run())


def memory(tables: int) -> dict[str, Any]:
    """The server's memory per live table: RSS with `tables` tables of computer players in
    play (nobody connected), less RSS before they were created."""
    with running_server(0.05) as (port, pid, _):
        time.sleep(2)
        before = rss_mb(pid)
        for _ in range(tables):
            http(port, "/api/tables", BOT_TABLE)
        time.sleep(5)
        after = rss_mb(pid)
    return {
        "tables": tables,
        "rss_mb_before": round(before, 1),
        "rss_mb_after": round(after, 1),
        "kb_per_table": round((after - before) * 1024 / tables, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="200", help="tables, or several separated by commas")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds, after the warm-up")
    parser.add_argument("--warmup", type=float, default=6.0, help="seconds not measured at the start")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds before a bot moves")
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean think time, seconds")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--bots", help="three computer players of this level at each table (e.g. search)")
    parser.add_argument("--slow-clients", type=int, default=0, help="measure clients that never read instead")
    parser.add_argument("--memory", type=int, default=0, help="measure the memory per live table instead")
    parser.add_argument(
        "--profile", metavar="FILE", help="run the server under cProfile, its statistics to FILE"
    )
    parser.add_argument("--watch", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print one JSON line per run")
    args = parser.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    PROFILE.extend([args.profile] if args.profile else [])
    if args.watch:
        watch(args.watch, seconds)
        return 0
    if args.slow_clients:
        runs = iter([lambda: slow_clients(min(args.slow_clients, MAX_SLOW), seconds)])
    elif args.memory:
        runs = iter([lambda: memory(min(args.memory, MAX_TABLES))])
    else:
        warmup, procs = min(args.warmup, 60.0), max(1, args.client_processes)
        runs = (
            functools.partial(
                load, min(int(n), MAX_TABLES), seconds, warmup, args.bot_delay, args.think, procs, args.bots
            )
            for n in args.tables.split(",")
        )
    for run in runs:
        result = run()
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            for key, value in result.items():
                print(f"{key:>26}: {value}")
            print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
