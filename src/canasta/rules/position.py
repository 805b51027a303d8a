"""Positions (`canasta-position/1`): a full deal state as JSON, both ways."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from canasta.rules.cards import Card, Rank, make_deck, sorted_cards
from canasta.rules.errors import InvalidActionError
from canasta.rules.parts import DRAW, ENDED, PLAY, Board, Cards, Phase, Turn
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import score_deal
from canasta.rules.state import State

POSITION_FORMAT = "canasta-position/1"
_RANK_ORDER = list(Rank)


def meld_rank(cards: Sequence[Card]) -> Rank:
    """The rank of a meld given as cards: that of its naturals, `3`, or `wild`."""
    ranks = {c.rank for c in cards if not c.is_wild}
    if len(ranks) > 1:
        raise InvalidActionError(
            f"a meld holds cards of one rank, not {' '.join(c.code for c in cards)}", "bad_position"
        )
    return ranks.pop() if ranks else Rank.WILD


def _meld_cards(rank: Rank, cards: Sequence[Card]) -> list[str]:
    naturals = [c for c in cards if not c.is_wild]
    return [c.code for c in (*sorted_cards(naturals), *sorted_cards(c for c in cards if c.is_wild))]


def position_to_json(state: State) -> dict[str, Any]:
    """The position of a state, with this project's extra fields for an exact round trip."""
    rules = state.rules
    out: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "variant": rules.variant,
        "players": rules.players,
        "options": rules.to_options(),
        **_board_to_json(state.board),
        **_turn_to_json(state.now),
        **_cards_to_json(state.cards),
    }
    if state.result is not None:
        out["reason"] = state.result.reason
        out["went_out"] = state.result.went_out
        out["concealed"] = state.result.concealed
    return out


def _board_to_json(board: Board) -> dict[str, Any]:
    out: dict[str, Any] = {
        "scores": list(board.scores),
        "dealer": board.dealer,
        "pile": [c.code for c in board.pile],
        "melds": [[_meld_cards(r, cs) for r, cs in m.items()] for m in board.melds],
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


def _turn_to_json(now: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {"turn": now.seat, "phase": now.phase}
    if now.phase == PLAY:
        out["drew"] = now.drew
    out["permission"] = now.permission
    out["turn_melded"] = now.melded
    out["concealed_ok"] = now.concealed_ok
    out["turn_canasta"] = now.canasta
    out["turn_started"] = [r.value for r in sorted(now.started, key=_RANK_ORDER.index)]
    out["turn_layoff"] = now.layoff
    out["must_meld_out"] = now.must_meld_out
    return out


def _cards_to_json(cards: Cards) -> dict[str, Any]:
    return {
        "hands": [[c.code for c in sorted_cards(h)] for h in cards.hands],
        "stock": [c.code for c in reversed(cards.stock)],
    }


class _Reader:
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


def rules_from_json(obj: Mapping[str, Any], where: str) -> RuleSet:
    """The rule set named by a record or position (`variant`, `players`, `options`)."""
    variant = obj.get("variant")
    if not isinstance(variant, str):
        raise InvalidActionError(f"{where}: missing or bad field 'variant'", "missing_field")
    players = obj.get("players", 4)
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise InvalidActionError(f"{where}: field 'options' must be an object", "bad_option")
    try:
        return RuleSet.preset(variant, players, options)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{where}: {exc.message}", exc.code) from None


def position_from_json(obj: Any, where: str = "position", rules: RuleSet | None = None) -> State:
    """Build a state from a position object; malformed input raises InvalidActionError."""
    r = _Reader(obj, where)
    fmt = r.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise r.fail("format", f"must be {POSITION_FORMAT!r}")
    if rules is None:
        rules = rules_from_json(obj, where)
    players, teams = rules.players, rules.teams
    scores_raw = r.per("scores", teams, [0] * teams)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in scores_raw):
        raise r.fail("scores", "must hold whole numbers")
    dealer = r.integer("dealer", high=players - 1)
    sitting_out = None
    if players == 5:
        sitting_out = r.integer("sitting_out", 4, high=4)
        if sitting_out not in (0, 2, 4):
            raise r.fail("sitting_out", "must be one of the trio's seats 0, 2 or 4")
    state = State.blank(rules, scores_raw, dealer, sitting_out)
    cards = _read_cards(r, players)
    board = _read_board(r, state.board)
    state = state.with_parts(board, _read_turn(r, state.order, board), cards)
    _check_card_counts(state, r)
    if state.phase == ENDED:
        reason = r.get("reason", "stock_exhausted")
        went_out = r.get("went_out", None)
        if reason not in ("went_out", "stock_exhausted"):
            raise r.fail("reason", "must be 'went_out' or 'stock_exhausted'")
        if went_out is not None and (not isinstance(went_out, int) or went_out not in state.order):
            raise r.fail("went_out", "must be a seat or null")
        state.result = score_deal(state, reason, went_out, r.flag("concealed", False))
    else:
        state.settle()
    return state


def _read_cards(r: _Reader, players: int) -> Cards:
    hands = [r.cards(h, f"hands[{i}]") for i, h in enumerate(r.per("hands", players))]
    return Cards(hands, list(reversed(r.cards(r.get("stock"), "stock"))))


def _read_board(r: _Reader, board: Board) -> Board:
    """The public table of a position, onto a blank `board` that knows the scores and seats."""
    players, teams = len(board.seat_melded), len(board.melds)
    board.pile = r.cards(r.get("pile"), "pile")
    melds_raw = r.per("melds", teams)
    for team, team_melds in enumerate(melds_raw):
        if not isinstance(team_melds, list):
            raise r.fail("melds", "must list each team's melds")
        for i, m in enumerate(team_melds):
            cards = r.cards(m, f"melds[{team}][{i}]")
            if not cards:
                raise r.fail("melds", "holds an empty meld")
            rank = meld_rank(cards)
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


def _read_turn(r: _Reader, order: Sequence[int], board: Board) -> Turn:
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
    started = r.get("turn_started", [])
    if not isinstance(started, list) or not all(isinstance(x, str) for x in started):
        raise r.fail("turn_started", "must be a list of ranks")
    try:
        now.started = {Rank.parse_meld_rank(x) for x in started}
    except InvalidActionError:
        raise r.fail("turn_started", "must be a list of ranks") from None
    now.layoff = r.flag("turn_layoff", False)
    now.must_meld_out = r.flag("must_meld_out", False)
    return now


def _check_card_counts(state: State, r: _Reader) -> None:
    deck: dict[Card, int] = {}
    for c in make_deck(state.rules.decks, state.rules.jokers):
        deck[c] = deck.get(c, 0) + 1
    seen: dict[Card, int] = {}
    groups: list[Sequence[Card]] = [*state.hands, state.stock, state.pile, *state.threes]
    groups += [m for team in state.melds for m in team.values()]
    for g in groups:
        for c in g:
            seen[c] = seen.get(c, 0) + 1
    for c, n in seen.items():
        if n > deck.get(c, 0):
            raise InvalidActionError(
                f"{r.where}: {n} copies of {c.code}, the deck holds {deck.get(c, 0)}",
                "bad_position",
            )
