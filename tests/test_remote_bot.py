"""`canasta bot`: a bot plays a seat of a live table over the public protocol, from the link a
person would open, with the view an in-process bot would get, across dropped connections."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from canasta.bots import Bot, make_bot
from canasta.cli.main import main
from canasta.match import BotError
from canasta.protocol.seat_view import ViewError, read_seat_view, seat_memory
from canasta.remote import LinkError, Outcome, RemoteError, Retry, SeatPlayer, parse_link
from canasta.rules import Action, Card, Discard, Game, SeatView
from canasta.server.clock import ManualClock
from canasta.server.connection import CLOSE_SERVER_ERROR
from canasta.server.events import event_from_json
from canasta.server.table import LiveTable
from canasta.storage import SQLiteStorage
from process_support import free_port, http
from server_support import LiveServer, live_server

SEATS_ONE_PERSON = ["human", "random", "random", "random"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A real server on a free port whose clock stands still: no grace period, stand-in or
    timer ever runs out, so every move of the seat is the network bot's (and its rate limit,
    which refills on that clock, is lifted: a test below has its own)."""
    config = {"clock": ManualClock(), "presence_delay": 0.0, "rate": 1e6, "burst": 10**6}
    with live_server(tmp_path, seed=11, **config) as running:
        yield running


def port(server: LiveServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


def new_table(server: LiveServer, **settings: Any) -> str:
    """A table's link, as its creator gets it."""
    link: str = http(port(server), "POST", "/api/tables", {"bot_delay": 0, "deal_pause": 0, **settings})[
        "link"
    ]
    return link


class Recorder:
    """A bot that keeps every view it is given; `after(n)` runs after its n-th decision (before
    the move is sent). Its moves are checked by the server: a refused one stops the game with
    RemoteError."""

    def __init__(self, bot: Bot, after: Callable[[int], None] | None = None) -> None:
        self.bot, self.name, self.after = bot, bot.name, after
        self.views: list[SeatView] = []

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        self.views.append(view)
        action = self.bot.choose(view, rng)
        if self.after is not None:
            self.after(len(self.views))
        return action


def play(
    link: str, bot: Bot, seat: int | None = 0, lines: list[str] | None = None, **options: Any
) -> Outcome:
    """Run the network bot to the end of the game (at most a minute, as a guard against a hang)."""
    said = lines if lines is not None else []
    player = SeatPlayer(
        parse_link(link), bot, bot.name, seat=seat, rng=random.Random(5), say=said.append, **options
    )
    return asyncio.run(asyncio.wait_for(player.run(), 60))


def stored(server: LiveServer, link: str) -> tuple[LiveTable, list[dict[str, Any]]]:
    """The table's stored row (as a fresh table) and its events."""

    async def load() -> tuple[LiveTable, list[dict[str, Any]]]:
        storage = SQLiteStorage(server.db)
        try:
            row = await storage.load_table(parse_link(link).table)
            assert row is not None
            return LiveTable(row), [event for _, event in await storage.events(row.table_id)]
        finally:
            await storage.close()

    return asyncio.run(load())


def decisions(server: LiveServer, link: str, seat: int) -> list[SeatView]:
    """`state.view(seat)` of the server's state at each decision of `seat`, from the stored log."""
    table, events = stored(server, link)
    views = []
    for event in events:
        table.apply(event_from_json(event))
        state = table.state
        if table.status == "playing" and state is not None and state.to_move == seat:
            views.append(state.view(seat))
    return views


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("classic", 4, {}),
        ("online", 2, {"pile_review": "own_turn"}),
        ("mendelev", 4, {}),
        ("modern-american", 4, {}),
    ],
)
def test_the_view_rebuilt_from_the_wire_is_the_servers_view_at_every_decision(
    server: LiveServer, variant: str, players: int, options: dict[str, Any]
) -> None:
    seats = ["human", *["normal"] * (players - 1)]  # random play may go below zero for ever
    link = new_table(
        server, variant=variant, players=players, seats=seats, options={**options, "target_score": 1}
    )
    bot = Recorder(make_bot("normal"))
    lines: list[str] = []
    outcome = play(link, bot, lines=lines)
    assert outcome.winner is not None and outcome.deals >= 1
    truth = decisions(server, link, 0)
    assert len(truth) > 10 and outcome.moves == len(bot.views)
    assert bot.views == truth  # the whole SeatView: rules, pile, the turn's facts, legal moves...
    # the table shows the pile's top card alone (unless the whole pile on one's turn): the bot has all of it
    hidden_below = any(len(v.board.pile) > len(v.visible_pile) for v in truth)
    assert hidden_below == (options.get("pile_review") != "own_turn")
    _, events = stored(server, link)
    assert {e["by"] for e in events if e["kind"] == "action" and e["seat"] == 0} == {"player"}
    assert lines[0].startswith("Took seat 0 as 'normal'") and "#seat=" in lines[0]
    assert any(line.startswith("Deal 1 over") and "Totals: we " in line for line in lines)
    assert lines[-1].startswith("Game over")


def test_it_reconnects_after_the_server_drops_its_connection(server: LiveServer) -> None:
    link = new_table(server, seats=SEATS_ONE_PERSON)  # to 5000: several deals
    table = parse_link(link).table

    def drop_seat_0() -> None:
        room = server.app.state.hub.rooms[table]
        for conn in list(room.connections):
            if conn.seat == 0:
                conn.close_with(CLOSE_SERVER_ERROR)

    def after(n: int) -> None:
        if n in (3, 10, 25):
            server.call(drop_seat_0)

    bot = Recorder(make_bot("hard"), after)
    lines: list[str] = []
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    outcome = play(link, bot, lines=lines, retry=Retry(delays=(0.5, 2.0), attempts=3), sleep=sleep)
    assert waits == [0.5, 0.5, 0.5]  # each time the first attempt to connect again succeeds
    assert lines.count("Reconnected.") == 3
    assert sum(line.startswith("Connection lost") for line in lines) == 3
    assert outcome.winner is not None and outcome.deals >= 2  # it asked for the next deals too
    table_after, events = stored(server, link)
    assert {e["by"] for e in events if e["kind"] == "action" and e["seat"] == 0} == {"player"}
    for event in events:
        table_after.apply(event_from_json(event))
    assert table_after.status == "game_over"
    # a move sent as the connection dropped may have been lost: the bot decided again, on the same view
    once = [v for i, v in enumerate(bot.views) if i == 0 or v != bot.views[i - 1]]
    assert once == decisions(server, link, 0)


def test_it_gives_up_when_the_server_is_gone_for_good(server: LiveServer) -> None:
    link = new_table(server, seats=SEATS_ONE_PERSON)
    lines: list[str] = []
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    def stop(n: int) -> None:
        if n == 3:
            server.stop()

    with pytest.raises(RemoteError) as failed:
        play(link, Recorder(make_bot("random"), stop), lines=lines, retry=Retry((0.5, 2.0), 3), sleep=sleep)
    assert str(failed.value) == f"no connection to {link} after 3 attempts: giving up"
    assert waits == [0.5, 2.0, 2.0]
    assert "Reconnected." not in lines


def test_a_move_the_rate_limit_ignored_is_sent_again(tmp_path: Path) -> None:
    clock = ManualClock()
    with live_server(tmp_path, seed=3, clock=clock, presence_delay=0.0, rate=1.0, burst=5) as server:
        link = new_table(server, variant="online", players=2, seats=["human", "random"], target_score=1)
        waits: list[float] = []

        async def sleep(seconds: float) -> None:  # the server's time goes by meanwhile
            waits.append(seconds)
            server.call(lambda: clock.advance(seconds))

        bot = Recorder(make_bot("random"))
        outcome = play(link, bot, sleep=sleep)
        assert outcome.winner is not None and outcome.moves == len(bot.views) > 10
        assert set(waits) == {1.0} and len(waits) >= outcome.moves - 5
        assert bot.views == decisions(server, link, 0)


def test_a_bot_written_from_the_guide_sits_at_a_live_table(
    server: LiveServer, guide_bot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = new_table(server, variant="online", players=2, seats=["random", "human"], target_score=1)
    code = main(
        ["bot", link, "--bot", f"{guide_bot}:GreedyBot", "--seat", "1", "--seed", "3", "--lang", "ru"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Занято место 1 под именем 'greedy'")
    assert "Место 1 (команда 1): online, игроков: 2, игра до 1; играет бот" in lines[1]
    assert any(line.startswith("Сдача 1 окончена") for line in lines)
    assert lines[-1].startswith("Игра окончена")
    _, events = stored(server, link)
    assert sum(e["kind"] == "action" and e["seat"] == 1 for e in events) > 3


def test_two_network_bots_play_each_other_and_the_first_waits_for_the_second(server: LiveServer) -> None:
    link = new_table(server, variant="online", players=2, seats=["human", "human"], target_score=1)

    async def both() -> list[Outcome]:
        waiting = asyncio.Event()

        def said(line: str) -> None:
            if line.startswith("Waiting"):
                waiting.set()

        first = asyncio.create_task(
            SeatPlayer(parse_link(link), make_bot("hard"), "hard", seat=0, say=said).run()
        )
        await waiting.wait()  # seated alone: the game waits for the second player
        second = SeatPlayer(parse_link(link), make_bot("random"), "random", seat=1, say=lambda _: None)
        return [await second.run(), await first]

    rand, hard = asyncio.run(asyncio.wait_for(both(), 60))
    assert hard.winner == rand.winner is not None
    assert (hard.seat, hard.team, rand.seat, rand.team) == (0, 0, 1, 1)
    assert hard.totals == rand.totals and hard.moves > 0 and rand.moves > 0


@pytest.mark.parametrize(
    ("args", "status", "says"),
    [
        (["http://127.0.0.1:{port}/x/{table}"], 2, "is not a table link: expected http://HOST/t/TABLE"),
        (["{link}", "--bot", "nosuch.py:Bot"], 2, "no file nosuch.py"),
        (["{link}", "--seat", "1"], 1, "Seat 1 is played by the computer"),
        (["{link}", "--seat", "0", "--lang", "ru"], 1, "Место 0 уже занято"),
        (["{link}", "--seat", "7"], 1, "this table has seats 0 to 3"),
        (["http://127.0.0.1:{port}/t/AAAAAAAAAAAAAAAAAAAAAA"], 1, "There is no such table"),
        (["http://127.0.0.1:{port}/t/AAAAAAAAAAAAAAAAAAAAAA#seat=abc"], 1, "There is no such table"),
        (["{link}#seat=notatoken"], 1, "This seat token does not belong to any seat at this table"),
        (["http://127.0.0.1:{free}/t/AAAAAAAAAAAAAAAAAAAAAA"], 1, "cannot reach http://127.0.0.1:"),
        (["http://127.0.0.1:{free}/t/AAAAAAAAAAAAAAAAAAAAAA#seat=abc"], 1, "cannot reach http://127.0.0.1:"),
        (["{link}#seat={token}", "--seat", "2"], 1, "the link's token is seat 0's, not seat 2's"),
    ],
)
def test_clear_errors_without_a_traceback(
    server: LiveServer, args: list[str], status: int, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    link = new_table(server, seats=["human", "random", "human", "random"])
    table = parse_link(link).table
    token = http(port(server), "POST", f"/api/tables/{table}/seats", {"name": "Ann", "seat": 0})["token"]
    values = {"link": link, "table": table, "port": port(server), "free": free_port(), "token": token}
    argv = [a.format(**values) for a in args]
    if "--bot" not in argv:
        argv += ["--bot", "random"]
    assert main(["bot", *argv]) == status
    out, err = capsys.readouterr()
    assert says in err and "Traceback" not in out + err
    assert len(err.splitlines()) == 1


class Cheat:
    """A bot that answers with a move of its own making, whatever the position."""

    name = "cheat"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        return Discard(Card.parse("JK") if Card.parse("JK") not in view.hand else Card.parse("3H"))


class Broken:
    name = "broken"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        raise ZeroDivisionError("my mistake")


def test_a_bot_that_cheats_stops_with_the_reason(server: LiveServer) -> None:
    link = new_table(server, seats=SEATS_ONE_PERSON)
    with pytest.raises(RemoteError) as failed:
        play(link, Cheat())
    assert str(failed.value).startswith("the server refused the bot's move discard ")


class Wordy:
    name = "wordy"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        return "draw"  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("bot", "says", "trace"),
    [
        (Broken(), "bot 'broken' at seat 0 raised ZeroDivisionError: my mistake", 'ZeroDivisionError("my'),
        (Wordy(), "bot 'wordy' at seat 0 returned 'draw', which is not an action", ""),
    ],
)
def test_a_bot_that_fails_is_named_with_its_seat_and_traceback(
    server: LiveServer, bot: Bot, says: str, trace: str
) -> None:
    link = new_table(server, seats=SEATS_ONE_PERSON)
    with pytest.raises(BotError) as failed:
        play(link, bot)
    assert str(failed.value).startswith(says)
    assert trace in failed.value.trace and ("Traceback" in failed.value.trace) == bool(trace)


def test_a_seat_given_up_from_another_device_stops_the_bot(server: LiveServer) -> None:
    link = new_table(server, seats=SEATS_ONE_PERSON)
    lines: list[str] = []

    def leave(n: int) -> None:
        token = parse_link(lines[0].split("'")[3]).token  # the rejoin link the bot printed
        with connect(parse_link(link).socket("en"), proxy=None) as other:
            other.send(json.dumps({"type": "hello", "token": token}))
            other.send(json.dumps({"type": "leave"}))
            while json.loads(other.recv(timeout=10))["type"] != "ack":
                pass

    with pytest.raises(RemoteError) as failed:
        play(link, Recorder(make_bot("random"), leave), lines=lines)
    assert "this seat was given up" in str(failed.value)


@pytest.mark.parametrize(
    ("text", "base", "table", "token"),
    [
        ("http://host:8000/t/AAAAAAAAAAAAAAAAAAAAAA", "http://host:8000", "AAAAAAAAAAAAAAAAAAAAAA", None),
        (
            "https://example.org/canasta/t/abcdefghij_-klmnop/#seat=tok-en_1",
            "https://example.org/canasta",
            "abcdefghij_-klmnop",
            "tok-en_1",
        ),
    ],
)
def test_table_links(text: str, base: str, table: str, token: str | None) -> None:
    link = parse_link(text)
    assert (link.base, link.table, link.token) == (base, table, token)
    scheme = "wss" if base.startswith("https") else "ws"
    assert link.socket("ru") == f"{scheme}{base[base.index(':') :]}/ws/tables/{table}?lang=ru"


@pytest.mark.parametrize(
    "text",
    [
        "ftp://host/t/AAAAAAAAAAAAAAAAAAAAAA",
        "http:///t/AAAAAAAAAAAAAAAAAAAAAA",
        "http://host/t/short",
        "http://host/t/AAAAAAAAAAAAAAAAAAAAAA/replay",
        "http://host/t/AAAAAAAAAAAAAAAAAAAAAA#other=1",
    ],
)
def test_what_is_not_a_table_link(text: str) -> None:
    with pytest.raises(LinkError):
        parse_link(text)


def test_the_memory_round_trips_and_a_bad_view_is_named() -> None:
    game = Game.new("mendelev", 4, seed=3)
    rng = random.Random(2)
    for _ in range(40):
        state = game.current
        seat = state.to_move
        view = state.view(seat)
        wire = json.loads(json.dumps({"view": view.to_json(), "memory": seat_memory(view)}))
        assert read_seat_view(wire["view"], wire["memory"], game.rules) == view
        game.apply(rng.choice(state.legal_actions()))
    with pytest.raises(ViewError, match="KeyError: 'pile'"):
        read_seat_view(wire["view"], {}, game.rules)
    with pytest.raises(ViewError, match="unknown card"):
        read_seat_view({**wire["view"], "hand": ["XX"]}, wire["memory"], game.rules)
