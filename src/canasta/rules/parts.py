"""The three parts of a deal's state: the public table, the turn in progress, the private cards.

`Board` is what every seat sees (scores, the pile, melds, threes, who has melded or asked, the
cards known to be in a hand); `Turn` is where the turn stands (whose it is, its phase, the
permission asked, what has been laid so far); `Cards` is what nobody sees whole (the hands and
the stock). A `State` holds one of each: copying copies each part, a seat's view takes the board
and the turn whole and one hand of the cards, a determinization keeps the board and the turn and
deals new cards, and a position reads and writes each part in turn.
"""

from __future__ import annotations

import enum
from typing import Literal, TypeAlias

from canasta.rules.cards import Card, Rank
from canasta.rules.melds import Melds


class Phase(enum.StrEnum):
    """Where a turn stands: drawing (or taking the pile), melding and discarding, or the deal over."""

    DRAW = "draw"
    PLAY = "play"
    ENDED = "ended"


DRAW, PLAY, ENDED = Phase.DRAW, Phase.PLAY, Phase.ENDED
#: Where the card(s) of this turn came from.
DrawSource: TypeAlias = Literal["stock", "pile"]
#: Partner's permission to go out this turn: asked and awaited, given, or refused.
Permission: TypeAlias = Literal["pending", "yes", "no"]
#: A team's melds as the rules judge them: (size, wild cards) by rank, the ranks dead for it by
#: the other teams' melds, its canastas, every rank dead for it (never changed once made).
MeldFacts: TypeAlias = tuple[dict[Rank, tuple[int, int]], frozenset[Rank], int, frozenset[Rank]]


class Board:
    """The public table: everything every seat sees."""

    __slots__ = (
        "asked",
        "dealer",
        "judged",
        "known",
        "melds",
        "opened",
        "pile",
        "pile_frozen",
        "scores",
        "seat_melded",
        "sitting_out",
        "threes",
    )

    scores: list[int]
    dealer: int
    sitting_out: int | None
    pile: list[Card]  # top card last
    pile_frozen: bool
    melds: list[Melds]
    threes: list[list[Card]]  # the bonus threes laid out, per team
    seat_melded: list[bool]
    asked: list[bool]
    opened: list[bool]
    known: list[list[Card]]  # per seat, the cards it took with the pile and still holds
    #: per team, the counts a `Judge` reads of the melds (sizes and wild cards, dead ranks,
    #: canastas), made when first read and dropped whenever cards are melded
    judged: list[MeldFacts | None]

    @classmethod
    def blank(
        cls, scores: list[int], dealer: int, sitting_out: int | None, players: int, teams: int
    ) -> Board:
        """A table with no card on it."""
        b = cls()
        b.scores = scores
        b.dealer = dealer
        b.sitting_out = sitting_out
        b.pile = []
        b.pile_frozen = False
        b.melds = [{} for _ in range(teams)]
        b.threes = [[] for _ in range(teams)]
        b.seat_melded = [False] * players
        b.asked = [False] * players
        b.opened = [False] * teams
        b.known = [[] for _ in range(players)]
        b.judged = [None] * teams
        return b

    def copy(self) -> Board:
        b = Board()
        b.scores = self.scores[:]
        b.dealer = self.dealer
        b.sitting_out = self.sitting_out
        b.pile = self.pile[:]
        b.pile_frozen = self.pile_frozen
        b.melds = [{r: c[:] for r, c in m.items()} for m in self.melds]
        b.threes = [t[:] for t in self.threes]
        b.seat_melded = self.seat_melded[:]
        b.asked = self.asked[:]
        b.opened = self.opened[:]
        b.known = [k[:] for k in self.known]
        b.judged = self.judged[:]
        return b

    def melded(self) -> None:
        """Cards were melded: the counts judged of the melds are to be made again."""
        self.judged = [None] * len(self.judged)


class Turn:
    """The turn in progress: whose it is, how far it has gone, and what it has laid."""

    __slots__ = (
        "canasta",
        "concealed_ok",
        "drew",
        "layoff",
        "melded",
        "must_meld_out",
        "permission",
        "phase",
        "seat",
        "started",
    )

    seat: int
    phase: Phase
    drew: DrawSource | None
    permission: Permission | None
    concealed_ok: bool  # the seat had melded nothing before this turn
    canasta: bool  # a canasta was completed this turn
    started: set[Rank]  # the ranks whose melds this turn started
    layoff: bool  # a card was added this turn to a meld of an earlier turn
    melded: bool  # something was melded this turn
    must_meld_out: bool  # a black-three or top-card-only pickup: every card must be melded, no discard

    @classmethod
    def begin(cls, seat: int, concealed_ok: bool) -> Turn:
        """The start of `seat`'s turn, before its draw."""
        t = cls()
        t.seat = seat
        t.phase = DRAW
        t.drew = None
        t.permission = None
        t.concealed_ok = concealed_ok
        t.canasta = t.layoff = t.melded = t.must_meld_out = False
        t.started = set()
        return t

    def copy(self) -> Turn:
        t = Turn()
        t.seat = self.seat
        t.phase = self.phase
        t.drew = self.drew
        t.permission = self.permission
        t.concealed_ok = self.concealed_ok
        t.canasta = self.canasta
        t.started = set(self.started)
        t.layoff = self.layoff
        t.melded = self.melded
        t.must_meld_out = self.must_meld_out
        return t


class Cards:
    """The private cards: every hand, and the stock (top card last)."""

    __slots__ = ("hands", "stock")

    hands: list[list[Card]]
    stock: list[Card]

    def __init__(self, hands: list[list[Card]], stock: list[Card]) -> None:
        self.hands = hands
        self.stock = stock

    def copy(self) -> Cards:
        return Cards([h[:] for h in self.hands], self.stock[:])
