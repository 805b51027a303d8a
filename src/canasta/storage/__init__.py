"""Persistence behind an interface (`Storage`); SQLite by default, PostgreSQL for several processes.

`open_storage(url)` accepts `sqlite:///absolute/path.db`, `sqlite:relative.db`, `sqlite://:memory:`,
a plain file path, or `postgresql://user@host:port/dbname` (also `postgres://`, with any libpq
parameters; needs the `postgres` extra); None means the default file (`default_db_path`).
"""

from __future__ import annotations

import os
from pathlib import Path

from canasta.storage.base import Conflict, SeatRow, Storage, TableRow
from canasta.storage.sqlite import SQLiteStorage


def default_db_path() -> Path:
    """`$CANASTA_DB`, else `$XDG_DATA_HOME/canasta/canasta.db` (`~/.local/share/canasta/canasta.db`)."""
    if os.environ.get("CANASTA_DB"):
        return Path(os.environ["CANASTA_DB"]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "canasta" / "canasta.db"


def open_storage(url: str | None) -> Storage:
    """The storage a `--db` URL names (see the module's docstring)."""
    if url is None:
        return SQLiteStorage(default_db_path())
    scheme, sep, rest = url.partition(":")
    if not sep or len(scheme) == 1:  # a plain path (or a Windows drive letter)
        return SQLiteStorage(Path(url).expanduser())
    if scheme == "sqlite":
        path = rest[2:] if rest.startswith("//") else rest
        return SQLiteStorage(path if path == ":memory:" else Path(path).expanduser())
    if scheme in ("postgresql", "postgres"):
        from canasta.storage.postgres import PostgresStorage

        return PostgresStorage(url)
    raise ValueError(
        f"unsupported database URL {url!r}: use sqlite:///path/to/file.db, a file path"
        " or postgresql://user@host/dbname"
    )


__all__ = ["Conflict", "SQLiteStorage", "SeatRow", "Storage", "TableRow", "default_db_path", "open_storage"]
