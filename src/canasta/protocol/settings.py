"""A table's settings: the rule set, the seat plan and the table's own options (timers, chat)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from canasta.bots import make_bot
from canasta.protocol.errors import ErrorCode, ProtocolError
from canasta.protocol.fields import bad, get_bool, get_int, get_number, get_object, get_str
from canasta.rules.errors import InvalidActionError
from canasta.rules.ruleset import RuleSet

HUMAN = "human"
DEFAULT_GRACE = 60.0
DEFAULT_DEAL_PAUSE = 3.0
DEFAULT_STAND_IN = "normal"
MAX_DELAY = 3600.0


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
        target = get_int(obj, "target_score", None, lo=1)
        if target is not None:
            options["target_score"] = target
        try:
            RuleSet.preset(variant, players, options)
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
    try:
        make_bot(spec)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_SETTINGS, str(exc), field=where) from None
