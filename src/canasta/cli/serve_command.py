"""`canasta serve`: the game server (needs the `server` extra: starlette and uvicorn)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from canasta.storage import default_db_path


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "serve",
        help="run the game server (HTTP API and WebSockets)",
        description=f"Run the game server. Data is kept in SQLite, by default in {default_db_path()} "
        "($CANASTA_DB overrides it). Several processes serve the same tables with --db on PostgreSQL "
        "and a shared --broker.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
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
        "--bot-delay", type=float, default=0.8, help="seconds before a computer player moves (default 0.8)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from canasta.server.config import ServerConfig
        from canasta.server.serve import serve
    except ImportError as exc:
        print(f"canasta serve: {exc.name} is missing: pip install 'canasta[server]'", file=sys.stderr)
        return 2
    try:
        serve(args.host, args.port, ServerConfig(db=args.db, broker=args.broker, bot_delay=args.bot_delay))
    except ValueError as exc:
        print(f"canasta serve: {exc}", file=sys.stderr)
        return 2
    return 0
