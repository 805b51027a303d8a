"""The bot pool: jobs served by priority, by address and by table in turn; the search's time
budget cut to the deadline and the queue; a move out of time made by `hard`; views that cross
to a worker process intact. Everything runs on a `ManualClock`: no test waits on real time."""

from __future__ import annotations

import asyncio
import pickle
import random
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any

import pytest

from canasta.bots import make_bot
from canasta.rules.actions import action_to_json
from canasta.rules.game import Game
from canasta.rules.view import SeatView
from canasta.server import bot_worker
from canasta.server.bot_pool import MARGIN, BotPool
from canasta.server.clock import ManualClock

DRAW = {"type": "draw"}


def a_view(seed: int = 1, moves: int = 0) -> SeatView:
    game = Game.new(seed=seed)
    hard, rng = make_bot("hard"), random.Random(seed)
    for _ in range(moves):
        state = game.current
        game.apply(hard.choose(state.view(state.to_move), rng))
    state = game.current
    return state.view(state.to_move)


class Gate:
    """A stand-in for `bot_worker.think` that records its calls and thinks until let go."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.calls: list[tuple[str, float | None]] = []

    def __call__(self, spec: str, view: SeatView, seed: int, budget: float | None) -> tuple[Any, bool]:
        self.open.wait(30)
        self.calls.append((spec, budget))
        return DRAW, False


def run(monkeypatch: pytest.MonkeyPatch, scenario: Callable[[Gate], Any]) -> Any:
    gate = Gate()
    monkeypatch.setattr(bot_worker, "think", gate)
    try:
        return asyncio.run(scenario(gate))
    finally:
        gate.open.set()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_moves_before_hints_before_reviews_addresses_and_tables_in_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario(gate: Gate) -> list[str]:
        pool = BotPool(1, 5.0, ManualClock(), processes=False)
        view = a_view()
        reviewed: list[str] = []
        first = asyncio.create_task(pool.move("a", view, 0, "t1", "A"))  # the one worker takes it
        await settle()
        later = [
            pool.review(reviewed.append, ("r",), "t1", "A"),
            pool.hint("h", view, 0, "t1", "A"),
            pool.move("b1", view, 0, "t1", "A"),
            pool.move("b2", view, 0, "t1", "A"),
            pool.move("c", view, 0, "t2", "A"),
            pool.move("d", view, 0, "t3", "B"),
        ]
        tasks = [asyncio.create_task(job) for job in later]
        await settle()
        assert pool.waiting == {"move": 4, "hint": 1, "review": 1} and pool.busy == 1
        gate.open.set()
        await asyncio.gather(first, *tasks)
        pool.close()
        return [spec for spec, _ in gate.calls] + reviewed

    # address A's tables t1 and t2 take turns, and address B has every other move
    assert run(monkeypatch, scenario) == ["a", "b1", "d", "c", "b2", "h", "r"]


def test_reviews_have_a_share_of_a_busy_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many moves wait, a review's decision takes a worker once reviews have had less
    than their share of the workers' time; with no time spent yet, they wait their turn."""

    async def scenario(gate: Gate, spent: float) -> list[str]:
        clock = ManualClock()
        pool = BotPool(2, 5.0, clock, processes=False)
        view = a_view()
        moves = [asyncio.create_task(pool.move(f"m{n}", view, 0, f"t{n}", "A")) for n in range(2)]
        await settle()
        clock.advance(spent)  # the time the first two moves think
        reviews = [asyncio.create_task(pool.review(gate.calls.append, (("r", None),), "t9", "B"))]
        moves += [asyncio.create_task(pool.move(f"m{n}", view, 0, f"t{n}", "A")) for n in range(2, 9)]
        await settle()
        assert pool.waiting == {"move": 7, "hint": 0, "review": 1}
        gate.open.set()
        await asyncio.gather(*moves, *reviews)
        pool.close()
        return [spec for spec, _ in gate.calls]

    order = run(monkeypatch, lambda gate: scenario(gate, 0.0))
    assert order.index("r") >= len(order) - 2  # with the last move (two workers)
    order = run(monkeypatch, lambda gate: scenario(gate, 1.0))
    assert order.index("r") <= 3  # after the first two, with the next move on the other worker


def test_a_move_past_its_deadline_is_hards_counted_as_late(monkeypatch: pytest.MonkeyPatch) -> None:
    view = a_view(moves=3)

    async def scenario(gate: Gate) -> None:
        clock = ManualClock()
        pool = BotPool(1, 5.0, clock, processes=False)
        thinking = asyncio.create_task(pool.move("search", view, 7, "t1", "A"))
        waiting = asyncio.create_task(pool.move("search", view, 8, "t2", "B"))
        await settle()
        clock.advance(4.9)
        await settle()
        assert not thinking.done() and not waiting.done()
        clock.advance(0.1)
        assert await thinking == (bot_worker.quick_move(view, 7), "late")
        assert await waiting == (bot_worker.quick_move(view, 8), "late")
        assert (pool.stats["moves"], pool.stats["late"], pool.stats["quick"]) == (2, 2, 2)
        assert pool.waiting["move"] == 0 and pool.busy == 1  # the worker still thinks
        gate.open.set()
        while pool.busy:
            await asyncio.sleep(0)
        assert gate.calls == [("search", 4.0)]  # the one dispatched; the other never started
        pool.close()

    run(monkeypatch, scenario)
    hard = make_bot("hard")
    assert bot_worker.quick_move(view, 7) == hard.choose(view, random.Random(7))


def test_the_budget_shrinks_with_the_queue_and_the_time_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(gate: Gate) -> None:
        clock = ManualClock()
        pool = BotPool(2, 5.0, clock, processes=False)
        view = a_view()
        tasks = [asyncio.create_task(pool.move("search", view, n, f"t{n}", "A")) for n in range(8)]
        await settle()
        clock.advance(1.0)
        gate.open.set()
        await asyncio.gather(*tasks)
        pool.close()
        left = 5.0 - MARGIN * 5.0
        # the first two had the whole time (nothing waited); the others had waited a second
        # and shared what was left with those behind them, the two workers working in parallel
        budgets = sorted((budget or 0.0 for _, budget in gate.calls), reverse=True)
        assert budgets[:2] == [left, left]
        assert budgets[2:] == pytest.approx([(left - 1.0) * 2 / (ahead + 2) for ahead in range(6)])

    run(monkeypatch, scenario)


def test_a_budget_too_short_for_a_search_is_spent_on_hards_move() -> None:
    view = a_view(moves=2)
    hard = make_bot("hard").choose(view, random.Random(3))
    assert bot_worker.think("search", view, 3, bot_worker.MIN_SEARCH / 2) == (action_to_json(hard), True)
    move, quick = bot_worker.think("search:iterations=20", view, 3, None)
    assert not quick and move in [action_to_json(a) for a in view.legal]
    assert bot_worker.think("random", view, 3, 0.0)[1] is False  # not a search: nothing to cut


def test_views_and_moves_cross_to_a_worker_intact() -> None:
    game = Game.new(seed=5)
    hard, rng = make_bot("hard"), random.Random(5)
    while not game.current.is_over:
        state = game.current
        view = state.view(state.to_move)
        assert pickle.loads(pickle.dumps(view)) == view
        game.apply(hard.choose(view, rng))
    assert pickle.loads(pickle.dumps(game.current.view(0))) == game.current.view(0)  # with its result


def test_worker_processes_answer_and_a_dead_one_is_replaced() -> None:
    async def scenario() -> None:
        pool = BotPool(1, 30.0, ManualClock(), processes=True)
        view = a_view(moves=1)
        move, why = await pool.move("hard", view, 4, "t1", "A")
        assert why is None and move == make_bot("hard").choose(view, random.Random(4))
        with pytest.raises(BrokenExecutor):
            await pool.review(_die, (), "t1", "A")
        assert (await pool.move("hard", view, 4, "t1", "A"))[1] is None
        pool.close()

    asyncio.run(scenario())


def _die() -> None:
    import os

    os._exit(1)
