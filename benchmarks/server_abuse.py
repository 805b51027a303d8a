"""The server under abuse: what an innocent client sees while others attack a table's link.

Usage: .venv/bin/python benchmarks/server_abuse.py [SCENARIO ...] (default: every one)

Each scenario starts its own `canasta serve` (as `server_load.py` does) and reports:

- `record`: an all-computer table plays until it has finished `--deals` deals (185); then,
  while 8 clients read its record (`GET /api/tables/{id}/record`) over and over, a person at
  another table moves, and the latency of each of its moves (sent to `ack`) is measured, with
  the read limits as they are (`record-unlimited`: lifted, `read_burst` one million);
- `seats`: 64 spectators at a table (the cap), a 65th, then its seated player: admitted or not;
- `chat`: one player with 40 sockets sends every chat line they allow for 10 seconds while 5
  spectators read: the spectators still connected, the lines they got per second;
- `half-open`: the server started with a soft limit of 1,024 open files; 1,100 connections
  send half a request; the home page's time to answer, 5 times;
- `broker`: two processes share a table through Redis, which hangs (SIGSTOP) for 20 seconds
  while a person plays on one: the acknowledgements before, during and after, and what a
  spectator on the other process saw in the end;
- `write-lock`: another process holds the SQLite write lock for 12 seconds while a person
  plays at each of 8 tables: the acknowledgements of the moves sent meanwhile, another table's
  state read, a person taking a seat, and the moves in the database once the lock is released;
- `bots`: a table of four `search` players created from 127.0.0.2 plays alone for `--seconds`,
  then while one seat of another table asks for hints from 5, 15 and 60 sockets at once, then
  while 18 tables of `search:time=2` players created from 127.0.0.1 play: its computer
  players' moves per second each time, and the moves past their deadline (every table's);
- `review`: while 20 tables of four `search` players play (each watched), a person plays a
  classic deal of two against a computer player by random moves and asks for the review of
  their decisions: the seconds until it is there (as the page polls for it), its decisions,
  and the moves past their deadline meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
from contextlib import closing, suppress
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

from server_load import CANASTA, DIRECT, Totals, bot_counts, http, percentile, player, running_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

BOTS = {"players": 4, "seats": ["random"] * 4, "bot_delay": 0, "deal_pause": 0, "target_score": 100000}
DUEL = {  # with a turn timer, the next deal starts by itself
    "players": 2, "seats": ["human", "random"], "bot_delay": 0, "deal_pause": 0, "target_score": 100000,
    "turn_timer": 60,
}


def _get(port: int, path: str) -> tuple[int, bytes]:
    try:
        with DIRECT.open(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _finished_deals(port: int, table: str) -> int:
    state = json.loads(_get(port, f"/api/tables/{table}")[1])
    return len(state["score_sheet"]["deals"])


def record(deals: int, seconds: float, *limits: str) -> dict[str, Any]:
    with running_server(0.0, *limits) as (port, _, _):
        table = http(port, "/api/tables", BOTS)["table"]
        started = time.monotonic()
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}"  # watched, or it would stop
        return asyncio.run(_record_storm(port, table, url, deals, seconds, started))


async def _record_storm(
    port: int, table: str, url: str, deals: int, seconds: float, started: float
) -> dict[str, Any]:
    async with connect(url, proxy=None, max_queue=None) as watcher:
        await watcher.send(json.dumps({"type": "hello"}))
        while await asyncio.to_thread(_finished_deals, port, table) < deals:
            until = time.monotonic() + 0.5  # keep reading (a spectator that does not read is closed)
            while (left := until - time.monotonic()) > 0:
                try:
                    await asyncio.wait_for(watcher.recv(), left)
                except TimeoutError:
                    break
        reached = time.monotonic() - started
        size = len((await asyncio.to_thread(_get, port, f"/api/tables/{table}/record?first=0&deal=49"))[1])
        duel = http(port, "/api/tables", DUEL)["table"]
        token = http(port, f"/api/tables/{duel}/seats", {"name": "Ann"})["token"]
        stop = time.monotonic() + seconds
        served = [0, 0]  # 200 and 429 answers

        def read_repeatedly() -> None:
            while time.monotonic() < stop:
                status, _ = _get(port, f"/api/tables/{table}/record")
                served[status != 200] += 1

        totals = Totals()
        readers = [asyncio.to_thread(read_repeatedly) for _ in range(8)]
        duel_url = f"ws://127.0.0.1:{port}/ws/tables/{duel}"
        drain = asyncio.create_task(_drain(watcher, stop))
        moving = player(duel_url, token, duel, 0.02, time.monotonic() + 1, stop, totals)
        await asyncio.gather(moving, *readers)
        await drain
    latencies = sorted(totals.latencies)
    return {
        "deals": deals,
        "seconds_to_reach": round(reached, 1),
        "page_of_50_deals_bytes": size,
        "reads_ok_per_second": round(served[0] / seconds, 1),
        "reads_refused_per_second": round(served[1] / seconds, 1),
        "moves": len(latencies),
        "ack_p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "ack_p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "ack_max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
    }


async def _drain(ws: Any, stop: float) -> None:
    while time.monotonic() < stop:
        try:
            await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
        except TimeoutError:
            return


def seats() -> dict[str, Any]:
    with running_server(1.0, "connections_per_table=64") as (port, _, _):
        table = http(port, "/api/tables", {"players": 2, "seats": ["human", "random"]})["table"]
        token = http(port, f"/api/tables/{table}/seats", {"name": "Ann"})["token"]
        return asyncio.run(_seats(f"ws://127.0.0.1:{port}/ws/tables/{table}", token))


async def _seats(url: str, token: str) -> dict[str, Any]:
    sockets = []
    for _ in range(65):
        ws = await connect(url, proxy=None, max_queue=None)
        await ws.send(json.dumps({"type": "hello"}))
        first = json.loads(await ws.recv())
        sockets.append(ws)
    refused = first.get("code") == "too_many_connections"  # the 65th
    started = time.monotonic()
    async with connect(url, proxy=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(await ws.recv())
    admitted_ms = (time.monotonic() - started) * 1000
    for ws in sockets:
        await ws.close()
    return {
        "spectators": 64,
        "65th_spectator_refused": refused,
        "player_admitted_as_seat": welcome.get("seat"),
        "ms": round(admitted_ms, 1),
    }


def chat(seconds: float) -> dict[str, Any]:
    with running_server(1.0, "connections_per_seat=40") as (port, _, _):
        table = http(port, "/api/tables", {"players": 2, "bot_delay": 60})["table"]
        tokens = [http(port, f"/api/tables/{table}/seats", {"name": n})["token"] for n in ("Ann", "Bo")]
        return asyncio.run(_chat(f"ws://127.0.0.1:{port}/ws/tables/{table}", tokens[0], seconds))


async def _chat(url: str, token: str, seconds: float) -> dict[str, Any]:
    stop = time.monotonic() + seconds
    lines = [0] * 5
    closed = [False] * 5

    async def spectator(i: int) -> None:
        async with connect(url, proxy=None, max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            try:
                while time.monotonic() < stop + 1:
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    except TimeoutError:
                        continue
                    lines[i] += message["type"] == "chat"
            except ConnectionClosed:
                closed[i] = True

    async def flooder() -> tuple[int, bool]:
        """The errors this socket was sent, and whether the server closed it."""
        async with connect(url, proxy=None, max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            reader = asyncio.create_task(_count_errors(ws))
            try:
                while time.monotonic() < stop:
                    for _ in range(40):
                        await ws.send(json.dumps({"type": "chat", "phrase": "hello"}))
                    await asyncio.sleep(0.05)
            except ConnectionClosed:
                return await reader, True
            return await reader, False

    watchers = [asyncio.create_task(spectator(i)) for i in range(5)]
    await asyncio.sleep(0.5)
    floods = await asyncio.gather(*(flooder() for _ in range(40)))
    await asyncio.gather(*watchers)
    return {
        "flooding_sockets": 40,
        "spectators_still_connected": closed.count(False),
        "lines_per_spectator_per_second": round(sum(lines) / 5 / seconds, 2),
        "errors_to_the_flooder": sum(errors for errors, _ in floods),
        "flooding_sockets_closed": sum(closed for _, closed in floods),
    }


async def _count_errors(ws: Any) -> int:
    errors = 0
    try:
        while True:
            errors += json.loads(await asyncio.wait_for(ws.recv(), 2))["type"] == "error"
    except (ConnectionClosed, TimeoutError):
        return errors


def half_open(count: int) -> dict[str, Any]:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))  # inherited by the server
    try:
        with running_server(1.0) as (port, _, _):
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            held = []
            for _ in range(count):
                sock = socket.create_connection(("127.0.0.1", port))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: canasta\r\n")
                held.append(sock)
            times = []
            for _ in range(5):
                started = time.monotonic()
                status, _ = _get(port, "/")
                times.append(round((time.monotonic() - started) * 1000, 1))
                assert status == 200
            for sock in held:
                sock.close()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return {"half_open": count, "home_page_ms": times}


def _serve(port: int, db: Path, log: Path, *options: str) -> subprocess.Popen[bytes]:
    command = [str(CANASTA), "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0", *options]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while _get_or_none(port) is None:
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start:\n{log.read_text()}")
        time.sleep(0.1)
    return process


def _get_or_none(port: int) -> int | None:
    try:
        return _get(port, "/api/rulesets")[0]
    except OSError:
        return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def broker(seconds: float) -> dict[str, Any]:
    """Two processes share a table through Redis; a person plays on process A while Redis is
    stopped (SIGSTOP: it hangs) for `seconds`, then goes on; a spectator on process B."""
    with tempfile.TemporaryDirectory() as tmp:
        redis_port, ports = _free_port(), [_free_port(), _free_port()]
        redis = subprocess.Popen(
            ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        time.sleep(0.5)
        url = f"redis://127.0.0.1:{redis_port}"
        servers = [_serve(p, Path(tmp) / "db", Path(tmp) / f"{p}.log", "--broker", url) for p in ports]
        try:
            table = http(ports[0], "/api/tables", DUEL)["table"]
            token = http(ports[0], f"/api/tables/{table}/seats", {"name": "Ann"})["token"]
            return asyncio.run(_broker_pause(ports, table, token, redis, seconds))
        finally:
            for process in [*servers, redis]:
                process.send_signal(signal.SIGCONT)
                process.terminate()
                process.wait(30)


async def _broker_pause(
    ports: list[int], table: str, token: str, redis: subprocess.Popen[bytes], seconds: float
) -> dict[str, Any]:
    urls = [f"ws://127.0.0.1:{port}/ws/tables/{table}" for port in ports]
    seen: list[int] = []

    async def watch(stop: float) -> None:
        async with connect(urls[1], proxy=None, max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while time.monotonic() < stop:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if message["type"] == "state":
                    seen.append(message["version"])

    start = time.monotonic()
    stopped, resumed, end = start + 3, start + 3 + seconds, start + 6 + seconds + 3
    phases = {"before": Totals(), "stopped": Totals(), "after": Totals()}

    async def pause_redis() -> None:
        await asyncio.sleep(stopped - time.monotonic())
        redis.send_signal(signal.SIGSTOP)
        await asyncio.sleep(resumed - time.monotonic())
        redis.send_signal(signal.SIGCONT)

    watcher = asyncio.create_task(watch(end + 3))
    moves = [
        player(urls[0], token, table, 0.05, since, until, phases[name])
        for name, since, until in (
            ("before", start, stopped),
            ("stopped", stopped, resumed),
            ("after", resumed, end),
        )
    ]
    await asyncio.gather(pause_redis(), *_in_turn(moves))
    await watcher
    last = json.loads(_get(ports[0], f"/api/tables/{table}")[1])["version"]
    result: dict[str, Any] = {"redis_stopped_seconds": seconds}
    for name, totals in phases.items():
        latencies = sorted(totals.latencies)
        result[name] = {
            "moves": len(latencies),
            "ack_p99_ms": round(percentile(latencies, 99) * 1000, 1),
            "ack_max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        }
    result["table_version"] = last
    result["spectator_on_the_other_process_saw"] = max(seen, default=0)
    return result


def _in_turn(coroutines: list[Any]) -> list[Any]:
    """The coroutines run one after the other (as one)."""

    async def chain() -> None:
        for coroutine in coroutines:
            await coroutine

    return [chain()]


def write_lock(seconds: float, tables: int = 8) -> dict[str, Any]:
    """Another process holds the SQLite database's write lock for `seconds` while a person plays
    at each of `tables` tables: the acknowledgements of the moves sent while it is held, how long
    the event loop takes to answer a table's state meanwhile, what a person taking a seat then
    is answered, and whether the moves are in the database once the lock is released."""
    with tempfile.TemporaryDirectory() as tmp:
        port, db = _free_port(), Path(tmp) / "canasta.db"
        server = _serve(port, db, Path(tmp) / "server.log")
        try:
            duels = [http(port, "/api/tables", DUEL)["table"] for _ in range(tables)]
            other = http(port, "/api/tables", {"players": 2})["table"]
            tokens = [http(port, f"/api/tables/{t}/seats", {"name": "Ann"})["token"] for t in duels]
            unlocked = asyncio.run(_locked(port, db, duels, other, tokens, seconds, lock=False))
            result = asyncio.run(_locked(port, db, duels, other, tokens, seconds, lock=True))
            result["unlocked"] = {k: v for k, v in unlocked.items() if "ack" in k or "read" in k}
            time.sleep(2)  # the pending moves are copied into the database within a second
            query = "SELECT max(seq) FROM events WHERE table_id = ?"
            with closing(sqlite3.connect(db)) as check:
                stored = {t: check.execute(query, (t,)).fetchone()[0] for t in duels}
            versions = {t: json.loads(_get(port, f"/api/tables/{t}")[1])["version"] for t in duels}
            pending = Path(f"{db}-pending")
            result["all_moves_in_database"] = stored == versions
            result["pending_file_bytes_after"] = pending.stat().st_size if pending.exists() else 0
            return result
        finally:
            server.terminate()
            server.wait(30)


async def _locked(
    port: int, db: Path, duels: list[str], other: str, tokens: list[str], seconds: float, lock: bool
) -> dict[str, Any]:
    """The moves sent in `seconds` (after 2), while the lock is held if `lock`."""
    totals = Totals()
    start = time.monotonic()
    held, released = start + 2, start + 2 + seconds
    reads: list[float] = []
    join: dict[str, Any] = {}

    def hold() -> None:
        time.sleep(held - time.monotonic())
        with closing(sqlite3.connect(db, isolation_level=None)) as holder:
            if lock:
                holder.execute("BEGIN IMMEDIATE")
                started = time.monotonic()
                try:
                    http(port, f"/api/tables/{other}/seats", {"name": "Bea"})
                    join["status"] = 200
                except urllib.error.HTTPError as exc:
                    join["status"], join["code"] = exc.code, json.loads(exc.read())["error"]["code"]
                except OSError as exc:  # closed with no answer
                    join["status"] = type(exc).__name__
                join["seconds"] = round(time.monotonic() - started, 2)
            while time.monotonic() < released:
                started = time.monotonic()
                _get(port, f"/api/tables/{other}")
                reads.append(time.monotonic() - started)
                time.sleep(0.05)
            if lock:
                holder.execute("COMMIT")

    players = [
        player(f"ws://127.0.0.1:{port}/ws/tables/{t}", token, t, 0.05, held, released, totals)
        for t, token in zip(duels, tokens, strict=True)
    ]
    await asyncio.gather(asyncio.to_thread(hold), *players)
    latencies, reads = sorted(totals.latencies), sorted(reads)

    def ms(values: list[float], p: float) -> float | None:  # None: nothing was answered
        return round(percentile(values, p) * 1000, 1) if values else None

    return {
        "lock_held_seconds": seconds if lock else 0,
        "tables": len(duels),
        "moves": len(latencies),  # acknowledged in the time
        "moves_refused": totals.errors,
        "ack_p50_ms": ms(latencies, 50),
        "ack_p99_ms": ms(latencies, 99),
        "ack_max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        "other_table_read_p99_ms": ms(reads, 99),
        "join_while_locked": join,
    }


SEARCHING = {"players": 4, "seats": ["search"] * 4, "bot_delay": 0, "deal_pause": 0, "target_score": 100000}


def _create_from(address: str, port: int, settings: dict[str, Any]) -> str:
    """A table created by a client at `address` (a loopback address of its own)."""
    connection = HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
    with closing(connection):
        connection.request("POST", "/api/tables", json.dumps(settings), {"content-type": "application/json"})
        return str(json.load(connection.getresponse())["table"])


async def _pace(url: str, seconds: float) -> float:
    """The computer players' moves per second a spectator of the table sees in `seconds`."""
    moves, stop = 0, time.monotonic() + seconds
    async with connect(url, proxy=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while (left := stop - time.monotonic()) > 0:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), left))
            except TimeoutError:
                break
            last = message.get("last") if message["type"] == "state" else None
            moves += bool(last and last["by"] == "bot")
    return round(moves / seconds, 2)


async def _decision(url: str, token: str) -> None:
    """Play the seat's only legal moves (a draw) until it has a choice to make, which a hint
    then weighs (a hint with one legal move costs nothing)."""
    async with connect(url, proxy=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "state" or message["status"] != "playing":
                continue
            if message["to_move"] == message["seat"]:
                legal = message["view"]["legal"]
                if len(legal) > 1:
                    return
                move = {"type": "action", "version": message["version"], "action": legal[0]}
                await ws.send(json.dumps(move))


async def _hints(url: str, token: str, sockets: int, stop: float) -> list[int]:
    """One seat asks for hints from `sockets` sockets until `stop`: [hints, refusals]."""
    counts = [0, 0]

    async def ask() -> None:
        async with connect(url, proxy=None, max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while time.monotonic() < stop:
                await ws.send(json.dumps({"type": "hint"}))
                while True:
                    try:
                        left = max(0.01, stop - time.monotonic())
                        message = json.loads(await asyncio.wait_for(ws.recv(), left))
                    except TimeoutError:
                        return
                    if message["type"] in ("hint", "error"):
                        break
                counts[message["type"] == "error"] += 1
                if message["type"] == "error":
                    await asyncio.sleep(0.1)  # within the socket's message rate

    await asyncio.gather(*(ask() for _ in range(sockets)))
    return counts


def bots(seconds: float) -> dict[str, Any]:
    with running_server(0.0, "connections_per_seat=64", pinned=False) as (port, _, log):
        victim = _create_from("127.0.0.2", port, SEARCHING)
        watch = f"ws://127.0.0.1:{port}/ws/tables/{victim}"
        before = bot_counts(port, log)
        result: dict[str, Any] = {"alone": asyncio.run(_pace(watch, seconds))}
        duel = http(port, "/api/tables", {**BOTS, "players": 2, "seats": ["human", "random"]})["table"]
        token = http(port, f"/api/tables/{duel}/seats", {"name": "Ann"})["token"]
        asyncio.run(_decision(f"ws://127.0.0.1:{port}/ws/tables/{duel}", token))
        for sockets in (5, 15, 60):

            async def attacked(sockets: int = sockets) -> tuple[float, list[int]]:
                stop = time.monotonic() + seconds
                url = f"ws://127.0.0.1:{port}/ws/tables/{duel}"
                return await asyncio.gather(_pace(watch, seconds), _hints(url, token, sockets, stop))

            pace, (hints, refused) = asyncio.run(attacked())
            result[f"hints_from_{sockets}_sockets"] = {"pace": pace, "hints": hints, "refused": refused}
        slow = {**SEARCHING, "seats": ["search:time=2"] * 4}
        for _ in range(18):
            http(port, "/api/tables", slow)
        result["with_18_tables_of_search_time_2"] = asyncio.run(_pace(watch, seconds))
        after = bot_counts(port, log)
        result["moves_past_deadline"] = after["late"] - before["late"]
        result["moves_played_quickly"] = after["quick"] - before["quick"]
        return result


async def _play_deal(url: str, token: str) -> None:
    """Random legal moves for the seat until its deal is over."""
    rng = random.Random(1)
    async with connect(url, proxy=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        answered = -1
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "state":
                continue
            if message["status"] == "deal_over":
                return
            mine = message["status"] == "playing" and message["to_move"] == message["seat"]
            if mine and message["version"] > answered:
                answered = message["version"]
                move = {"type": "action", "version": answered, "action": rng.choice(message["view"]["legal"])}
                await ws.send(json.dumps(move))
                await asyncio.sleep(0.06)  # within the socket's message rate


async def _watch_all(urls: list[str], stop: asyncio.Event) -> None:
    async def watch(url: str) -> None:
        async with connect(url, proxy=None, max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while not stop.is_set():
                with suppress(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 0.5)

    await asyncio.gather(*(watch(url) for url in urls))


def review(tables: int = 20) -> dict[str, Any]:
    with running_server(0.8, pinned=False) as (port, _, log):
        base = f"ws://127.0.0.1:{port}/ws/tables/"
        busy = [http(port, "/api/tables", {**SEARCHING, "bot_delay": 0.8})["table"] for _ in range(tables)]
        duel = http(port, "/api/tables", {**BOTS, "players": 2, "seats": ["human", "random"]})["table"]
        token = http(port, f"/api/tables/{duel}/seats", {"name": "Ann"})["token"]
        before = bot_counts(port, log)

        async def run() -> dict[str, Any]:
            stop = asyncio.Event()
            watching = asyncio.create_task(_watch_all([base + table for table in busy], stop))
            await _play_deal(base + duel, token)
            started = time.monotonic()
            path = f"/api/tables/{duel}/reviews"
            answer = await asyncio.to_thread(_ask, port, path, token)
            while answer["status"] != "done":
                await asyncio.sleep(1.0)  # as the page polls
                answer = await asyncio.to_thread(_ask, port, path, token, "GET")
            seconds = time.monotonic() - started
            stop.set()
            await watching
            decisions = answer["review"]["decisions"]
            return {"tables_playing": tables, "seconds": round(seconds, 1), "decisions": decisions}

        result = asyncio.run(run())
        result["moves_past_deadline"] = bot_counts(port, log)["late"] - before["late"]
        return result


def _ask(port: int, path: str, token: str, method: str = "POST") -> Any:
    connection = HTTPConnection("127.0.0.1", port, timeout=30)
    with closing(connection):
        connection.request(method, path, headers={"x-seat-token": token})
        return json.load(connection.getresponse())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    everything = [
        "record", "record-unlimited", "seats", "chat", "half-open", "broker", "write-lock", "bots", "review"
    ]
    parser.add_argument("scenarios", nargs="*", default=everything)
    parser.add_argument("--deals", type=int, default=185)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for scenario in args.scenarios:
        if scenario == "record":
            result = record(args.deals, args.seconds)
        elif scenario == "record-unlimited":
            result = record(args.deals, args.seconds, "read_burst=1000000", "reads_per_second=1000000")
        elif scenario == "seats":
            result = seats()
        elif scenario == "chat":
            result = chat(min(args.seconds, 10.0))
        elif scenario == "half-open":
            result = half_open(1100)
        elif scenario == "broker":
            result = broker(20.0)
        elif scenario == "write-lock":
            result = write_lock(12.0)
        elif scenario == "bots":
            result = bots(args.seconds)
        elif scenario == "review":
            result = review()
        else:
            print(f"unknown scenario {scenario!r}", file=sys.stderr)
            return 2
        print(json.dumps({scenario: result}) if args.json else f"{scenario}: {result}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
