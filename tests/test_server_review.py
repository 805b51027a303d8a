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
from server_support import greet, join, new_table, play_until, running_server, until

CYRILLIC = re.compile("[а-яё]", re.I)
ITERATIONS = 6
FAST = {"clock": ManualClock(), "burst": 10**6}  # a whole deal of moves from one socket


def finished_deal(client: TestClient, seats: list[str]) -> tuple[str, list[str]]:
    """A table whose first deal is over, played by random moves; its id and its people's tokens."""
    table = new_table(client, players=2, seats=seats, target_score=100_000, grace=0)
    people = [name for name, seat in zip(("Ann", "Boris"), seats, strict=True) if seat == "human"]
    tokens = [join(client, table, name) for name in people]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        state = greet(ws, tokens[0])
        if len(tokens) > 1:
            with client.websocket_connect(f"/ws/tables/{table}") as other:
                greet(other, tokens[1])  # a second person, away: a stand-in plays for them
        play_until(ws, 0, state, lambda m: m["status"] == "deal_over", random.Random(4))
    return table, tokens


def worked_out(client: TestClient) -> None:
    """Let the server run until its review jobs are over (the workers are threads here)."""
    jobs = client.app.state.hub.reviews.jobs  # type: ignore[attr-defined]
    over = lambda: all(job.task is not None and job.task.done() for job in jobs.values())  # noqa: E731
    until(client, over, rounds=10**8)


def ask(client: TestClient, table: str, token: str, lang: str = "en") -> Any:
    return client.post(f"/api/tables/{table}/reviews?lang={lang}", headers={"x-seat-token": token})


def read(client: TestClient, table: str, token: str, lang: str = "en") -> Any:
    return client.get(f"/api/tables/{table}/reviews?lang={lang}", headers={"x-seat-token": token}).json()


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
    release = threading.Event()
    weigh = reviews.weigh

    def slow(*args: Any) -> Any:
        release.wait(30)
        return weigh(*args)

    monkeypatch.setattr(reviews, "weigh", slow)
    config = {**FAST, "review_iterations": ITERATIONS, "reviews_per_table": 1}
    with running_server(tmp_path, **config) as client:
        try:
            table, (ann, boris) = finished_deal(client, ["human", "human"])
            assert ask(client, table, ann).json()["status"] in ("queued", "running")
            assert ask(client, table, ann).status_code == 202  # the same job, not another
            refused = ask(client, table, boris, "ru")
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "review_limited"
            assert CYRILLIC.search(refused.json()["error"]["message"])
            release.set()
            worked_out(client)
            assert read(client, table, ann)["status"] == "done"
            assert ask(client, table, boris).json()["status"] in ("queued", "running", "done")
            worked_out(client)
            assert read(client, table, boris)["status"] == "done"
        finally:
            release.set()
