"""What runs in the server's worker processes: a computer player's move, or one decision of a
review, worked out from one seat's view alone.

A worker is sent the view (never the state: it cannot see the hidden cards), the bot's
specification and seed, and the seconds it may think; it answers with the move as JSON. The
rule engine's frozen classes are pickled by what rebuilds them (a rule set by its preset and
options, an action by its JSON), so a view crosses to a worker in well under a millisecond.
"""

from __future__ import annotations

import copyreg
import dataclasses
import json
import os
import random
import threading
import time
from typing import Any

from canasta.bots import Bot, make_bot
from canasta.bots.search import SearchBot
from canasta.rules import actions
from canasta.rules.actions import Action, action_from_json, action_to_json
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import DealResult, ScoreBreakdown
from canasta.rules.view import SeatView

#: Below this many seconds a search is not worth starting: `hard` moves instead (quickly).
MIN_SEARCH = 0.02
#: How much lower a worker's scheduling priority is than the server's.
NICE = 10
WATCH = 5.0
QUICK_BOT = "hard"

_rule_sets: dict[tuple[str, int, str], RuleSet] = {}
_bots: dict[str, Bot] = {}
_quick: dict[str, Bot] = {}


def _rules(variant: str, players: int, options: str) -> RuleSet:
    """One rule set object per configuration in a worker (its caches then serve every move)."""
    key = (variant, players, options)
    if key not in _rule_sets:
        _rule_sets[key] = RuleSet.preset(variant, players, json.loads(options))
    return _rule_sets[key]


def _reduce_rules(rules: RuleSet) -> tuple[Any, tuple[str, int, str]]:
    return _rules, (rules.variant, rules.players, json.dumps(dict(rules.options), sort_keys=True))


def _action(obj: dict[str, Any]) -> Action:
    return action_from_json(obj)[0]


def _reduce_action(action: Action) -> tuple[Any, tuple[dict[str, Any]]]:
    return _action, (action_to_json(action),)


def _reduce_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init)


copyreg.pickle(RuleSet, _reduce_rules)
_ACTIONS: tuple[type[Any], ...] = (actions.Draw, actions.Pickup, actions.Meld, actions.Discard, actions.Ask)
for _kind in (*_ACTIONS, actions.Answer, actions.Pass):
    copyreg.pickle(_kind, _reduce_action)
for _kind in (SeatView, DealResult, ScoreBreakdown):
    copyreg.pickle(_kind, _reduce_fields)


def bot(spec: str) -> Bot:
    """The bot of a specification, made once per worker."""
    if spec not in _bots:
        _bots[spec] = make_bot(spec)
    return _bots[spec]


def think(spec: str, view: SeatView, seed: int, budget: float | None) -> tuple[dict[str, Any], bool]:
    """The move of bot `spec` for `view` and whether it was made quickly (by `hard`, because
    `budget`, the seconds left to think, was too short for a search). A search thinks at most
    `budget` seconds (None: its own budget)."""
    player = bot(spec)
    rng = random.Random(seed)
    if isinstance(player, SearchBot) and budget is not None:
        if budget < MIN_SEARCH:
            return action_to_json(quick_move(view, seed)), True
        if player.seconds is None or budget < player.seconds:
            player = _shorter(player, budget)
    return action_to_json(player.choose(view, rng)), False


def _shorter(player: SearchBot, seconds: float) -> SearchBot:
    """A copy of a search player with a shorter time budget (the rest as it was)."""
    return SearchBot(
        player.iterations, seconds, player.policy, player.width, player.confidence, player.horizon,
        tree=player.tree, melds=player.melds,
    )


def start(server: int) -> None:
    """A new worker gives way to the server's own process (which answers the players): it runs
    at a lower priority (`NICE`); and it ends when that process `server` is gone (however it
    ended), checking every `WATCH` seconds."""
    os.nice(NICE)
    threading.Thread(target=_watch, args=(server,), daemon=True).start()


def _watch(server: int) -> None:
    while True:
        time.sleep(WATCH)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(0)


def warm() -> None:
    """Import the engine and make `hard` (a new worker's first job)."""
    bot(QUICK_BOT)


def quick_move(view: SeatView, seed: int) -> Action:
    """`hard`'s move, made where it is asked for (it takes well under a millisecond)."""
    if QUICK_BOT not in _quick:
        _quick[QUICK_BOT] = make_bot(QUICK_BOT)
    return _quick[QUICK_BOT].choose(view, random.Random(seed))
