"""Where computer players think: a pool of worker processes (threads in tests), fed one seat's
view, with a deadline per move, shared fairly by every table of the process.

The event loop never thinks: it queues jobs, and hands the next one to a worker as soon as one
is free. Jobs are served by priority (a computer player's move before a hint, a hint before a
decision of a review), and within a priority in turn: the groups (the address that created a
table, or that asks for a hint or a review) one after the other, and within a group its tables
one after the other, so that no address or table can hold the workers while others wait.

A move or a hint has a deadline (`deadline` seconds after it is asked for, waiting included).
When a worker takes it, the search's time budget is cut to what is left before the deadline,
shared with the jobs still waiting (`budget`): under load every move thinks less, and all of
them answer in time. A budget too short for a search (`bot_worker.MIN_SEARCH`) is spent on
`hard`'s move instead: the move is "played quickly". A move that misses its deadline anyway
(or whose bot fails) is `hard`'s, made on the spot (a fraction of a millisecond), counted as
late; a hint that misses it is given up.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import multiprocessing
import os
import signal
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from canasta.rules.actions import Action, action_from_json
from canasta.rules.view import SeatView
from canasta.server import bot_worker
from canasta.server.clock import Clock, Timer

log = logging.getLogger("canasta.server")

MOVE, HINT, REVIEW = 0, 1, 2  # priorities, the most urgent first
KINDS = ("move", "hint", "review")
#: The part of a deadline kept for what is not thinking: sending the view and the move, the
#: event loop's own delays, a search's last continuation.
MARGIN = 0.2
#: The share of the workers' time reviews may take while moves or hints wait, and the seconds
#: over which the time spent is weighed (older time fading).
REVIEW_SHARE = 0.25
SPENT_FADE = 60.0


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    return max(1, len(os.sched_getaffinity(0)))


@dataclass(eq=False)
class Job:
    priority: int
    table: str
    group: str
    call: Callable[..., Any]
    args: tuple[Any, ...]
    deadline: float | None  # on the pool's clock; None: none (a review's decision)
    future: asyncio.Future[Any]
    timer: Timer | None = None
    queued: bool = True
    failed: bool = False
    executor: Executor | None = None  # the one it was sent to
    started: float = 0.0


@dataclass
class FairQueue:
    """The waiting jobs of one priority: groups served in turn, and within a group its tables."""

    groups: dict[str, dict[str, deque[Job]]] = field(default_factory=dict)
    size: int = 0

    def push(self, job: Job) -> None:
        self.groups.setdefault(job.group, {}).setdefault(job.table, deque()).append(job)
        self.size += 1

    def pop(self) -> Job | None:
        """The next job: the first table of the first group, both then moved to the end."""
        for group, tables in self.groups.items():
            table, jobs = next(iter(tables.items()))
            job = jobs.popleft()
            del tables[table]
            if jobs:
                tables[table] = jobs
            del self.groups[group]
            if tables:
                self.groups[group] = tables
            self.size -= 1
            return job
        return None

    def remove(self, job: Job) -> None:
        tables = self.groups.get(job.group, {})
        jobs = tables.get(job.table)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            self.size -= 1
            if not jobs:
                del tables[job.table]
            if not tables:
                del self.groups[job.group]


def process_pool(workers: int) -> Executor:
    """`workers` processes, started now (a worker's first move does not wait for its imports)."""
    context = multiprocessing.get_context("forkserver")
    server = (os.getpid(),)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=bot_worker.start, initargs=server)
    for _ in range(workers):
        pool.submit(bot_worker.warm)
    return pool


class BotPool:
    """`workers` workers (processes, or threads with `processes=False`), `deadline` seconds per
    move and hint. `stats` counts what happened: moves made, played quickly, late (past their
    deadline: `hard`'s move), failed (the bot raised: `hard`'s move), hints and hints given up,
    review decisions."""

    def __init__(self, workers: int, deadline: float, clock: Clock, processes: bool = True) -> None:
        self.workers, self.deadline, self.clock = workers, deadline, clock
        self._processes = processes
        self._executor = self._start()
        self._queues = [FairQueue() for _ in KINDS]
        self._busy = 0
        self._running: Counter[int] = Counter()  # jobs being worked out, by priority
        self._spent = [0.0, 0.0]  # worker-seconds lately spent on reviews, and on everything
        self._spent_at = clock.time()
        self.stats: Counter[str] = Counter()

    def _start(self) -> Executor:
        workers = self.workers
        return process_pool(workers) if self._processes else ThreadPoolExecutor(workers, "canasta-bot")

    @property
    def waiting(self) -> dict[str, int]:
        return {kind: queue.size for kind, queue in zip(KINDS, self._queues, strict=True)}

    @property
    def busy(self) -> int:
        return self._busy

    # -- what the tables ask for ---------------------------------------------------------------

    async def move(
        self, spec: str, view: SeatView, seed: int, table: str, group: str
    ) -> tuple[Action, str | None]:
        """The move of bot `spec` at `table`, and None, or why `hard` made it instead: `quick`
        (the time left was too short for the bot), `late` (it missed its deadline) or `failed`."""
        self.stats["moves"] += 1
        job = self._job(MOVE, table, group, bot_worker.think, (spec, view, seed), self.deadline)
        answer = await self._run(job)
        if answer is None:
            self.stats["quick"] += 1
            return bot_worker.quick_move(view, seed), "failed" if job.failed else "late"
        move, quick = answer
        self.stats["quick"] += quick
        return action_from_json(move)[0], "quick" if quick else None

    async def hint(self, spec: str, view: SeatView, seed: int, table: str, group: str) -> Action | None:
        """Bot `spec`'s move for `view` as a hint, or None when it missed its deadline."""
        self.stats["hints"] += 1
        job = self._job(HINT, table, group, bot_worker.think, (spec, view, seed), self.deadline)
        answer = await self._run(job)
        if answer is None:
            self.stats["hints_late"] += 1
            return None
        return action_from_json(answer[0])[0]

    async def review(self, call: Callable[..., Any], args: tuple[Any, ...], table: str, group: str) -> Any:
        """`call(*args)` in a worker at the lowest priority, without a deadline; it raises what
        the call raised."""
        self.stats["review_decisions"] += 1
        return await self._run(self._job(REVIEW, table, group, call, args, None), strict=True)

    # -- the queue -----------------------------------------------------------------------------

    def _job(
        self, priority: int, table: str, group: str, call: Callable[..., Any], args: tuple[Any, ...],
        seconds: float | None,
    ) -> Job:
        deadline = None if seconds is None else self.clock.time() + seconds
        job = Job(priority, table, group, call, args, deadline, asyncio.get_running_loop().create_future())
        if seconds is not None:
            job.timer = self.clock.call_later(seconds, self._expire, job)
        return job

    async def _run(self, job: Job, strict: bool = False) -> Any:
        """The job's answer; None when it missed its deadline or (unless `strict`) failed."""
        priority = job.priority
        self._queues[priority].push(job)
        self._pump()
        try:
            return await job.future
        except Exception:
            if strict:
                raise
            return None
        finally:
            if job.timer is not None:
                job.timer.cancel()
            if job.queued:  # the caller gave up waiting (its task was cancelled)
                self._queues[priority].remove(job)

    def _expire(self, job: Job) -> None:
        if not job.future.done():
            if job.priority == MOVE:
                self.stats["late"] += 1
            job.future.set_result(None)

    def _next(self) -> Job | None:
        """The next job: by priority, except that a review takes a worker before the moves and
        hints waiting when none is running and reviews had less than `REVIEW_SHARE` of the
        workers' time lately (so that, however busy the tables, a review goes on)."""
        order = list(self._queues)
        if not self._running[REVIEW] and self._spent[0] < REVIEW_SHARE * self._spent[1]:
            order.insert(0, order.pop(REVIEW))
        for queue in order:
            while (job := queue.pop()) is not None:
                job.queued = False
                if not job.future.done():
                    return job
        return None

    def _spend(self, job: Job, seconds: float) -> None:
        """Count a job's worker-seconds, the older ones fading (`SPENT_FADE`)."""
        now = self.clock.time()
        fade = math.exp(-(now - self._spent_at) / SPENT_FADE)
        self._spent_at = now
        reviews, everything = self._spent
        self._spent = [reviews * fade + seconds * (job.priority == REVIEW), everything * fade + seconds]

    def budget(self, job: Job) -> float | None:
        """The seconds a job may think when a worker takes it: what is left before its
        deadline (less `MARGIN` of the deadline), shared with the jobs of its priority or
        higher still waiting, as the workers will be."""
        if job.deadline is None:
            return None
        left = job.deadline - self.clock.time() - MARGIN * self.deadline
        ahead = sum(queue.size for queue in self._queues[: job.priority + 1])
        workers = max(1, self.workers - self._running[REVIEW])  # a review's decision may take long
        return max(0.0, left) * workers / (ahead + workers)

    def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.workers and (job := self._next()) is not None:
            args = job.args if job.deadline is None else (*job.args, self.budget(job))
            self._busy += 1
            self._running[job.priority] += 1
            job.started = self.clock.time()
            job.executor = self._executor
            thinking = loop.run_in_executor(self._executor, job.call, *args)
            thinking.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: Job, done: asyncio.Future[Any]) -> None:
        self._busy -= 1
        self._running[job.priority] -= 1
        self._spend(job, self.clock.time() - job.started)
        if done.cancelled():
            pass
        elif done.exception() is not None:
            job.failed = True
            broken = isinstance(done.exception(), BrokenExecutor) and job.executor is self._executor
            if broken and not self._closed:
                log.error("a worker process died: the workers are started again")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._start()
            if job.priority != REVIEW:
                self.stats["failed"] += 1
                log.error("a computer player failed at table %s", job.table, exc_info=done.exception())
            if not job.future.done():
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
        elif not job.future.done():
            job.future.set_result(done.result())
        if not self._closed:
            self._pump()

    _closed = False

    def close(self) -> None:
        """Stop: the jobs waiting are dropped and the worker processes ended (one thinking is
        not waited for)."""
        self._closed = True
        processes = list(getattr(self._executor, "_processes", None) or {})
        self._executor.shutdown(wait=False, cancel_futures=True)
        for pid in processes:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
