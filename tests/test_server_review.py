"""Reviews through the server: asked for by a person after a deal, worked out as a job on the
bot pool, stored with the table and served again (by this process or another) without being
worked out again; limited per seat and per table."""

from __future__ import annotations

import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from canasta.review import review_deal
from canasta.rules.record import Record
from canasta.server import reviews
from canasta.server.clock import ManualClock
from server_support import advance, greet, join, new_table, play_until, running_server, two_servers, until

CYRILLIC = re.compile("[а-яё]", re.I)
ITERATIONS = 6
FAST = {"clock": ManualClock(), "burst": 10**6}  # a whole deal of moves from one socket


def finished_deal(client: TestClient, seats: list[str], at: str = "") -> tuple[str, list[str]]:
    """A table whose first deal is over, played by random moves (through the server mounted at
    `at`); its id and its people's tokens."""
    table = new_table(client, at, players=2, seats=seats, target_score=100_000, grace=0)
    people = [name for name, seat in zip(("Ann", "Boris"), seats, strict=True) if seat == "human"]
    tokens = [join(client, table, name, at=at) for name in people]
    with client.websocket_connect(f"{at}/ws/tables/{table}") as ws:
        state = greet(ws, tokens[0])
        if len(tokens) > 1:
            with client.websocket_connect(f"{at}/ws/tables/{table}") as other:
                greet(other, tokens[1])  # a second person, away: a stand-in plays for them
        play_until(ws, 0, state, lambda m: m["status"] == "deal_over", random.Random(4))
    return table, tokens


def worked_out(client: TestClient) -> None:
    """Let the server run until its review jobs are over (the workers are threads here)."""
    jobs = client.app.state.hub.reviews.jobs  # type: ignore[attr-defined]
    over = lambda: all(job.task is not None and job.task.done() for job in jobs.values())  # noqa: E731
    until(client, over, rounds=10**8)


def ask(client: TestClient, table: str, token: str, lang: str = "en", at: str = "") -> Any:
    return client.post(f"{at}/api/tables/{table}/reviews?lang={lang}", headers={"x-seat-token": token})


def read(client: TestClient, table: str, token: str, lang: str = "en", at: str = "") -> Any:
    url = f"{at}/api/tables/{table}/reviews?lang={lang}"
    return client.get(url, headers={"x-seat-token": token}).json()


def held_back(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Reviews' decisions are weighed only once the event returned is set."""
    release = threading.Event()
    weigh = reviews.weigh

    def slow(*args: Any) -> Any:
        release.wait(30)
        return weigh(*args)

    monkeypatch.setattr(reviews, "weigh", slow)
    return release


def test_a_review_is_a_job_stored_with_the_table_and_read_again_without_work(tmp_path: Path) -> None:
    config = {**FAST, "review_iterations": ITERATIONS}
    with running_server(tmp_path, **config) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table, (token,) = finished_deal(client, ["human", "random"])
        assert read(client, table, token)["status"] == "none"
        started = ask(client, table, token, "ru")
        assert started.status_code in (200, 202) and started.json()["status"] in ("queued", "running", "done")
        worked_out(client)
        done = read(client, table, token, "ru")
        review = done["review"]
        assert done["done"] == done["total"] == review["decisions"] > 0 and done["game"] == 0
        assert review["seat"] == 0 and review["deal"] == 0 and CYRILLIC.search(review["summary"])
        assert hub.bots.stats["review_decisions"] == review["decisions"]
        # the same review as `canasta.review` gives for the table's record, seeded alike
        record = Record.from_json(client.get(f"/api/tables/{table}/record").json())
        assert review["decisions"] == review_deal(record, 0, 0, iterations=1).decisions
        again = ask(client, table, token)
        assert again.status_code == 200 and again.json()["review"]["decisions"] == review["decisions"]
        assert hub.bots.stats["review_decisions"] == review["decisions"]  # not worked out again
        assert client.get(f"/api/tables/{table}/reviews").json()["error"]["code"] == "bad_token"
    # another process (here: the server started again) serves it from storage
    with running_server(tmp_path, **config) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert read(client, table, token, "ru")["review"] == review
        assert hub.bots.stats["review_decisions"] == 0


def test_a_review_waits_for_the_deal_to_end(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, players=2, seats=["human", "random"])
        token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            greet(ws, token)
            refused = ask(client, table, token, "de")
            assert refused.status_code == 409 or refused.json()["error"]["code"] == "deal_not_over"
            assert refused.json()["error"]["code"] == "deal_not_over"


def test_reviews_at_once_are_limited_per_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = held_back(monkeypatch)
    config = {**FAST, "review_iterations": ITERATIONS, "reviews_per_table": 1}
    with running_server(tmp_path, **config) as client:
        try:
            table, (ann, boris) = finished_deal(client, ["human", "human"])
            assert ask(client, table, ann).json()["status"] in ("queued", "running")
            assert ask(client, table, ann).status_code == 202  # the same job, not another
            refused = ask(client, table, boris, "ru")
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "review_limited"
            assert refused.headers["retry-after"] == "5"
            assert CYRILLIC.search(refused.json()["error"]["message"])
            release.set()
            worked_out(client)
            assert read(client, table, ann)["status"] == "done"
            assert ask(client, table, boris).json()["status"] in ("queued", "running", "done")
            worked_out(client)
            assert read(client, table, boris)["status"] == "done"
        finally:
            release.set()


def test_a_review_under_way_is_known_to_every_server_and_taken_over_when_its_server_dies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked for through server A, then through B: B answers with A's job and its progress (no
    second job); A dies with the job half done: B works it out once A's lease has lapsed."""
    gate = held_back(monkeypatch)
    clock, ttl = ManualClock(), 3.0
    config = {"review_iterations": ITERATIONS, "lease": ttl, "burst": 10**6, "reads_per_second": 10**6}
    with two_servers(tmp_path, clock, **config) as client:
        try:
            mounts = client.app.routes  # type: ignore[attr-defined]
            hubs = {name: mount.app.state.hub for name, mount in zip("ab", mounts, strict=True)}
            body = {"players": 2, "seats": ["human", "random"], "target_score": 100_000}
            table = client.post("/a/api/tables", json=body).json()["table"]
            token = client.post(f"/a/api/tables/{table}/seats", json={"name": "Ann"}).json()["token"]
            with client.websocket_connect(f"/a/ws/tables/{table}") as ws:
                play_until(ws, 0, greet(ws, token), lambda m: m["status"] == "deal_over", random.Random(4))
            client.get(f"/b/api/tables/{table}")  # b holds the table too (and knows the deal is over)
            rooms = [hub.rooms[table] for hub in hubs.values()]
            until(client, lambda: rooms[0].table.version == rooms[1].table.version)

            def on(server: str, method: str = "GET") -> Any:
                url = f"/{server}/api/tables/{table}/reviews"
                return client.request(method, url, headers={"x-seat-token": token}).json()

            assert on("a", "POST")["status"] in ("queued", "running")
            (job_a,) = hubs["a"].reviews.jobs.values()
            until(client, lambda: job_a.total is not None, settled=False)
            advance(client, clock, ttl / 3)  # a renews its lease, with the job's progress
            until(client, lambda: not job_a.lease.stepping, settled=False)
            seen = on("b", "POST")
            assert seen["status"] == "running" and seen["total"] == job_a.total > 0 and seen["done"] == 0
            (job_b,) = hubs["b"].reviews.jobs.values()
            assert job_b.task is None and hubs["b"].bots.stats["review_decisions"] == 0

            client.portal.call(hubs["a"].reviews.jobs.clear)  # type: ignore[union-attr]
            job_a.lease.stop()  # a dies (its job's lease is no longer renewed)
            client.portal.call(job_a.task.cancel)  # type: ignore[union-attr]
            gate.set()
            for _ in range(2):  # not before the lease has lapsed
                advance(client, clock, ttl / 3)
                until(client, lambda: not job_b.lease.stepping, settled=False)
                assert job_b.task is None and on("b")["status"] == "running"
            for _ in range(2):
                advance(client, clock, ttl / 3)
                until(client, lambda: not job_b.lease.stepping, settled=False)
            assert job_b.task is not None
            until(client, lambda: job_b.task is not None and job_b.task.done(), rounds=10**8, settled=False)
            done = on("a")
            assert done["status"] == "done" and done["review"] == on("b")["review"]
            assert hubs["b"].bots.stats["review_decisions"] == job_a.total == done["total"]
        finally:
            gate.set()


def test_the_limits_hold_across_servers_and_a_dead_servers_review_is_taken_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One review at a time at the table: Ann's, asked through server A, and Boris's asked
    through B is refused. A dies with Ann's review half done: its lease still counts (B refuses
    Boris again), B, refused, watches it, works it out once the lease has lapsed, and then
    takes Boris's."""
    gate = held_back(monkeypatch)
    clock, ttl = ManualClock(), 3.0
    config = {"review_iterations": ITERATIONS, "reviews_per_table": 1, "lease": ttl}
    with two_servers(tmp_path, clock, **config, burst=10**6, reads_per_second=10**6) as client:
        try:
            mounts = client.app.routes  # type: ignore[attr-defined]
            hubs = {name: mount.app.state.hub for name, mount in zip("ab", mounts, strict=True)}
            table, (ann, boris) = finished_deal(client, ["human", "human"], "/a")
            client.get(f"/b/api/tables/{table}")  # b holds the table too
            rooms = [hub.rooms[table] for hub in hubs.values()]
            until(client, lambda: rooms[0].table.version == rooms[1].table.version)
            assert ask(client, table, ann, at="/a").json()["status"] in ("queued", "running")
            refused = ask(client, table, boris, "ru", at="/b")
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "review_limited"
            assert CYRILLIC.search(refused.json()["error"]["message"])

            (job_a,) = hubs["a"].reviews.jobs.values()
            client.portal.call(hubs["a"].reviews.jobs.clear)  # type: ignore[union-attr]
            job_a.lease.stop()  # a dies (its job's lease is no longer renewed)
            client.portal.call(job_a.task.cancel)  # type: ignore[union-attr]
            gate.set()
            assert ask(client, table, boris, at="/b").status_code == 429
            (job_b,) = hubs["b"].reviews.jobs.values()  # Ann's, watched
            assert job_b.seat == 0 and job_b.task is None
            for _ in range(4):  # the lease lapses: b takes it over
                advance(client, clock, ttl / 3)
                until(client, lambda: not job_b.lease.stepping, settled=False)
            assert job_b.task is not None
            until(client, lambda: job_b.task is not None and job_b.task.done(), rounds=10**8, settled=False)
            assert read(client, table, ann, at="/a")["status"] == "done"
            assert ask(client, table, boris, at="/b").json()["status"] in ("queued", "running", "done")
        finally:
            gate.set()
