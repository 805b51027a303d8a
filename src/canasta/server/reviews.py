"""Reviews of finished deals, asked for by a table's people: "where did I lose points?"

A person asks for the review of their own decisions in a deal that is over (never one in play).
It is a job: each of their decisions is weighed in the bot pool at the lowest priority (after
every computer player's move and every hint), one decision at a time, so that the progress can
be told, and the result is stored with the table (`Storage.save_review`): a reload shows it
without working it out again, and so does another server process. A seat has at most
`reviews_per_seat` reviews being worked out at once, a table `reviews_per_table`, in all
processes: a review being worked out holds a lease in storage, and a new one is refused when
its table's or its seat's leases are as many (`Storage.lease`'s limits). A process refused so
watches the table's reviews it did not know of, so that one whose process died is taken over
(and ends) once its lease lapses, instead of counting against the limits for ever.

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
from canasta.server.config import ServerConfig
from canasta.server.lease import Lease
from canasta.storage.base import Crowded, Storage

#: The seconds after which a review refused for the limits may be asked again (a review takes a
#: few seconds of a worker).
REVIEW_RETRY = 5.0

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


class Overtaken(Exception):
    """This process lost a review's lease (it did not renew it in time): another works it out."""


@dataclass
class ReviewJob:
    """A review being worked out: here (`task`), or by another process, whose progress its
    lease tells, and which this process takes over if that lease lapses."""

    table: str
    seat: int
    key: str
    address: str
    lease: Lease = field(init=False, repr=False)
    done: int = 0
    total: int | None = None  # None until the deal's decisions are known
    task: asyncio.Task[None] | None = None
    failed: str | None = None
    result: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def working(self) -> bool:
        """Whether it is being worked out here."""
        return self.task is not None and not self.task.done()

    def progress(self) -> dict[str, Any]:
        """What the lease carries for the other processes to read."""
        return {"done": self.done, "total": self.total}

    def status(self) -> dict[str, Any]:
        done, total = self.done, self.total
        row = self.lease.row
        if not self.working and row is not None and row.holder != self.lease.origin:
            done, total = row.data.get("done", 0), row.data.get("total")  # another process's
        state = "failed" if self.failed else "running" if done or total else "queued"
        return {"status": state, "done": done, "total": total}


def lease_prefix(table: str, seat: int | None = None) -> str:
    """The start of the names of a table's reviews' leases (of one seat's, with `seat`)."""
    return f"review:{table}/" if seat is None else f"review:{table}/{seat}/"


def lease_name(table: str, seat: int, game: int, deal: int) -> str:
    return f"{lease_prefix(table, seat)}{game}/{deal}"


class Reviews:
    """The review jobs of one process, by table and key (`review_key`): those it works out,
    and those it has seen another process work out (in storage, under a lease)."""

    def __init__(self, storage: Storage, origin: str, config: ServerConfig) -> None:
        self.storage, self.origin, self.config = storage, origin, config
        self.jobs: dict[tuple[str, str], ReviewJob] = {}

    async def ask(
        self, room: Room, seat: int, game: int, deal: int, address: str, lang: str
    ) -> dict[str, Any]:
        """Start (or find, in this process or another) the review of `seat` in a finished
        deal; its status or the review."""
        found = await self.status(room, seat, game, deal, lang, address)
        if found["status"] not in ("none", "failed"):
            return found
        config, table = room.config, room.table.id
        limits = (
            (lease_prefix(table, seat), config.reviews_per_seat),
            (lease_prefix(table), config.reviews_per_table),
        )
        key = (table, review_key(game, deal, seat))
        failed = self.jobs.get(key)
        job = self._job(room, seat, game, deal, address)
        try:
            await job.lease.step(limits)  # ours unless another process took it just now
        except Crowded:
            job.lease.stop()
            del self.jobs[key]
            if failed is not None:
                self.jobs[key] = failed
            await self._watch(room)
            raise ProtocolError(ErrorCode.REVIEW_LIMITED, retry_after=REVIEW_RETRY) from None
        return job.status()

    async def _watch(self, room: Room) -> None:
        """Watch the table's reviews under way that this process does not know of."""
        table = room.table.id
        start = lease_prefix(table)
        for name, row in (await self.storage.leases(start)).items():
            seat, game, deal = map(int, name[len(start) :].split("/"))
            if (table, review_key(game, deal, seat)) not in self.jobs:
                self._job(room, seat, game, deal, table).lease.saw(row)

    def _job(self, room: Room, seat: int, game: int, deal: int, address: str) -> ReviewJob:
        """A new job (replacing a failed one), its lease watched from now on: when it is ours,
        the review is worked out here."""
        key = review_key(game, deal, seat)
        table = room.table.id
        name = lease_name(table, seat, game, deal)
        old = self.jobs.get((table, key))
        if old is not None:
            old.lease.stop()
        job = self.jobs[(table, key)] = ReviewJob(table, seat, key, address)
        changed = lambda: self._lease_changed(room, job, game, deal)  # noqa: E731
        job.lease = Lease(
            self.storage, name, self.origin, self.config.lease, self.config.clock, changed, job.progress
        )
        job.lease.start()
        return job

    def _lease_changed(self, room: Room, job: ReviewJob, game: int, deal: int) -> None:
        idle = job.task is None or job.task.done()
        if job.lease.held and idle and job.result is None and self.jobs.get((job.table, job.key)) is job:
            job.done, job.total = 0, None
            job.task = asyncio.create_task(self._work(room, job, game, deal))

    async def status(
        self, room: Room, seat: int, game: int, deal: int, lang: str, address: str | None = None
    ) -> dict[str, Any]:
        """`{"status": "none" | "queued" | "running" | "failed" | "done", "done", "total"}`, and
        the review (in `lang`) when done. A review that another process works out is told as
        its lease has it (and taken over if that lease lapses)."""
        table = room.table.id
        key = review_key(game, deal, seat)
        job = self.jobs.get((table, key))
        if job is not None and (job.failed or job.working):
            return job.status()
        data = job.result if job is not None else None
        if data is None:
            data = await room.storage.load_review(table, key)
        if data is None:
            row = await self.storage.load_lease(lease_name(table, seat, game, deal))
            if row is None:  # nobody works it out (a watched job's holder gave up: we take it)
                return {"status": "none", "done": 0, "total": None} if job is None else job.status()
            if job is None:
                job = self._job(room, seat, game, deal, address or table)
            job.lease.saw(row)
            return job.status()
        review = from_stored(data)
        done = review.decisions
        return {"status": "done", "done": done, "total": done, "review": review.to_json(lang)}

    async def _work(self, room: Room, job: ReviewJob, game: int, deal: int) -> None:
        table, key = room.table, job.key
        try:
            data = await room.storage.load_review(table.id, key)  # done by a process that held the lease
            if data is None:
                data = await self._weigh(room, job, game, deal)
            job.result = data
        except Overtaken:
            log.info("table %s: review %s taken over by another process", table.id, key)
        except (ReviewError, ValueError) as exc:
            job.failed = str(exc)
            log.warning("table %s: review %s failed: %s", table.id, key, exc)
        except Exception as exc:
            job.failed = "internal"
            log.error("table %s: review %s failed", table.id, key, exc_info=exc)
        finally:
            if job.result is not None or job.failed:
                await job.lease.release()
                asyncio.get_running_loop().call_soon(self._forget, table.id, key, job)

    async def _weigh(self, room: Room, job: ReviewJob, game: int, deal: int) -> dict[str, Any]:
        table = room.table
        record = Record.from_json(json.loads(room.finished.record(game, table.games[game], deal, deal)))
        decisions = seat_decisions(record, job.seat, 0)
        job.total = len(decisions)
        iterations = room.config.review_iterations
        costly = []
        for index, view, played in decisions:
            seed = f"{table.id}/{job.key}/{index}"
            args = (view, played, index, iterations, seed)
            found = await room.bots.review(weigh, args, table.id, job.address)
            if found is not None:
                costly.append(found)
            job.done += 1
            if not job.lease.held:  # another process has taken it over
                raise Overtaken
        data = stored(Review(job.seat, deal, len(decisions), iterations, tuple(costly)))
        await room.storage.save_review(table.id, job.key, data)
        return data

    def _forget(self, table: str, key: str, job: ReviewJob) -> None:
        """A finished job's result stays in storage; a failed one may be asked for again."""
        if self.jobs.get((table, key)) is job and job.result is not None:
            del self.jobs[(table, key)]

    async def close(self) -> None:
        """Stop every job, giving up the leases of those worked out here."""
        for job in self.jobs.values():
            job.lease.stop()
            if job.task is not None:
                job.task.cancel()
        await asyncio.gather(*(job.lease.release() for job in self.jobs.values()))
