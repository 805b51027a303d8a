"""The three parts of a deal's state: the public table, the turn in progress, the private cards.

`Board` is what every seat sees (scores, the pile, melds, threes, who has melded or asked, the
cards known to be in a hand); `Turn` is where the turn stands (whose it is, its phase, the
permission asked, what has been laid so far); `Cards` is what nobody sees whole (the hands and
the stock). A `State` holds one of each: copying copies each part, a seat's view takes the board
and the turn whole and one hand of the cards, a determinization keeps the board and the turn and
deals new cards, and a position reads and writes each part in turn.

The board and the turn have one JSON writer and one reader each (`board_to_json`,
`board_from_json`, `turn_to_json`, `turn_from_json`), in a position's field names: a position
(`canasta.rules.position`) and a seat's view over the wire (`canasta.rules.view`) both use them,
and two boards or turns are equal when they write the same JSON.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Final, Literal, TypeAlias

from canasta.rules.cards import WILD_RANK, Card, Rank, sorted_cards
from canasta.rules.errors import InvalidActionError
from canasta.rules.melds import Melds, dead_ranks
from canasta.rules.ruleset import RuleSet


class Phase(enum.StrEnum):
    """Where a turn stands: drawing (or taking the pile), melding and discarding, or the deal over."""

    DRAW = "draw"
    PLAY = "play"
    ENDED = "ended"


DRAW: Final = Phase.DRAW
PLAY: Final = Phase.PLAY
ENDED: Final = Phase.ENDED
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
        "dead",
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
    #: canastas), made when first read, following the team's own melding (`lay`), dropped when
    #: another team's melding may change them
    judged: list[MeldFacts | None]
    #: the ranks nobody may meld any more (`dead_ranks`), made when first read and dropped
    #: when a melding may change them
    dead: frozenset[Rank] | None

    @staticmethod
    def blank(scores: list[int], dealer: int, sitting_out: int | None, players: int, teams: int) -> Board:
        """A table with no card on it."""
        b = Board()
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
        b.dead = None
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
        b.dead = self.dead
        return b

    def dead_ranks(self, rules: RuleSet) -> frozenset[Rank]:
        """The ranks nobody may meld any more (`canasta.rules.melds.dead_ranks`)."""
        if self.dead is None:
            self.dead = frozenset(dead_ranks(rules, self.melds))
        return self.dead

    def melded(self, team: int, others_kept: bool) -> None:
        """`team` melded cards: the counts judged of its melds are to be made again, and of every
        team's, with the dead ranks, unless `others_kept` (its melding made no rank dead, nor
        alive again, or no rank ever dies)."""
        if others_kept:
            self.judged[team] = None
        else:
            self.judged = [None] * len(self.judged)
            self.dead = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and board_to_json(self) == board_to_json(other)


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

    @staticmethod
    def begin(seat: int, concealed_ok: bool) -> Turn:
        """The start of `seat`'s turn, before its draw."""
        t = Turn()
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

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and turn_to_json(self) == turn_to_json(other)


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


# -- the board and the turn as JSON ---------------------------------------------------------------

_RANK_ORDER: Final = list(Rank)


def board_to_json(board: Board, pile: Sequence[Card] | None = None, ranked: bool = False) -> dict[str, Any]:
    """The public table in a position's fields. A view shows `pile` (default: the whole pile)
    and, `ranked`, each meld as `{"rank", "cards"}` in the order laid (a position: its cards,
    naturals first)."""
    out: dict[str, Any] = {
        "scores": list(board.scores),
        "dealer": board.dealer,
        "pile": [c.code for c in (board.pile if pile is None else pile)],
        "melds": [[_meld_to_json(r, cs, ranked) for r, cs in m.items()] for m in board.melds],
        "red_threes": [[c.code for c in t] for t in board.threes],
        "seat_melded": list(board.seat_melded),
        "asked": list(board.asked),
        "opened": list(board.opened),
        "pile_frozen": board.pile_frozen,
        "known": [[c.code for c in sorted_cards(k)] for k in board.known],
    }
    if board.sitting_out is not None:
        out["sitting_out"] = board.sitting_out
    return out


def _meld_to_json(rank: Rank, cards: Sequence[Card], ranked: bool) -> Any:
    if ranked:
        return {"rank": rank.value, "cards": [c.code for c in cards]}
    naturals = sorted_cards(c for c in cards if not c.is_wild)
    return [c.code for c in (*naturals, *sorted_cards(c for c in cards if c.is_wild))]


def turn_to_json(now: Turn) -> dict[str, Any]:
    """The turn in progress in a position's fields (`drew` only in phase `play`)."""
    out: dict[str, Any] = {"turn": now.seat, "phase": now.phase}
    if now.phase is PLAY:
        out["drew"] = now.drew
    out["permission"] = now.permission
    out["turn_melded"] = now.melded
    out["concealed_ok"] = now.concealed_ok
    out["turn_canasta"] = now.canasta
    out["turn_started"] = [r.value for r in sorted(now.started, key=_RANK_ORDER.index)]
    out["turn_layoff"] = now.layoff
    out["must_meld_out"] = now.must_meld_out
    return out


class JsonReader:
    """Typed access to a JSON object, raising InvalidActionError that names the field."""

    def __init__(self, obj: Any, where: str) -> None:
        if not isinstance(obj, dict):
            raise InvalidActionError(f"{where}: expected a JSON object", "bad_position")
        self.obj = obj
        self.where = where

    def fail(self, key: str, what: str) -> InvalidActionError:
        return InvalidActionError(f"{self.where}: field {key!r} {what}", "bad_position")

    def get(self, key: str, default: Any = ...) -> Any:
        if key not in self.obj:
            if default is ...:
                raise InvalidActionError(f"{self.where}: missing field {key!r}", "missing_field")
            return default
        return self.obj[key]

    def integer(self, key: str, default: Any = ..., low: int = 0, high: int | None = None) -> int:
        v = self.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < low or (high is not None and v > high):
            raise self.fail(
                key,
                f"must be a whole number from {low}" + (f" to {high}" if high is not None else ""),
            )
        return v

    def flag(self, key: str, default: bool) -> bool:
        v = self.get(key, default)
        if not isinstance(v, bool):
            raise self.fail(key, "must be true or false")
        return v

    def cards(self, value: Any, key: str) -> list[Card]:
        if not isinstance(value, list):
            raise self.fail(key, "must be a list of cards")
        out = []
        for v in value:
            try:
                out.append(Card.parse(v))
            except InvalidActionError as exc:
                raise InvalidActionError(f"{self.where}: {key}: {exc.message}", "unknown_card") from None
        return out

    def per(self, key: str, n: int, default: Any = ...) -> list[Any]:
        v = self.get(key, default)
        if not isinstance(v, list) or len(v) != n:
            raise self.fail(key, f"must be a list of {n} entries")
        return v

    def bools(self, key: str, n: int) -> list[bool]:
        v = self.per(key, n, [False] * n)
        if not all(isinstance(x, bool) for x in v):
            raise self.fail(key, "must hold true or false values")
        return list(v)


def meld_rank(cards: Sequence[Card]) -> Rank:
    """The rank of a meld given as cards: that of its naturals, `3`, or `wild`."""
    ranks = {c.rank for c in cards if not c.is_wild}
    if len(ranks) > 1:
        raise InvalidActionError(
            f"a meld holds cards of one rank, not {' '.join(c.code for c in cards)}", "bad_position"
        )
    return ranks.pop() if ranks else WILD_RANK


def board_from_json(r: JsonReader, players: int, teams: int) -> Board:
    """The public table of a position or a view (a meld as cards or as `{"rank", "cards"}`);
    the fields a position may leave out take their defaults."""
    scores = r.per("scores", teams, [0] * teams)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in scores):
        raise r.fail("scores", "must hold whole numbers")
    dealer = r.integer("dealer", high=players - 1)
    sitting_out = None
    if players == 5:
        sitting_out = r.integer("sitting_out", 4, high=4)
        if sitting_out not in (0, 2, 4):
            raise r.fail("sitting_out", "must be one of the trio's seats 0, 2 or 4")
    board = Board.blank(list(scores), dealer, sitting_out, players, teams)
    board.pile = r.cards(r.get("pile"), "pile")
    for team, team_melds in enumerate(r.per("melds", teams)):
        if not isinstance(team_melds, list):
            raise r.fail("melds", "must list each team's melds")
        for i, m in enumerate(team_melds):
            rank, cards = _meld_from_json(r, m, f"melds[{team}][{i}]")
            if rank in board.melds[team]:
                raise r.fail("melds", f"holds two melds of rank {rank.value} for team {team}")
            board.melds[team][rank] = cards
    board.threes = [
        r.cards(t, f"red_threes[{i}]") for i, t in enumerate(r.per("red_threes", teams, [[]] * teams))
    ]
    board.seat_melded = r.bools("seat_melded", players)
    board.asked = r.bools("asked", players)
    opened = r.get("opened", None)
    board.opened = r.bools("opened", teams) if opened is not None else [bool(m) for m in board.melds]
    frozen = r.get("pile_frozen", None)
    board.pile_frozen = (
        r.flag("pile_frozen", False)
        if frozen is not None
        else any(c.is_wild or c.is_red_three for c in board.pile)
    )
    known = r.per("known", players, [[]] * players)
    board.known = [r.cards(k, f"known[{i}]") for i, k in enumerate(known)]
    return board


def _meld_from_json(r: JsonReader, meld: Any, key: str) -> tuple[Rank, list[Card]]:
    ranked = isinstance(meld, dict)
    cards = r.cards(meld.get("cards") if ranked else meld, key)
    if not cards:
        raise r.fail("melds", "holds an empty meld")
    return (_ranks(r, [meld.get("rank")], key)[0] if ranked else meld_rank(cards)), cards


def _ranks(r: JsonReader, value: Any, key: str) -> list[Rank]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise r.fail(key, "must be a list of ranks")
    try:
        return [Rank.parse_meld_rank(x) for x in value]
    except InvalidActionError:
        raise r.fail(key, "must be a list of ranks") from None


def turn_from_json(r: JsonReader, board: Board, order: Sequence[int]) -> Turn:
    """The turn in progress of a position or a view, on its `board`, among the seats of `order`."""
    seat = r.integer("turn", high=len(board.seat_melded) - 1)
    if seat not in order or board.dealer not in order:
        raise r.fail("turn", "names a seat that does not play this deal")
    now = Turn.begin(seat, r.flag("concealed_ok", not board.seat_melded[seat]))
    phase = r.get("phase")
    if phase not in (DRAW, PLAY, ENDED):
        raise r.fail("phase", "must be 'draw', 'play' or 'ended'")
    now.phase = Phase(phase)
    drew = r.get("drew", "stock")
    if drew not in ("stock", "pile") and not (drew is None and phase != PLAY):
        raise r.fail("drew", "must be 'stock' or 'pile'")
    now.drew = drew if phase == PLAY else None
    permission = r.get("permission", None)
    if permission not in (None, "pending", "yes", "no"):
        raise r.fail("permission", "must be null, 'pending', 'yes' or 'no'")
    now.permission = permission
    now.melded = r.flag("turn_melded", False)
    now.canasta = r.flag("turn_canasta", False)
    now.started = set(_ranks(r, r.get("turn_started", []), "turn_started"))
    now.layoff = r.flag("turn_layoff", False)
    now.must_meld_out = r.flag("must_meld_out", False)
    return now
