"""`canasta serve`: the game server (needs the `server` extra: starlette and uvicorn)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from canasta.cli.arguments import seconds
from canasta.extras import install_command
from canasta.storage import default_db_path, is_postgres, sqlite_file


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "serve",
        help="run the game server (HTTP API and WebSockets)",
        description=f"Run the game server. Data is kept in SQLite, by default in {default_db_path()} "
        "($CANASTA_DB overrides it). Several processes serve the same tables with --db on PostgreSQL "
        "and a shared --broker.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port_number, default=8000, help="port to listen on, 1 to 65535 (default 8000)"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database URL: sqlite:///path/file.db, a file path or postgresql://user@host:port/dbname",
    )
    parser.add_argument(
        "--broker",
        default=None,
        help="where processes sharing the database announce changes: redis://host:port or "
        "postgresql://user@host:port/dbname (default: this process alone)",
    )
    parser.add_argument(
        "--bot-delay", type=seconds(0, 60), default=0.8,
        help="seconds before a computer player moves, 0 to 60 (default 0.8)"
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the server's limits, e.g. --limit tables_per_minute=60 "
        "(the names and defaults are in docs/protocol.md)",
    )
    parser.set_defaults(run=run)


def port_number(text: str) -> int:
    """A TCP port from 1 to 65535 (argparse reports the ValueError's message)."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a whole number from 1 to 65535")
    return int(text)


def limits(items: list[str]) -> dict[str, str]:
    """`NAME=VALUE` texts by name; ValueError for one without `=`."""
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"--limit {item!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def run(args: argparse.Namespace) -> int:
    try:
        from canasta.server.config import ServerConfig
        from canasta.server.serve import serve
    except ImportError as exc:  # missing, or older than the extra asks for
        print(f"canasta serve needs the server extra ({exc}): {install_command('server')}", file=sys.stderr)
        return 2
    try:
        config = ServerConfig(db=args.db, broker=args.broker, bot_delay=args.bot_delay)
        config = config.with_limits(limits(args.limit))
        _say_new_directory(args.db)
        serve(args.host, args.port, config)
    except ValueError as exc:
        print(f"canasta serve: {exc}", file=sys.stderr)
        return 2
    return 0


def _say_new_directory(db: str | None) -> None:
    """An SQLite file in a directory that does not exist is created there, with a word."""
    path = None if is_postgres(db) else sqlite_file(db)
    if isinstance(path, Path) and not path.parent.exists():
        print(
            f"canasta serve: creating the directory {path.parent} for the database {path.name}",
            file=sys.stderr,
        )
