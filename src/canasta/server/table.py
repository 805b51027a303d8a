"""A table as the server keeps it: settings, seats and games, rebuilt from its event log.

Its events (`canasta.server.events`) are stored in order, numbered from 1; the table's
`version` is the number of the last. A new event is applied to a `copy` of the table, which
takes the table's place once the event is stored (so a failed store leaves the table as it
was). Nothing here does I/O; the deck inside a deal event never leaves the server.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass
from typing import Any

from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.protocol.fields import bad
from canasta.protocol.seat_view import seat_memory
from canasta.protocol.settings import HUMAN, TableSettings
from canasta.rules.actions import action_to_json
from canasta.rules.cards import make_deck
from canasta.rules.errors import IllegalActionError
from canasta.rules.game import DealRecord, Game, default_dealer
from canasta.rules.state import State
from canasta.server.events import ActionEvent, DealEvent, Event, ReadyEvent, RematchEvent
from canasta.server.table_facts import go_out_possible, table_facts
from canasta.storage.base import TableRow

WAITING, PLAYING, DEAL_OVER, GAME_OVER = "waiting", "playing", "deal_over", "game_over"


def token_hash(token: str) -> str:
    """What storage keeps of a seat token (the token itself is known only to its holder)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    """A seat: a computer player (`bot` is its spec) or a person (`name` once taken)."""

    bot: str | None
    name: str | None = None
    token_hash: str | None = None

    @property
    def free(self) -> bool:
        return self.bot is None and self.token_hash is None


class LiveTable:
    """The table's current games and seats; `apply` replays or plays one event."""

    def __init__(self, row: TableRow) -> None:
        self.id = row.table_id
        self.settings = TableSettings.from_json(row.settings, 0.0)
        self.rules = self.settings.rules()
        self.seats = [Seat(None if spec == HUMAN else spec) for spec in self.settings.seats]
        self.update_seats(row)
        self.games = [Game(self.rules)]
        self.version = 0
        self.last: dict[str, Any] | None = None
        self.ready: set[int] = set()  # the seats whose people asked for the next deal
        self.moves: list[dict[str, Any]] = []  # the current deal's moves, each with its version

    def update_seats(self, row: TableRow) -> None:
        for stored in row.seats:
            seat = self.seats[stored.seat]
            seat.name, seat.token_hash = stored.name, stored.token_hash

    # -- queries ------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def state(self) -> State | None:
        return self.game.state

    @property
    def seated(self) -> bool:
        """Whether every seat for a person is taken (the game starts then)."""
        return not any(seat.free for seat in self.seats)

    @property
    def status(self) -> str:
        state = self.game.state
        if state is None:
            return WAITING
        if not state.is_over:
            return PLAYING
        return GAME_OVER if self.game.is_over else DEAL_OVER

    def seat_of(self, token: str) -> int | None:
        digest = token_hash(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    def free_seat(self, wanted: int | None) -> int | None:
        """The seat a person asked for, or the first free one (None: every seat is taken).

        Raises ProtocolError when the seat asked for cannot be taken.
        """
        if wanted is None:
            return next((i for i, seat in enumerate(self.seats) if seat.free), None)
        if wanted >= len(self.seats):
            raise bad("seat", f"this table has seats 0 to {len(self.seats) - 1}")
        if self.seats[wanted].bot is not None:
            raise ProtocolError(ErrorCode.NOT_HUMAN_SEAT, seat=wanted)
        if not self.seats[wanted].free:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, seat=wanted)
        return wanted

    # -- events -------------------------------------------------------------------------------

    def next_deal(self, rng: random.Random) -> DealEvent:
        """The next deal of the current game, from a deck shuffled by `rng`."""
        dealer, sitting_out = default_dealer(self.rules, len(self.game.deals))
        deck = make_deck(self.rules.decks, self.rules.jokers)
        rng.shuffle(deck)
        return DealEvent(dealer, sitting_out, tuple(deck))

    def copy(self) -> LiveTable:
        """A copy to apply an event to, leaving this table as it is: the current game is
        copied with its state and what an event changes; the seats, the settings and the
        finished games are shared."""
        twin = LiveTable.__new__(LiveTable)
        twin.__dict__.update(self.__dict__)
        twin.games = [*self.games[:-1], _game_copy(self.game)]
        twin.ready = set(self.ready)
        twin.moves = list(self.moves)
        return twin

    def apply(self, event: Event) -> None:
        """Apply one event; IllegalActionError when the rules forbid it (the game may then be
        left part changed: apply to a `copy`)."""
        if isinstance(event, ActionEvent):
            self.game.apply(event.action, event.seat)
            self.last = {"seat": event.seat, "action": action_to_json(event.action), "by": event.by}
            if event.quick:
                self.last["quick"] = True
            self.moves.append({"version": self.version + 1, **self.last})
        elif isinstance(event, DealEvent):
            self.game.next_deal(event.deck, event.dealer, event.sitting_out)
            self.last = None
            self.ready = set()
            self.moves = []
        elif isinstance(event, ReadyEvent):
            if self.status != DEAL_OVER:
                raise IllegalActionError("the deal is not over", "deal_not_over")
            self.ready.add(event.seat)
        elif isinstance(event, RematchEvent):
            if not self.game.is_over:
                raise IllegalActionError("the game is not over", "game_not_over")
            self.games.append(Game(self.rules))
            self.last = None
            self.ready = set()
            self.moves = []
        else:
            raise TypeError(f"not a table event: {event!r}")
        self.version += 1

    # -- what clients see ---------------------------------------------------------------------

    def score_sheet(self) -> dict[str, Any]:
        """The current game's deals (score breakdowns) and cumulative totals, per team."""
        game = self.game
        return {
            "target": self.rules.target_score,
            "deals": [result.to_json() for result in game.results],
            "totals": list(game.totals),
        }

    def sheet_key(self) -> tuple[int, int]:
        """What the score sheet depends on: the game, and its finished deals."""
        return len(self.games), len(self.game.results)

    def public_state(
        self, seats: list[dict[str, Any]], time_left: float | None, sheet: bool = True
    ) -> dict[str, Any]:
        """The parts of a `state` message that every reader shares (see `docs/protocol.md`);
        `time_left` is what the turn timer leaves of the current decision (None: no timer);
        `score_sheet` is None unless `sheet`."""
        state = self.game.state
        return {
            "type": "state",
            "version": self.version,
            "status": self.status,
            "game": len(self.games) - 1,
            "deal": len(self.game.deals) - 1,
            "to_move": state.to_move if state is not None and not state.is_over else None,
            "time_left": None if time_left is None else round(time_left, 1),
            "winner": self.game.winner,
            "last": self.last,
            "ready": sorted(self.ready),
            "facts": None if state is None else table_facts(state),
            "hands": [[c.code for c in hand] for hand in state.hands]
            if state is not None and state.is_over
            else None,
            "seats": seats,
            "totals": list(self.game.totals),
            "score_sheet": self.score_sheet() if sheet else None,
        }

    def log(self) -> dict[str, Any]:
        """The `log` message: the current deal's moves so far (every card in them was seen face up)."""
        return {
            "type": "log",
            "version": self.version,
            "game": len(self.games) - 1,
            "deal": len(self.game.deals) - 1,
            "moves": self.moves,
        }

    def seat_json(self, seat: int | None) -> dict[str, Any]:
        """What `seat` knows of the current deal (None: a spectator): `view`, what the table
        shows, and for a seat `memory`, the rest of its `SeatView`, and `go_out_possible` (see
        `table_facts.go_out_possible`); None before a deal."""
        state = self.game.state
        view = None if state is None else state.view(seat)
        return {
            "view": None if view is None else view.to_json(),
            "memory": None if view is None or seat is None else seat_memory(view),
            "go_out_possible": None if view is None or seat is None else go_out_possible(view),
        }


def _game_copy(game: Game) -> Game:
    """A game to apply events to, leaving `game` as it is (its finished deals are shared)."""
    twin = Game.__new__(Game)
    twin.__dict__.update(game.__dict__)
    twin.totals = list(game.totals)
    twin.results = list(game.results)
    twin.deals = list(game.deals)
    if twin.deals:
        d = game.deals[-1]
        twin.deals[-1] = DealRecord(d.dealer, d.deck, d.position, d.sitting_out, list(d.actions))
    twin.state = None if game.state is None else game.state.clone()
    return twin
