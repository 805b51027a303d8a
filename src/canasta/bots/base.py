"""The bot interface: a bot sees one seat's view and a random generator, and returns an action."""

from __future__ import annotations

import random
from typing import Protocol

from canasta.rules.actions import Action
from canasta.rules.view import SeatView


class Bot(Protocol):
    """A computer player. `choose` must return one of `view.legal` (or another legal action)
    and depend only on `view` and `rng`: bots never see another seat's hand or the stock."""

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Action: ...


def seat_to_move(view: SeatView) -> int:
    """The view's seat, which must be the seat to move (bots are asked only for their moves)."""
    if view.seat is None or not view.legal:
        raise ValueError("a bot chooses only for the seat to move")
    return view.seat


class RandomBot:
    """The baseline: uniform over the legal moves."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        return rng.choice(view.legal)
