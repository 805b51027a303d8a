"""Throwaway database servers for the tests: PostgreSQL and Redis from Debian's packages
(`postgresql`, `redis-server`; `scripts/test` installs them).

Each session starts its own servers on free ports, with their files in a temporary directory,
and stops them at the end: the cluster a Debian package may have created is never used. A
missing server binary fails the tests that need it (they never skip). PostgreSQL refuses to
run as root, so as root its programs run as the `postgres` user.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from glob import glob
from pathlib import Path

import psycopg
import pytest
import redis

POSTGRES_BINARIES = "/usr/lib/postgresql/*/bin"
INSTALL_HINT = "install Debian's postgresql and redis-server (scripts/test does)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _postgres_bin() -> Path:
    found = [Path(d) for d in glob(POSTGRES_BINARIES) if (Path(d) / "pg_ctl").exists()]
    if not found:
        pytest.fail(f"no PostgreSQL server in {POSTGRES_BINARIES}: {INSTALL_HINT}", pytrace=False)
    return max(found, key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0)


@dataclass(frozen=True)
class Postgres:
    """A running PostgreSQL server; `database()` makes a fresh, empty database."""

    port: int

    def url(self, dbname: str) -> str:
        return f"postgresql://canasta@127.0.0.1:{self.port}/{dbname}"

    def database(self) -> str:
        """The URL of a new database of its own (tests never see each other's tables)."""
        name = f"test_{secrets.token_hex(6)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _owner() -> tuple[list[str], int, int]:
    """The command prefix that runs PostgreSQL's programs, and the user and group owning its files."""
    if os.geteuid() != 0:
        return [], os.getuid(), os.getgid()
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        pytest.fail(f"running as root and there is no postgres user: {INSTALL_HINT}", pytrace=False)
    return ["runuser", "-u", "postgres", "--"], user.pw_uid, user.pw_gid


def _run(command: list[str], log: Path) -> None:
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if done.returncode != 0:
        extra = log.read_text() if log.exists() else ""
        pytest.fail(f"{' '.join(command)} failed:\n{done.stdout}{extra}", pytrace=False)


def start_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of its own, on a free port (as a generator for a fixture)."""
    binaries = _postgres_bin()
    prefix, uid, gid = _owner()
    # As root, in /tmp: the postgres user may not be able to reach $TMPDIR.
    home = Path(tempfile.mkdtemp(prefix="canasta-pg-", dir="/tmp" if prefix else None))
    os.chown(home, uid, gid)
    data, log, port = home / "data", home / "server.log", free_port()
    options = (
        f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off"
        " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    pg_ctl = [*prefix, str(binaries / "pg_ctl"), "-D", str(data)]
    try:
        _run([*prefix, str(binaries / "initdb"), "-D", str(data), "-U", "canasta", "-A", "trust", "-N"], log)
        _run([*pg_ctl, "-l", str(log), "-o", options, "-w", "-t", "30", "start"], log)
        try:
            yield Postgres(port)
        finally:
            _run([*pg_ctl, "-m", "immediate", "-w", "stop"], log)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def start_redis() -> Iterator[str]:
    """A Redis server of its own on a free port, keeping nothing on disk; yields its URL."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        pytest.fail(f"no redis-server: {INSTALL_HINT}", pytrace=False)
    home = Path(tempfile.mkdtemp(prefix="canasta-redis-"))
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    log = home / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=home, stdout=out, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with redis.Redis.from_url(url) as client:
                    client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not start:\n{log.read_text()}", pytrace=False)
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    yield from start_postgres()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    yield from start_redis()


@pytest.fixture
def postgres_url(postgres_server: Postgres) -> str:
    """A fresh database on the session's PostgreSQL server."""
    return postgres_server.database()
