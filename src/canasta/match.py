"""Bots playing deals and games: each bot sees only its seat's view and its own random generator."""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Sequence

from canasta.bots import Bot
from canasta.rules import Action, Game, IllegalActionError, InvalidActionError
from canasta.rules.actions import describe
from canasta.rules.scoring import DealResult


class BotError(RuntimeError):
    """A defect of a bot: its `choose` raised (`trace` is then the bot's traceback, as text) or
    returned what the engine refuses."""

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message, trace)  # both in `args`, so that it crosses process boundaries
        self.message = message
        self.trace = trace

    def __str__(self) -> str:
        return self.message


def bot_traceback(exc: BaseException) -> str:
    """The traceback of an exception a bot's `choose` raised, from the bot's own code on."""
    tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
    return "".join(traceback.format_exception(type(exc), exc, tb))


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
    try:
        action = bot.choose(view, rngs[seat])
    except Exception as exc:  # the bot's own code: reported as the bot's, with its traceback
        raise BotError(f"bot {bot.name!r} at seat {seat} raised {type(exc).__name__}: {exc}",
                       bot_traceback(exc)) from None
    if times is not None:
        times[seat].append((time.perf_counter_ns() - start) / 1e6)
    if not isinstance(action, Action):
        raise BotError(f"bot {bot.name!r} at seat {seat} returned {action!r}, which is not an action "
                       "(choose returns one of view.legal)")
    try:
        game.apply(action, seat)
    except (IllegalActionError, InvalidActionError) as exc:
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
