"""Records (`canasta-record/1`) and their replay, as `canasta replay` prints it."""

from __future__ import annotations

from typing import Any

from canasta.rules.actions import action_from_json, action_to_json
from canasta.rules.cards import Card
from canasta.rules.errors import IllegalActionError, InvalidActionError
from canasta.rules.game import DealRecord, Game, default_dealer
from canasta.rules.position import (
    POSITION_FORMAT,
    position_from_json,
    position_to_json,
    rules_from_json,
)
from canasta.rules.refusal import Code
from canasta.rules.ruleset import RuleSet
from canasta.rules.state import State

RECORD_FORMAT = "canasta-record/1"


class Record:
    """A parsed record: the rule set and the deals with their actions (not yet replayed)."""

    def __init__(self, rules: RuleSet, deals: list[DealRecord]) -> None:
        self.rules = rules
        self.deals = deals

    @staticmethod
    def from_json(obj: Any) -> Record:
        """Parse a record, or a position (a record of one deal and no actions)."""
        if not isinstance(obj, dict):
            raise InvalidActionError("the file must hold a JSON object", "bad_record")
        fmt = obj.get("format")
        if fmt == POSITION_FORMAT:
            rules = rules_from_json(obj, "position")
            position_from_json(obj, "position", rules)
            return Record(rules, [DealRecord(obj.get("dealer", 0), position=obj)])
        if fmt != RECORD_FORMAT:
            raise InvalidActionError(
                f"field 'format' must be {RECORD_FORMAT!r} or {POSITION_FORMAT!r}, not {fmt!r}",
                "bad_record",
            )
        rules = rules_from_json(obj, "record")
        deals_raw = obj.get("deals")
        if not isinstance(deals_raw, list):
            raise InvalidActionError("record: field 'deals' must be a list", "missing_field")
        return Record(rules, [_deal_from_json(rules, d, i) for i, d in enumerate(deals_raw)])

    def to_json(self) -> dict[str, Any]:
        deals = []
        for d in self.deals:
            entry: dict[str, Any] = {}
            if d.position is not None:
                entry["position"] = d.position
            else:
                entry["dealer"] = d.dealer
                if d.sitting_out is not None:
                    entry["sitting_out"] = d.sitting_out
                entry["deck"] = [c.code for c in d.deck or ()]
            entry["actions"] = [action_to_json(a, seat) for seat, a in d.actions]
            deals.append(entry)
        return {
            "format": RECORD_FORMAT,
            "variant": self.rules.variant,
            "players": self.rules.players,
            "options": self.rules.to_options(),
            "deals": deals,
        }

    @staticmethod
    def of_game(game: Game) -> Record:
        return Record(game.rules, game.deals)


def _deal_from_json(rules: RuleSet, obj: Any, index: int) -> DealRecord:
    where = f"deal {index}"
    if not isinstance(obj, dict):
        raise InvalidActionError(f"{where}: a deal must be a JSON object", "bad_record")
    actions_raw = obj.get("actions", [])
    if not isinstance(actions_raw, list):
        raise InvalidActionError(f"{where}: field 'actions' must be a list", "bad_record")
    actions = []
    for j, a in enumerate(actions_raw):
        action, seat = action_from_json(a, f"{where} action {j}")
        if seat is None:
            raise InvalidActionError(f"{where} action {j}: missing field 'seat'", "missing_field")
        if seat >= rules.players:
            raise InvalidActionError(f"{where} action {j}: no seat {seat}", "bad_field")
        actions.append((seat, action))
    if "position" in obj:
        position_from_json(obj["position"], f"{where} position", rules)
        return DealRecord(0, position=obj["position"], actions=actions)
    if "deck" not in obj:
        raise InvalidActionError(f"{where}: needs a 'deck' or a 'position'", "missing_field")
    deck_raw = obj["deck"]
    if not isinstance(deck_raw, list):
        raise InvalidActionError(f"{where}: field 'deck' must be a list of cards", "bad_record")
    deck = []
    for k, code in enumerate(deck_raw):
        try:
            deck.append(Card.parse(code))
        except InvalidActionError as exc:
            raise InvalidActionError(f"{where} deck card {k}: {exc.message}", "unknown_card") from None
    default, sitting_out = default_dealer(rules, index)
    dealer = obj.get("dealer", default)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise InvalidActionError(f"{where}: field 'dealer' must be a seat number", "bad_record")
    if rules.players == 5:
        sitting_out = obj.get("sitting_out", sitting_out)
        if sitting_out not in (0, 2, 4):
            raise InvalidActionError(f"{where}: 'sitting_out' must be seat 0, 2 or 4", "bad_record")
    try:
        State.deal(rules, deck, dealer, None, sitting_out)  # checks the deck and dealer
    except InvalidActionError as exc:
        raise InvalidActionError(f"{where}: {exc.message}", exc.code) from None
    return DealRecord(dealer, deck=deck, sitting_out=sitting_out, actions=actions)


def replay(record: Record) -> tuple[dict[str, Any], Game]:
    """Replay a record; the output object of `canasta replay` and the game reached."""
    game = Game(record.rules)
    out_deals: list[dict[str, Any]] = []
    error: dict[str, Any] | None = None
    for i, deal in enumerate(record.deals):
        try:
            if game.state is not None and not game.state.is_over:
                raise IllegalActionError.of(
                    Code.DEAL_NOT_OVER, f"deal {i - 1} is not over, so deal {i} cannot start"
                )
            if game.is_over:
                raise IllegalActionError.of(Code.GAME_OVER, f"the game was over before deal {i}")
            if deal.position is not None:
                state = position_from_json(deal.position, f"deal {i} position", record.rules)
                game.start_from(state, deal.position)
            else:
                game.next_deal(deal.deck, deal.dealer, deal.sitting_out)
        except IllegalActionError as exc:
            error = {"deal": i, "action": None, "code": exc.code, "message": exc.message}
            break
        for j, (seat, action) in enumerate(deal.actions):
            try:
                game.apply(action, seat)
            except IllegalActionError as exc:
                error = {"deal": i, "action": j, "code": exc.code, "message": exc.message}
                break
        out_deals.append(deal_summary(game.current))
        if error:
            break
    out: dict[str, Any] = {
        "ok": error is None,
        "deals": out_deals,
        "totals": list(game.totals),
        "game_over": game.is_over,
        "winner": game.winner,
        "position": position_to_json(game.state) if game.state is not None else None,
    }
    if error is not None:
        out["error"] = error
    return out, game


def deal_summary(state: State) -> dict[str, Any]:
    """One entry of the replay output's `deals`."""
    if state.result is None:
        return {"ended": False}
    return state.result.to_json()
