"""The server under abuse: what an innocent client sees while others attack a table's link.

Usage: .venv/bin/python benchmarks/server_abuse.py [record|record-unlimited|seats|chat|half-open ...]

Each scenario starts its own `canasta serve` (as `server_load.py` does) and reports:

- `record`: an all-computer table plays until it has finished `--deals` deals (185); then,
  while 8 clients read its record (`GET /api/tables/{id}/record`) over and over, a person at
  another table moves, and the latency of each of its moves (sent to `ack`) is measured, with
  the read limits as they are (`record-unlimited`: lifted, `read_burst` one million);
- `seats`: 64 spectators at a table (the cap), a 65th, then its seated player: admitted or not;
- `chat`: one player with 40 sockets sends every chat line they allow for 10 seconds while 5
  spectators read: the spectators still connected, the lines they got per second;
- `half-open`: the server started with a soft limit of 1,024 open files; 1,100 connections
  send half a request; the home page's time to answer, 5 times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from server_load import DIRECT, Totals, http, percentile, player, running_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

BOTS = {"players": 4, "seats": ["random"] * 4, "bot_delay": 0, "deal_pause": 0, "target_score": 100000}
DUEL = {"players": 2, "seats": ["human", "random"], "bot_delay": 0, "deal_pause": 0, "target_score": 100000}


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
    with running_server(0.0, *limits) as (port, _):
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
            while True:  # keep reading (a spectator that does not read is closed)
                try:
                    await asyncio.wait_for(watcher.recv(), 0.5)
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
    with running_server(1.0, "connections_per_table=64") as (port, _):
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
    with running_server(1.0, "connections_per_seat=40") as (port, _):
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
        with running_server(1.0) as (port, _):
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", default=["record", "seats", "chat", "half-open"])
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
        else:
            print(f"unknown scenario {scenario!r}", file=sys.stderr)
            return 2
        print(json.dumps({scenario: result}) if args.json else f"{scenario}: {result}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
