"""Bots by name: `random`, `easy`, `normal`, `hard`, `careful` (the stand-in for a person who
dropped out), `search` (with options after a colon)."""

from __future__ import annotations

from canasta.bots.base import Bot, RandomBot
from canasta.bots.heuristic import HeuristicBot
from canasta.bots.search import SearchBot
from canasta.bots.skill import LEVELS

BOT_NAMES = ("random", "easy", "normal", "hard", "careful", "search")


def make_bot(spec: str) -> Bot:
    """A bot from its spec, e.g. `random`, `hard`, `search:iterations=300`, `search:time=0.5`.

    Options are `key=value` pairs separated by commas; only `search` takes any.
    """
    name, _, text = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ValueError(f"bad bot option {item!r} in {spec!r} (expected key=value)")
        params[key.strip()] = value.strip()
    if name == "search":
        return SearchBot.from_params(params)
    if params:
        raise ValueError(f"bot {name!r} takes no options")
    if name == "random":
        return RandomBot()
    if name in LEVELS:
        return HeuristicBot(LEVELS[name])
    raise ValueError(f"unknown bot {spec!r} (known: {', '.join(BOT_NAMES)})")
