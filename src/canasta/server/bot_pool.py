"""Where computer players think: threads of their own (never the event loop's default
executor), few of them, and a deadline per move, so that no table's bots can slow another's."""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor

from canasta.bots import Bot
from canasta.rules.actions import Action
from canasta.rules.view import SeatView
from canasta.server.clock import Clock

log = logging.getLogger("canasta.server")


class BotPool:
    """`threads` worker threads; a move not chosen within `deadline` seconds of being asked for
    (waiting for a thread included) is given up (`choose` returns None: the caller moves
    instead). A move still waiting for a thread then never starts; one already thinking runs to
    its end (its budget is bounded, see `canasta.protocol.settings.SEARCH_BUDGETS`). A bot that
    fails is logged and treated as one out of time."""

    def __init__(self, threads: int, deadline: float, clock: Clock) -> None:
        self.deadline, self.clock = deadline, clock
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="canasta-bot")

    async def choose(self, bot: Bot, view: SeatView, rng: random.Random) -> Action | None:
        loop = asyncio.get_running_loop()
        thinking = loop.run_in_executor(self._pool, bot.choose, view, rng)
        expired: asyncio.Future[None] = loop.create_future()
        timer = self.clock.call_later(self.deadline, expired.cancel)
        try:
            await asyncio.wait((thinking, expired), return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            expired.cancel()
            thinking.cancel()  # no effect on a move already chosen
        if thinking.cancelled():
            return None
        if thinking.exception() is not None:
            log.error("bot %s failed", bot.name, exc_info=thinking.exception())
            return None
        return thinking.result()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
