"""A table's finished deals as its readers download them, each encoded once.

A finished deal never changes, so its part of a `canasta-record/1` is encoded the first time it
is asked for and kept with the table; a record is then a page of those texts joined, at most
`RECORD_PAGE` deals long (its first deal from its position when earlier deals are left out).
The latest `REPLAYS_KEPT` replays (every position of a deal) are kept too. Nothing here takes
the table's lock: it reads deals that are over.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from canasta.rules.game import DealRecord, Game
from canasta.rules.position import position_to_json
from canasta.rules.record import Record
from canasta.rules.ruleset import RuleSet
from canasta.server.replay import deal_start, deal_steps

RECORD_PAGE = 50  # deals in one record at most
REPLAYS_KEPT = 4


def encode(value: Any) -> str:
    """JSON as the API sends it (compact, UTF-8)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class FinishedDeals:
    """The encoded records and replays of one table's finished deals, by (game, deal)."""

    def __init__(self, rules: RuleSet) -> None:
        about = {key: value for key, value in Record(rules, []).to_json().items() if key != "deals"}
        self._head = encode(about)[:-1] + ',"deals":['
        self._rules = rules
        self._deals: dict[tuple[int, int, bool], str] = {}  # by game, deal, from its position
        self._replays: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()

    def record(self, index: int, game: Game, first: int, last: int) -> str:
        """The record of deals `first` to `last` of game number `index` (each one over). Its
        first deal, unless the game's first, starts from its position, which holds the scores
        of the deals before it (they set the opening minimums)."""
        parts = [self._deal(index, game, first, from_position=first > 0)]
        parts += [self._deal(index, game, deal) for deal in range(first + 1, last + 1)]
        return self._head + ",".join(parts) + "]}"

    def _deal(self, index: int, game: Game, deal: int, from_position: bool = False) -> str:
        key = (index, deal, from_position)
        text = self._deals.get(key)
        if text is None:
            played = game.deals[deal]
            if from_position:
                position = position_to_json(deal_start(game, deal))
                played = DealRecord(played.dealer, position=position, actions=played.actions)
            text = self._deals[key] = encode(Record(self._rules, [played]).to_json()["deals"][0])
        return text

    def replay(self, index: int, game: Game, deal: int) -> dict[str, Any]:
        """`deal_steps` of a finished deal; ValueError when it is not over."""
        key = (index, deal)
        steps = self._replays.get(key)
        if steps is None:
            steps = self._replays[key] = deal_steps(game, deal)
            if len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        self._replays.move_to_end(key)
        return steps
