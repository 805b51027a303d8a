"""Reviews of finished deals, asked for by a table's people: "where did I lose points?"

A person asks for the review of their own decisions in a deal that is over (never one in play).
It is a job: each of their decisions is weighed in the bot pool at the lowest priority (after
every computer player's move and every hint), one decision at a time, so that the progress can
be told, and the result is stored with the table (`Storage.save_review`): a reload shows it
without working it out again, and so does another server process. A seat has at most
`reviews_per_seat` reviews being worked out at once, a table `reviews_per_table`.

The review itself is `canasta.review`'s (the search player, seeing only what the seat saw,
valuing the move played against its alternatives on the same sampled worlds); it is stored
without words and told in the reader's language.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from canasta.bots.search import SearchBot
from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.review import Costly, Review, ReviewError, reason, review_decision, seat_decisions
from canasta.rules.actions import Action, action_from_json, action_to_json
from canasta.rules.record import Record
from canasta.rules.view import SeatView

if TYPE_CHECKING:
    from canasta.server.room import Room

log = logging.getLogger("canasta.server")


def weigh(view: SeatView, played: Action, index: int, iterations: int, seed: str) -> Costly | None:
    """One decision of a review (in a worker): the costly decision it was, or None."""
    found = review_decision(view, played, SearchBot(iterations=iterations), random.Random(seed))
    if found is None:
        return None
    better, points, bound = found
    code, params = reason(view, played, better)
    return Costly(index, played, better, points, bound, code, params)


def review_key(game: int, deal: int, seat: int) -> str:
    return f"{game}/{deal}/{seat}"


def stored(review: Review) -> dict[str, Any]:
    """A review as stored: without words (it is told in each reader's language)."""
    costly = [
        {
            "index": c.index,
            "played": action_to_json(c.played),
            "better": action_to_json(c.better),
            "points": c.points,
            "bound": c.bound,
            "reason": c.reason,
            "params": dict(c.params),
        }
        for c in review.costly
    ]
    fields = {"seat": review.seat, "deal": review.deal, "decisions": review.decisions}
    return {**fields, "iterations": review.iterations, "costly": costly}


def from_stored(data: dict[str, Any]) -> Review:
    costly = tuple(
        Costly(
            c["index"],
            action_from_json(c["played"])[0],
            action_from_json(c["better"])[0],
            c["points"],
            c["bound"],
            c["reason"],
            c["params"],
        )
        for c in data["costly"]
    )
    return Review(data["seat"], data["deal"], data["decisions"], data["iterations"], costly)


@dataclass
class ReviewJob:
    table: str
    seat: int
    done: int = 0
    total: int | None = None  # None until the deal's decisions are known
    task: asyncio.Task[None] | None = None
    failed: str | None = None
    result: dict[str, Any] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        state = "failed" if self.failed else "running" if self.done or self.total else "queued"
        return {"status": state, "done": self.done, "total": self.total}


class Reviews:
    """The review jobs of one process, by table and key (`review_key`)."""

    def __init__(self) -> None:
        self.jobs: dict[tuple[str, str], ReviewJob] = {}

    def _running(self, table: str, seat: int | None = None) -> int:
        return sum(
            1
            for (t, _), job in self.jobs.items()
            if t == table and (seat is None or job.seat == seat) and not job.failed and job.result is None
        )

    async def ask(
        self, room: Room, seat: int, game: int, deal: int, address: str, lang: str
    ) -> dict[str, Any]:
        """Start (or find) the review of `seat` in a finished deal; its status or the review."""
        found = await self.status(room, seat, game, deal, lang)
        if found["status"] not in ("none", "failed"):
            return found
        config = room.config
        if self._running(room.table.id, seat) >= config.reviews_per_seat:
            raise ProtocolError(ErrorCode.REVIEW_LIMITED)
        if self._running(room.table.id) >= config.reviews_per_table:
            raise ProtocolError(ErrorCode.REVIEW_LIMITED)
        key = review_key(game, deal, seat)
        job = self.jobs[(room.table.id, key)] = ReviewJob(room.table.id, seat)
        job.task = asyncio.create_task(self._work(room, job, key, game, deal, address))
        return job.status()

    async def status(self, room: Room, seat: int, game: int, deal: int, lang: str) -> dict[str, Any]:
        """`{"status": "none" | "queued" | "running" | "failed" | "done", "done", "total"}`, and
        the review (in `lang`) when done."""
        key = review_key(game, deal, seat)
        job = self.jobs.get((room.table.id, key))
        data = job.result if job is not None else None
        if job is not None and data is None:
            return job.status()
        if data is None:
            data = await room.storage.load_review(room.table.id, key)
        if data is None:
            return {"status": "none", "done": 0, "total": None}
        review = from_stored(data)
        done = review.decisions
        return {"status": "done", "done": done, "total": done, "review": review.to_json(lang)}

    async def _work(self, room: Room, job: ReviewJob, key: str, game: int, deal: int, address: str) -> None:
        table = room.table
        try:
            record = Record.from_json(json.loads(room.finished.record(game, table.games[game], deal, deal)))
            decisions = seat_decisions(record, job.seat, 0)
            job.total = len(decisions)
            iterations = room.config.review_iterations
            costly = []
            for index, view, played in decisions:
                seed = f"{table.id}/{key}/{index}"
                args = (view, played, index, iterations, seed)
                found = await room.bots.review(weigh, args, table.id, address)
                if found is not None:
                    costly.append(found)
                job.done += 1
            review = Review(job.seat, deal, len(decisions), iterations, tuple(costly))
            data = stored(review)
            await room.storage.save_review(table.id, key, data)
            job.result = data
        except (ReviewError, ValueError) as exc:
            job.failed = str(exc)
            log.warning("table %s: review %s failed: %s", table.id, key, exc)
        except Exception as exc:
            job.failed = "internal"
            log.error("table %s: review %s failed", table.id, key, exc_info=exc)
        finally:
            if job.result is not None or job.failed:
                asyncio.get_running_loop().call_soon(self._forget, table.id, key, job)

    def _forget(self, table: str, key: str, job: ReviewJob) -> None:
        """A finished job's result stays in storage; a failed one may be asked for again."""
        if self.jobs.get((table, key)) is job and job.result is not None:
            del self.jobs[(table, key)]

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
