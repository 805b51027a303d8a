"""Table links as the server gives them: `http://HOST/t/TABLE`, or a rejoin link with
`#seat=TOKEN`; where the HTTP API and the table's WebSocket are."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

TABLE_PATH = re.compile(r"(?P<root>.*)/t/(?P<table>[A-Za-z0-9_-]{16,64})/?")
SEAT_FRAGMENT = re.compile(r"seat=(?P<token>[A-Za-z0-9_-]{1,128})")


class LinkError(ValueError):
    """Not a table link."""


@dataclass(frozen=True)
class TableLink:
    """A table at a server: `base` is the server's address (with any path before `/t/`), and
    `token` a seat's token when the link was a rejoin link."""

    base: str
    table: str
    token: str | None = None

    @property
    def link(self) -> str:
        return f"{self.base}/t/{self.table}"

    def api(self, path: str = "") -> str:
        return f"{self.base}/api/tables/{self.table}{path}"

    def socket(self, lang: str) -> str:
        scheme, rest = self.base.split(":", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}:{rest}/ws/tables/{self.table}?lang={quote(lang)}"

    def rejoin(self, token: str) -> str:
        return f"{self.link}#seat={token}"


def parse_link(text: str) -> TableLink:
    """The table of a link a person would open; raises LinkError for anything else."""
    parts = urlsplit(text.strip())
    found = TABLE_PATH.fullmatch(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or found is None:
        raise LinkError(text)
    token = None
    if parts.fragment:
        seat = SEAT_FRAGMENT.fullmatch(parts.fragment)
        if seat is None:
            raise LinkError(text)
        token = seat["token"]
    return TableLink(f"{parts.scheme}://{parts.netloc}{found['root']}", found["table"], token)
