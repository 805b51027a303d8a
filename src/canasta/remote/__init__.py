"""Playing a seat of a live table from another process: a bot over the public protocol."""

from canasta.remote.link import LinkError, TableLink, parse_link
from canasta.remote.seat_player import Outcome, RemoteError, Retry, SeatPlayer

__all__ = ["LinkError", "Outcome", "RemoteError", "Retry", "SeatPlayer", "TableLink", "parse_link"]
