"""Actions of FORMATS.md (compound: a pickup carries its melds, a meld carries all its groups)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from canasta.rules.cards import Card, Rank
from canasta.rules.errors import InvalidActionError

T = TypeVar("T")


_set = object.__setattr__  # how the constructors of the frozen actions below store their fields


def _values(values: Iterable[T], kind: type[T], what: str) -> tuple[T, ...]:
    """`values` as a tuple, refusing text, a lone value and values of another type."""
    if type(values) is tuple:
        out: tuple[T, ...] = values
    elif isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InvalidActionError(f"{what} must be a sequence of {kind.__name__}, not {values!r}", "bad_field")
    else:
        out = tuple(values)
    for value in out:
        if not isinstance(value, kind):
            hint = " (parse codes with Card.parse or parse_cards)" if kind is Card else ""
            message = f"{what} must be {kind.__name__} values, not {value!r}{hint}"
            raise InvalidActionError(message, "bad_field")
    return out


@dataclass(frozen=True, slots=True, init=False)
class Group:
    """Cards laid as one meld or added to the team's meld of that rank.

    `cards` may be any iterable of cards (stored as a tuple). `rank` is given only when it is
    explicit in the notation (needed to add wild cards alone).
    """

    cards: tuple[Card, ...]
    rank: Rank | None

    def __init__(self, cards: Iterable[Card], rank: Rank | None = None) -> None:
        if rank is not None and not isinstance(rank, Rank):
            raise InvalidActionError(f"a group's rank must be a Rank or None, not {rank!r}", "bad_field")
        _set(self, "cards", _values(cards, Card, "a group's cards"))
        _set(self, "rank", rank)

    def __str__(self) -> str:
        body = " ".join(c.code for c in self.cards)
        return f"{self.rank.value}:[{body}]" if self.rank else f"[{body}]"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the stock."""

    type = "draw"


@dataclass(frozen=True, slots=True, init=False)
class Pickup:
    """Take the discard pile: the top card is melded with `with_`, plus optional further groups.

    `with_` and `melds` may be any iterables of cards and of groups (stored as tuples).
    """

    with_: tuple[Card, ...]
    melds: tuple[Group, ...]
    top_only: bool
    type = "pickup"

    def __init__(
        self, with_: Iterable[Card] = (), melds: Iterable[Group] = (), top_only: bool = False
    ) -> None:
        if not isinstance(top_only, bool):
            raise InvalidActionError(f"top_only must be True or False, not {top_only!r}", "bad_field")
        _set(self, "with_", _values(with_, Card, "the cards taken with the pile"))
        _set(self, "melds", _values(melds, Group, "a pickup's melds"))
        _set(self, "top_only", top_only)


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """Lay new melds and/or add to the team's melds; `melds` may be any iterable of groups."""

    melds: tuple[Group, ...]
    type = "meld"

    def __init__(self, melds: Iterable[Group]) -> None:
        _set(self, "melds", _values(melds, Group, "a meld's groups"))


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card; ends the turn."""

    card: Card
    type = "discard"

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise InvalidActionError(f"a discard needs a card, not {self.card!r}", "bad_field")


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask partner for permission to go out."""

    type = "ask"


@dataclass(frozen=True, slots=True)
class Answer:
    """Partner's binding answer to an ask."""

    yes: bool
    type = "answer"

    def __post_init__(self) -> None:
        if not isinstance(self.yes, bool):
            raise InvalidActionError(f"an answer is True or False, not {self.yes!r}", "bad_field")


@dataclass(frozen=True, slots=True)
class Pass:
    """With the stock exhausted, decline to take the pile."""

    type = "pass"


Action: TypeAlias = Draw | Pickup | Meld | Discard | Ask | Answer | Pass

ACTION_TYPES = ("draw", "pickup", "meld", "discard", "ask", "answer", "pass")


def describe(action: Action) -> str:
    """A short human-readable form of an action, used in error messages."""
    if isinstance(action, Pickup):
        extra = "".join(" + " + str(g) for g in action.melds)
        only = " (top card only)" if action.top_only else ""
        return f"pickup with [{' '.join(c.code for c in action.with_)}]{extra}{only}"
    if isinstance(action, Meld):
        return "meld " + " ".join(str(g) for g in action.melds)
    if isinstance(action, Discard):
        return f"discard {action.card.code}"
    if isinstance(action, Answer):
        return "answer " + ("yes" if action.yes else "no")
    return action.type


# -- JSON ----------------------------------------------------------------------------------------


def _field(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise InvalidActionError(f"{where}: missing field {key!r}", "missing_field")
    return obj[key]


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidActionError(f"{where}: expected a list of cards, got {value!r}", "bad_field")
    return tuple(_card(v, where) for v in value)


def _card(value: Any, where: str) -> Card:
    try:
        return Card.parse(value)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{where}: {exc.message}", "unknown_card") from None


def group_from_json(value: Any, where: str = "group") -> Group:
    """Parse a group: a list of cards, or `{"rank": R, "cards": [...]}`."""
    if isinstance(value, list):
        return Group(_cards(value, where))
    if isinstance(value, dict):
        rank_text = _field(value, "rank", where)
        if not isinstance(rank_text, str):
            raise InvalidActionError(f"{where}: rank must be a string", "bad_field")
        try:
            rank = Rank.parse_meld_rank(rank_text)
        except InvalidActionError as exc:
            raise InvalidActionError(f"{where}: {exc.message}", "bad_field") from None
        return Group(_cards(_field(value, "cards", where), where), rank)
    raise InvalidActionError(f"{where}: a group is a list of cards or an object", "bad_field")


def group_to_json(group: Group) -> Any:
    codes = [c.code for c in group.cards]
    return {"rank": group.rank.value, "cards": codes} if group.rank else codes


def _groups(value: Any, where: str) -> tuple[Group, ...]:
    if not isinstance(value, list):
        raise InvalidActionError(f"{where}: melds must be a list of groups", "bad_field")
    return tuple(group_from_json(g, f"{where} group {i}") for i, g in enumerate(value))


def action_from_json(obj: Any, where: str = "action") -> tuple[Action, int | None]:
    """Parse an action object; returns the action and its `seat` (None when absent)."""
    if not isinstance(obj, dict):
        raise InvalidActionError(f"{where}: an action must be a JSON object", "bad_field")
    kind = _field(obj, "type", where)
    seat = obj.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise InvalidActionError(f"{where}: seat must be a seat number, not {seat!r}", "bad_field")
    action: Action
    if kind == "draw":
        action = Draw()
    elif kind == "pickup":
        top_only = obj.get("top_only", False)
        if not isinstance(top_only, bool):
            raise InvalidActionError(f"{where}: top_only must be true or false", "bad_field")
        action = Pickup(
            _cards(_field(obj, "with", where), where),
            _groups(obj.get("melds", []), where),
            top_only,
        )
    elif kind == "meld":
        action = Meld(_groups(_field(obj, "melds", where), where))
    elif kind == "discard":
        action = Discard(_card(_field(obj, "card", where), where))
    elif kind == "ask":
        action = Ask()
    elif kind == "answer":
        yes = _field(obj, "yes", where)
        if not isinstance(yes, bool):
            raise InvalidActionError(f"{where}: yes must be true or false", "bad_field")
        action = Answer(yes)
    elif kind == "pass":
        action = Pass()
    else:
        raise InvalidActionError(f"{where}: unknown action type {kind!r}", "unknown_action")
    return action, seat


def action_to_json(action: Action, seat: int | None = None) -> dict[str, Any]:
    """The canonical JSON object of an action (with `seat` first when given)."""
    out: dict[str, Any] = {} if seat is None else {"seat": seat}
    out["type"] = action.type
    if isinstance(action, Pickup):
        out["with"] = [c.code for c in action.with_]
        if action.melds:
            out["melds"] = [group_to_json(g) for g in action.melds]
        if action.top_only:
            out["top_only"] = True
    elif isinstance(action, Meld):
        out["melds"] = [group_to_json(g) for g in action.melds]
    elif isinstance(action, Discard):
        out["card"] = action.card.code
    elif isinstance(action, Answer):
        out["yes"] = action.yes
    return out


def groups_of(cards: Sequence[Sequence[Card]]) -> tuple[Group, ...]:
    """Groups from plain lists of cards (a convenience for building actions in code)."""
    return tuple(Group(tuple(g)) for g in cards)
