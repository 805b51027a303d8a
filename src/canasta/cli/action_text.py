"""Typed actions for the terminal: the short forms the engine prints (`describe`), read back.

    draw · pass · ask · yes · no · answer yes · discard 9C
    meld KS KH KD, 7S 7H 2C      (groups split by ',' '+' '|' or written [KS KH KD] [7S 7H 2C])
    meld K:[2C]                  (an explicit rank: a wild card added alone)
    pickup · pickup KS KH · pickup with [KS KH] + [QS QH QD] · ... (top card only) or ... top

A JSON action object (FORMATS.md) is accepted too. Malformed text raises `InvalidActionError`.
"""

from __future__ import annotations

import json
import re

from canasta.cli.play_text import TEXT
from canasta.rules import Action, Answer, Ask, Card, Discard, Draw, Group, Meld, Pass, Pickup, Rank
from canasta.rules.actions import action_from_json
from canasta.rules.errors import InvalidActionError

_TOKEN = re.compile(r"\[|\]|,|\+|\||[^\s\[\],+|]+")
_SEPARATORS = (",", "+", "|")
_TOP_ONLY = ("(top card only)", "top")
_SIMPLE: dict[str, Action] = {
    "draw": Draw(),
    "pass": Pass(),
    "ask": Ask(),
    "yes": Answer(True),
    "no": Answer(False),
    "answer yes": Answer(True),
    "answer no": Answer(False),
}


def parse_action(text: str) -> Action:
    """The action a player typed (see the module doc)."""
    text = text.strip()
    if not text:
        raise InvalidActionError(TEXT["empty"])
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidActionError(TEXT["bad_json"].format(message=exc.msg)) from None
        return action_from_json(obj)[0]
    words = text.split()
    key = " ".join(words).lower()
    if key in _SIMPLE:
        return _SIMPLE[key]
    verb, rest = words[0].lower(), text[len(words[0]):].strip()
    if verb in ("draw", "pass", "ask"):
        raise InvalidActionError(TEXT["extra_words"].format(verb=verb))
    if verb == "answer":
        raise InvalidActionError(TEXT["answer_word"])
    if verb == "discard":
        cards = rest.split()
        if len(cards) != 1:
            raise InvalidActionError(TEXT["one_card"])
        return Discard(Card.parse(cards[0]))
    if verb == "meld":
        groups = parse_groups(rest)
        if not groups:
            raise InvalidActionError(TEXT["no_groups"])
        return Meld(tuple(groups))
    if verb == "pickup":
        return _pickup(rest)
    raise InvalidActionError(TEXT["unknown_verb"].format(verb=words[0]))


def _pickup(rest: str) -> Pickup:
    top_only = False
    for marker in _TOP_ONLY:
        if rest.lower().endswith(marker):
            rest, top_only = rest[: -len(marker)].strip(), True
            break
    if rest.lower().split()[:1] == ["with"]:
        rest = rest[4:]
    groups = parse_groups(rest)
    if not groups:
        return Pickup(top_only=top_only)
    return Pickup(groups[0].cards, tuple(groups[1:]), top_only)


def parse_groups(text: str) -> list[Group]:
    """Groups of cards: `[KS KH KD] [7S 7H 2C]`, `KS KH KD, 7S 7H 2C`, `K:[2C]` or `K:2C`."""
    groups: list[Group] = []
    cards: list[Card] | None = None  # the open group, if any
    rank: Rank | None = None

    def close() -> None:
        nonlocal cards, rank
        if cards is not None:
            groups.append(Group(tuple(cards), rank))
        cards, rank = None, None

    for token in _TOKEN.findall(text):
        if token in _SEPARATORS:
            close()
        elif token == "[":
            if cards:
                close()
            cards = cards if cards is not None else []
        elif token == "]":
            close()
        else:
            if ":" in token:
                close()
                rank_text, _, token = token.partition(":")
                rank, cards = Rank.parse_meld_rank(rank_text), []
                if not token:
                    continue
            if cards is None:
                cards = []
            cards.append(Card.parse(token))
    close()
    return groups
