"""Persistence behind an interface (`Storage`); SQLite by default, PostgreSQL for several processes.

`open_storage(url)` accepts `sqlite:///absolute/path.db`, `sqlite:relative.db`, `sqlite://:memory:`,
a plain file path, or `postgresql://user@host:port/dbname` (also `postgres://`, with any libpq
parameters; needs the `postgres` extra); None means the default file (`default_db_path`).
"""

from __future__ import annotations

import os
from pathlib import Path

from canasta.storage.base import Conflict, Crowded, LeaseRow, SeatRow, Storage, StorageBusy, TableRow, Timers
from canasta.storage.sqlite import SQLiteStorage


def default_db_path() -> Path:
    """`$CANASTA_DB`, else `$XDG_DATA_HOME/canasta/canasta.db` (`~/.local/share/canasta/canasta.db`)."""
    if os.environ.get("CANASTA_DB"):
        return Path(os.environ["CANASTA_DB"]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "canasta" / "canasta.db"


def is_postgres(url: str | None) -> bool:
    return url is not None and url.partition(":")[0] in ("postgresql", "postgres")


def sqlite_file(url: str | None) -> Path | str:
    """The SQLite file a `--db` URL names (`:memory:` as it is); ValueError for a URL that is
    neither SQLite nor PostgreSQL (`is_postgres`)."""
    if url is None:
        return default_db_path()
    scheme, sep, rest = url.partition(":")
    if not sep or len(scheme) == 1:  # a plain path (or a Windows drive letter)
        return Path(url).expanduser()
    if scheme == "sqlite":
        path = rest[2:] if rest.startswith("//") else rest
        return path if path == ":memory:" else Path(path).expanduser()
    raise ValueError(
        f"unsupported database URL {url!r}: use sqlite:///path/to/file.db, a file path"
        " or postgresql://user@host/dbname"
    )


def open_storage(url: str | None, timers: Timers | None = None) -> Storage:
    """The storage a `--db` URL names (see the module's docstring); `timers`: the clock on
    which the time limit of a write is measured (the server's)."""
    if url is not None and is_postgres(url):
        from canasta.storage.postgres import PostgresStorage

        return PostgresStorage(url, timers=timers)
    return SQLiteStorage(sqlite_file(url), timers)


__all__ = [
    "Conflict",
    "Crowded",
    "LeaseRow",
    "SQLiteStorage",
    "SeatRow",
    "Storage",
    "StorageBusy",
    "TableRow",
    "default_db_path",
    "is_postgres",
    "open_storage",
    "sqlite_file",
]
