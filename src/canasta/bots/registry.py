"""Bots by name: `random`, `easy`, `normal`, `hard`, `search` (with options after a colon)."""

from __future__ import annotations

from canasta.bots.base import Bot, RandomBot

BOT_NAMES = ("random",)


def make_bot(spec: str) -> Bot:
    """A bot from its name, e.g. `random`, `hard`, `search:iterations=200`."""
    name, _, _params = spec.partition(":")
    if name == "random":
        return RandomBot()
    raise ValueError(f"unknown bot {spec!r} (known: {', '.join(BOT_NAMES)})")
