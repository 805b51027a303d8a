"""A bot at a live table through the public protocol (docs/protocol.md), as a person plays it.

The seat is taken over HTTP (or given by a rejoin link's token), then played over the table's
WebSocket: each `state` where the seat is to move is read back into the `SeatView` an in-process
bot would get (`canasta.protocol.seat_view`), the bot chooses in a thread of its own (so that the
connection keeps answering pings), and the move is sent with the version it was chosen in.
After a deal the bot asks for the next one; when the game is over it stops. A dropped connection
is made again with the same token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from canasta.bots import Bot
from canasta.match import BotError, bot_traceback
from canasta.protocol.seat_view import ViewError, read_seat_view
from canasta.remote.link import TableLink
from canasta.remote.texts import TEXTS
from canasta.rules.actions import Action, action_to_json, describe
from canasta.rules.errors import InvalidActionError
from canasta.rules.ruleset import RuleSet

#: Refusals that a race explains (the table moved on meanwhile): the next state says what to do.
BENIGN = frozenset({"stale_state", "not_your_turn", "game_over", "deal_in_progress"})
RATE_PAUSE = 1.0  # seconds to wait before sending again a message the server's rate limit ignored
HTTP_TIMEOUT = 20.0


class RemoteError(Exception):
    """Why the bot cannot play on (a message for the person who started it)."""


class _Reconnect(Exception):
    """The server asked us to come again (it could not store a change): a new connection."""


@dataclass(frozen=True)
class Retry:
    """How a dropped connection is made again: the waits between attempts (the last repeats),
    and how many attempts in a row may fail before the bot gives up."""

    delays: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0)
    attempts: int = 60

    def delay(self, failures: int) -> float:
        return self.delays[min(failures, len(self.delays)) - 1]


@dataclass
class Outcome:
    """How the game went for the seat: its team, the winning team, the totals, and the work done."""

    seat: int
    team: int
    winner: int | None
    totals: list[int]
    deals: int
    moves: int


@dataclass
class SeatPlayer:
    """Plays one seat of `link` with `bot` until the game is over (`run`).

    Without a token in the link the seat is taken first (`seat`, or the first free one, under
    `name`). Everything is said through `say`, in `lang`. `sleep` waits before a connection is
    made again and before a message the server's rate limit ignored is sent again.
    """

    link: TableLink
    bot: Bot
    spec: str
    seat: int | None = None
    name: str | None = None
    rng: random.Random = field(default_factory=random.Random)
    lang: str = "en"
    say: Callable[[str], None] = print
    retry: Retry = field(default_factory=Retry)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    # what the game has shown so far
    _rules: RuleSet | None = field(default=None, init=False)
    _team: int = field(default=0, init=False)
    _deal: tuple[int, int] | None = field(default=None, init=False)  # (game, deal) of the latest state
    _reported: set[tuple[int, int]] = field(default_factory=set, init=False)  # the deals said
    _sheet: dict[str, Any] = field(default_factory=dict, init=False)  # the latest score sheet
    _waited: bool = field(default=False, init=False)
    _moves: int = field(default=0, init=False)  # in the current deal
    _all_moves: int = field(default=0, init=False)
    # this connection
    _greeted: bool = field(default=False, init=False)  # whether it was welcomed
    _acted: int | None = field(default=None, init=False)  # the version it last moved (or asked for a deal) at
    _sent: Action | None = field(default=None, init=False)  # the latest move sent
    _last: str | None = field(default=None, init=False)  # the latest message sent, as sent

    def text(self, key: str, **values: Any) -> str:
        return TEXTS[self.lang][key].format(**values)

    async def run(self) -> Outcome:
        """Play to the end of the game; raises RemoteError when that cannot be."""
        token = self.link.token
        if token is None:
            token = await asyncio.to_thread(self._take_seat)
        failures = 0
        while True:
            self._greeted = False
            try:
                async with connect(self.link.socket(self.lang), open_timeout=HTTP_TIMEOUT) as ws:
                    outcome = await self._session(ws, token)
                    if outcome is not None:
                        return outcome
                    reason = self.text("closed")
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI, ConnectionClosed, _Reconnect) as exc:
                reason = _reason(exc)
            if self._rules is None:  # never welcomed: there is nothing to come back to
                raise RemoteError(self.text("unreachable", url=self.link.link, reason=reason))
            failures = 1 if self._greeted else failures + 1
            if failures > self.retry.attempts:
                raise RemoteError(self.text("gave_up", url=self.link.link, attempts=self.retry.attempts))
            delay = self.retry.delay(failures)
            self.say(self.text("lost_connection", reason=reason, delay=delay))
            await self.sleep(delay)

    # -- the seat, over HTTP --------------------------------------------------------------------

    def _take_seat(self) -> str:
        body = {"name": (self.name or self.bot.name)[:32], "seat": self.seat}
        answer = _post(self.link.api(f"/seats?lang={self.lang}"), body, self.text, self.link.base)
        try:
            token, seat = str(answer["token"]), int(answer["seat"])
        except (KeyError, TypeError, ValueError):
            raise self._bad(str(answer)[:200]) from None
        self.seat = seat
        rejoin = self.link.rejoin(token)
        self.say(self.text("seated", seat=seat, name=body["name"], rejoin=rejoin, spec=self.spec))
        return token

    # -- the game, over the WebSocket -----------------------------------------------------------

    async def _session(self, ws: ClientConnection, token: str) -> Outcome | None:
        """One connection: hello, then every message until the game is over (the outcome) or
        the connection ends (None)."""
        self._acted = self._last = None
        with contextlib.suppress(ConnectionClosed):  # what the server said before closing is read below
            await ws.send(json.dumps({"type": "hello", "token": token, "lang": self.lang}))
        async for raw in ws:
            try:
                message = json.loads(raw)
            except ValueError as exc:
                raise self._bad(_reason(exc)) from None
            kind = message.get("type")
            if kind == "welcome":
                self._welcome(message)
            elif kind == "error":
                await self._error(ws, message)
            elif kind == "state":
                outcome = await self._state(ws, message)
                if outcome is not None:
                    return outcome
        return None

    def _welcome(self, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        if seat is None:
            raise RemoteError(self.text("given_up"))
        if self.seat is not None and seat != self.seat:
            raise RemoteError(self.text("other_seat", seat=seat, wanted=self.seat))
        first, self._greeted = self._rules is None, True
        if not first:
            self.say(self.text("reconnected"))
        settings = message["settings"]
        try:
            self._rules = RuleSet.preset(settings["variant"], settings["players"], settings["options"])
        except (KeyError, TypeError, InvalidActionError) as exc:
            raise self._bad(_reason(exc)) from None
        self.seat, self._team = seat, self._rules.team_of(seat)
        if first:
            self.say(
                self.text(
                    "welcome",
                    seat=seat,
                    team=self._team,
                    variant=self._rules.variant,
                    players=self._rules.players,
                    target=self._rules.target_score,
                    bot=self.spec,
                )
            )

    async def _error(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        code, text = message.get("code"), str(message.get("message", ""))
        if code in BENIGN:
            return
        if code == "rate_limited" and self._last is not None:
            await self.sleep(RATE_PAUSE)
            await ws.send(self._last)
            return
        if code == "illegal_action" and self._sent is not None:
            raise RemoteError(self.text("refused", action=describe(self._sent), message=text))
        if code == "internal_error":
            self.say(self.text("server_error", message=text))
            raise _Reconnect(text)
        raise RemoteError(text)

    async def _state(self, ws: ClientConnection, message: dict[str, Any]) -> Outcome | None:
        status, version = message["status"], message["version"]
        deal = (message["game"], message["deal"])
        if message["score_sheet"] is not None:  # None: unchanged
            self._sheet = message["score_sheet"]
        if status == "waiting" and not self._waited:
            self._waited = True
            self.say(self.text("waiting"))
        if status == "playing" and deal != self._deal:
            self.say(self.text("deal_start", deal=message["deal"] + 1))
        self._deal = deal
        if status in ("deal_over", "game_over"):
            self._report_deal(message)
        if status == "game_over":
            return self._outcome(message)
        if version == self._acted:
            return None
        if status == "deal_over" and self.seat not in message["ready"]:
            self._acted = version
            await self._send(ws, {"type": "next_deal", "id": version})
        elif status == "playing" and message["to_move"] == self.seat:
            self._acted = version
            await self._move(ws, message)
        return None

    async def _move(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        assert self._rules is not None
        try:
            view = read_seat_view(message["view"], message["memory"], self._rules)
        except (KeyError, TypeError, ViewError) as exc:
            raise self._bad(_reason(exc)) from None
        if not view.legal:
            return
        try:
            action = await asyncio.to_thread(self.bot.choose, view, self.rng)
        except Exception as exc:  # the bot's own code: reported as the bot's, with its traceback
            error = f"{type(exc).__name__}: {exc}"
            raise BotError(self.text("bot_failed", name=self.bot.name, seat=self.seat, error=error),
                           bot_traceback(exc)) from None
        if not isinstance(action, Action):
            value = repr(action)
            raise BotError(self.text("bot_not_action", name=self.bot.name, seat=self.seat, value=value))
        self._sent = action
        self._moves += 1
        self._all_moves += 1
        version = message["version"]
        request = {"type": "action", "id": version, "version": version, "action": action_to_json(action)}
        await self._send(ws, request)

    async def _send(self, ws: ClientConnection, request: dict[str, Any]) -> None:
        self._last = json.dumps(request)
        await ws.send(self._last)

    def _bad(self, reason: str) -> RemoteError:
        return RemoteError(self.text("bad_answer", url=self.link.link, reason=reason))

    def _report_deal(self, message: dict[str, Any]) -> None:
        key = (message["game"], message["deal"])
        sheet = self._sheet
        if key in self._reported or not sheet["deals"]:
            return
        self._reported.add(key)
        result = sheet["deals"][-1]
        if result["reason"] == "went_out":
            how = "went_out_concealed" if result["concealed"] else "went_out"
            reason = self.text(how, seat=result["went_out"])
        else:
            reason = self.text("stock_exhausted")
        scores = self._by_team([s["total"] for s in result["scores"]])
        self.say(
            self.text(
                "deal_over",
                deal=message["deal"] + 1,
                reason=reason,
                moves=self._moves,
                scores=scores,
                totals=self._by_team(sheet["totals"]),
            )
        )
        self._moves = 0

    def _by_team(self, numbers: list[int]) -> str:
        return ", ".join(
            self.text("we", score=n) if t == self._team else self.text("team_score", team=t, score=n)
            for t, n in enumerate(numbers)
        )

    def _outcome(self, message: dict[str, Any]) -> Outcome:
        winner = message["winner"]
        if winner is None:
            self.say(self.text("no_winner"))
        else:
            self.say(self.text("won") if winner == self._team else self.text("lost", team=winner))
        assert self.seat is not None
        sheet = self._sheet
        return Outcome(self.seat, self._team, winner, sheet["totals"], len(sheet["deals"]), self._all_moves)


def _post(url: str, body: dict[str, Any], text: Callable[..., str], where: str) -> Any:
    """POST a JSON body to `url` at server `where`; the server's error (in the language asked
    for, with its technical detail) as RemoteError."""
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        try:
            error = json.load(exc)["error"]
            message = f"{error['message']} ({error['detail']})" if error.get("detail") else error["message"]
        except (ValueError, KeyError, TypeError):
            raise RemoteError(text("bad_answer", url=where, reason=f"HTTP {exc.code}")) from None
        raise RemoteError(str(message)) from None
    except (OSError, ValueError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise RemoteError(text("unreachable", url=where, reason=reason)) from None


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
