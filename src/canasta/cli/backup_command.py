"""`canasta backup`: a consistent copy of the server's SQLite database, while it runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from canasta.storage import default_db_path, is_postgres, sqlite_file
from canasta.storage.sqlite import backup


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "backup",
        help="copy the server's database safely, even while the server runs",
        description="Copy an SQLite database with SQLite's online backup: a consistent copy, made "
        f"while `canasta serve` may be writing to it. The database is --db, by default {default_db_path()} "
        "($CANASTA_DB overrides it). A PostgreSQL database is backed up with pg_dump.",
    )
    parser.add_argument("target", type=Path, help="the new file to write (it must not exist)")
    parser.add_argument("--db", default=None, help="the database: sqlite:///path/file.db or a file path")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if is_postgres(args.db):
        print(
            f"canasta backup: back up a PostgreSQL database with pg_dump: pg_dump '{args.db}' > canasta.sql",
            file=sys.stderr,
        )
        return 2
    try:
        source = sqlite_file(args.db)
        if not isinstance(source, Path):
            raise ValueError("an in-memory database cannot be backed up")
        tables = backup(source, args.target)
    except ValueError as exc:
        print(f"canasta backup: {exc}", file=sys.stderr)
        return 2
    print(f"canasta backup: {tables} tables copied from {source} to {args.target}")
    return 0
