"""Bots playing deals and games: each bot sees only its seat's view and its own random generator."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from canasta.bots import Bot
from canasta.rules import Action, Game, IllegalActionError
from canasta.rules.actions import describe
from canasta.rules.scoring import DealResult


class BotError(RuntimeError):
    """A bot chose an action the engine refuses (a defect of the bot)."""


def seat_rngs(key: str, players: int) -> list[random.Random]:
    """One random generator per seat, derived from a text key (the same in every process)."""
    return [random.Random(f"{key}/seat/{seat}") for seat in range(players)]


def bot_move(game: Game, bots: Sequence[Bot | None], rngs: Sequence[random.Random],
             times: list[list[float]] | None = None) -> Action:
    """Let the bot of the seat to move choose from that seat's view, and apply its action.

    The time `choose` took (ms) is appended to `times[seat]` when `times` is given.
    """
    state = game.current
    seat = state.to_move
    bot = bots[seat]
    if bot is None:
        raise ValueError(f"seat {seat} has no bot")
    view = state.view(seat)
    start = time.perf_counter_ns()
    action = bot.choose(view, rngs[seat])
    if times is not None:
        times[seat].append((time.perf_counter_ns() - start) / 1e6)
    try:
        game.apply(action, seat)
    except IllegalActionError as exc:
        raise BotError(f"bot {bot.name!r} at seat {seat} chose {describe(action)}: {exc.message}") from None
    return action


def play_deal(game: Game, bots: Sequence[Bot], rngs: Sequence[random.Random],
              times: list[list[float]] | None = None) -> DealResult:
    """Play the current deal to its end with one bot per seat; returns its result."""
    state = game.current
    while not state.is_over:
        bot_move(game, bots, rngs, times)
    assert state.result is not None
    return state.result


def play_game(game: Game, bots: Sequence[Bot], rngs: Sequence[random.Random], max_deals: int,
              times: list[list[float]] | None = None) -> int | None:
    """Deal and play until the game has a winner (returned: its team) or `max_deals` deals (None)."""
    while not game.is_over and len(game.deals) < max_deals:
        game.next_deal()
        play_deal(game, bots, rngs, times)
    return game.winner
