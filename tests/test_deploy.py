"""docs/deploy.md, exercised: its nginx configuration in front of two `canasta serve` processes
started as its service unit starts them (PostgreSQL, Redis), on loopback. Two players connected
through nginx to different processes play; one process stops; they play on through the other."""

from __future__ import annotations

import os
import random
import re
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from process_support import Player, answering, free_port, http, play, server

DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"
NGINX = Path("/usr/sbin/nginx")  # Debian's nginx (scripts/test installs it)
SETTINGS = {"players": 4, "seats": ["human", "random", "human", "random"], "bot_delay": 0,
            "deal_pause": 0, "grace": 600}


def block(language: str) -> str:
    [text] = re.findall(rf"```{language}\n(.*?)```", DEPLOY.read_text(encoding="utf-8"), re.S)
    return text


def unit_options() -> dict[str, str]:
    """The options the service unit gives `canasta serve`."""
    [command] = re.findall(r"^ExecStart=(.*)$", block("ini"), re.M)
    program, serve, *words = command.split()
    assert program.endswith("/bin/canasta") and serve == "serve" and len(words) % 2 == 0
    return dict(zip(words[::2], words[1::2], strict=True))


@contextmanager
def nginx(port: int, upstreams: list[int], tmp: Path) -> Iterator[None]:
    """nginx on `port` with the guide's configuration, its processes at `upstreams`."""
    site = block("nginx").replace("listen 80;", f"listen 127.0.0.1:{port};")
    for guide, real in zip((8001, 8002), upstreams, strict=True):
        assert f"127.0.0.1:{guide} " in site
        site = site.replace(f"127.0.0.1:{guide} ", f"127.0.0.1:{real} ")
    (tmp / "canasta.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {tmp}/{kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                     "uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\nworker_processes 1;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{ access_log {tmp}/access.log; {temp} include {tmp}/canasta.conf; }}\n"
    )
    errors = tmp / "error.log"
    with errors.open("ab") as out:
        process = subprocess.Popen([str(NGINX), "-p", str(tmp), "-e", str(errors), "-c",
                                    str(tmp / "nginx.conf")], stdout=out, stderr=subprocess.STDOUT)
    try:
        answering(port, process, errors)
        yield
    finally:
        process.terminate()
        process.wait(10)


def accepted(log: Path, table: str) -> int:
    """How many of the table's WebSocket connections the process of `log` accepted."""
    return log.read_text().count(f'"WebSocket /ws/tables/{table}" [accepted]')


def test_nginx_in_front_of_two_processes(postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    options = unit_options()
    assert options["--host"] == "127.0.0.1" and options["--port"] == "%i"
    assert options["--db"].startswith("postgresql://") and options["--broker"].startswith("redis://")
    ports, front = [free_port(), free_port()], free_port()
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    extra = ("--host", options["--host"], "--broker", redis_url)
    rng = random.Random(11)
    with ExitStack() as processes, ExitStack() as clients:
        running = [processes.enter_context(server(p, postgres_url, log, *extra)) for p, log in zip(
            ports, logs, strict=True)]
        processes.enter_context(nginx(front, ports, tmp_path))
        table = http(front, "POST", "/api/tables", SETTINGS)["table"]
        ann, cleo = (http(front, "POST", f"/api/tables/{table}/seats", {"name": name})["token"]
                     for name in ("Ann", "Cleo"))
        people, where = [], []
        for token in (ann, cleo):
            while True:  # nginx spreads connections over the processes (nothing sticks a client)
                before = [accepted(log, table) for log in logs]
                person = Player(front, table, token, clients)
                process = next(i for i, log in enumerate(logs) if accepted(log, table) > before[i])
                if not where or process != where[0]:
                    break
                person.ws.close()
            people.append(person)
            where.append(process)
        assert sorted(where) == [0, 1] and [p.seat for p in people] == [0, 2]
        play(people, [], rng, until=20)

        # Ann's process stops: she comes back through nginx, to the other one, and play goes on.
        version = people[1].state["version"]
        running[where[0]].terminate()
        running[where[0]].wait(10)
        people[0] = Player(front, table, ann, clients)
        assert accepted(logs[where[1]], table) == 2 and people[0].seat == 0
        assert people[0].state["version"] >= version
        play(people, [], rng, until=version + 20)
        assert people[0].state["view"]["melds"] == people[1].state["view"]["melds"]
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()
