"""A table's settings: the rule set, the seat plan and the table's own options (timers, chat)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from canasta.bots import make_bot
from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.protocol.fields import bad, get_bool, get_int, get_number, get_object, get_str
from canasta.rules.errors import InvalidActionError
from canasta.rules.ruleset import OPTION_RANGES, RuleSet

HUMAN = "human"
DEFAULT_GRACE = 60.0
DEFAULT_DEAL_PAUSE = 3.0
DEFAULT_STAND_IN = "careful"  # keeps the hand of a person who will be back
MAX_DELAY = 3600.0

#: The computer players a table may seat, and the budgets a `search` player may be given:
#: playouts per decision, and seconds per decision.
BOT_LEVELS: Final = ("random", "easy", "normal", "hard")
SEARCH_BUDGETS: Final[Mapping[str, tuple[float, float]]] = {"iterations": (1, 500), "time": (0.05, 2.0)}
MAX_OPTION_ITEMS = 8  # values of red3_values, rows of initial_meld_table, members of a set


@dataclass(frozen=True)
class TableSettings:
    """What the creator chose. `seats[i]` is `"human"` or a bot spec for `make_bot`.

    Times are in seconds: `bot_delay` before a computer player moves, `grace` before a person
    who dropped out is replaced by the `stand_in` bot, `turn_timer` (None: off) before a bot
    makes a person's move, `deal_pause` between the end of a deal and the next.
    """

    variant: str
    players: int
    options: dict[str, Any] = field(hash=False)
    seats: tuple[str, ...]
    bot_delay: float
    grace: float = DEFAULT_GRACE
    turn_timer: float | None = None
    deal_pause: float = DEFAULT_DEAL_PAUSE
    free_chat: bool = True
    stand_in: str = DEFAULT_STAND_IN

    def rules(self) -> RuleSet:
        return RuleSet.preset(self.variant, self.players, self.options)

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s == HUMAN)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["seats"] = list(self.seats)
        return out

    @staticmethod
    def from_json(obj: dict[str, Any], default_bot_delay: float) -> TableSettings:
        """Validate a create request (or stored settings); raises ProtocolError."""
        variant = get_str(obj, "variant", "classic", max_len=40)
        players = get_int(obj, "players", 4, hi=6)
        options = dict(get_object(obj, "options", {}))
        target = get_int(obj, "target_score", None, *OPTION_RANGES["target_score"])
        if target is not None:
            options["target_score"] = target
        for key, value in options.items():
            _check_option(key, value)
        try:
            RuleSet.preset(variant, players, options)  # (its refusal says which option is wrong)
        except InvalidActionError as exc:
            where = {"unknown_variant": "variant", "bad_players": "players"}.get(exc.code, "options")
            raise ProtocolError(ErrorCode.BAD_SETTINGS, exc.message, field=where) from None
        settings = TableSettings(
            variant=variant,
            players=players,
            options=options,
            seats=_seats(obj.get("seats"), players),
            bot_delay=get_number(obj, "bot_delay", default_bot_delay, 0.0, 60.0),
            grace=get_number(obj, "grace", DEFAULT_GRACE, 0.0, MAX_DELAY),
            turn_timer=get_number(obj, "turn_timer", None, 0.01, MAX_DELAY),
            deal_pause=get_number(obj, "deal_pause", DEFAULT_DEAL_PAUSE, 0.0, 600.0),
            free_chat=get_bool(obj, "free_chat", True),
            stand_in=get_str(obj, "stand_in", DEFAULT_STAND_IN),
        )
        _check_bot(settings.stand_in, "stand_in")
        return settings


def _check_option(key: str, value: Any) -> None:
    """Refuse a house option's value that is not a JSON scalar or a short list of scalars (of
    pairs for `initial_meld_table`), or a number that is not finite; its other checks (ranges
    among them, `OPTION_RANGES`) are the rule set's."""

    def refuse(detail: str) -> ProtocolError:
        return ProtocolError(ErrorCode.BAD_SETTINGS, f"option {key}: {detail}", field="options")

    items = value if isinstance(value, list) else [value]
    if isinstance(value, list) and len(value) > MAX_OPTION_ITEMS:
        raise refuse(f"at most {MAX_OPTION_ITEMS} values")
    numbers = []
    for item in items:
        pairs = key == "initial_meld_table" and isinstance(item, list) and isinstance(value, list)
        parts = item if pairs else [item]
        if len(parts) > 2 or not all(isinstance(p, None | bool | int | float | str) for p in parts):
            raise refuse("expected a number, a string, true or false, or a list of them")
        numbers += [p for p in parts if isinstance(p, int | float) and not isinstance(p, bool)]
    if any(isinstance(n, float) and not math.isfinite(n) for n in numbers):
        raise refuse("expected a finite number")


def _seats(value: Any, players: int) -> tuple[str, ...]:
    if value is None:
        return (HUMAN,) * players
    if not isinstance(value, list) or len(value) != players:
        raise bad("seats", f"expected a list of {players} seats")
    for spec in value:
        if not isinstance(spec, str):
            raise bad("seats", "each seat is 'human' or a computer player's level")
        if spec != HUMAN:
            _check_bot(spec, "seats")
    return tuple(value)


def _check_bot(spec: str, where: str) -> None:
    """Only the listed levels, or `search` with a budget within `SEARCH_BUDGETS` (and a playout
    `policy` among the heuristic levels): no computer player thinks longer than that."""

    def refuse(detail: str) -> ProtocolError:
        return ProtocolError(ErrorCode.BAD_SETTINGS, detail, field=where)

    name, colon, text = spec.partition(":")
    if (name in BOT_LEVELS or (where == "stand_in" and name == DEFAULT_STAND_IN)) and not colon:
        return
    if name != "search":
        raise refuse(f"unknown computer player {spec!r} (known: {', '.join(BOT_LEVELS)}, search:...)")
    for item in text.split(",") if text else []:
        key, _, value = item.partition("=")
        if key == "policy" and value in BOT_LEVELS[1:]:
            continue
        if key not in SEARCH_BUDGETS:
            known = ", ".join(SEARCH_BUDGETS)
            raise refuse(f"search takes {known} and policy (easy, normal or hard), not {item!r}")
        lo, hi = SEARCH_BUDGETS[key]
        try:
            number = int(value) if key == "iterations" else float(value)
        except ValueError:
            raise refuse(f"search {key}: expected a number from {lo} to {hi}, not {value!r}") from None
        if not lo <= number <= hi:  # NaN fails too
            raise refuse(f"search {key}: expected a number from {lo} to {hi}, not {value!r}")
    try:
        make_bot(spec)
    except ValueError as exc:
        raise refuse(str(exc)) from None
