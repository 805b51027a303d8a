"""Positions (`canasta-position/1`): a full deal state as JSON, both ways."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from canasta.rules.cards import Card, Rank, make_deck, sorted_cards
from canasta.rules.errors import InvalidActionError
from canasta.rules.ruleset import RuleSet
from canasta.rules.scoring import score_deal
from canasta.rules.state import DRAW, ENDED, PLAY, Phase, State

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
        "scores": list(state.scores),
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "hands": [[c.code for c in sorted_cards(h)] for h in state.hands],
        "stock": [c.code for c in reversed(state.stock)],
        "pile": [c.code for c in state.pile],
        "melds": [[_meld_cards(r, cs) for r, cs in m.items()] for m in state.melds],
        "red_threes": [[c.code for c in t] for t in state.threes],
        "seat_melded": list(state.seat_melded),
        "asked": list(state.asked),
        "opened": list(state.opened),
        "pile_frozen": state.pile_frozen,
    }
    if state.phase == PLAY:
        out["drew"] = state.drew
    if state.sitting_out is not None:
        out["sitting_out"] = state.sitting_out
    out["permission"] = state.permission
    out["turn_melded"] = state.turn_melded
    out["concealed_ok"] = state.concealed_ok
    out["turn_canasta"] = state.turn_canasta
    out["turn_started"] = [r.value for r in sorted(state.turn_started, key=_RANK_ORDER.index)]
    out["turn_layoff"] = state.turn_layoff
    out["must_meld_out"] = state.must_meld_out
    out["known"] = [[c.code for c in sorted_cards(k)] for k in state.known]
    if state.result is not None:
        out["reason"] = state.result.reason
        out["went_out"] = state.result.went_out
        out["concealed"] = state.result.concealed
    return out


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
    state.turn = r.integer("turn", high=players - 1)
    if state.turn not in state.order or dealer not in state.order:
        raise r.fail("turn", "names a seat that does not play this deal")
    phase = r.get("phase")
    if phase not in (DRAW, PLAY, ENDED):
        raise r.fail("phase", "must be 'draw', 'play' or 'ended'")
    state.phase = Phase(phase)
    state.hands = [r.cards(h, f"hands[{i}]") for i, h in enumerate(r.per("hands", players))]
    state.stock = list(reversed(r.cards(r.get("stock"), "stock")))
    state.pile = r.cards(r.get("pile"), "pile")
    melds_raw = r.per("melds", teams)
    for team, team_melds in enumerate(melds_raw):
        if not isinstance(team_melds, list):
            raise r.fail("melds", "must list each team's melds")
        for i, m in enumerate(team_melds):
            cards = r.cards(m, f"melds[{team}][{i}]")
            if not cards:
                raise r.fail("melds", "holds an empty meld")
            rank = meld_rank(cards)
            if rank in state.melds[team]:
                raise r.fail("melds", f"holds two melds of rank {rank.value} for team {team}")
            state.melds[team][rank] = cards
    state.threes = [
        r.cards(t, f"red_threes[{i}]") for i, t in enumerate(r.per("red_threes", teams, [[]] * teams))
    ]
    state.seat_melded = r.bools("seat_melded", players)
    state.asked = r.bools("asked", players)
    opened = r.get("opened", None)
    state.opened = r.bools("opened", teams) if opened is not None else [bool(m) for m in state.melds]
    frozen = r.get("pile_frozen", None)
    state.pile_frozen = (
        r.flag("pile_frozen", False)
        if frozen is not None
        else any(c.is_wild or c.is_red_three for c in state.pile)
    )
    drew = r.get("drew", "stock")
    if drew not in ("stock", "pile") and not (drew is None and phase != PLAY):
        raise r.fail("drew", "must be 'stock' or 'pile'")
    state.drew = drew if phase == PLAY else None
    permission = r.get("permission", None)
    if permission not in (None, "pending", "yes", "no"):
        raise r.fail("permission", "must be null, 'pending', 'yes' or 'no'")
    state.permission = permission
    state.turn_melded = r.flag("turn_melded", False)
    state.concealed_ok = r.flag("concealed_ok", not state.seat_melded[state.turn])
    state.turn_canasta = r.flag("turn_canasta", False)
    started = r.get("turn_started", [])
    if not isinstance(started, list):
        raise r.fail("turn_started", "must be a list of ranks")
    try:
        state.turn_started = {Rank.parse_meld_rank(x) for x in started}
    except (InvalidActionError, AttributeError):
        raise r.fail("turn_started", "must be a list of ranks") from None
    state.turn_layoff = r.flag("turn_layoff", False)
    state.must_meld_out = r.flag("must_meld_out", False)
    known = r.per("known", players, [[]] * players)
    state.known = [r.cards(k, f"known[{i}]") for i, k in enumerate(known)]
    _check_card_counts(state, r)
    if phase == ENDED:
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
